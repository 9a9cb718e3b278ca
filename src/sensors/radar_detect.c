/* sensors/radar_detect.c: from echoes to detections.
 *
 * Cells. An echo falls in the resolution cell (floor(R / dR),
 * round(v / dv), round(az / daz)), dR = c / 2B the range resolution of an
 * FMCW chirp of bandwidth B, dv = lambda / (2 cpi) the Doppler resolution
 * over the coherent processing interval (Richards, "Fundamentals of Radar
 * Signal Processing", 2nd ed., 2014, eqs. 1.31 and 8.80), daz the
 * azimuth resolution. A cell's power is the coherent part
 * K (4 pi / lambda^2) |sum of amplitudes|^2 plus the incoherent part.
 *
 * Threshold. SNR = P / N with N = k T0 F / cpi, the noise of a filter
 * matched to the CPI (Richards eq. 2.18 and sec. 2.3: coherent
 * integration over the CPI gives SNR = E / (k T0 F) with E = P cpi). A
 * fixed threshold on the SNR: the noise is known, so a cell-averaging CFAR
 * would set the same level on an empty background.
 *
 * Clusters. Every cell over threshold climbs to its strongest neighbour
 * (the 26 cells differing by at most one in each index) while that one is
 * stronger (ties broken by cell order): cells that reach the same local
 * maximum form one detection. Two point targets more than two cells apart
 * in any index have an empty cell between them and stay two detections;
 * in the same or adjacent cells they become one (the resolution).
 *
 * Detection. Power-weighted centroid of the cells' range, velocity,
 * azimuth and elevation (each cell's own centroid weighted by its echoes'
 * powers); then Gaussian noise of sigma_range, sigma_azimuth,
 * sigma_elevation and sigma_velocity from the stream (seed, sensor,
 * frame, 0x52440000 + detection index), detections ordered by range. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensim/rng.h"
#include "sensors/radar_internal.h"

typedef struct key {
  long long ir, iv, ia;
  size_t i; /* echo index */
} key;

typedef struct cell {
  long long ir, iv, ia;
  double re, im, p_inc;
  double sw, sr, sv, saz, sel; /* echo-power-weighted sums */
  double wmax;                 /* strongest echo's power */
  uint32_t inst;
  uint16_t cls;
  double power;                /* W */
  size_t parent;
} cell;

typedef struct cluster {
  double power, r, v, az, el, pmax;
  uint32_t inst;
  uint16_t cls;
  unsigned cells;
} cluster;

static int cmp3(long long a0, long long a1, long long a2, long long b0, long long b1, long long b2) {
  if (a0 != b0) return a0 < b0 ? -1 : 1;
  if (a1 != b1) return a1 < b1 ? -1 : 1;
  if (a2 != b2) return a2 < b2 ? -1 : 1;
  return 0;
}

static int key_cmp(const void *pa, const void *pb) {
  const key *a = pa, *b = pb;
  int c = cmp3(a->ir, a->iv, a->ia, b->ir, b->iv, b->ia);
  if (c) return c;
  return a->i < b->i ? -1 : a->i > b->i;
}

/* Index of the cell (ir, iv, ia) among c[0 .. n), sorted, or n. */
static size_t find(const cell *c, size_t n, long long ir, long long iv, long long ia) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int k = cmp3(c[mid].ir, c[mid].iv, c[mid].ia, ir, iv, ia);
    if (k == 0) return mid;
    if (k < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return n;
}

/* (power, index) order: strictly stronger, ties to the later cell. */
static int stronger(const cell *c, size_t a, size_t b) {
  return c[a].power > c[b].power || (c[a].power == c[b].power && a > b);
}

static int by_power_desc(const void *pa, const void *pb) {
  const cluster *a = pa, *b = pb;
  if (a->power != b->power) return a->power > b->power ? -1 : 1;
  if (a->r != b->r) return a->r < b->r ? -1 : 1;
  return (a->az > b->az) - (a->az < b->az);
}

static int by_range(const void *pa, const void *pb) {
  const cluster *a = pa, *b = pb;
  if (a->r != b->r) return a->r < b->r ? -1 : 1;
  if (a->az != b->az) return a->az < b->az ? -1 : 1;
  return (a->v > b->v) - (a->v < b->v);
}

sensim_status sensim__radar_detect(const sensim_capture_ctx *ctx, sensim__radar_echo *e, size_t n,
                                   sensim_frame *frame) {
  const sensim__radar *R = ctx->impl;
  const sensim_radar_params *p = &R->p;
  const double coh = R->K * 4.0 * M_PI / (R->lambda * R->lambda);
  key *keys = malloc((n ? n : 1) * sizeof *keys);
  cell *cells = malloc((n ? n : 1) * sizeof *cells);
  cluster *cl = malloc((n ? n : 1) * sizeof *cl);
  size_t *root = malloc((n ? n : 1) * sizeof *root);
  sensim_status rc = SENSIM_OK;
  if (!keys || !cells || !cl || !root) {
    rc = sensim__fail(SENSIM_ENOMEM, "radar: out of memory for %zu echoes", n);
    goto done;
  }
  for (size_t i = 0; i < n; i++) {
    keys[i].ir = (long long)floor(e[i].range / R->dr);
    keys[i].iv = (long long)floor(e[i].vel / R->dv + 0.5);
    keys[i].ia = (long long)floor(e[i].az / p->azimuth_resolution + 0.5);
    keys[i].i = i;
  }
  qsort(keys, n, sizeof *keys, key_cmp);
  size_t nc = 0;
  for (size_t i = 0; i < n; i++) {
    const sensim__radar_echo *x = &e[keys[i].i];
    if (nc == 0 || cmp3(cells[nc - 1].ir, cells[nc - 1].iv, cells[nc - 1].ia, keys[i].ir, keys[i].iv, keys[i].ia)) {
      cell *c = &cells[nc++];
      memset(c, 0, sizeof *c);
      c->ir = keys[i].ir;
      c->iv = keys[i].iv;
      c->ia = keys[i].ia;
      c->wmax = -1.0;
    }
    cell *c = &cells[nc - 1];
    c->re += x->re;
    c->im += x->im;
    c->p_inc += x->p_inc;
    c->sw += x->w;
    c->sr += x->w * x->range;
    c->sv += x->w * x->vel;
    c->saz += x->w * x->az;
    c->sel += x->w * x->el;
    if (x->w > c->wmax) {
      c->wmax = x->w;
      c->inst = x->instance;
      c->cls = x->class_id;
    }
  }
  /* Keep the cells over threshold (still in key order). */
  size_t nd = 0;
  for (size_t i = 0; i < nc; i++) {
    cell c = cells[i];
    c.power = coh * (c.re * c.re + c.im * c.im) + c.p_inc;
    if (c.sw > 0 && c.power / R->noise >= R->snr_min) cells[nd++] = c;
  }
  for (size_t i = 0; i < nd; i++) {
    size_t best = i;
    for (int a = -1; a <= 1; a++)
      for (int b = -1; b <= 1; b++)
        for (int d = -1; d <= 1; d++) {
          if (!a && !b && !d) continue;
          size_t j = find(cells, nd, cells[i].ir + a, cells[i].iv + b, cells[i].ia + d);
          if (j < nd && stronger(cells, j, best)) best = j;
        }
    cells[i].parent = best;
  }
  size_t ncl = 0;
  for (size_t i = 0; i < nd; i++) {
    size_t r = i;
    while (cells[r].parent != r) r = cells[r].parent; /* strictly stronger each step: ends */
    root[i] = r;
  }
  /* One cluster per local maximum, numbered in cell order. */
  /* A local maximum's parent (itself) becomes its cluster's index. */
  for (size_t i = 0; i < nd; i++)
    if (root[i] == i) {
      cells[i].parent = ncl;
      memset(&cl[ncl], 0, sizeof cl[ncl]);
      cl[ncl].pmax = -1.0;
      ncl++;
    }
  for (size_t i = 0; i < nd; i++) {
    const cell *c = &cells[i];
    cluster *k = &cl[cells[root[i]].parent];
    k->power += c->power;
    k->r += c->power * c->sr / c->sw;
    k->v += c->power * c->sv / c->sw;
    k->az += c->power * c->saz / c->sw;
    k->el += c->power * c->sel / c->sw;
    k->cells++;
    if (c->power > k->pmax) {
      k->pmax = c->power;
      k->inst = c->inst;
      k->cls = c->cls;
    }
  }
  for (size_t i = 0; i < ncl; i++) {
    cl[i].r /= cl[i].power;
    cl[i].v /= cl[i].power;
    cl[i].az /= cl[i].power;
    cl[i].el /= cl[i].power;
  }
  if (ncl > SENSIM_RADAR_MAX_DETECTIONS) {
    qsort(cl, ncl, sizeof *cl, by_power_desc);
    ncl = SENSIM_RADAR_MAX_DETECTIONS;
  }
  qsort(cl, ncl, sizeof *cl, by_range);
  if ((rc = sensim_frame_alloc(frame, SENSIM_PAYLOAD_RADAR, (uint32_t)ncl, 1))) goto done;
  sensim_radar_detection *out = frame->data;
  for (size_t i = 0; i < ncl; i++) {
    const cluster *k = &cl[i];
    sensim_rng rng;
    sensim_rng_init(&rng, ctx->key.seed, ctx->key.sensor, ctx->key.frame, 0x52440000u + (uint32_t)i);
    double g[4];
    sensim_rng_normal2(&rng, &g[0], &g[1]);
    sensim_rng_normal2(&rng, &g[2], &g[3]);
    sensim_radar_detection *d = &out[i];
    d->range = fmax(0.0, k->r + p->sigma_range * g[0]);
    d->azimuth = k->az + p->sigma_azimuth * g[1];
    d->elevation = k->el + p->sigma_elevation * g[2];
    d->radial_velocity = k->v + p->sigma_velocity * g[3];
    const double ce = cos(d->elevation);
    d->point[0] = d->range * ce * cos(d->azimuth);
    d->point[1] = d->range * ce * sin(d->azimuth);
    d->point[2] = d->range * sin(d->elevation);
    /* sigma = P_r R^4 / K (radar equation solved for sigma at the true range) */
    d->rcs = 10.0 * log10(k->power * pow(k->r, 4) / R->K);
    d->power = 10.0 * log10(k->power / 1e-3);
    d->snr = 10.0 * log10(k->power / R->noise);
    d->instance_id = k->inst;
    d->class_id = k->cls;
    d->cells = (uint16_t)(k->cells > 65535u ? 65535u : k->cells);
  }
done:
  free(keys);
  free(cells);
  free(cl);
  free(root);
  return rc;
}
