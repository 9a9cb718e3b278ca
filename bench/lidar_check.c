/* bench/lidar_check.c: does sensim's lidar trace the scene bare Embree
 * traces? The model of a return applied to bare hits, and the comparisons
 * bench_lidar prints (lidar_check.h). Not part of the library. */
#include "lidar_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CHECK_PI 3.14159265358979323846

/* Per ray of r: the 1-ray hit distance (INFINITY on a miss) and
 * rho |cos theta| of the surface hit, from the instance's world normal. */
void lidar_check_truth(const bare *b, const bench_town *town, const rayset *r, float *t, float *rc) {
  struct RTCIntersectContext ctx;
  rtcInitIntersectContext(&ctx);
  for (size_t i = 0; i < r->n; i++) {
    const float *d = r->dir + 3 * i;
    struct RTCRayHit rh;
    memset(&rh, 0, sizeof rh);
    rh.ray.org_x = r->org[0], rh.ray.org_y = r->org[1], rh.ray.org_z = r->org[2];
    rh.ray.dir_x = d[0], rh.ray.dir_y = d[1], rh.ray.dir_z = d[2];
    rh.ray.tfar = r->tfar, rh.ray.mask = 0xFFFFFFFFu;
    rh.hit.geomID = rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(b->top, &ctx, &rh);
    t[i] = INFINITY, rc[i] = 0.0f;
    if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID) continue;
    unsigned in = rh.hit.instID[0];
    const float *m = b->rot[in];
    double n[3] = {m[0] * rh.hit.Ng_x + m[1] * rh.hit.Ng_y + m[2] * rh.hit.Ng_z,
                   m[3] * rh.hit.Ng_x + m[4] * rh.hit.Ng_y + m[5] * rh.hit.Ng_z,
                   m[6] * rh.hit.Ng_x + m[7] * rh.hit.Ng_y + m[8] * rh.hit.Ng_z};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double cosi = len > 0 ? fabs(n[0] * d[0] + n[1] * d[1] + n[2] * d[2]) / len : 0.0;
    t[i] = rh.ray.tfar;
    rc[i] = (float)(town->meshes[town->inst[in].mesh].material.reflectance * (cosi > 1 ? 1 : cosi));
  }
}

/* One sub-ray per beam: beam i against ray i. A return is expected where
 * the ray hits inside [min_range, max_range] with received power
 * rho cos / R^2 at or above the threshold of a reflectance-0.8 target at
 * detection_range (lidar.h; clear air); its intensity is rho |cos|
 * quantised to intensity_bits. */
void lidar_check_beams(const sensim_frame *f, const sensim_lidar_params *lp, const rayset *r, const float *t,
                       const float *rc, char out[5][BENCH_CELL]) {
  if (f->type != SENSIM_PAYLOAD_BEAMS || f->count != r->n) {
    snprintf(out[0], BENCH_CELL, "%zu beams for %zu rays: not compared", f->count, r->n);
    return;
  }
  const sensim_beam *bm = f->data;
  const double pmin = 0.8 / (lp->detection_range * lp->detection_range);
  const double q = (double)((1u << lp->intensity_bits) - 1u);
  size_t dir = 0, det = 0, ret = 0, exp_ret = 0, both = 0, rng = 0, iexact = 0, ilsb = 0;
  for (size_t i = 0; i < r->n; i++) {
    const float *d = r->dir + 3 * i;
    double az = atan2(d[1], d[0]), el = asin(d[2] > 1 ? 1 : d[2]);
    if (fabs(remainder(bm[i].azimuth - az, 2 * CHECK_PI)) < 1e-5 && fabs(bm[i].elevation - el) < 1e-5) dir++;
    int hit = t[i] >= lp->min_range && t[i] <= lp->max_range;
    int e = hit && (double)(float)(rc[i] / ((double)t[i] * t[i])) >= pmin, s = bm[i].range > 0;
    exp_ret += e, ret += s, det += e == s;
    if (!(e && s)) continue;
    both++;
    rng += fabs(bm[i].range - t[i]) <= 1e-3 + 1e-5 * t[i];
    double di = fabs(bm[i].intensity - nearbyint((rc[i] > 1 ? 1 : rc[i]) * q) / q) * q;
    iexact += di < 0.5, ilsb += di < 1.5;
  }
  double k = 100.0 / (double)(r->n ? r->n : 1), kb = 100.0 / (double)(both ? both : 1);
  snprintf(out[0], BENCH_CELL, "%zu vs %zu expected", ret, exp_ret);
  snprintf(out[1], BENCH_CELL, "%.2f%%", k * dir);
  snprintf(out[2], BENCH_CELL, "%.3f%%", k * det);
  snprintf(out[3], BENCH_CELL, "%.3f%%", kb * rng);
  snprintf(out[4], BENCH_CELL, "%.2f%% (%.2f%%)", kb * iexact, kb * ilsb);
}

size_t lidar_check_returns(const sensim_frame *f) {
  size_t n = 0;
  const sensim_beam *b = f->data;
  for (size_t i = 0; f->type == SENSIM_PAYLOAD_BEAMS && i < f->count; i++) n += b[i].range > 0;
  return n;
}

/* Several sub-rays: each return's range, a power-weighted mean of a group
 * of sub-ray hits, must lie within the span of that beam's sub-ray hits in
 * [min_range, max_range] (from the bare packets' last cast). */
void lidar_check_span(const sensim_frame *f, const sensim_lidar_params *lp, const rayset *r,
                      char out[5][BENCH_CELL]) {
  const size_t S = (size_t)lp->subrays, B = r->n / S;
  if (f->type != SENSIM_PAYLOAD_BEAMS || f->count != B) {
    snprintf(out[0], BENCH_CELL, "%zu beams for %zu: not compared", f->count, B);
    return;
  }
  const sensim_beam *bm = f->data;
  size_t ret = 0, in = 0, lit = 0;
  for (size_t i = 0; i < B; i++) {
    float lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < S; k++) {
      float t = r->t[i * S + k];
      if (!(t >= lp->min_range && t <= lp->max_range)) continue;
      lo = t < lo ? t : lo, hi = t > hi ? t : hi;
    }
    lit += hi >= lo;
    if (!(bm[i].range > 0)) continue;
    ret++;
    in += bm[i].range >= lo - 1e-3f - 1e-5f * lo && bm[i].range <= hi + 1e-3f + 1e-5f * hi;
  }
  snprintf(out[0], BENCH_CELL, "%zu (%zu beams with a sub-ray hit)", ret, lit);
  snprintf(out[3], BENCH_CELL, "%.3f%% within the sub-rays' span", 100.0 * in / (double)(ret ? ret : 1));
}
