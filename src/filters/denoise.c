/* filters/denoise.c: the "denoise" filter, an edge-avoiding a-trous wavelet
 * guided by the camera's depth, normal and (when present) albedo planes
 * and by a running luminance variance (the model and its sources are in
 * filters/denoise.h).
 *
 * "denoise" rgb_f32 / gray_f32 -> the same, unit kept,
 *   {"iterations": 1..10 [5], "sigma_luminance": >= 0 [4],
 *    "sigma_normal": >= 0 [128], "sigma_depth": >= 0 [1]}.
 *   Put it first in the chain, on the renderer's radiance, before any
 *   sensor noise: it removes Monte Carlo noise, and a real camera's noise
 *   is what the later filters add. Needs the depth or the normal plane
 *   (both by default); after a filter that drops them (downsample) it is
 *   refused with a message saying so. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/bands.h"
#include "filters/chain.h"
#include "filters/denoise.h"

void sensim__denoise_params_init(sensim_denoise_params *p) {
  p->iterations = 5;
  p->sigma_luminance = 4.0;
  p->sigma_normal = 128.0;
  p->sigma_depth = 1.0;
}

/* What every band of one pass reads and writes. */
typedef struct pass {
  uint32_t w, h;
  size_t nch;
  const float *src, *svar; /* colour (albedo divided out) and variance in */
  float *dst, *dvar;       /* out */
  const float *depth, *nrm, *gx, *gy;
  const uint8_t *cls;      /* 1: something hit, 0: nothing */
  int step;
  float sl, sn, sz;        /* sigmas (0: that stop off) */
} pass;

static inline float luminance(const float *c, size_t nch) {
  return nch == 3 ? 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2] : c[0];
}

/* Initial per-pixel variance of the luminance over the 3 x 3 neighbours
 * on the same surface class (SVGF's spatial estimate when there is no
 * history). */
static void variance_rows(void *arg, size_t lo, size_t hi) {
  const pass *P = arg;
  const int W = (int)P->w, H = (int)P->h;
  for (int y = (int)lo; y < (int)hi; y++)
    for (int x = 0; x < W; x++) {
      const size_t p = (size_t)y * W + x;
      double s = 0, s2 = 0;
      int n = 0;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          const int qx = x + dx, qy = y + dy;
          if (qx < 0 || qy < 0 || qx >= W || qy >= H) continue;
          const size_t q = (size_t)qy * W + qx;
          if (P->cls[q] != P->cls[p]) continue;
          const double l = luminance(P->src + q * P->nch, P->nch);
          s += l, s2 += l * l, n++;
        }
      const double m = s / n, v = s2 / n - m * m;
      P->dvar[p] = v > 0 ? (float)v : 0.0f;
    }
}

/* The depth gradient per pixel: of the two one-sided differences along
 * each axis, the smaller in size (a central difference would straddle a
 * depth edge); 0 where no neighbour lies on the same surface class. */
static float one_sided(const pass *P, size_t p, size_t a, int a_ok, size_t b, int b_ok) {
  float da = a_ok && P->cls[a] == P->cls[p] ? P->depth[p] - P->depth[a] : NAN;
  float db = b_ok && P->cls[b] == P->cls[p] ? P->depth[b] - P->depth[p] : NAN;
  if (isnan(da)) return isnan(db) ? 0.0f : db;
  if (isnan(db)) return da;
  return fabsf(da) < fabsf(db) ? da : db;
}

static void gradient_rows(void *arg, size_t lo, size_t hi) {
  const pass *P = arg;
  const uint32_t W = P->w, H = P->h;
  float *gx = (float *)P->gx, *gy = (float *)P->gy;
  for (uint32_t y = (uint32_t)lo; y < hi; y++)
    for (uint32_t x = 0; x < W; x++) {
      const size_t p = (size_t)y * W + x;
      if (!P->cls[p]) {
        gx[p] = gy[p] = 0.0f;
        continue;
      }
      gx[p] = one_sided(P, p, p - (x > 0), x > 0, p + (x + 1 < W), x + 1 < W);
      gy[p] = one_sided(P, p, p - (y > 0 ? W : 0), y > 0, p + (y + 1 < H ? W : 0), y + 1 < H);
    }
}

static const float kB3[5] = {1.0f / 16, 4.0f / 16, 6.0f / 16, 4.0f / 16, 1.0f / 16};

/* 3 x 3 Gaussian (1 2 1)/4 of the variance over same-class neighbours. */
static float blurred_variance(const pass *P, int x, int y) {
  static const float g[3] = {0.25f, 0.5f, 0.25f};
  const int W = (int)P->w, H = (int)P->h;
  const size_t p = (size_t)y * W + x;
  float s = 0, ws = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      const int qx = x + dx, qy = y + dy;
      if (qx < 0 || qy < 0 || qx >= W || qy >= H) continue;
      const size_t q = (size_t)qy * W + qx;
      if (P->cls[q] != P->cls[p]) continue;
      const float k = g[dx + 1] * g[dy + 1];
      s += k * P->svar[q], ws += k;
    }
  return s / ws;
}

static void atrous_rows(void *arg, size_t lo, size_t hi) {
  const pass *P = arg;
  const int W = (int)P->w, H = (int)P->h, s = P->step;
  const size_t nch = P->nch;
  for (int y = (int)lo; y < (int)hi; y++)
    for (int x = 0; x < W; x++) {
      const size_t p = (size_t)y * W + x;
      const float *cp = P->src + p * nch;
      const float lp = luminance(cp, nch);
      const int hit = P->cls[p];
      /* Luminance stop: sigma_l standard deviations of the local noise. */
      const float lscale = P->sl > 0 ? P->sl * sqrtf(blurred_variance(P, x, y)) + 1e-10f : 0.0f;
      const float zp = P->depth && hit ? P->depth[p] : 0.0f;
      const float gxp = P->depth && hit ? P->gx[p] : 0.0f, gyp = P->depth && hit ? P->gy[p] : 0.0f;
      const float *np = P->nrm ? P->nrm + 3 * p : NULL;
      float acc[3] = {0, 0, 0}, wsum = 0, w2sum = 0;
      for (int dy = -2; dy <= 2; dy++) {
        const int qy = y + dy * s;
        if (qy < 0 || qy >= H) continue;
        for (int dx = -2; dx <= 2; dx++) {
          const int qx = x + dx * s;
          if (qx < 0 || qx >= W) continue;
          const size_t q = (size_t)qy * W + qx;
          if (P->cls[q] != hit) continue;
          const float *cq = P->src + q * nch;
          float e = 0.0f; /* minus the log of w_z w_l w_n */
          if (lscale > 0) e += fabsf(lp - luminance(cq, nch)) / lscale;
          if (hit && P->depth && P->sz > 0) {
            const float plane = fabsf(gxp * (float)(dx * s) + gyp * (float)(dy * s));
            e += fabsf(zp - P->depth[q]) / (P->sz * plane + 1e-6f * (1.0f + zp));
          }
          if (hit && np && P->sn > 0) {
            const float *nq = P->nrm + 3 * q;
            const float d = np[0] * nq[0] + np[1] * nq[1] + np[2] * nq[2];
            if (!(d > 0)) continue;
            e -= P->sn * logf(d < 1.0f ? d : 1.0f);
          }
          const float wgt = kB3[dx + 2] * kB3[dy + 2] * expf(-e);
          for (size_t c = 0; c < nch; c++) acc[c] += wgt * cq[c];
          wsum += wgt;
          w2sum += wgt * wgt * P->svar[q];
        }
      }
      /* The centre tap always counts (e = 0), so wsum > 0. */
      for (size_t c = 0; c < nch; c++) P->dst[p * nch + c] = acc[c] / wsum;
      P->dvar[p] = w2sum / (wsum * wsum);
    }
}

sensim_status sensim__denoise(float *img, size_t nch, uint32_t w, uint32_t h, const float *depth,
                              const float *normals, const float *albedo, const sensim_denoise_params *prm) {
  const size_t n = (size_t)w * h;
  float *buf = malloc(n * (2 * nch + 4) * sizeof *buf);
  uint8_t *cls = malloc(n);
  if (!buf || !cls) {
    free(buf);
    free(cls);
    return sensim__fail(SENSIM_ENOMEM, "denoise: out of memory for a %u x %u image", w, h);
  }
  float *col[2] = {buf, buf + n * nch}, *var[2] = {buf + 2 * n * nch, buf + 2 * n * nch + n};
  float *gx = buf + 2 * n * nch + 2 * n, *gy = gx + n;
  for (size_t p = 0; p < n; p++) {
    int hit = 1;
    if (depth) hit = isfinite(depth[p]) && depth[p] > 0;
    if (normals && hit) hit = normals[3 * p] != 0 || normals[3 * p + 1] != 0 || normals[3 * p + 2] != 0;
    cls[p] = (uint8_t)hit;
    for (size_t c = 0; c < nch; c++) {
      /* Demodulate: filter irradiance-like values, keep texture detail. */
      const float a = albedo ? albedo[p * nch + c] : 1.0f;
      col[0][p * nch + c] = a > 1e-3f ? img[p * nch + c] / a : img[p * nch + c];
    }
  }
  pass P = {.w = w, .h = h, .nch = nch, .src = col[0], .svar = NULL, .dst = NULL, .dvar = var[0],
            .depth = depth, .nrm = normals, .gx = gx, .gy = gy, .cls = cls, .step = 1,
            .sl = (float)prm->sigma_luminance, .sn = (float)prm->sigma_normal, .sz = (float)prm->sigma_depth};
  sensim__filter_bands(h, 8, variance_rows, &P);
  if (depth) sensim__filter_bands(h, 8, gradient_rows, &P);
  int cur = 0;
  for (int i = 0; i < prm->iterations; i++) {
    P.src = col[cur], P.svar = var[cur], P.dst = col[!cur], P.dvar = var[!cur], P.step = 1 << i;
    sensim__filter_bands(h, 4, atrous_rows, &P);
    cur = !cur;
  }
  for (size_t p = 0; p < n; p++)
    for (size_t c = 0; c < nch; c++) {
      const float a = albedo ? albedo[p * nch + c] : 1.0f;
      img[p * nch + c] = a > 1e-3f ? col[cur][p * nch + c] * a : col[cur][p * nch + c];
    }
  free(buf);
  free(cls);
  return SENSIM_OK;
}

/* ---- the filter ---- */

static sensim_status denoise_create(const cJSON *params, void **user) {
  static const char *const known[] = {"iterations", "sigma_luminance", "sigma_normal", "sigma_depth", NULL};
  sensim_denoise_params p;
  sensim__denoise_params_init(&p);
  double it = p.iterations;
  sensim_status rc = sensim__param_only(params, "denoise", known);
  if (!rc) rc = sensim__param_number(params, "iterations", &it);
  if (!rc) rc = sensim__param_number(params, "sigma_luminance", &p.sigma_luminance);
  if (!rc) rc = sensim__param_number(params, "sigma_normal", &p.sigma_normal);
  if (!rc) rc = sensim__param_number(params, "sigma_depth", &p.sigma_depth);
  if (rc) return rc;
  if (!(it >= 1 && it <= 10 && it == floor(it)))
    return sensim__fail(SENSIM_EINVAL, "denoise: iterations %g must be a whole number in 1 .. 10", it);
  p.iterations = (int)it;
  const struct {
    const char *name;
    double v;
  } sig[] = {{"sigma_luminance", p.sigma_luminance}, {"sigma_normal", p.sigma_normal}, {"sigma_depth", p.sigma_depth}};
  for (size_t i = 0; i < sizeof sig / sizeof sig[0]; i++)
    if (!(sig[i].v >= 0 && sig[i].v <= 1e6))
      return sensim__fail(SENSIM_EINVAL, "denoise: %s %g must be in [0, 1e6] (0 turns that edge stop off)",
                          sig[i].name, sig[i].v);
  sensim_denoise_params *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = p;
  *user = u;
  return SENSIM_OK;
}

static sensim_status denoise_init(void *user, sensim_payload in) {
  (void)user;
  if (in == SENSIM_PAYLOAD_RGB_F32 || in == SENSIM_PAYLOAD_GRAY_F32) return SENSIM_OK;
  return sensim__fail(SENSIM_ETYPE, "takes rgb_f32 or gray_f32, not %s", sensim_payload_name(in));
}

static sensim_status denoise_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  if (!f->depth && !f->normals)
    return sensim__fail(SENSIM_EINVAL,
                        "denoise: the frame has neither a depth nor a normal plane to guide it (put denoise "
                        "before filters that drop them, such as downsample)");
  const size_t nch = f->type == SENSIM_PAYLOAD_RGB_F32 ? 3 : 1;
  return sensim__denoise(f->data, nch, f->width, f->height, f->depth, f->normals, NULL, user);
}

static const sensim_payload kRgbOrGray[] = {SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_GRAY_F32, SENSIM_PAYLOAD_NONE};

const sensim_builtin_filter sensim__filter_denoise = {
    .def = {.name = "denoise",
            .in = SENSIM_PAYLOAD_ANY,
            .out = SENSIM_PAYLOAD_ANY,
            .init = denoise_init,
            .apply = denoise_apply,
            .destroy = free},
    .create = denoise_create,
    .accepts = kRgbOrGray};
