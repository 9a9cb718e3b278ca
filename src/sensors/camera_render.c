/* sensors/camera_render.c: the camera's renderer. The image is cut into
 * strips of four rows and each strip into 4 x 4 pixel tiles; a tile's rays
 * for one sample index (and one colour channel, where lateral chromatic
 * aberration separates them) are one packet of 16, traced together, shaded
 * lane by lane, and their shadow rays traced at once as a second packet of
 * 16 towards each light, while the tile is still in cache. Mirror
 * reflections are gathered per strip and traced as further packets. Each
 * ray carries the throughput (RGB weight) of its path and the sample it
 * adds to, so lateral chromatic aberration (one ray per channel),
 * vignetting, fog and Fresnel-weighted reflections are all just weights.
 *
 * Random draws come from one stream per row (the jitter of its samples in
 * pixel order), so the image does not depend on how strips are banded over
 * threads. Scratch buffers live in the camera and are reused from frame to
 * frame (sensors/camera_scratch.c). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensim/rng.h"
#include "sensors/camera_internal.h"
#include "sensors/camera_shade.h"
#include "sensors/shading.h"
#include "scene/weather.h"
#include "sensors/camera_render.h"
#include "sensors/render/lights.h"

static void add3(float dst[3], const float w[3], const float v[3], float k) {
  for (int c = 0; c < 3; c++) dst[c] += w[c] * v[c] * k;
}

/* The strip's samples: jittered-stratified positions in each pixel and
 * stratified times in each row's exposure, from the row's stream in pixel
 * order (two random words per sample, three with an exposure time, and two
 * more for the aperture point with depth of field). */
void sensim__camera_strip_samples(render *r, uint32_t y0, uint32_t nrows) {
  const sensim_camera *cam = r->cam;
  sensim_camera_scratch *s = r->s;
  const int S = cam->p.samples;
  const uint32_t W = cam->p.width;
  const double exposure = cam->p.exposure_time;
  const int dof = cam->dof_radius > 0, tw = exposure > 0 ? 3 : 2, per = tw + (dof ? 2 : 0);
  const int g = cam->grid ? cam->grid : 1;
  const double ig = 1.0 / g, is = 1.0 / S;
  const int timed = !r->fixed || !r->static_view;
  for (uint32_t ry = 0; ry < nrows; ry++) {
    const uint32_t y = y0 + ry;
    sensim_rng rng;
    sensim_rng_init(&rng, r->key.seed, r->key.sensor, r->key.frame, y);
    sensim_rng_fill_u32(&rng, s->words, (size_t)per * W * S);
    const uint32_t *wd = s->words;
    if (S == 1 && !timed && !dof) {
      /* One sample per pixel, no time needed: the loop below in simple
       * vectorisable form. In float, (w >> 8) is exact and adding 0.5
       * rounds once, as the double expression's conversion does: the same
       * bits. */
      const size_t i0 = (size_t)ry * W;
      for (uint32_t x = 0; x < W; x++) {
        s->uvoff[i0 + x][0] = ((float)(wd[per * x] >> 8) + 0.5f) * 0x1p-24f;
        s->uvoff[i0 + x][1] = ((float)(wd[per * x + 1] >> 8) + 0.5f) * 0x1p-24f;
      }
      for (uint32_t x = 0; x < W; x++) {
        s->col[i0 + x][0] = s->col[i0 + x][1] = s->col[i0 + x][2] = 0.0f;
        s->hit_t[i0 + x] = INFINITY;
        s->hit_body[i0 + x] = -1;
        s->axial[i0 + x] = 0.0f;
      }
      continue;
    }
    const double t_end = r->poses.t1 - (cam->p.height - 1.0 - y) * cam->p.line_time;
    for (uint32_t x = 0; x < W; x++)
      for (int k = 0, cu = 0, cv = 0; k < S; k++, wd += per) {
        const size_t si = ((size_t)ry * W + x) * S + k;
        /* Uniforms in (0, 1): the centres of 2^24 (position) or 2^32
         * (time) equal bins. Without a square number of samples the grid
         * is one cell: plain jitter over the pixel. */
        const double ju = ((wd[0] >> 8) + 0.5) * 0x1p-24, jv = ((wd[1] >> 8) + 0.5) * 0x1p-24;
        const double jt = tw == 3 ? (wd[2] + 0.5) * 0x1p-32 : 1.0;
        if (dof) {
          s->lens[si][0] = (float)(((wd[tw] >> 8) + 0.5) * 0x1p-24);
          s->lens[si][1] = (float)(((wd[tw + 1] >> 8) + 0.5) * 0x1p-24);
        }
        /* Sample k's stratum: column k % g, row k / g (counted, not
         * divided: an integer division per sample showed in profiles). */
        s->uvoff[si][0] = (float)((cu + ju) * ig);
        s->uvoff[si][1] = (float)((cv + jv) * ig);
        if (cam->grid && ++cu == g) cu = 0, cv++;
        /* Stratified in time too, so blur is smooth at few samples. A
         * sample's time matters only if the camera or the scene moves. */
        if (timed) {
          s->t[si] = t_end - exposure * (1.0 - (k + jt) * is);
          if (!r->fixed) s->pose[si] = sensim__pose_table_at(&r->poses, s->t[si]);
        }
        s->col[si][0] = s->col[si][1] = s->col[si][2] = 0.0f;
        s->hit_t[si] = INFINITY;
        s->hit_body[si] = -1;
        s->axial[si] = 0.0f;
      }
  }
}

/* Primary rays of tile tx for sample k, channel c. OpenCV pixel
 * coordinates: pixel x spans [x - 0.5, x + 0.5]. */
void sensim__camera_tile_rays(render *r, uint32_t y0, uint32_t nrows, uint32_t tx, int k, int c, lanes *L) {
  const sensim_camera *cam = r->cam;
  sensim_camera_scratch *s = r->s;
  const uint32_t W = cam->p.width;
  const int S = cam->p.samples;
  sensim_rt_packet16 *pk = &L->pk;
  L->valid = L->plane = 0;
  if (r->pinhole) {
    _Alignas(64) float uo[LANES], vo[LANES], axial[LANES];
    for (int l = 0; l < LANES; l++) {
      uint32_t x = tx * TILE + (uint32_t)(l % TILE), ry = (uint32_t)(l / TILE);
      if (x < W && ry < nrows)
        L->valid |= 1u << l;
      else
        x = W - 1, ry = 0; /* a lane outside the image copies a pixel's offsets;
                              it is masked */
      const size_t si = ((size_t)ry * W + x) * S + k;
      L->sample[l] = si;
      uo[l] = s->uvoff[si][0], vo[l] = s->uvoff[si][1];
    }
    sensim__camera_pinhole_rays16(&r->pin, uo, vo, (double)tx * TILE, y0, pk, axial);
    for (int l = 0; l < LANES; l++) {
      if (!((L->valid >> l) & 1)) continue;
      const size_t si = L->sample[l];
      s->axial[si] = axial[l];
      if (!r->static_view) pk->time[l] = sensim__rt_ray_time(r->view, s->t[si]);
      L->w[0][l] = L->w[1][l] = L->w[2][l] = 1.0f;
    }
    L->plane = L->valid;
    return;
  }
  for (int l = 0; l < LANES; l++) {
    const uint32_t x = tx * TILE + (uint32_t)(l % TILE), ry = (uint32_t)(l / TILE);
    if (x >= W || ry >= nrows) continue;
    const size_t si = ((size_t)ry * W + x) * S + k;
    const double u = x - 0.5 + s->uvoff[si][0], v = y0 + ry - 0.5 + s->uvoff[si][1];
    sensim_vec3 ds;
    if (!sensim__optics_ray(cam->optics, u, v, c, &ds)) continue; /* outside the lens's field */
    double d[3] = {ds.x, ds.y, ds.z}, o[3] = {0, 0, 0};
    const float vig = sensim__optics_vignetting(cam->optics, u, v);
    const double inv = 1.0 / sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    d[0] *= inv, d[1] *= inv, d[2] *= inv;
    const int lensed = cam->dof_radius > 0 &&
                       sensim__camera_dof_ray(cam->dof_radius, cam->p.focus_distance, s->lens[si][0], s->lens[si][1], d, o);
    if (c == 0) s->axial[si] = (float)d[0];
    if (r->fixed) {
      const float *m = r->rot;
      pk->org_x[l] = r->org[0], pk->org_y[l] = r->org[1], pk->org_z[l] = r->org[2];
      if (lensed) {
        pk->org_x[l] += (float)(m[0] * o[0] + m[1] * o[1] + m[2] * o[2]);
        pk->org_y[l] += (float)(m[3] * o[0] + m[4] * o[1] + m[5] * o[2]);
        pk->org_z[l] += (float)(m[6] * o[0] + m[7] * o[1] + m[8] * o[2]);
      }
      pk->dir_x[l] = (float)(m[0] * d[0] + m[1] * d[1] + m[2] * d[2]);
      pk->dir_y[l] = (float)(m[3] * d[0] + m[4] * d[1] + m[5] * d[2]);
      pk->dir_z[l] = (float)(m[6] * d[0] + m[7] * d[1] + m[8] * d[2]);
    } else {
      const sensim_pose *p = &s->pose[si];
      sensim_vec3 dw = q_rotate(p->rot, v3(d[0], d[1], d[2]));
      const sensim_vec3 ow = lensed ? v3_add(p->pos, q_rotate(p->rot, v3(o[0], o[1], o[2]))) : p->pos;
      pk->org_x[l] = (float)ow.x, pk->org_y[l] = (float)ow.y, pk->org_z[l] = (float)ow.z;
      pk->dir_x[l] = (float)dw.x, pk->dir_y[l] = (float)dw.y, pk->dir_z[l] = (float)dw.z;
    }
    pk->tnear[l] = 0.0f;
    pk->tfar[l] = INFINITY;
    pk->time[l] = r->static_view ? 0.0f : sensim__rt_ray_time(r->view, s->t[si]);
    for (int ch = 0; ch < 3; ch++) L->w[ch][l] = cam->nch == 3 && ch != c ? 0.0f : vig;
    L->sample[l] = si;
    L->valid |= 1u << l;
    if (c == 0) L->plane |= 1u << l;
  }
}

sensim_status sensim__camera_wave_push(sensim_camera_wave *q, const float o[3], const float d[3], float time, const float w[3],
                               size_t sample) {
  if (q->n == q->cap) {
    size_t cap = q->cap ? 2 * q->cap : 1024;
    sensim_camera_wave_ray *a = realloc(q->ray, cap * sizeof *a);
    if (!a) return sensim__fail(SENSIM_ENOMEM, "out of memory for %zu camera reflection rays", cap);
    q->ray = a;
    q->cap = cap;
  }
  sensim_camera_wave_ray *e = &q->ray[q->n++];
  memcpy(e->org, o, sizeof e->org);
  memcpy(e->dir, d, sizeof e->dir);
  memcpy(e->w, w, sizeof e->w);
  e->time = time;
  e->sample = sample;
  e->pdf = 0.0f;
  e->ch = 0;
  return SENSIM_OK;
}

/* Shade the traced packet: fog, background, ambient, lights (shadow rays
 * traced as a packet per light), planes of primary hits, and mirror
 * reflections queued for the next bounce. */
static sensim_status shade(render *r, lanes *L, int bounce) {
  const sensim_snapshot *snap = r->snap;
  sensim_camera_scratch *s = r->s;
  sensim_rt_packet16 *pk = &L->pk;
  const float beta = r->beta;
  sensim_camera_shade16 sh;
  unsigned hit = 0;
  for (int l = 0; l < LANES; l++)
    if (((L->valid >> l) & 1) && pk->geom[l] != ~0u) hit |= 1u << l;
  sensim__rt_packet16_normals(r->view, pk, hit, sh.nx, sh.ny, sh.nz);
  /* Koschmieder: the segment transmits exp(-beta d) of what lies behind it
   * and adds (1 - exp(-beta d)) of the horizon sky (the background). */
  memcpy(sh.w, L->w, sizeof sh.w);
  memset(sh.base, 0, sizeof sh.base);
  memset(sh.metal, 0, sizeof sh.metal);
  memset(sh.T, 0, sizeof sh.T);
  for (int l = 0; l < LANES; l++) sh.rough[l] = 1.0f;
  unsigned varied = 0;   /* lanes on a surface of varying material */
  float emit[3][LANES];  /* their emitted radiance */
  for (unsigned lv = L->valid; lv; lv &= lv - 1) {
    const int l = __builtin_ctz(lv);
    const float w[3] = {L->w[0][l], L->w[1][l], L->w[2][l]};
    float *col = s->col[L->sample[l]];
    if (!((hit >> l) & 1)) {
      add3(col, w, r->bg, 1.0f);
      continue;
    }
    const float T = beta > 0 ? expf(-beta * pk->tfar[l]) : 1.0f;
    if (beta > 0) add3(col, w, r->bg, 1.0f - T);
    sh.T[l] = T;
    const int body = (int)pk->body[l];
    if (bounce == 0 && ((L->plane >> l) & 1)) {
      const size_t si = L->sample[l];
      s->hit_t[si] = pk->tfar[l];
      s->hit_n[si][0] = sh.nx[l], s->hit_n[si][1] = sh.ny[l], s->hit_n[si][2] = sh.nz[l];
      s->hit_body[si] = body;
      s->hit_elem[si] = pk->geom[l];
    }
    const sensim_camera_body *cb = &r->bodies[body];
    if (cb->textured) {
      /* Material varying over the surface (shading.h): textures, and
       * emission, from either face as the path integrator has it. */
      sensim_surface sf;
      sensim__surface_material(snap, body, pk->prim[l], pk->u[l], pk->v[l], &sf);
      for (int c = 0; c < 3; c++) sh.base[c][l] = sf.base[c];
      sh.rough[l] = sf.roughness, sh.metal[l] = sf.metallic;
      for (int c = 0; c < 3; c++) emit[c][l] = sf.emission[c];
      varied |= 1u << l;
    } else {
      for (int c = 0; c < 3; c++) sh.base[c][l] = cb->base[c];
      sh.rough[l] = cb->rough, sh.metal[l] = cb->metal;
    }
    if (cb->group) { /* a placement's own colour */
      float base[3] = {sh.base[0][l], sh.base[1][l], sh.base[2][l]};
      sensim__camera_vary_base(cb, pk->geom[l], base);
      for (int c = 0; c < 3; c++) sh.base[c][l] = base[c];
    }
  }
  unsigned shaded = 0; /* hits that light reaches through the fog */
  for (int l = 0; l < LANES; l++)
    if (((hit >> l) & 1) && sh.T[l] > 0) shaded |= 1u << l;
  if (!shaded) return SENSIM_OK;
  sensim__camera_surfaces16(pk, &sh, r->ambient);
  /* Shading normals (vertex normals, normal maps) where the material has
   * them, now that the geometric normal faces the viewer; secondary rays
   * keep their offset along the geometric one. */
  for (unsigned lv = varied & shaded; lv; lv &= lv - 1) {
    const int l = __builtin_ctz(lv);
    const int body = (int)pk->body[l];
    float rot[9], n[3];
    const float ng[3] = {sh.nx[l], sh.ny[l], sh.nz[l]}, view[3] = {sh.vx[l], sh.vy[l], sh.vz[l]};
    sensim__rt_body_matrix(r->view, body, pk->geom[l], pk->time[l], rot);
    sensim__surface_normal(snap, body, pk->prim[l], pk->u[l], pk->v[l], rot, ng, view, n);
    sh.nx[l] = n[0], sh.ny[l] = n[1], sh.nz[l] = n[2];
  }
  const int mirrors = bounce < r->cam->p.max_bounces;
  for (unsigned ls = shaded; ls; ls &= ls - 1) {
    const int l = __builtin_ctz(ls);
    float *col = s->col[L->sample[l]];
    for (int c = 0; c < 3; c++) col[c] += sh.amb[c][l];
    if ((varied >> l) & 1)
      for (int c = 0; c < 3; c++) col[c] += sh.wt[c][l] * emit[c][l];
    if (mirrors && sh.rough[l] < SENSIM_MIRROR_ROUGHNESS) {
      sensim_surface sf = {.n = {sh.nx[l], sh.ny[l], sh.nz[l]},
                           .v = {sh.vx[l], sh.vy[l], sh.vz[l]},
                           .base = {sh.base[0][l], sh.base[1][l], sh.base[2][l]},
                           .roughness = sh.rough[l],
                           .metallic = sh.metal[l]};
      float F[3];
      sensim__fresnel_view(&sf, F);
      const float wr[3] = {sh.wt[0][l] * F[0], sh.wt[1][l] * F[1], sh.wt[2][l] * F[2]};
      if (wr[0] + wr[1] + wr[2] < 1e-5f) continue;
      const float dn = 2.0f * sensim__dot3f(sf.v, sf.n);
      const float refl[3] = {sf.n[0] * dn - sf.v[0], sf.n[1] * dn - sf.v[1], sf.n[2] * dn - sf.v[2]};
      const float po[3] = {sh.pox[l], sh.poy[l], sh.poz[l]};
      sensim_status rc = sensim__camera_wave_push(&s->next, po, refl, pk->time[l], wr, L->sample[l]);
      if (rc) return rc;
    }
  }
  for (size_t li = 0; li < snap->nlights; li++) {
    const sensim_light *light = &snap->lights[li];
    float dist[LANES];
    if (light->kind == SENSIM_LIGHT_DIRECTIONAL) {
      float to[3], irr, d = INFINITY;
      const float o[3] = {0, 0, 0};
      if (li < RENDER_SUNS) {
        if (!r->sun_ok[li]) continue;
        memcpy(to, r->sun_to[li], sizeof to);
        irr = r->sun_irr[li];
      } else if (!sensim__light_at(light, o, to, &irr, &d)) {
        continue;
      }
      for (int l = 0; l < LANES; l++) {
        sh.tox[l] = to[0], sh.toy[l] = to[1], sh.toz[l] = to[2];
        sh.irr[l] = (shaded >> l) & 1 ? irr : 0.0f;
        dist[l] = d;
      }
    } else {
      for (int l = 0; l < LANES; l++) {
        float to[3] = {0, 0, 1}, irr = 0, d = 0;
        const float po[3] = {sh.pox[l], sh.poy[l], sh.poz[l]};
        if (!((shaded >> l) & 1) || !sensim__light_at(light, po, to, &irr, &d)) irr = 0.0f;
        sh.tox[l] = to[0], sh.toy[l] = to[1], sh.toz[l] = to[2];
        sh.irr[l] = irr;
        dist[l] = d;
      }
    }
    sensim__camera_lights16(&sh, light->color);
    unsigned cast = 0;
    for (int l = 0; l < LANES; l++)
      if (((shaded >> l) & 1) && sh.lit[l] != 0.0f) cast |= 1u << l;
    if (!cast) continue;
    if (!light->cast_shadows) {
      for (int l = 0; l < LANES; l++)
        if ((cast >> l) & 1) {
          float *col = s->col[L->sample[l]];
          for (int c = 0; c < 3; c++) col[c] += sh.contrib[c][l];
        }
      continue;
    }
    /* The shadow packet is the shading state's arrays, copied whole (lanes
     * not cast are masked). */
    sensim_rt_shadow16 sp;
    memcpy(sp.org_x, sh.pox, sizeof sp.org_x);
    memcpy(sp.org_y, sh.poy, sizeof sp.org_y);
    memcpy(sp.org_z, sh.poz, sizeof sp.org_z);
    memcpy(sp.dir_x, sh.tox, sizeof sp.dir_x);
    memcpy(sp.dir_y, sh.toy, sizeof sp.dir_y);
    memcpy(sp.dir_z, sh.toz, sizeof sp.dir_z);
    memset(sp.tnear, 0, sizeof sp.tnear);
    memcpy(sp.tfar, dist, sizeof sp.tfar);
    memcpy(sp.time, pk->time, sizeof sp.time);
    const unsigned lit = cast & ~sensim__rt_occluded16(r->view, &sp, cast);
    for (unsigned ll = lit; ll; ll &= ll - 1) {
      const int l = __builtin_ctz(ll);
      float *col = s->col[L->sample[l]];
      for (int c = 0; c < 3; c++) col[c] += sh.contrib[c][l];
    }
  }
  return SENSIM_OK;
}

/* Trace and shade the queued reflections, a bounce at a time, in packets of
 * 16 scattered rays. */
static sensim_status reflections(render *r) {
  sensim_camera_scratch *s = r->s;
  for (int bounce = 1; s->next.n > 0; bounce++) {
    const sensim_camera_wave cur = sensim__camera_wave_next(s);
    for (size_t i = 0; i < cur.n; i += LANES) {
      lanes L;
      sensim__camera_wave_lanes(&cur, i, &L);
      sensim__rt_intersect16(r->view, &L.pk, L.valid, 0);
      sensim_status rc = shade(r, &L, bounce);
      if (rc) return rc;
    }
  }
  return SENSIM_OK;
}

sensim_camera_wave sensim__camera_wave_next(sensim_camera_scratch *s) {
  sensim_camera_wave cur = s->next;
  s->next = s->cur;
  s->next.n = 0;
  s->cur = cur;
  return cur;
}

void sensim__camera_wave_lanes(const sensim_camera_wave *q, size_t i, lanes *L) {
  L->valid = L->plane = 0;
  for (int l = 0; l < LANES && i + l < q->n; l++) {
    const sensim_camera_wave_ray *e = &q->ray[i + l];
    L->pk.org_x[l] = e->org[0], L->pk.org_y[l] = e->org[1], L->pk.org_z[l] = e->org[2];
    L->pk.dir_x[l] = e->dir[0], L->pk.dir_y[l] = e->dir[1], L->pk.dir_z[l] = e->dir[2];
    L->pk.tnear[l] = 0.0f;
    L->pk.tfar[l] = INFINITY;
    L->pk.time[l] = e->time;
    for (int c = 0; c < 3; c++) L->w[c][l] = e->w[c];
    L->sample[l] = e->sample;
    L->valid |= 1u << l;
  }
}

/* The direct integrator: the strip's primary packets shaded tile by tile,
 * then its mirror reflections. */
static sensim_status direct_strip(render *r, uint32_t y0, uint32_t nrows) {
  const sensim_camera *cam = r->cam;
  const uint32_t tiles = (cam->p.width + TILE - 1) / TILE;
  sensim__camera_strip_samples(r, y0, nrows);
  r->s->next.n = 0;
  lanes L;
  for (uint32_t tx = 0; tx < tiles; tx++)
    for (int k = 0; k < cam->p.samples; k++)
      for (int c = 0; c < cam->nch; c++) {
        sensim__camera_tile_rays(r, y0, nrows, tx, k, c, &L);
        if (!L.valid) continue;
        sensim__rt_intersect16(r->view, &L.pk, L.valid, 1);
        sensim_status rc = shade(r, &L, 0);
        if (rc) return rc;
      }
  return reflections(r);
}

/* The integrators by sensim_integrator: each renders a strip's samples
 * into its scratch. */
static sensim_status (*const integrators[])(render *r, uint32_t y0, uint32_t nrows) = {
    [SENSIM_INTEGRATOR_DIRECT] = direct_strip,
    [SENSIM_INTEGRATOR_PATH] = sensim__camera_path_strip,
};

static sensim_status render_strip(render *r, uint32_t y0, sensim_frame *f) {
  const sensim_camera *cam = r->cam;
  const uint32_t nrows = cam->p.height - y0 < TILE ? cam->p.height - y0 : TILE;
  sensim_status rc = integrators[cam->p.integrator](r, y0, nrows);
  if (rc) return rc;
  sensim__camera_resolve(cam, r->s, r->bodies, r->fixed, r->rot, y0, nrows, f);
  return SENSIM_OK;
}

/* A band of strips rendered by one pool job, with scratch taken from the
 * camera; the view and the pose table are shared read-only. */
typedef struct band {
  sensim_band b; /* strips [b.lo, b.hi) */
  render r;
  sensim_frame *f;
} band;

static void band_run(void *arg) {
  band *b = arg;
  render *r = &b->r;
  sensim_status rc = sensim__camera_scratch_take((sensim_camera *)r->cam, &r->s);
  for (size_t st = b->b.lo; st < b->b.hi && !rc; st++) rc = render_strip(r, (uint32_t)(st * TILE), b->f);
  if (rc) sensim__band_fail(&b->b, rc);
  if (r->s) sensim__camera_scratch_give((sensim_camera *)r->cam, r->s);
}

sensim_status sensim__camera_render(const sensim_capture_ctx *ctx, sensim_frame *f) {
  const sensim_camera *cam = ctx->impl;
  sensim_rt_view *view = NULL;
  sensim_pose_table poses = {0, 0, 0, NULL};
  band bands[SENSIM_CAMERA_MAX_BANDS];
  sensim_camera_scratch *table = NULL; /* holds the frame's body table */
  sensim_emitters emitters = {0, NULL, NULL, NULL, 0.0, NULL, NULL, NULL};
  sensim_status rc = sensim__traced_view(ctx, &view);
  if (rc) goto done;
  /* The sensor's pose over the whole readout; it cannot move if it is fixed
   * to the world or to a static body, or if the readout is instantaneous. */
  double span = cam->p.exposure_time + cam->readout;
  int fixed = span <= 0 || sensim__ctx_fixed(ctx);
  int entries = fixed ? 1 : 65 + (int)(cam->p.line_time > 0 ? cam->p.height / 4 : 0);
  if ((rc = sensim__pose_table_init(&poses, ctx, ctx->t_capture - span, ctx->t_capture, entries))) goto done;
  render base;
  memset(&base, 0, sizeof base);
  base.key = ctx->key;
  base.cam = cam;
  base.snap = ctx->snap;
  base.view = view;
  base.poses = poses;
  base.fixed = poses.n == 1;
  if (base.fixed) {
    base.org[0] = (float)poses.pose[0].pos.x, base.org[1] = (float)poses.pose[0].pos.y;
    base.org[2] = (float)poses.pose[0].pos.z;
    q_matrix_f(poses.pose[0].rot, base.rot);
  }
  double pin[4];
  base.pinhole = base.fixed && cam->dof_radius == 0 && sensim__optics_pinhole(cam->optics, pin);
  if (base.pinhole) {
    base.pin.cx = pin[0], base.pin.cy = pin[1], base.pin.isx = pin[2], base.pin.isy = pin[3];
    memcpy(base.pin.org, base.org, sizeof base.org);
    q_matrix(poses.pose[0].rot, base.pin.rot);
  }
  base.static_view = sensim__rt_view_is_static(view);
  for (int c = 0; c < 3; c++) base.bg[c] = ctx->snap->params.background[c];
  /* The world's weather: its fog unless the camera has its own, plus rain
   * and snow (scene/weather.c; docs/weather.md). */
  base.beta = (float)sensim__weather_beta(&ctx->snap->params.weather, cam->p.fog_visibility);
  base.ambient = (float)(ctx->snap->params.ambient / M_PI);
  if (ctx->snap->env)
    base.env = *ctx->snap->env;
  else
    sensim__env_uniform(&base.env, base.bg);
  if (cam->p.integrator == SENSIM_INTEGRATOR_PATH) {
    if ((rc = sensim__emitters_build(ctx->snap, &emitters))) goto done;
    base.emitters = emitters.n ? &emitters : NULL;
  }
  for (size_t li = 0; li < ctx->snap->nlights && li < RENDER_SUNS; li++) {
    const float o[3] = {0, 0, 0};
    float d;
    const sensim_light *l = &ctx->snap->lights[li];
    base.sun_ok[li] =
        l->kind == SENSIM_LIGHT_DIRECTIONAL && sensim__light_at(l, o, base.sun_to[li], &base.sun_irr[li], &d);
  }
  /* Bands of strips on the pool: rows draw from their own random streams
   * and strips write disjoint pixels, so the image is the same however it
   * is banded. */
  const size_t strips = (cam->p.height + TILE - 1) / TILE;
  size_t nb = sensim__fork_band_count(ctx->fork, strips, 1);
  if (nb > SENSIM_CAMERA_MAX_BANDS) nb = SENSIM_CAMERA_MAX_BANDS;
  /* At most the workers and the joining thread run bands at once; one set
   * more holds the frame's body table, filled once here and read by every
   * band. */
  const size_t busy = (size_t)sensim__fork_threads(ctx->fork) + 1;
  if ((rc = sensim__camera_scratch_reserve((sensim_camera *)cam, (busy < nb ? busy : nb) + 1, ctx->snap->nbodies))) goto done;
  if ((rc = sensim__camera_scratch_take((sensim_camera *)cam, &table)) ||
      (rc = sensim__camera_scratch_bodies(table, ctx->snap)))
    goto done;
  base.bodies = table->bodies;
  for (size_t i = 0; i < nb; i++) {
    bands[i].r = base;
    bands[i].f = f;
  }
  rc = sensim__fork_run_bands(ctx->fork, strips, bands, nb, sizeof *bands, band_run);
done:
  sensim__emitters_free(&emitters);
  if (table) sensim__camera_scratch_give((sensim_camera *)cam, table);
  sensim__pose_table_free(&poses);
  sensim__rt_view_destroy(view);
  return rc;
}
