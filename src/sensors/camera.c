/* sensors/camera.c: the basic camera: pinhole optics, jittered-stratified
 * supersampling, exposure-time motion blur, Lambert shading with hard
 * shadows, and depth and label planes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensim/camera.h"
#include "sensors/traced.h"

typedef struct camera {
  sensim_camera_params p;
  double fx, fy, cx, cy; /* pinhole intrinsics, pixels */
  int grid;              /* samples = grid^2 when stratified, else 0 */
} camera;

void sensim_camera_params_init(sensim_camera_params *p) {
  memset(p, 0, sizeof *p);
  p->width = 640;
  p->height = 480;
  p->hfov = M_PI / 2;
  p->lens = SENSIM_LENS_PINHOLE;
  p->samples = 4;
  p->max_bounces = 1;
}

static void intrinsics(const sensim_camera_params *p, double *fx, double *cx, double *cy) {
  *fx = 0.5 * p->width / tan(0.5 * p->hfov);
  *cx = 0.5 * p->width;
  *cy = 0.5 * p->height;
}

sensim_status sensim_camera_project(const sensim_camera_params *cp, sensim_vec3 pt, double *u, double *v) {
  if (!cp || !u || !v) return sensim__fail(SENSIM_EINVAL, "sensim_camera_project: NULL argument");
  if (!(pt.x > 0) || !sensim__finite3(pt))
    return sensim__fail(SENSIM_EINVAL, "point (%g, %g, %g) is not in front of the camera", pt.x, pt.y, pt.z);
  double fx, cx, cy;
  intrinsics(cp, &fx, &cx, &cy);
  /* Sensor frame X forward, Y left, Z up; image u right (-Y), v down (-Z). */
  *u = cx - fx * pt.y / pt.x;
  *v = cy - fx * pt.z / pt.x;
  return SENSIM_OK;
}

/* ---- rendering ---- */

typedef struct sample {
  float du, dv;  /* offset from the pixel's corner, pixels, in [0, 1) */
  double t;      /* time inside the exposure, s */
} sample;

/* Shadow rays wait in a list per image row and are traced together, so
 * the kernel sees one batch instead of one call per shaded sample. */
typedef struct shadow_list {
  sensim_rt_ray *ray;
  float (*rgb)[3];      /* radiance the light adds if unoccluded */
  uint32_t *sample;     /* which sample it adds to */
  unsigned char *occ;
  size_t n;
} shadow_list;

/* Radiance leaving a Lambertian point towards the camera: albedo / pi times
 * the irradiance from the ambient term and every unshadowed light. Writes
 * the ambient and shadowless lights' part to out and queues the rest. */
static void shade(const sensim_snapshot *snap, const sensim_rt_ray *ray, const sensim_rt_hit *h,
                  uint32_t sample, float out[3], shadow_list *sl) {
  const sensim_material *m = &snap->bodies[h->body].mesh->material;
  sensim_vec3 d = v3(ray->dir[0], ray->dir[1], ray->dir[2]);
  sensim_vec3 n = v3(h->n[0], h->n[1], h->n[2]);
  if (v3_dot(n, d) > 0) n = v3_scale(n, -1.0); /* two-sided surfaces */
  sensim_vec3 p = v3_add(v3(ray->org[0], ray->org[1], ray->org[2]), v3_scale(d, h->t));
  /* Offset shadow-ray origins along the normal, scaled with distance to
   * stay above float rounding of the hit point. */
  double eps = 1e-4 * (1.0 + v3_norm(p));
  sensim_vec3 po = v3_add(p, v3_scale(n, eps));
  double k[3];
  for (int c = 0; c < 3; c++) {
    k[c] = m->base_color[c] / M_PI;
    out[c] = (float)(k[c] * snap->params.ambient);
  }
  for (size_t i = 0; i < snap->nlights; i++) {
    const sensim_light *l = &snap->lights[i];
    sensim_vec3 to;
    double irr, tfar;
    if (l->kind == SENSIM_LIGHT_DIRECTIONAL) {
      to = v3_normalize(v3_scale(l->direction, -1.0));
      irr = l->intensity;
      tfar = INFINITY;
    } else {
      sensim_vec3 dl = v3_sub(l->position, po);
      double d2 = v3_dot(dl, dl);
      if (!(d2 > 0)) continue;
      to = v3_scale(dl, 1.0 / sqrt(d2));
      irr = l->intensity / d2;
      tfar = sqrt(d2);
    }
    double cosi = v3_dot(n, to);
    if (cosi <= 0) continue;
    float add[3];
    for (int c = 0; c < 3; c++) add[c] = (float)(k[c] * l->color[c] * irr * cosi);
    if (!l->cast_shadows) {
      for (int c = 0; c < 3; c++) out[c] += add[c];
      continue;
    }
    sensim_rt_ray *sr = &sl->ray[sl->n];
    sr->org[0] = (float)po.x;
    sr->org[1] = (float)po.y;
    sr->org[2] = (float)po.z;
    sr->dir[0] = (float)to.x;
    sr->dir[1] = (float)to.y;
    sr->dir[2] = (float)to.z;
    sr->tnear = 0.0f;
    sr->tfar = (float)tfar;
    sr->time = ray->time;
    memcpy(sl->rgb[sl->n], add, sizeof add);
    sl->sample[sl->n] = sample;
    sl->n++;
  }
}

static sensim_status camera_generate(const sensim_sensor *s, const sensim_capture *cap, sensim_frame *f) {
  const camera *cam = s->impl;
  const uint32_t W = cam->p.width, H = cam->p.height;
  const int S = cam->p.samples;
  const sensim_snapshot *snap = cap->snap;
  sensim_status rc = sensim_frame_alloc(f, SENSIM_PAYLOAD_RGB_F32, W, H);
  if (rc) return rc;
  f->depth = calloc((size_t)W * H, sizeof *f->depth);
  f->labels = calloc((size_t)W * H, sizeof *f->labels);
  sensim_rt_ray *rays = malloc((size_t)W * S * sizeof *rays);
  sensim_rt_hit *hits = malloc((size_t)W * S * sizeof *hits);
  sample *smp = malloc((size_t)W * S * sizeof *smp);
  float (*col)[3] = malloc((size_t)W * S * sizeof *col);
  size_t nshadow = (size_t)W * S * (snap->nlights ? snap->nlights : 1);
  shadow_list sl = {malloc(nshadow * sizeof *sl.ray), malloc(nshadow * sizeof *sl.rgb),
                    malloc(nshadow * sizeof *sl.sample), malloc(nshadow), 0};
  sensim_rt_view *view = NULL;
  sensim_pose_table poses = {0, 0, 0, NULL};
  if (!f->depth || !f->labels || !rays || !hits || !smp || !col || !sl.ray || !sl.rgb || !sl.sample ||
      !sl.occ) {
    rc = sensim__fail(SENSIM_ENOMEM, "out of memory rendering a %ux%u image", W, H);
    goto done;
  }
  if ((rc = sensim__traced_view(cap, &view))) goto done;
  const double t1 = cap->t_capture, win = s->params.window;
  /* Where the sensor cannot move during the exposure, one pose serves all. */
  int fixed = win <= 0 || !s->params.body || s->params.body->is_static;
  if ((rc = sensim__pose_table_init(&poses, s, snap, t1 - win, t1, fixed ? 1 : 65))) goto done;
  float *rgb = f->data;
  for (uint32_t y = 0; y < H; y++) {
    /* One stream per row keeps the draws independent of any tiling. */
    sensim_rng rng;
    sensim_rng_init(&rng, snap->params.seed, (uint32_t)s->id, cap->index, y);
    for (uint32_t x = 0; x < W; x++)
      for (int k = 0; k < S; k++) {
        sample *sm = &smp[(size_t)x * S + k];
        double ju = sensim_rng_uniform(&rng), jv = sensim_rng_uniform(&rng);
        double jt = win > 0 ? sensim_rng_uniform(&rng) : 0.0;
        if (cam->grid) {
          sm->du = (float)(((k % cam->grid) + ju) / cam->grid);
          sm->dv = (float)(((k / cam->grid) + jv) / cam->grid);
        } else {
          sm->du = (float)ju;
          sm->dv = (float)jv;
        }
        /* Stratified in time too, so blur is smooth at few samples. */
        sm->t = t1 - win * (1.0 - (k + jt) / S);
        sensim_pose pose = sensim__pose_table_at(&poses, sm->t);
        double u = x + sm->du, v = y + sm->dv;
        /* Direction with unit X component: the hit's t is then the depth
         * along the optical axis. */
        sensim_vec3 dc = v3(1.0, -(u - cam->cx) / cam->fx, -(v - cam->cy) / cam->fy);
        sensim_vec3 dw = q_rotate(pose.rot, dc);
        sensim_rt_ray *r = &rays[(size_t)x * S + k];
        r->org[0] = (float)pose.pos.x;
        r->org[1] = (float)pose.pos.y;
        r->org[2] = (float)pose.pos.z;
        r->dir[0] = (float)dw.x;
        r->dir[1] = (float)dw.y;
        r->dir[2] = (float)dw.z;
        r->tnear = 0.0f;
        r->tfar = INFINITY;
        r->time = sm->t;
      }
    sensim__rt_intersect(view, rays, hits, (size_t)W * S, 1);
    sl.n = 0;
    for (size_t i = 0; i < (size_t)W * S; i++) {
      if (hits[i].body < 0) memcpy(col[i], snap->params.background, sizeof col[i]);
      else shade(snap, &rays[i], &hits[i], (uint32_t)i, col[i], &sl);
    }
    sensim__rt_occluded(view, sl.ray, sl.occ, sl.n, 0);
    for (size_t j = 0; j < sl.n; j++)
      if (!sl.occ[j])
        for (int ch = 0; ch < 3; ch++) col[sl.sample[j]][ch] += sl.rgb[j][ch];
    for (uint32_t x = 0; x < W; x++) {
      double acc[3] = {0, 0, 0};
      int centre = 0;
      double best = INFINITY;
      for (int k = 0; k < S; k++) {
        size_t i = (size_t)x * S + k;
        for (int ch = 0; ch < 3; ch++) acc[ch] += col[i][ch];
        double d2 = (smp[i].du - 0.5) * (smp[i].du - 0.5) + (smp[i].dv - 0.5) * (smp[i].dv - 0.5);
        if (d2 < best) {
          best = d2;
          centre = k;
        }
      }
      size_t px = (size_t)y * W + x;
      for (int ch = 0; ch < 3; ch++) rgb[3 * px + ch] = (float)(acc[ch] / S);
      /* Depth and labels cannot be averaged; they come from the sample
       * nearest the pixel centre. */
      const sensim_rt_hit *hc = &hits[(size_t)x * S + centre];
      if (hc->body >= 0) {
        f->depth[px] = hc->t;
        f->labels[px].class_id = snap->bodies[hc->body].class_id;
        f->labels[px].instance_id = snap->bodies[hc->body].instance_id;
      }
    }
  }
done:
  sensim__pose_table_free(&poses);
  sensim__rt_view_destroy(view);
  free(rays);
  free(hits);
  free(smp);
  free(col);
  free(sl.ray);
  free(sl.rgb);
  free(sl.sample);
  free(sl.occ);
  return rc;
}

static double camera_default_window(const void *impl, double rate) {
  (void)impl;
  (void)rate;
  return 0.0;
}

static const sensim_sensor_kind camera_kind = {
    .name = "camera",
    .raw_type = SENSIM_PAYLOAD_RGB_F32,
    .needs_geometry = 1,
    .default_window = camera_default_window,
    .generate = camera_generate,
    .destroy = free,
    .prepare = sensim__traced_prepare,
    .release_aux = sensim__traced_release,
};

sensim_status sensim_camera_create(sensim_world *w, const sensim_sensor_params *sp,
                                   const sensim_camera_params *cp, sensim_sensor **out) {
  if (!cp) return sensim__fail(SENSIM_EINVAL, "sensim_camera_create: camera params are NULL");
  if (cp->width < 1 || cp->height < 1 || cp->width > 16384 || cp->height > 16384)
    return sensim__fail(SENSIM_EINVAL, "camera size %ux%u must be within 1..16384 pixels", cp->width, cp->height);
  if (!(cp->hfov > 0 && cp->hfov < M_PI))
    return sensim__fail(SENSIM_EINVAL, "camera hfov %g rad must be in (0, pi)", cp->hfov);
  if (cp->samples < 1 || cp->samples > 1024)
    return sensim__fail(SENSIM_EINVAL, "camera samples %d must be in [1, 1024]", cp->samples);
  camera *c = calloc(1, sizeof *c);
  if (!c) return sensim__fail(SENSIM_ENOMEM, "out of memory for a camera");
  c->p = *cp;
  intrinsics(cp, &c->fx, &c->cx, &c->cy);
  c->fy = c->fx;
  int g = (int)lrint(sqrt((double)cp->samples));
  c->grid = g * g == cp->samples ? g : 0;
  return sensim__sensor_create(w, sp, &camera_kind, c, out);
}
