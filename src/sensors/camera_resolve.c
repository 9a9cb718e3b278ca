/* sensors/camera_resolve.c: a rendered strip's samples averaged into the
 * frame's planes: radiance is the mean of a pixel's samples; depth, label
 * and normal come from the sample nearest the pixel centre, since they
 * cannot be averaged. */
#include <stddef.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensors/camera_internal.h"

/* A label written whole, its padding bytes zero: a plane reused from the
 * frame pool then holds the same bytes as a fresh one. */
static void put_label(sensim_label *dst, uint16_t class_id, uint32_t instance_id) {
  unsigned char b[sizeof(sensim_label)] = {0};
  memcpy(b + offsetof(sensim_label, class_id), &class_id, sizeof class_id);
  memcpy(b + offsetof(sensim_label, instance_id), &instance_id, sizeof instance_id);
  memcpy(dst, b, sizeof b);
}

/* resolve for one sample per pixel on a fixed pose: each plane a row at a
 * time in its own simple loop (the image row is the strip's radiance row as
 * it stands), which the compiler can keep in registers and vectorise. */
static void resolve1(const sensim_camera *cam, const sensim_camera_scratch *s, const sensim_camera_body *bodies,
                     const float rot[9], uint32_t y0, uint32_t nrows, sensim_frame *f) {
  const uint32_t W = cam->p.width;
  const int along = cam->p.depth_along_ray;
  const float *m = rot; /* sensor to world; its transpose takes normals back */
  for (uint32_t ry = 0; ry < nrows; ry++) {
    const size_t i0 = (size_t)ry * W, p0 = (size_t)(y0 + ry) * W;
    memcpy((float *)f->data + 3 * p0, s->col[i0], 3 * (size_t)W * sizeof(float));
    const int *hb = s->hit_body + i0;
    const float *ht = s->hit_t + i0, *ax = s->axial + i0, *hn = s->hit_n[i0];
    float *depth = f->depth + p0, *nrm = f->normals + 3 * p0;
    for (uint32_t x = 0; x < W; x++) depth[x] = hb[x] < 0 ? 0.0f : along ? ht[x] : ht[x] * ax[x];
    for (uint32_t x = 0; x < W; x++) {
      const float *n = hn + 3 * (size_t)x;
      const float a = m[0] * n[0] + m[3] * n[1] + m[6] * n[2];
      const float b = m[1] * n[0] + m[4] * n[1] + m[7] * n[2];
      const float c = m[2] * n[0] + m[5] * n[1] + m[8] * n[2];
      /* The camera sees the face turned towards it; a miss has no normal
       * (and its scratch normal is stale: selected away, never multiplied). */
      const float k = a > 0 ? -1.0f : 1.0f;
      const int hit = hb[x] >= 0;
      nrm[3 * (size_t)x] = hit ? k * a : 0.0f;
      nrm[3 * (size_t)x + 1] = hit ? k * b : 0.0f;
      nrm[3 * (size_t)x + 2] = hit ? k * c : 0.0f;
    }
    for (uint32_t x = 0; x < W; x++) {
      const int b = hb[x];
      uint16_t cls = 0;
      uint32_t inst = 0;
      if (b >= 0) sensim__camera_label_of(&bodies[b], s->hit_elem[i0 + x], &cls, &inst);
      put_label(&f->labels[p0 + x], cls, inst);
    }
  }
}

/* Average each pixel's samples; depth, labels and normals come from the
 * sample nearest the pixel centre, since they cannot be averaged. Every
 * value of the strip's pixels is written (misses: depth 0, label 0, normal
 * 0), so the frame's buffers need not start zeroed. */
void sensim__camera_resolve(const sensim_camera *cam, const sensim_camera_scratch *s, const sensim_camera_body *bodies,
                            int fixed, const float rot[9], uint32_t y0, uint32_t nrows, sensim_frame *f) {
  const uint32_t W = cam->p.width;
  const int S = cam->p.samples;
  if (S == 1 && fixed) {
    resolve1(cam, s, bodies, rot, y0, nrows, f);
    return;
  }
  const float inv_s = 1.0f / (float)S;
  float *rgb = f->data;
  for (uint32_t ry = 0; ry < nrows; ry++)
    for (uint32_t x = 0; x < W; x++) {
      const size_t i0 = ((size_t)ry * W + x) * S;
      float acc[3] = {0, 0, 0};
      int centre = 0;
      float best = INFINITY;
      if (S == 1)
        acc[0] = s->col[i0][0], acc[1] = s->col[i0][1], acc[2] = s->col[i0][2];
      else
        for (int k = 0; k < S; k++) {
          const float *c = s->col[i0 + k];
          acc[0] += c[0], acc[1] += c[1], acc[2] += c[2];
          const float du = s->uvoff[i0 + k][0] - 0.5f, dv = s->uvoff[i0 + k][1] - 0.5f;
          if (du * du + dv * dv < best) {
            best = du * du + dv * dv;
            centre = k;
          }
        }
      const size_t px = (size_t)(y0 + ry) * W + x;
      for (int c = 0; c < 3; c++) rgb[3 * px + c] = acc[c] * inv_s;
      const size_t i = i0 + centre;
      const int b = s->hit_body[i];
      if (b < 0) {
        f->depth[px] = 0.0f;
        put_label(&f->labels[px], 0, 0);
        f->normals[3 * px] = f->normals[3 * px + 1] = f->normals[3 * px + 2] = 0.0f;
        continue;
      }
      f->depth[px] = cam->p.depth_along_ray ? s->hit_t[i] : s->hit_t[i] * s->axial[i];
      uint16_t cls;
      uint32_t inst;
      sensim__camera_label_of(&bodies[b], s->hit_elem[i], &cls, &inst);
      put_label(&f->labels[px], cls, inst);
      /* The normal in the sensor frame; the camera sees the face turned
       * towards it. */
      const sensim_vec3 n = v3(s->hit_n[i][0], s->hit_n[i][1], s->hit_n[i][2]);
      sensim_vec3 ns;
      if (fixed) {
        const float *m = rot; /* inverse rotation: the transpose */
        ns = v3(m[0] * n.x + m[3] * n.y + m[6] * n.z, m[1] * n.x + m[4] * n.y + m[7] * n.z,
                m[2] * n.x + m[5] * n.y + m[8] * n.z);
      } else {
        ns = q_rotate_inv(s->pose[i].rot, n);
      }
      if (ns.x > 0) ns = v3_scale(ns, -1.0);
      f->normals[3 * px] = (float)ns.x;
      f->normals[3 * px + 1] = (float)ns.y;
      f->normals[3 * px + 2] = (float)ns.z;
    }
}

