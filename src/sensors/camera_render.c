/* sensors/camera_render.c: the camera's renderer, one image row at a time
 * as a wavefront: the row's primary rays are traced together, the hits are
 * shaded (shadow rays queued), mirror reflections form the next wave, and
 * all the row's shadow rays are traced in one batch at the end. Each ray
 * carries the throughput (RGB weight) of its path and the sample it adds
 * to, so lateral chromatic aberration (one ray per channel), vignetting,
 * fog and Fresnel-weighted reflections are all just weights. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensim/rng.h"
#include "sensors/camera_internal.h"
#include "sensors/shading.h"

typedef struct wave {
  sensim_rt_ray *ray;
  float (*w)[3];      /* path throughput */
  uint32_t *sample;   /* sample index in the row */
  unsigned char *plane; /* 1: a primary ray that feeds the depth/label/normal planes */
  size_t n, cap;
} wave;

typedef struct render {
  sensim_stream_key key;
  const sensim_camera *cam;
  const sensim_snapshot *snap;
  sensim_rt_view *view;
  sensim_pose_table poses;
  wave cur, next, shadow;
  sensim_rt_hit *hits;
  size_t cap_hits;
  unsigned char *occ;
  size_t nsamples;         /* per row: width x samples */
  float (*col)[3];         /* per sample radiance */
  float (*uvoff)[2];       /* per sample offset in its pixel */
  sensim_quat *rot;        /* per sample camera rotation */
  float *axial;            /* per sample: X component of the unit sensor-frame ray */
  float *hit_t;            /* per sample primary hit distance (INFINITY: miss) */
  float (*hit_n)[3];       /* per sample primary normal, world */
  int *hit_body;
} render;

static sensim_status wave_reserve(wave *q, size_t n) {
  if (n <= q->cap) return SENSIM_OK;
  size_t cap = q->cap ? q->cap : 1024;
  while (cap < n) cap *= 2;
  sensim_rt_ray *r = realloc(q->ray, cap * sizeof *r);
  if (r) q->ray = r;
  float(*w)[3] = realloc(q->w, cap * sizeof *w);
  if (w) q->w = w;
  uint32_t *s = realloc(q->sample, cap * sizeof *s);
  if (s) q->sample = s;
  unsigned char *p = realloc(q->plane, cap);
  if (p) q->plane = p;
  if (!r || !w || !s || !p) return sensim__fail(SENSIM_ENOMEM, "out of memory for %zu camera rays", cap);
  q->cap = cap;
  return SENSIM_OK;
}

static void wave_free(wave *q) {
  free(q->ray);
  free(q->w);
  free(q->sample);
  free(q->plane);
}

static sensim_status wave_push(wave *q, sensim_vec3 o, sensim_vec3 d, float tnear, float tfar, double t,
                               const float w[3], uint32_t sample, unsigned char plane) {
  sensim_status rc = wave_reserve(q, q->n + 1);
  if (rc) return rc;
  sensim_rt_ray *r = &q->ray[q->n];
  r->org[0] = (float)o.x;
  r->org[1] = (float)o.y;
  r->org[2] = (float)o.z;
  r->dir[0] = (float)d.x;
  r->dir[1] = (float)d.y;
  r->dir[2] = (float)d.z;
  r->tnear = tnear;
  r->tfar = tfar;
  r->time = t;
  memcpy(q->w[q->n], w, 3 * sizeof(float));
  q->sample[q->n] = sample;
  q->plane[q->n] = plane;
  q->n++;
  return SENSIM_OK;
}

static void add(float dst[3], const float w[3], const float v[3], double k) {
  for (int c = 0; c < 3; c++) dst[c] += (float)(w[c] * v[c] * k);
}

/* Primary rays of one row: jittered-stratified positions in each pixel,
 * stratified times in the row's exposure, one ray per channel where
 * lateral chromatic aberration separates them. */
static sensim_status primary_wave(render *r, uint32_t y, sensim_rng *rng) {
  const sensim_camera *cam = r->cam;
  const int S = cam->p.samples;
  const double t_end = r->poses.t1 - (cam->p.height - 1.0 - y) * cam->p.line_time;
  const double exposure = cam->p.exposure_time;
  r->cur.n = 0;
  for (uint32_t x = 0; x < cam->p.width; x++)
    for (int k = 0; k < S; k++) {
      uint32_t si = x * (uint32_t)S + (uint32_t)k;
      double ju = sensim_rng_uniform(rng), jv = sensim_rng_uniform(rng);
      double jt = exposure > 0 ? sensim_rng_uniform(rng) : 1.0;
      double du = cam->grid ? ((k % cam->grid) + ju) / cam->grid : ju;
      double dv = cam->grid ? ((k / cam->grid) + jv) / cam->grid : jv;
      r->uvoff[si][0] = (float)du;
      r->uvoff[si][1] = (float)dv;
      /* Stratified in time too, so blur is smooth at few samples. */
      double t = t_end - exposure * (1.0 - (k + jt) / S);
      sensim_pose pose = sensim__pose_table_at(&r->poses, t);
      r->rot[si] = pose.rot;
      r->col[si][0] = r->col[si][1] = r->col[si][2] = 0.0f;
      r->hit_t[si] = INFINITY;
      r->hit_body[si] = -1;
      r->axial[si] = 0.0f;
      /* OpenCV pixel coordinates: pixel x spans [x - 0.5, x + 0.5]. */
      double u = x - 0.5 + du, v = y - 0.5 + dv;
      float vig = sensim__optics_vignetting(cam->optics, u, v);
      for (int c = 0; c < cam->nch; c++) {
        sensim_vec3 ds;
        if (!sensim__optics_ray(cam->optics, u, v, c, &ds)) continue; /* outside the lens's field */
        ds = v3_normalize(ds);
        if (c == 0) r->axial[si] = (float)ds.x;
        float w[3] = {vig, vig, vig};
        if (cam->nch == 3) {
          w[(c + 1) % 3] = 0.0f;
          w[(c + 2) % 3] = 0.0f;
        }
        sensim_status rc = wave_push(&r->cur, pose.pos, q_rotate(pose.rot, ds), 0.0f, INFINITY, t, w, si, c == 0);
        if (rc) return rc;
      }
    }
  return SENSIM_OK;
}

/* Shade the hits of the current wave: fog, ambient, lights (shadow rays
 * queued), and the reflections that form the next wave. */
static sensim_status shade_wave(render *r, int bounce) {
  const sensim_snapshot *snap = r->snap;
  const float *bg = snap->params.background;
  const double beta = r->cam->beta;
  r->next.n = 0;
  for (size_t i = 0; i < r->cur.n; i++) {
    const sensim_rt_ray *ray = &r->cur.ray[i];
    const sensim_rt_hit *h = &r->hits[i];
    float *col = r->col[r->cur.sample[i]];
    const float *w = r->cur.w[i];
    /* Koschmieder: the segment transmits exp(-beta d) of what lies behind
     * it and adds (1 - exp(-beta d)) of the horizon sky (the background). */
    double T = h->body < 0 ? (beta > 0 ? 0.0 : 1.0) : exp(-beta * h->t);
    if (beta > 0) add(col, w, bg, 1.0 - T);
    if (h->body < 0) {
      add(col, w, bg, T);
      continue;
    }
    if (bounce == 0 && r->cur.plane[i]) {
      uint32_t si = r->cur.sample[i];
      r->hit_t[si] = h->t;
      memcpy(r->hit_n[si], h->n, sizeof r->hit_n[si]);
      r->hit_body[si] = h->body;
    }
    if (T <= 0) continue;
    sensim_surface sf;
    sensim__surface_at(snap, ray, h, &sf);
    float wt[3] = {(float)(w[0] * T), (float)(w[1] * T), (float)(w[2] * T)};
    float alb[3];
    sensim__diffuse_albedo(&sf, alb);
    add(col, wt, alb, snap->params.ambient / M_PI);
    /* Offset secondary-ray origins along the normal, scaled with distance
     * from the origin to stay above float rounding of the hit point. */
    sensim_vec3 po = v3_add(sf.p, v3_scale(sf.n, 1e-4 * (1.0 + v3_norm(sf.p))));
    for (size_t li = 0; li < snap->nlights; li++) {
      const sensim_light *l = &snap->lights[li];
      sensim_vec3 to;
      double irr, dist;
      if (!sensim__light_at(l, po, &to, &irr, &dist)) continue;
      float f[3];
      sensim__brdf_cos(&sf, to, f);
      if (f[0] <= 0 && f[1] <= 0 && f[2] <= 0) continue;
      float contrib[3];
      for (int c = 0; c < 3; c++) contrib[c] = (float)(wt[c] * f[c] * l->color[c] * irr);
      if (!l->cast_shadows) {
        for (int c = 0; c < 3; c++) col[c] += contrib[c];
        continue;
      }
      sensim_status rc = wave_push(&r->shadow, po, to, 0.0f, (float)dist, ray->time, contrib, r->cur.sample[i], 0);
      if (rc) return rc;
    }
    if (bounce < r->cam->p.max_bounces && sf.roughness < SENSIM_MIRROR_ROUGHNESS) {
      float F[3];
      sensim__fresnel_view(&sf, F);
      float wr[3] = {wt[0] * F[0], wt[1] * F[1], wt[2] * F[2]};
      if (wr[0] + wr[1] + wr[2] < 1e-5f) continue;
      sensim_vec3 d = v3_scale(sf.v, -1.0);
      sensim_vec3 refl = v3_sub(d, v3_scale(sf.n, 2.0 * v3_dot(d, sf.n)));
      sensim_status rc = wave_push(&r->next, po, refl, 0.0f, INFINITY, ray->time, wr, r->cur.sample[i], 0);
      if (rc) return rc;
    }
  }
  return SENSIM_OK;
}

static sensim_status trace_wave(render *r, int coherent) {
  if (r->cur.n > r->cap_hits) {
    sensim_rt_hit *h = realloc(r->hits, r->cur.cap * sizeof *h);
    if (!h) return sensim__fail(SENSIM_ENOMEM, "out of memory for camera hits");
    r->hits = h;
    r->cap_hits = r->cur.cap;
  }
  sensim__rt_intersect(r->view, r->cur.ray, r->hits, r->cur.n, coherent);
  return SENSIM_OK;
}

/* Average a row's samples into pixels; depth, labels and normals come from
 * the sample nearest each pixel centre, since they cannot be averaged. */
static void resolve_row(const render *r, uint32_t y, sensim_frame *f) {
  const sensim_camera *cam = r->cam;
  const uint32_t W = cam->p.width;
  const int S = cam->p.samples;
  float *rgb = f->data;
  for (uint32_t x = 0; x < W; x++) {
    double acc[3] = {0, 0, 0};
    int centre = 0;
    double best = INFINITY;
    for (int k = 0; k < S; k++) {
      size_t i = (size_t)x * S + k;
      for (int c = 0; c < 3; c++) acc[c] += r->col[i][c];
      double du = r->uvoff[i][0] - 0.5, dv = r->uvoff[i][1] - 0.5;
      if (du * du + dv * dv < best) {
        best = du * du + dv * dv;
        centre = k;
      }
    }
    size_t px = (size_t)y * W + x;
    for (int c = 0; c < 3; c++) rgb[3 * px + c] = (float)(acc[c] / S);
    size_t i = (size_t)x * S + centre;
    int b = r->hit_body[i];
    if (b < 0) continue;
    f->depth[px] = cam->p.depth_along_ray ? r->hit_t[i] : r->hit_t[i] * r->axial[i];
    f->labels[px].class_id = r->snap->bodies[b].class_id;
    f->labels[px].instance_id = r->snap->bodies[b].instance_id;
    sensim_vec3 n = v3(r->hit_n[i][0], r->hit_n[i][1], r->hit_n[i][2]);
    sensim_quat q = r->rot[i];
    /* The camera sees the face turned towards it. */
    sensim_vec3 ns = q_rotate_inv(q, n);
    if (ns.x > 0) ns = v3_scale(ns, -1.0);
    f->normals[3 * px] = (float)ns.x;
    f->normals[3 * px + 1] = (float)ns.y;
    f->normals[3 * px + 2] = (float)ns.z;
  }
}

static sensim_status render_row(render *r, uint32_t y, sensim_frame *f) {
  sensim_rng rng;
  /* One stream per row keeps the draws independent of any tiling. */
  sensim_rng_init(&rng, r->key.seed, r->key.sensor, r->key.frame, y);
  sensim_status rc = primary_wave(r, y, &rng);
  r->shadow.n = 0;
  for (int bounce = 0; !rc && r->cur.n > 0; bounce++) {
    if ((rc = trace_wave(r, bounce == 0))) break;
    if ((rc = shade_wave(r, bounce))) break;
    wave tmp = r->cur;
    r->cur = r->next;
    r->next = tmp;
  }
  if (rc) return rc;
  if (r->shadow.n) {
    unsigned char *occ = realloc(r->occ, r->shadow.cap);
    if (!occ) return sensim__fail(SENSIM_ENOMEM, "out of memory for shadow rays");
    r->occ = occ;
    sensim__rt_occluded(r->view, r->shadow.ray, r->occ, r->shadow.n, 0);
    for (size_t j = 0; j < r->shadow.n; j++)
      if (!r->occ[j])
        for (int c = 0; c < 3; c++) r->col[r->shadow.sample[j]][c] += r->shadow.w[j][c];
  }
  resolve_row(r, y, f);
  return SENSIM_OK;
}

/* A band of rows rendered by one pool job, with its own scratch buffers;
 * the view and the pose table are shared read-only. */
typedef struct band {
  sensim_band b; /* rows [b.lo, b.hi) */
  render r;
  sensim_frame *f;
} band;

static void scratch_free(render *r) {
  wave_free(&r->cur);
  wave_free(&r->next);
  wave_free(&r->shadow);
  free(r->hits);
  free(r->occ);
  free(r->col);
  free(r->uvoff);
  free(r->rot);
  free(r->axial);
  free(r->hit_t);
  free(r->hit_n);
  free(r->hit_body);
}

static void band_run(void *arg) {
  band *b = arg;
  render *r = &b->r;
  r->nsamples = (size_t)r->cam->p.width * r->cam->p.samples;
  r->col = malloc(r->nsamples * sizeof *r->col);
  r->uvoff = malloc(r->nsamples * sizeof *r->uvoff);
  r->rot = malloc(r->nsamples * sizeof *r->rot);
  r->axial = malloc(r->nsamples * sizeof *r->axial);
  r->hit_t = malloc(r->nsamples * sizeof *r->hit_t);
  r->hit_n = malloc(r->nsamples * sizeof *r->hit_n);
  r->hit_body = malloc(r->nsamples * sizeof *r->hit_body);
  sensim_status rc = SENSIM_OK;
  if (!r->col || !r->uvoff || !r->rot || !r->axial || !r->hit_t || !r->hit_n || !r->hit_body)
    rc = sensim__fail(SENSIM_ENOMEM, "out of memory rendering rows %zu..%zu", b->b.lo, b->b.hi);
  for (size_t y = b->b.lo; y < b->b.hi && !rc; y++) rc = render_row(r, (uint32_t)y, b->f);
  if (rc) sensim__band_fail(&b->b, rc);
  scratch_free(r);
}

sensim_status sensim__camera_render(const sensim_capture_ctx *ctx, sensim_frame *f) {
  const sensim_camera *cam = ctx->impl;
  sensim_rt_view *view = NULL;
  sensim_pose_table poses = {0, 0, 0, NULL};
  band *bands = NULL;
  sensim_status rc = sensim__traced_view(ctx, &view);
  if (rc) goto done;
  /* The sensor's pose over the whole readout; it cannot move if it is fixed
   * to the world or to a static body, or if the readout is instantaneous. */
  double span = cam->p.exposure_time + cam->readout;
  int fixed = span <= 0 || sensim__ctx_fixed(ctx);
  int entries = fixed ? 1 : 65 + (int)(cam->p.line_time > 0 ? cam->p.height / 4 : 0);
  if ((rc = sensim__pose_table_init(&poses, ctx, ctx->t_capture - span, ctx->t_capture, entries))) goto done;
  /* Bands of rows on the pool: rows draw from their own random streams and
   * write disjoint pixels, so the image is the same however it is banded. */
  size_t nb = sensim__fork_band_count(ctx->fork, cam->p.height, 1);
  bands = calloc(nb, sizeof *bands);
  if (!bands) {
    rc = sensim__fail(SENSIM_ENOMEM, "out of memory for %zu render bands", nb);
    goto done;
  }
  for (size_t i = 0; i < nb; i++) {
    bands[i].r.key = ctx->key;
    bands[i].r.cam = cam;
    bands[i].r.snap = ctx->snap;
    bands[i].r.view = view;
    bands[i].r.poses = poses;
    bands[i].f = f;
  }
  rc = sensim__fork_run_bands(ctx->fork, cam->p.height, bands, nb, sizeof *bands, band_run);
done:
  free(bands);
  sensim__pose_table_free(&poses);
  sensim__rt_view_destroy(view);
  return rc;
}
