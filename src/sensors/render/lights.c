/* sensors/render/lights.c: light sampling for next-event estimation
 * (lights.h; formulas and sources in docs/rendering.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensors/render/lights.h"
#include "sensors/render/sampling.h"
#include "sensors/shading.h"

static int black3(const float c[3]) { return !(c[0] > 0.0f) && !(c[1] > 0.0f) && !(c[2] > 0.0f); }

/* Triangles of m whose material emits. */
static size_t emissive_triangles(const sensim_mesh *m) {
  if (!m->materials) return black3(m->material.emission) ? 0 : m->ntri;
  size_t n = 0;
  for (size_t t = 0; t < m->ntri; t++) n += !black3(sensim__mesh_tri_material(m, (unsigned)t)->emission);
  return n;
}

sensim_status sensim__emitters_build(const sensim_snapshot *snap, sensim_emitters *e) {
  memset(e, 0, sizeof *e);
  size_t n = 0;
  for (size_t i = 0; i < snap->nbodies; i++) {
    const sensim_mesh *m = snap->bodies[i].group ? NULL : snap->bodies[i].mesh; /* placements do not emit */
    if (m) n += emissive_triangles(m);
  }
  if (!n) return SENSIM_OK;
  e->snap = snap;
  e->v = malloc(n * sizeof *e->v);
  e->le = malloc(n * sizeof *e->le);
  e->cdf = malloc(n * sizeof *e->cdf);
  e->body = malloc(n * sizeof *e->body);
  e->prim = malloc(n * sizeof *e->prim);
  if (!e->v || !e->le || !e->cdf || !e->body || !e->prim) {
    sensim__emitters_free(e);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for %zu emissive triangles", n);
  }
  double acc = 0.0;
  for (size_t i = 0; i < snap->nbodies; i++) {
    const sensim_mesh *m = snap->bodies[i].group ? NULL : snap->bodies[i].mesh;
    if (!m || !emissive_triangles(m)) continue;
    sensim_body_state st;
    if (snap->bodies[i].is_static)
      st.pose = snap->bodies[i].pose;
    else
      sensim__snap_state_at(snap, i, snap->t1, &st);
    for (size_t t = 0; t < m->ntri; t++) {
      /* Each triangle's own material (a mesh may hold several). */
      const sensim_material *tm = sensim__mesh_tri_material(m, (unsigned)t);
      if (black3(tm->emission)) continue;
      const float lum = sensim__luminance(tm->emission);
      float *v = e->v[e->n];
      for (int k = 0; k < 3; k++) {
        const float *mv = m->vertices + 3 * (size_t)m->indices[3 * t + k];
        const sensim_vec3 w = v3_add(st.pose.pos, q_rotate(st.pose.rot, v3(mv[0], mv[1], mv[2])));
        v[3 * k] = (float)w.x, v[3 * k + 1] = (float)w.y, v[3 * k + 2] = (float)w.z;
      }
      const sensim_vec3 a = v3(v[3] - v[0], v[4] - v[1], v[5] - v[2]), b = v3(v[6] - v[0], v[7] - v[1], v[8] - v[2]);
      acc += 0.5 * v3_norm(v3_cross(a, b)) * lum;
      memcpy(e->le[e->n], tm->emission, sizeof e->le[e->n]);
      e->body[e->n] = tm->emissive_texture && m->uvs ? (int)i : -1;
      e->prim[e->n] = (unsigned)t;
      e->cdf[e->n++] = acc;
    }
  }
  e->total = acc;
  if (!(acc > 0.0)) sensim__emitters_free(e); /* degenerate triangles only */
  return SENSIM_OK;
}

void sensim__emitters_free(sensim_emitters *e) {
  free(e->v);
  free(e->le);
  free(e->cdf);
  free(e->body);
  free(e->prim);
  memset(e, 0, sizeof *e);
}

void sensim__light_set_init(sensim_light_set *ls, const sensim_snapshot *snap, const sensim_env *env,
                            const sensim_emitters *em) {
  ls->lights = snap->lights;
  ls->nlights = snap->nlights;
  ls->env = env;
  ls->sun = env && env->has_sun ? env : NULL;
  if (env && ((env->desc.type == SENSIM_ENVIRONMENT_UNIFORM && black3(env->desc.radiance)) ||
              (env->desc.type == SENSIM_ENVIRONMENT_SKY && !env->up)))
    ls->env = NULL; /* black: never worth a shadow ray */
  ls->em = em && em->n ? em : NULL;
  ls->n = ls->nlights + (ls->sun ? 1 : 0) + (ls->env ? 1 : 0) + (ls->em ? 1 : 0);
  ls->p_pick = ls->n ? 1.0f / (float)ls->n : 0.0f;
}

/* A point on a sphere light of centre c, radius R, seen from p: uniform in
 * the cone it subtends (PBRT-v4 sec. 6.2.4); returns the cone's solid
 * angle, 0 inside the sphere. */
static float sphere_cone(const float c[3], float R, const float p[3], float u1, float u2, float wi[3], float *dist) {
  const float dc[3] = {c[0] - p[0], c[1] - p[1], c[2] - p[2]};
  const float d2 = dc[0] * dc[0] + dc[1] * dc[1] + dc[2] * dc[2];
  if (!(d2 > R * R)) return 0.0f;
  const float d = sqrtf(d2), s2 = R * R / d2, cmax = sqrtf(fmaxf(0.0f, 1.0f - s2));
  const float n[3] = {dc[0] / d, dc[1] / d, dc[2] / d};
  float t[3], b[3], l[3];
  sensim__onb(n, t, b);
  sensim__uniform_cone(u1, u2, cmax, l);
  for (int k = 0; k < 3; k++) wi[k] = t[k] * l[0] + b[k] * l[1] + n[k] * l[2];
  /* Distance to the sphere's near side along wi. */
  const float proj = d * l[2], disc = R * R - (d2 - proj * proj);
  *dist = proj - sqrtf(fmaxf(0.0f, disc));
  return 2.0f * (float)M_PI * (1.0f - cmax);
}

/* A point of an area emitter: position q, unit front normal nq, area A. */
static int area_point(const float p[3], const float q[3], const float nq[3], float A, float wi[3], float *dist,
                      float *geom) {
  const float dq[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
  const float d2 = dq[0] * dq[0] + dq[1] * dq[1] + dq[2] * dq[2];
  if (!(d2 > 0.0f)) return 0;
  const float d = sqrtf(d2);
  for (int k = 0; k < 3; k++) wi[k] = dq[k] / d;
  const float cl = -(nq[0] * wi[0] + nq[1] * wi[1] + nq[2] * wi[2]);
  if (!(cl > 0.0f)) return 0; /* behind a one-sided emitter */
  *dist = d;
  /* 1 / (density in solid angle) = A cos_l / d^2 for a uniform area pick. */
  *geom = A * cl / d2;
  return 1;
}

static int analytic(const sensim_light *l, const float p[3], float u1, float u2, sensim_light_sample *out) {
  float k = 0.0f; /* radiance x solid angle (1 / density): the sample's weight per unit colour */
  switch (l->kind) {
  case SENSIM_LIGHT_DIRECTIONAL:
  case SENSIM_LIGHT_POINT:
  case SENSIM_LIGHT_SPOT: {
    const int extended = l->kind == SENSIM_LIGHT_DIRECTIONAL ? l->angular_diameter > 0.0f : l->radius > 0.0f;
    float irr = 0.0f;
    if (!extended || l->kind != SENSIM_LIGHT_DIRECTIONAL) {
      if (!sensim__light_at(l, p, out->wi, &irr, &out->dist)) return 0;
    }
    if (!extended) {
      k = irr;
      break;
    }
    if (l->kind == SENSIM_LIGHT_DIRECTIONAL) {
      /* A disc of half-angle h: radiance E / (pi sin^2 h), over the cone's
       * solid angle 2 pi (1 - cos h). */
      const double h = 0.5 * l->angular_diameter, sh = sin(h);
      const sensim_vec3 to = v3_normalize(v3_scale(l->direction, -1.0));
      const float n[3] = {(float)to.x, (float)to.y, (float)to.z};
      float t[3], b[3], c[3];
      sensim__onb(n, t, b);
      const float cmax = (float)cos(h);
      sensim__uniform_cone(u1, u2, cmax, c);
      for (int j = 0; j < 3; j++) out->wi[j] = t[j] * c[0] + b[j] * c[1] + n[j] * c[2];
      out->dist = INFINITY;
      k = (float)(l->intensity / (M_PI * sh * sh) * 2.0 * M_PI * (1.0 - cos(h)));
      break;
    }
    /* A sphere of the same intensity I: radiance I / (pi R^2) over the cone,
     * times the spot's fall-off towards the point; a point inside it is lit
     * as by a point. */
    const float c[3] = {(float)l->position.x, (float)l->position.y, (float)l->position.z};
    const float R = l->radius;
    const float spot = irr * out->dist * out->dist / l->intensity; /* the spot factor (1 for a point) */
    float wi[3], dist;
    const float omega = sphere_cone(c, R, p, u1, u2, wi, &dist);
    if (omega > 0.0f) {
      memcpy(out->wi, wi, sizeof wi);
      out->dist = dist;
      k = l->intensity / ((float)M_PI * R * R) * omega * spot;
    } else {
      k = irr;
    }
    break;
  }
  case SENSIM_LIGHT_RECT: {
    const sensim_vec3 nv = v3_cross(l->edge_u, l->edge_v);
    const float A = (float)v3_norm(nv);
    const float nq[3] = {(float)(nv.x / A), (float)(nv.y / A), (float)(nv.z / A)};
    const float a = u1 - 0.5f, b = u2 - 0.5f;
    const float q[3] = {(float)(l->position.x + a * l->edge_u.x + b * l->edge_v.x),
                        (float)(l->position.y + a * l->edge_u.y + b * l->edge_v.y),
                        (float)(l->position.z + a * l->edge_u.z + b * l->edge_v.z)};
    float g;
    if (!area_point(p, q, nq, A, out->wi, &out->dist, &g)) return 0;
    k = l->intensity * g;
    break;
  }
  case SENSIM_LIGHT_DISC: {
    const sensim_vec3 nd = v3_normalize(l->direction);
    const float nq[3] = {(float)nd.x, (float)nd.y, (float)nd.z};
    float t[3], b[3], x, y;
    sensim__onb(nq, t, b);
    sensim__concentric_disc(u1, u2, &x, &y);
    const float R = l->radius;
    float q[3];
    q[0] = (float)l->position.x + R * (x * t[0] + y * b[0]);
    q[1] = (float)l->position.y + R * (x * t[1] + y * b[1]);
    q[2] = (float)l->position.z + R * (x * t[2] + y * b[2]);
    float g;
    if (!area_point(p, q, nq, (float)M_PI * R * R, out->wi, &out->dist, &g)) return 0;
    k = l->intensity * g;
    break;
  }
  }
  if (!(k > 0.0f)) return 0;
  out->pdf = 0.0f;
  out->shadow = l->cast_shadows;
  for (int c = 0; c < 3; c++) out->L[c] = l->color[c] * k;
  return 1;
}

static int emitter(const sensim_emitters *e, const float p[3], float u0, float u1, float u2, sensim_light_sample *out,
                   float *pdf_area) {
  /* The triangle whose cumulative interval holds u0 x total (binary search). */
  const double x = (double)u0 * e->total;
  size_t lo = 0, hi = e->n - 1;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (e->cdf[mid] > x)
      hi = mid;
    else
      lo = mid + 1;
  }
  const float *v = e->v[lo];
  /* Uniform on the triangle: b0 = 1 - sqrt(u1), b1 = u2 sqrt(u1) (Turk 1990,
   * "Generating random points in triangles", Graphics Gems). */
  const float su = sqrtf(u1), b1 = u2 * su, b2 = 1.0f - su;
  float q[3], nq[3];
  for (int k = 0; k < 3; k++) q[k] = b2 * v[k] + (1.0f - b1 - b2) * v[3 + k] + b1 * v[6 + k];
  const float a[3] = {v[3] - v[0], v[4] - v[1], v[5] - v[2]}, b[3] = {v[6] - v[0], v[7] - v[1], v[8] - v[2]};
  nq[0] = a[1] * b[2] - a[2] * b[1], nq[1] = a[2] * b[0] - a[0] * b[2], nq[2] = a[0] * b[1] - a[1] * b[0];
  /* Emissive surfaces emit from both faces: the normal facing p. */
  if (nq[0] * (p[0] - q[0]) + nq[1] * (p[1] - q[1]) + nq[2] * (p[2] - q[2]) < 0.0f)
    nq[0] = -nq[0], nq[1] = -nq[1], nq[2] = -nq[2];
  const float A2 = sqrtf(nq[0] * nq[0] + nq[1] * nq[1] + nq[2] * nq[2]);
  if (!(A2 > 0.0f)) return 0;
  for (int k = 0; k < 3; k++) nq[k] /= A2;
  float g;
  if (!area_point(p, q, nq, 0.5f * A2, out->wi, &out->dist, &g)) return 0;
  /* Area density lum / total, the same for every emitter point. */
  *pdf_area = (float)(sensim__luminance(e->le[lo]) / e->total);
  for (int c = 0; c < 3; c++) out->L[c] = e->le[lo][c];
  if (e->body[lo] >= 0) {
    /* The emissive texture at the point: q's weights of vertices 1 and 2
     * are Embree's (u, v). The density above stays the factor's, an
     * importance choice that the estimate L / pdf keeps unbiased. */
    sensim_surface sf;
    sensim__surface_material(e->snap, e->body[lo], e->prim[lo], 1.0f - b1 - b2, b1, &sf);
    memcpy(out->L, sf.emission, sizeof out->L);
  }
  /* g = A cos / d^2 for this triangle; the solid-angle density is
   * pdf_area d^2 / cos = pdf_area A / g. */
  out->pdf = *pdf_area * 0.5f * A2 / g;
  return 1;
}

int sensim__light_set_sample(const sensim_light_set *ls, const float p[3], const float u[3], sensim_light_sample *out) {
  if (!ls->n) return 0;
  const float x = u[0] * (float)ls->n;
  size_t k = (size_t)x;
  if (k >= ls->n) k = ls->n - 1;
  const float frac = fminf(fmaxf(x - (float)k, 0.0f), 0.99999994f); /* the pick's fraction: uniform again */
  if (k < ls->nlights) {
    if (!analytic(&ls->lights[k], p, u[1], u[2], out)) return 0;
    for (int c = 0; c < 3; c++) out->L[c] /= ls->p_pick;
    return 1;
  }
  if (ls->sun && k == ls->nlights) {
    /* The sun's disc: uniform in its cone, radiance x solid angle. */
    float t[3], b[3], c[3];
    sensim__onb(ls->sun->sun_to, t, b);
    sensim__uniform_cone(u[1], u[2], ls->sun->sun_cos, c);
    for (int j = 0; j < 3; j++) out->wi[j] = t[j] * c[0] + b[j] * c[1] + ls->sun->sun_to[j] * c[2];
    const float omega = ls->sun->sun_omega;
    for (int j = 0; j < 3; j++) out->L[j] = ls->sun->sun_L[j] * omega / ls->p_pick;
    out->dist = INFINITY;
    out->pdf = 0.0f;
    out->shadow = 1;
    return 1;
  }
  k -= ls->sun ? 1 : 0;
  if (ls->env && k == ls->nlights) {
    const float pdf = sensim__env_sample(ls->env, u[1], u[2], out->wi, out->L);
    if (!(pdf > 0.0f)) return 0;
    out->pdf = pdf * ls->p_pick;
    out->dist = INFINITY;
    out->shadow = 1;
    for (int c = 0; c < 3; c++) out->L[c] /= out->pdf;
    return !black3(out->L);
  }
  float pa;
  if (!emitter(ls->em, p, frac, u[1], u[2], out, &pa)) return 0;
  out->pdf *= ls->p_pick;
  out->shadow = 1;
  for (int c = 0; c < 3; c++) out->L[c] /= out->pdf;
  return 1;
}

float sensim__light_set_env_pdf(const sensim_light_set *ls, const float d[3]) {
  return ls->env ? ls->p_pick * sensim__env_pdf(ls->env, d) : 0.0f;
}

float sensim__light_set_emitter_pdf(const sensim_light_set *ls, const float le[3], float t, float cos_l) {
  if (!ls->em || !(cos_l > 0.0f)) return 0.0f;
  return ls->p_pick * (float)(sensim__luminance(le) / ls->em->total) * t * t / cos_l;
}

void sensim__light_set_discs(const sensim_light_set *ls, const float d[3], float L[3]) {
  if (ls->sun && ls->sun->sun_to[0] * d[0] + ls->sun->sun_to[1] * d[1] + ls->sun->sun_to[2] * d[2] >= ls->sun->sun_cos)
    for (int c = 0; c < 3; c++) L[c] += ls->sun->sun_L[c];
  for (size_t i = 0; i < ls->nlights; i++) {
    const sensim_light *l = &ls->lights[i];
    if (l->kind != SENSIM_LIGHT_DIRECTIONAL || !(l->angular_diameter > 0.0f)) continue;
    const double h = 0.5 * l->angular_diameter, sh = sin(h);
    const sensim_vec3 to = v3_normalize(v3_scale(l->direction, -1.0));
    if (to.x * d[0] + to.y * d[1] + to.z * d[2] < cos(h)) continue;
    const float rad = (float)(l->intensity / (M_PI * sh * sh));
    for (int c = 0; c < 3; c++) L[c] += l->color[c] * rad;
  }
}
