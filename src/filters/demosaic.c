/* filters/demosaic.c: "demosaic", raw_f32 (Bayer mosaic, frame.cfa) ->
 * rgb_f32, the unit kept and frame.cfa reset to NONE.
 *
 * Parameters: {"method": "bilinear" | "mhc" ["mhc"]}.
 *   bilinear: each missing colour is the mean of the pixels of that colour in
 *     the 3 x 3 neighbourhood (2 or 4 of them), the classic bilinear Bayer
 *     interpolation (e.g. Malvar, He & Cutler 2004, section 1).
 *   mhc: H. S. Malvar, L.-W. He, R. Cutler, "High-quality linear
 *     interpolation for demosaicing of Bayer-patterned color images",
 *     ICASSP 2004, vol. 3, pp. 485-488: bilinear plus a gain-corrected
 *     Laplacian of the colour sampled at the pixel, as the eight 5 x 5
 *     kernels of their Fig. 2 (coefficients in units of 1/8, gains
 *     alpha = 1/2, beta = 5/8, gamma = 3/4).
 * Both are linear and reproduce an image whose channels are affine in
 * (x, y) exactly, away from the borders.
 *
 * Borders: the mosaic is mirrored about its first and last row and column
 * without repeating them (x = -k reads x = k, x = W - 1 + k reads
 * x = W - 1 - k). That reflection keeps the parity of x and y, so a mirrored
 * pixel carries the colour the CFA would have there and the kernels apply
 * unchanged up to the edge. The mosaic must be at least 2 x 2 pixels. */
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "core/internal.h"
#include "filters/bands.h"
#include "filters/chain.h"

typedef enum demosaic_method { DEMOSAIC_BILINEAR, DEMOSAIC_MHC } demosaic_method;

/* Malvar, He & Cutler 2004, Fig. 2, in units of 1/8. */
static const double kMhcG[5][5] = {/* G at R and at B sites */
                                   {0, 0, -1, 0, 0},
                                   {0, 0, 2, 0, 0},
                                   {-1, 2, 4, 2, -1},
                                   {0, 0, 2, 0, 0},
                                   {0, 0, -1, 0, 0}};
static const double kMhcRow[5][5] = {/* at a G site, the colour whose samples are its left/right neighbours */
                                     {0, 0, 0.5, 0, 0},
                                     {0, -1, 0, -1, 0},
                                     {-1, 4, 5, 4, -1},
                                     {0, -1, 0, -1, 0},
                                     {0, 0, 0.5, 0, 0}};
static const double kMhcCol[5][5] = {/* at a G site, the colour whose samples are above/below it */
                                     {0, 0, -1, 0, 0},
                                     {0, -1, 4, -1, 0},
                                     {0.5, 0, 5, 0, 0.5},
                                     {0, -1, 4, -1, 0},
                                     {0, 0, -1, 0, 0}};
static const double kMhcDiag[5][5] = {/* R at B sites and B at R sites */
                                      {0, 0, -1.5, 0, 0},
                                      {0, 2, 0, 2, 0},
                                      {-1.5, 0, 6, 0, -1.5},
                                      {0, 2, 0, 2, 0},
                                      {0, 0, -1.5, 0, 0}};

#define PAD 2       /* half the 5 x 5 kernel */
#define PAD_SLACK 8 /* floats after the padded mosaic that the AVX2 loads may read (never use) */

typedef struct demosaic_state {
  demosaic_method method;
  float *pad;      /* the padded mosaic of the last frame: scratch kept between frames */
  size_t pad_cap;  /* floats allocated at pad */
} demosaic_state;

static sensim_status demosaic_create(const cJSON *params, void **user) {
  static const char *const known[] = {"method", NULL};
  sensim_status rc = sensim__param_only(params, "demosaic", known);
  if (rc) return rc;
  demosaic_method m = DEMOSAIC_MHC;
  const cJSON *it = params ? cJSON_GetObjectItemCaseSensitive(params, "method") : NULL;
  if (it) {
    if (!cJSON_IsString(it)) return sensim__fail(SENSIM_EINVAL, "demosaic: parameter 'method' must be a string");
    if (strcmp(it->valuestring, "bilinear") == 0)
      m = DEMOSAIC_BILINEAR;
    else if (strcmp(it->valuestring, "mhc") == 0)
      m = DEMOSAIC_MHC;
    else {
      static const char *const methods[] = {"bilinear", "mhc", NULL};
      char hint[96];
      return sensim__fail(SENSIM_EINVAL, "demosaic: unknown method '%s'%s (bilinear, mhc)", it->valuestring,
                          sensim__did_you_mean(hint, sizeof hint, it->valuestring, methods));
    }
  }
  demosaic_state *u = calloc(1, sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  u->method = m;
  *user = u;
  return SENSIM_OK;
}

static void demosaic_destroy(void *user) {
  demosaic_state *u = user;
  if (!u) return;
  free(u->pad);
  free(u);
}

/* Index of i in [0, n) after mirroring without repeating the edge sample
 * (n >= 2); keeps the parity of i. */
static long reflect101(long i, long n) {
  long p = 2 * (n - 1);
  i %= p;
  if (i < 0) i += p;
  return i < n ? i : p - i;
}

__attribute__((always_inline)) static inline double kernel5(const float *c, size_t stride, const double k[5][5]) {
  double s = 0.0;
  for (int dy = 0; dy < 5; dy++) {
    const float *row = c + (ptrdiff_t)(dy - PAD) * (ptrdiff_t)stride - PAD;
    for (int dx = 0; dx < 5; dx++)
      if (k[dy][dx] != 0.0) s += k[dy][dx] * row[dx];
  }
  return s * 0.125;
}

/* Mean of the pixels of colour `want` among the 8 neighbours. */
static double bilinear_at(const float *c, size_t stride, const int col[4], long x, long y, int want) {
  double s = 0.0;
  int n = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      if (col[((x + dx + 2) & 1) + 2 * ((y + dy + 2) & 1)] != want) continue;
      s += c[(ptrdiff_t)dy * (ptrdiff_t)stride + dx];
      n++;
    }
  return s / n;
}

/* One MHC pixel: `own` is its colour, `horiz` (for green) the colour of
 * its left and right neighbours. Inlined with constant kernels, so the
 * zero taps vanish and the sums keep kernel5's order (the same bits). */
__attribute__((always_inline)) static inline void mhc_pixel(const float *c, size_t pw, int own, int horiz,
                                                           float *o) {
  double v[3];
  v[own] = *c;
  if (own == 1) {
    v[horiz] = kernel5(c, pw, kMhcRow);
    v[2 - horiz] = kernel5(c, pw, kMhcCol);
  } else {
    v[1] = kernel5(c, pw, kMhcG);
    v[2 - own] = kernel5(c, pw, kMhcDiag);
  }
  for (int ch = 0; ch < 3; ch++) o[ch] = (float)v[ch];
}

/* Row y of the MHC result: pixels alternate between two colours, so the
 * loop takes them in pairs with each one's kernels fixed. */
#if defined(SENSIM_HAVE_AVX2_PATHS)
/* kernel5 at four pixels two apart, c[0], c[2], c[4], c[6]: each tap loads
 * eight floats and keeps the even ones. The same products, added in the
 * same order from 0.0, so each lane is kernel5's bits. Reads up to
 * c[7 + 2 + 2 pw], hence the pad's slack (demosaic_apply). */
__attribute__((target("avx2"), always_inline)) static inline __m256d kernel5_x4(const float *c, size_t stride,
                                                                                 const double k[5][5]) {
  const __m256i evens = _mm256_set_epi32(7, 5, 3, 1, 6, 4, 2, 0);
  __m256d s = _mm256_setzero_pd();
  for (int dy = 0; dy < 5; dy++) {
    const float *row = c + (ptrdiff_t)(dy - PAD) * (ptrdiff_t)stride - PAD;
    for (int dx = 0; dx < 5; dx++)
      if (k[dy][dx] != 0.0) {
        __m256 v8 = _mm256_permutevar8x32_ps(_mm256_loadu_ps(row + dx), evens);
        s = _mm256_add_pd(s, _mm256_mul_pd(_mm256_set1_pd(k[dy][dx]), _mm256_cvtps_pd(_mm256_castps256_ps128(v8))));
      }
  }
  return _mm256_mul_pd(s, _mm256_set1_pd(0.125));
}

/* mhc_pixel at c[0], c[2], c[4], c[6], all of colour `own`, into v[3][4]. */
__attribute__((target("avx2"), always_inline)) static inline void mhc_x4(const float *c, size_t pw, int own,
                                                                          int horiz, float v[3][4]) {
  const __m256i evens = _mm256_set_epi32(7, 5, 3, 1, 6, 4, 2, 0);
  __m256 own8 = _mm256_permutevar8x32_ps(_mm256_loadu_ps(c), evens);
  _mm_storeu_ps(v[own], _mm256_cvtpd_ps(_mm256_cvtps_pd(_mm256_castps256_ps128(own8))));
  if (own == 1) {
    _mm_storeu_ps(v[horiz], _mm256_cvtpd_ps(kernel5_x4(c, pw, kMhcRow)));
    _mm_storeu_ps(v[2 - horiz], _mm256_cvtpd_ps(kernel5_x4(c, pw, kMhcCol)));
  } else {
    _mm_storeu_ps(v[1], _mm256_cvtpd_ps(kernel5_x4(c, pw, kMhcG)));
    _mm_storeu_ps(v[2 - own], _mm256_cvtpd_ps(kernel5_x4(c, pw, kMhcDiag)));
  }
}

/* Eight pixels at a time, the first of colour c0; returns how many it did. */
__attribute__((target("avx2"))) static long mhc_row_avx2(const float *prow, size_t pw, int c0, int c1, long W,
                                                         float *out) {
  long x = 0;
  for (; x + 8 <= W; x += 8) {
    float ev[3][4], od[3][4];
    mhc_x4(prow + x, pw, c0, c1, ev);
    mhc_x4(prow + x + 1, pw, c1, c0, od);
    for (int i = 0; i < 4; i++)
      for (int ch = 0; ch < 3; ch++) {
        out[3 * (x + 2 * i) + ch] = ev[ch][i];
        out[3 * (x + 2 * i + 1) + ch] = od[ch][i];
      }
  }
  return x;
}
#endif

static void mhc_row(const float *prow, size_t pw, const int *col, long y, long W, float *out) {
  int c0 = col[2 * (y & 1)], c1 = col[1 + 2 * (y & 1)];
  long x = 0;
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (sensim__cpu_has_avx2()) x = mhc_row_avx2(prow, pw, c0, c1, W, out);
#endif
  for (; x + 1 < W; x += 2) {
    const float *c = prow + x;
    if (c0 == 1) {
      mhc_pixel(c, pw, 1, c1, out + 3 * x);
      mhc_pixel(c + 1, pw, c1, 0, out + 3 * x + 3);
    } else {
      mhc_pixel(c, pw, c0, 0, out + 3 * x);
      mhc_pixel(c + 1, pw, 1, c0, out + 3 * x + 3);
    }
  }
  if (x < W) mhc_pixel(prow + x, pw, c0, c1, out + 3 * x);
}

/* Rows [y0, y1) of the result from the padded mosaic. */
typedef struct demosaic_job {
  demosaic_method method;
  const float *pad;
  size_t pw;
  const int *col;
  long W;
  float *rgb;
} demosaic_job;

static void demosaic_rows(void *arg, size_t y0, size_t y1) {
  const demosaic_job *j = arg;
  const int *col = j->col;
  size_t pw = j->pw;
  long W = j->W;
  for (long y = (long)y0; y < (long)y1; y++) {
    const float *prow = j->pad + (size_t)(y + PAD) * pw + PAD;
    float *out = j->rgb + 3 * (size_t)y * (size_t)W;
    if (j->method == DEMOSAIC_MHC) {
      mhc_row(prow, pw, col, y, W, out);
      continue;
    }
    for (long x = 0; x < W; x++) {
      const float *c = prow + x;
      int own = col[(x & 1) + 2 * (y & 1)];
      double v[3];
      v[own] = *c;
      for (int ch = 0; ch < 3; ch++)
        if (ch != own) v[ch] = bilinear_at(c, pw, col, x, y, ch);
      for (int ch = 0; ch < 3; ch++) out[3 * x + ch] = (float)v[ch];
    }
  }
}

static sensim_status demosaic_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  demosaic_state *u = user;
  demosaic_method method = u->method;
  if (f->cfa < SENSIM_CFA_RGGB || f->cfa > SENSIM_CFA_GBRG)
    return sensim__fail(SENSIM_ETYPE, "demosaic: the raw frame has no colour filter array layout (cfa NONE)");
  if (f->width < 2 || f->height < 2)
    return sensim__fail(SENSIM_EINVAL, "demosaic: a %u x %u mosaic is smaller than one 2 x 2 CFA cell",
                        f->width, f->height);
  const int *col = sensim__cfa_cell(f->cfa);
  long W = f->width, H = f->height;
  size_t pw = (size_t)W + 2 * PAD, ph = (size_t)H + 2 * PAD;
  if (u->pad_cap < pw * ph + PAD_SLACK) {
    float *np = malloc((pw * ph + PAD_SLACK) * sizeof *np);
    if (!np) return sensim__fail(SENSIM_ENOMEM, "demosaic: out of memory for a %zu x %zu mosaic", pw, ph);
    free(u->pad);
    u->pad = np;
    u->pad_cap = pw * ph + PAD_SLACK;
    memset(np + pw * ph, 0, PAD_SLACK * sizeof *np);
  }
  float *pad = u->pad;
  const float *raw = f->data;
  for (long y = -PAD; y < H + PAD; y++) {
    const float *src = raw + (size_t)reflect101(y, H) * (size_t)W;
    float *dst = pad + (size_t)(y + PAD) * pw + PAD;
    memcpy(dst, src, (size_t)W * sizeof *dst);
    for (long x = -PAD; x < 0; x++) dst[x] = src[reflect101(x, W)];
    for (long x = W; x < W + PAD; x++) dst[x] = src[reflect101(x, W)];
  }
  sensim_status rc = sensim__frame_alloc_unset(f, SENSIM_PAYLOAD_RGB_F32, (uint32_t)W, (uint32_t)H);
  if (rc) return rc;
  demosaic_job job = {.method = method, .pad = pad, .pw = pw, .col = col, .W = W, .rgb = f->data};
  sensim__filter_bands((size_t)H, 8, demosaic_rows, &job); /* rows in bands on the world's workers */
  f->cfa = SENSIM_CFA_NONE;
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_demosaic = {
    .def = {.name = "demosaic",
            .in = SENSIM_PAYLOAD_RAW_F32,
            .out = SENSIM_PAYLOAD_RGB_F32,
            .init = NULL,
            .apply = demosaic_apply,
            .destroy = demosaic_destroy},
    .create = demosaic_create,
    .accepts = NULL};
