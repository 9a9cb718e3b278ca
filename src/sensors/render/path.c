/* sensors/render/path.c: the path integrator (docs/rendering.md).
 *
 * Unidirectional path tracing from the camera with next-event estimation
 * at every vertex (one light picked, one shadow ray), its light samples and
 * its BSDF samples weighed by Veach's power heuristic, and Russian roulette
 * from the fourth vertex on. Traced in waves, as the direct integrator's
 * mirror bounces are: a strip's primary rays a tile packet at a time, then
 * each bounce of all the strip's live paths as packets of 16, their shadow
 * rays as one packet per shaded packet.
 *
 * Random numbers: every vertex draws its own 8 words at the position
 * (pixel; sample, channel, bounce) of the counter-based stream (seed,
 * sensor, frame, 0x80000000) (core/rng_counter.h), so a path's numbers do
 * not depend on which thread renders it or in which order. */
#include <math.h>
#include <string.h>
#include "core/rng_counter.h"
#include "sensors/camera_render.h"
#include "sensors/render/bsdf.h"
#include "sensors/render/lights.h"
#include "sensors/render/sampling.h"
#include "sensors/shading.h"

/* The element naming the path integrator's stream (rows use their index,
 * rain streaks 0x40000000). */
#define PATH_STREAM 0x80000000u
/* Russian roulette from this vertex (0: the first hit) on. */
#define RR_FROM 3

typedef struct path_ctx {
  render *r;
  uint32_t y0;           /* the strip's first row */
  sensim_rng stream;     /* the path stream (its counter is addressed, not advanced) */
  sensim_light_set lights;
} path_ctx;

static void add_col(float *col, const float w[3], const float v[3]) {
  for (int c = 0; c < 3; c++) col[c] += w[c] * v[c];
}

/* The 8 random words of vertex `bounce` of the path of strip sample si,
 * channel ch. */
static void vertex_words(const path_ctx *pc, size_t si, int ch, int bounce, uint32_t w[8]) {
  const render *r = pc->r;
  const uint32_t S = (uint32_t)r->cam->p.samples, W = r->cam->p.width;
  const uint32_t pixel = pc->y0 * W + (uint32_t)(si / S), k = (uint32_t)(si % S);
  const uint32_t block = ((k * (uint32_t)r->cam->nch + (uint32_t)ch) * 65u + (uint32_t)bounce) * 2u;
  sensim__philox_at1(&pc->stream, block, pixel, w);
  sensim__philox_at1(&pc->stream, block + 1, pixel, w + 4);
}

/* Local <-> world in the frame (t, b, n). */
static void to_local(const float t[3], const float b[3], const float n[3], const float v[3], float out[3]) {
  out[0] = t[0] * v[0] + t[1] * v[1] + t[2] * v[2];
  out[1] = b[0] * v[0] + b[1] * v[1] + b[2] * v[2];
  out[2] = n[0] * v[0] + n[1] * v[1] + n[2] * v[2];
}
static void to_world(const float t[3], const float b[3], const float n[3], const float v[3], float out[3]) {
  for (int k = 0; k < 3; k++) out[k] = t[k] * v[0] + b[k] * v[1] + n[k] * v[2];
}

/* Shade a traced packet of paths at vertex `bounce`: escaped paths take the
 * environment, hits their emission, next-event estimation (one shadow
 * packet) and the next direction (queued for the next wave). */
static sensim_status shade(path_ctx *pc, lanes *L, int bounce) {
  render *r = pc->r;
  const sensim_snapshot *snap = r->snap;
  sensim_camera_scratch *s = r->s;
  sensim_rt_packet16 *pk = &L->pk;
  const int max_b = r->cam->p.max_bounces;
  unsigned hit = 0;
  for (int l = 0; l < LANES; l++)
    if (((L->valid >> l) & 1) && pk->geom[l] != ~0u) hit |= 1u << l;
  _Alignas(64) float nx[LANES], ny[LANES], nz[LANES];
  sensim__rt_packet16_normals(r->view, pk, hit, nx, ny, nz);
  sensim_rt_shadow16 sp;
  float nee[LANES][3];
  unsigned cast = 0, free_lit = 0;
  for (unsigned lv = L->valid; lv; lv &= lv - 1) {
    const int l = __builtin_ctz(lv);
    const size_t si = L->sample[l];
    float *col = s->col[si];
    float w[3] = {L->w[0][l], L->w[1][l], L->w[2][l]};
    const float dx = pk->dir_x[l], dy = pk->dir_y[l], dz = pk->dir_z[l];
    const float id = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz);
    const float d[3] = {dx * id, dy * id, dz * id};
    if (!((hit >> l) & 1)) {
      /* Escaped: the environment, weighed against the light sample that
       * could have found it (r->beta > 0: the fog's horizon instead). */
      float Le[3];
      if (r->beta > 0.0f) {
        memcpy(Le, r->bg, sizeof Le);
      } else {
        sensim__env_radiance(&r->env, d, Le);
        if (L->pdf[l] > 0.0f) {
          const float mis = sensim__power_heuristic(L->pdf[l], sensim__light_set_env_pdf(&pc->lights, d));
          for (int c = 0; c < 3; c++) Le[c] *= mis;
        } else {
          /* Seen by the camera or through a mirror: the sun discs, which no
           * light sample could have found for it. */
          sensim__light_set_discs(&pc->lights, d, Le);
        }
      }
      add_col(col, w, Le);
      continue;
    }
    /* Koschmieder fog over the segment, as the direct integrator has it. */
    if (r->beta > 0.0f) {
      const float T = expf(-r->beta * pk->tfar[l]);
      for (int c = 0; c < 3; c++) col[c] += w[c] * r->bg[c] * (1.0f - T), w[c] *= T;
    }
    const int body = (int)pk->body[l];
    float n[3] = {nx[l], ny[l], nz[l]};
    const int entering = n[0] * d[0] + n[1] * d[1] + n[2] * d[2] < 0.0f;
    if (!entering) n[0] = -n[0], n[1] = -n[1], n[2] = -n[2];
    if (bounce == 0 && ((L->plane >> l) & 1)) {
      s->hit_t[si] = pk->tfar[l];
      memcpy(s->hit_n[si], n, sizeof s->hit_n[si]);
      s->hit_body[si] = body;
      s->hit_elem[si] = pk->geom[l];
    }
    const sensim_camera_body *cb = &r->bodies[body];
    /* The material where it varies over the surface (textures, vertex
     * normals and normal maps, several materials: shading.h), else the
     * body's. ns is the shading normal that frames the BSDF; n, the
     * geometric one, keeps deciding sides and offsetting new rays. */
    const float v[3] = {-d[0], -d[1], -d[2]};
    float ns[3] = {n[0], n[1], n[2]};
    const sensim_material *tm = NULL;
    sensim_surface sf;
    if (cb->textured) {
      float rot[9];
      sensim__rt_body_matrix(r->view, body, pk->geom[l], pk->time[l], rot);
      sensim__surface_at(snap, body, pk->prim[l], pk->u[l], pk->v[l], rot, n, v, &sf);
      memcpy(ns, sf.n, sizeof ns);
      tm = sensim__mesh_tri_material(snap->bodies[body].mesh, pk->prim[l]);
    }
    /* Emission, from either face: the texture's where there is one; the
     * light-sampling density goes by the factor (lights.c). */
    const float *le = tm ? tm->emission : cb->emission;
    if ((le[0] > 0.0f || le[1] > 0.0f || le[2] > 0.0f)) {
      /* Weighed against the light sample that could have found it. */
      float mis = 1.0f;
      if (L->pdf[l] > 0.0f) {
        const float cos_l = -(n[0] * d[0] + n[1] * d[1] + n[2] * d[2]);
        mis = sensim__power_heuristic(L->pdf[l],
                                      sensim__light_set_emitter_pdf(&pc->lights, le, pk->tfar[l] / id, cos_l));
      }
      const float *lt = tm ? sf.emission : le;
      for (int c = 0; c < 3; c++) col[c] += w[c] * lt[c] * mis;
    }
    if (bounce >= max_b) continue;
    sensim_bsdf bsdf;
    float base[3] = {tm ? sf.base[0] : cb->base[0], tm ? sf.base[1] : cb->base[1], tm ? sf.base[2] : cb->base[2]};
    sensim__camera_vary_base(cb, pk->geom[l], base); /* a placement's own colour */
    if (tm)
      sensim__bsdf_init(&bsdf, base, sf.roughness, sf.metallic, tm->specular, tm->ior, tm->transmission,
                        tm->thin_walled, entering);
    else
      sensim__bsdf_init(&bsdf, base, cb->rough, cb->metal, cb->specular, cb->ior, cb->transmission,
                        cb->thin_walled, entering);
    float t[3], b[3], o[3];
    sensim__onb(ns, t, b);
    to_local(t, b, ns, v, o);
    if (o[2] < 1e-6f) o[2] = 1e-6f;
    sensim__bsdf_prepare(&bsdf, o);
    uint32_t wd[8];
    vertex_words(pc, si, L->ch[l], bounce, wd);
    const float p[3] = {pk->org_x[l] + dx * pk->tfar[l], pk->org_y[l] + dy * pk->tfar[l],
                        pk->org_z[l] + dz * pk->tfar[l]};
    /* Secondary rays start off the surface, by an amount that grows with
     * the distance from the origin to stay above float rounding. */
    const float off = 1e-4f * (1.0f + sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
    /* Next-event estimation. */
    const float ul[3] = {sensim__u01f(wd[0]), sensim__u01f(wd[1]), sensim__u01f(wd[2])};
    sensim_light_sample ls;
    if (sensim__light_set_sample(&pc->lights, p, ul, &ls)) {
      float il[3], fc[3], pdf_b;
      to_local(t, b, ns, ls.wi, il);
      sensim__bsdf_eval(&bsdf, o, il, fc, &pdf_b);
      if (fc[0] > 0.0f || fc[1] > 0.0f || fc[2] > 0.0f) {
        const float mis = ls.pdf > 0.0f ? sensim__power_heuristic(ls.pdf, pdf_b) : 1.0f;
        for (int c = 0; c < 3; c++) nee[l][c] = w[c] * fc[c] * ls.L[c] * mis;
        if (ls.shadow) {
          sp.org_x[l] = p[0] + n[0] * off, sp.org_y[l] = p[1] + n[1] * off, sp.org_z[l] = p[2] + n[2] * off;
          sp.dir_x[l] = ls.wi[0], sp.dir_y[l] = ls.wi[1], sp.dir_z[l] = ls.wi[2];
          sp.tnear[l] = 0.0f;
          /* Short of the light by more than the origin's offset, so that
           * an emitting surface does not shadow itself. */
          sp.tfar[l] = isinf(ls.dist) ? ls.dist : ls.dist * (1.0f - 1e-4f) - 2.0f * off;
          sp.time[l] = pk->time[l];
          cast |= 1u << l;
        } else {
          free_lit |= 1u << l;
        }
      }
    }
    /* The next direction. */
    const float ub[3] = {sensim__u01f(wd[3]), sensim__u01f(wd[4]), sensim__u01f(wd[5])};
    float il[3], wt[3], pdf;
    int delta;
    if (!sensim__bsdf_sample(&bsdf, o, ub, il, wt, &pdf, &delta)) continue;
    float nw[3] = {w[0] * wt[0], w[1] * wt[1], w[2] * wt[2]};
    if (bounce + 1 >= RR_FROM) {
      /* Russian roulette: survive with probability q, weighted 1 / q. */
      float q = fmaxf(nw[0], fmaxf(nw[1], nw[2]));
      if (q > 0.95f) q = 0.95f;
      if (!(sensim__u01f(wd[6]) < q)) continue;
      for (int c = 0; c < 3; c++) nw[c] /= q;
    }
    if (!(nw[0] > 0.0f || nw[1] > 0.0f || nw[2] > 0.0f)) continue;
    float wi[3];
    to_world(t, b, ns, il, wi);
    /* The side of the geometric surface the new ray leaves from. */
    const float side = wi[0] * n[0] + wi[1] * n[1] + wi[2] * n[2] < 0.0f ? -off : off;
    const float po[3] = {p[0] + n[0] * side, p[1] + n[1] * side, p[2] + n[2] * side};
    sensim_status rc = sensim__camera_wave_push(&s->next, po, wi, pk->time[l], nw, si);
    if (rc) return rc;
    sensim_camera_wave_ray *e = &s->next.ray[s->next.n - 1];
    e->pdf = delta ? 0.0f : pdf;
    e->ch = L->ch[l];
  }
  unsigned lit = free_lit;
  if (cast) lit |= cast & ~sensim__rt_occluded16(r->view, &sp, cast);
  for (unsigned ll = lit; ll; ll &= ll - 1) {
    const int l = __builtin_ctz(ll);
    float *col = s->col[L->sample[l]];
    for (int c = 0; c < 3; c++) col[c] += nee[l][c];
  }
  return SENSIM_OK;
}

sensim_status sensim__camera_path_strip(render *r, uint32_t y0, uint32_t nrows) {
  const sensim_camera *cam = r->cam;
  sensim_camera_scratch *s = r->s;
  const uint32_t tiles = (cam->p.width + TILE - 1) / TILE;
  path_ctx pc;
  pc.r = r;
  pc.y0 = y0;
  sensim_rng_init(&pc.stream, r->key.seed, r->key.sensor, r->key.frame, PATH_STREAM);
  sensim__light_set_init(&pc.lights, r->snap, &r->env, r->emitters);
  sensim__camera_strip_samples(r, y0, nrows);
  s->next.n = 0;
  lanes L;
  for (uint32_t tx = 0; tx < tiles; tx++)
    for (int k = 0; k < cam->p.samples; k++)
      for (int c = 0; c < cam->nch; c++) {
        sensim__camera_tile_rays(r, y0, nrows, tx, k, c, &L);
        if (!L.valid) continue;
        memset(L.pdf, 0, sizeof L.pdf);
        memset(L.ch, c, sizeof L.ch);
        sensim__rt_intersect16(r->view, &L.pk, L.valid, 1);
        sensim_status rc = shade(&pc, &L, 0);
        if (rc) return rc;
      }
  for (int bounce = 1; s->next.n > 0; bounce++) {
    const sensim_camera_wave cur = sensim__camera_wave_next(s);
    for (size_t i = 0; i < cur.n; i += LANES) {
      sensim__camera_wave_lanes(&cur, i, &L);
      for (int l = 0; l < LANES && i + l < cur.n; l++) {
        L.pdf[l] = cur.ray[i + l].pdf;
        L.ch[l] = cur.ray[i + l].ch;
      }
      sensim__rt_intersect16(r->view, &L.pk, L.valid, 0);
      sensim_status rc = shade(&pc, &L, bounce);
      if (rc) return rc;
    }
  }
  return SENSIM_OK;
}
