/* filters/radar_rd_detect.c: "radar_cfar", radar_rd -> radar.
 *
 * The detector of the raw FMCW chain (docs/radar.md, "Raw FMCW"):
 *  1. CFAR (CA or OS, filters/radar_cfar.h) on the channel-summed power
 *     map [doppler][range] (core/fmcw.h). The summed noise of M channels
 *     is Gamma(M), not the exponential the threshold factor is derived for:
 *     the false-alarm rate is below the design pfa for M > 1 (the
 *     threshold is conservative), as for any non-coherent integration
 *     ahead of a square-law CFAR (Richards 2014, sec. 6.3 and 7.3).
 *  2. Each hit's range and radial velocity from its bins, its azimuth from
 *     the zero-padded DFT over the virtual array at that cell
 *     (filters/radar_peak.h), as (range m, velocity m/s, azimuth rad).
 *  3. DBSCAN (filters/radar_dbscan.h) of the hits with one eps per axis:
 *     one detection per cluster (noise points, with min_pts > 1, dropped).
 *  4. Per cluster, its strongest cell refined: range and Doppler by the
 *     log-parabola through its neighbours, range corrected for the
 *     Doppler in the beat frequency (R = (f_b - 2 v / lambda) c / 2S,
 *     radar_adc.c), azimuth at the refined velocity (TDM phase removed).
 *     Received power: the cell's mean channel power over gain^2 (a tone of
 *     amplitude A on a bin peaks at A gain per channel), so straddle
 *     between bins reads up to 1.4 dB low with a Hann window (Harris 1978,
 *     table 1's scalloping loss); SNR: the cell's summed power over
 *     M noise_power; RCS: P R^4 / radar_constant. Elevation 0 (the array
 *     is a line along Y), instance and class ids 0 (a map carries no ids).
 * Detections ordered by range; at most SENSIM_RADAR_MAX_DETECTIONS (the
 * strongest kept).
 *
 * Parameters (JSON): "kind" "ca" | "os" ["ca"], "guard_range" [2],
 * "guard_doppler" [2], "train_range" [8], "train_doppler" [4], "pfa"
 * [1e-6], "os_rank" [0: 3N/4], "angle_bins" (DFT points over the array,
 * [8, 4096]) [64], "eps_range" (m) [0: 1.5 range bins], "eps_velocity"
 * (m/s) [0: 1.5 Doppler bins], "eps_azimuth_deg" [0: two array beam
 * widths, 2 x 2 / channels rad in sin(az)], "min_pts" [1]. A window
 * larger than the map is SENSIM_EINVAL when the frame comes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/fmcw.h"
#include "core/internal.h"
#include "filters/chain.h"
#include "filters/radar_cfar.h"
#include "filters/radar_dbscan.h"
#include "filters/radar_peak.h"
#include "sensim/radar.h"

#define C0 299792458.0

typedef struct rd_detect {
  sensim__cfar_params cfar;
  int angle_bins, min_pts;
  double eps_range, eps_velocity, eps_azimuth; /* m, m/s, rad; 0: from the frame's bins */
} rd_detect;

static sensim_status int_param(const cJSON *params, const char *key, int lo, int hi, int *out) {
  double v = *out;
  sensim_status st = sensim__param_number(params, key, &v);
  if (st) return st;
  if (!(v >= lo && v <= hi && v == floor(v)))
    return sensim__fail(SENSIM_EINVAL, "radar_cfar: %s = %g must be an integer in [%d, %d]", key, v, lo, hi);
  *out = (int)v;
  return SENSIM_OK;
}

static sensim_status rd_detect_create(const cJSON *params, void **user) {
  static const char *const known[] = {"kind",    "guard_range", "guard_doppler", "train_range",
                                      "train_doppler", "pfa",   "os_rank",       "angle_bins",
                                      "eps_range", "eps_velocity", "eps_azimuth_deg", "min_pts", NULL};
  sensim_status st = sensim__param_only(params, "radar_cfar", known);
  if (st) return st;
  rd_detect D = {{SENSIM__CFAR_CA, 2, 2, 8, 4, 1e-6, 0}, 64, 1, 0.0, 0.0, 0.0};
  const cJSON *kind = params ? cJSON_GetObjectItemCaseSensitive(params, "kind") : NULL;
  if (kind) {
    if (cJSON_IsString(kind) && strcmp(kind->valuestring, "ca") == 0)
      D.cfar.kind = SENSIM__CFAR_CA;
    else if (cJSON_IsString(kind) && strcmp(kind->valuestring, "os") == 0)
      D.cfar.kind = SENSIM__CFAR_OS;
    else
      return sensim__fail(SENSIM_EINVAL, "radar_cfar: kind must be \"ca\" or \"os\"");
  }
  double deg = 0.0;
  if ((st = int_param(params, "guard_range", 0, 4096, &D.cfar.guard_range)) ||
      (st = int_param(params, "guard_doppler", 0, 4096, &D.cfar.guard_doppler)) ||
      (st = int_param(params, "train_range", 0, 4096, &D.cfar.train_range)) ||
      (st = int_param(params, "train_doppler", 0, 4096, &D.cfar.train_doppler)) ||
      (st = int_param(params, "os_rank", 0, 1 << 24, &D.cfar.os_rank)) ||
      (st = int_param(params, "angle_bins", 8, 4096, &D.angle_bins)) ||
      (st = int_param(params, "min_pts", 1, 1 << 20, &D.min_pts)) ||
      (st = sensim__param_number(params, "pfa", &D.cfar.pfa)) ||
      (st = sensim__param_number(params, "eps_range", &D.eps_range)) ||
      (st = sensim__param_number(params, "eps_velocity", &D.eps_velocity)) ||
      (st = sensim__param_number(params, "eps_azimuth_deg", &deg)))
    return st;
  D.eps_azimuth = deg * M_PI / 180.0;
  if (D.eps_range < 0 || D.eps_velocity < 0 || D.eps_azimuth < 0)
    return sensim__fail(SENSIM_EINVAL, "radar_cfar: eps_range, eps_velocity and eps_azimuth_deg must be >= 0 "
                                       "(0: from the map's bins)");
  /* The fields alone (the map's size is checked per frame). */
  if ((st = sensim__cfar_check(&D.cfar, 1 << 20, 1 << 20))) return st;
  rd_detect *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "radar_cfar: out of memory");
  *u = D;
  *user = u;
  return SENSIM_OK;
}

typedef struct hit {
  size_t cell;
  double pt[3]; /* range m, velocity m/s, azimuth rad */
} hit;

typedef struct cluster {
  size_t best; /* strongest cell */
  unsigned cells;
  sensim_radar_detection d;
} cluster;

static int by_power(const void *a, const void *b) {
  const cluster *x = a, *y = b;
  return (x->d.power < y->d.power) - (x->d.power > y->d.power);
}

static int by_range(const void *a, const void *b) {
  const cluster *x = a, *y = b;
  if (x->d.range != y->d.range) return x->d.range < y->d.range ? -1 : 1;
  return (x->d.azimuth > y->d.azimuth) - (x->d.azimuth < y->d.azimuth);
}

/* Range (m) of fractional range bin rb at radial velocity v. */
static double range_of(const sensim_fmcw_info *h, double rb, double v) {
  const double fb = rb * h->sample_rate / h->samples - 2.0 * v * h->frequency / C0;
  return fb * C0 / (2.0 * h->chirp_slope);
}

static void fill(const sensim_frame *f, const float *pw, int angle_bins, cluster *k) {
  const sensim_fmcw_info *h = &f->fmcw;
  const int N = (int)h->samples, C = (int)h->chirps, M = (int)(h->tx * h->rx);
  const int d = (int)(k->best / (size_t)N), r = (int)(k->best % (size_t)N);
  double fd, fr;
  sensim__rd_refine(pw, C, N, d, r, &fd, &fr);
  const double v = (d + fd - C / 2) * h->velocity_bin;
  const double R = range_of(h, r + fr, v);
  const double u = sensim__rd_angle(f, d, r, v, angle_bins);
  const double P = pw[k->best] / ((double)M * h->gain * h->gain);
  sensim_radar_detection *o = &k->d;
  memset(o, 0, sizeof *o);
  o->range = R;
  o->azimuth = asin(u);
  o->radial_velocity = v;
  o->point[0] = R * cos(o->azimuth);
  o->point[1] = R * sin(o->azimuth);
  o->power = 10.0 * log10(P / 1e-3);
  o->snr = 10.0 * log10(pw[k->best] / (M * h->noise_power));
  o->rcs = h->radar_constant > 0 && R > 0 ? 10.0 * log10(P * pow(R, 4) / h->radar_constant) : NAN;
  o->cells = (uint16_t)(k->cells > 65535u ? 65535u : k->cells);
}

static sensim_status rd_detect_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  const rd_detect *D = user;
  const sensim_fmcw_info *h = &f->fmcw;
  const size_t N = h->samples, C = h->chirps, M = (size_t)h->tx * h->rx, cells = N * C;
  if (!f->data || N == 0 || C == 0 || M == 0 || cells * M != f->count || cells > (size_t)1 << 30)
    return sensim__fail(SENSIM_EINVAL, "radar_cfar: the frame's fmcw header (%zu range x %zu Doppler x %zu "
                        "channels) does not describe its %zu cells", N, C, M, f->count);
  sensim_status st = sensim__cfar_check(&D->cfar, (int)C, (int)N);
  if (st) {
    sensim__error_context("radar_cfar on a %zu x %zu range-Doppler map", N, C);
    return st;
  }
  float *pw = malloc(cells * sizeof *pw);
  uint8_t *hits = malloc(cells);
  hit *hs = NULL;
  double *pts = NULL;
  int *label = NULL;
  cluster *cl = NULL;
  if (!pw || !hits) {
    st = sensim__fail(SENSIM_ENOMEM, "radar_cfar: out of memory for %zu cells", cells);
    goto done;
  }
  sensim__rd_power(f, pw);
  size_t nh = 0;
  if ((st = sensim__cfar_detect(pw, (int)C, (int)N, &D->cfar, hits, &nh))) goto done;
  hs = malloc((nh ? nh : 1) * sizeof *hs);
  pts = malloc((nh ? nh : 1) * 3 * sizeof *pts);
  label = malloc((nh ? nh : 1) * sizeof *label);
  if (!hs || !pts || !label) {
    st = sensim__fail(SENSIM_ENOMEM, "radar_cfar: out of memory for %zu hits", nh);
    goto done;
  }
  size_t j = 0;
  for (size_t c = 0; c < cells; c++) {
    if (!hits[c]) continue;
    const int d = (int)(c / N), r = (int)(c % N);
    const double v = (d - (int)C / 2) * h->velocity_bin;
    hs[j].cell = c;
    pts[3 * j] = range_of(h, r, v);
    pts[3 * j + 1] = v;
    pts[3 * j + 2] = asin(sensim__rd_angle(f, d, r, v, D->angle_bins));
    j++;
  }
  const double eps[3] = {D->eps_range > 0 ? D->eps_range : 1.5 * h->range_bin,
                         D->eps_velocity > 0 ? D->eps_velocity : 1.5 * h->velocity_bin,
                         D->eps_azimuth > 0 ? D->eps_azimuth : 4.0 / (double)M};
  const int K = sensim__dbscan(pts, nh, 3, eps, D->min_pts, label, &st);
  if (K < 0) goto done;
  cl = malloc((K ? (size_t)K : 1) * sizeof *cl);
  if (!cl) {
    st = sensim__fail(SENSIM_ENOMEM, "radar_cfar: out of memory for %d clusters", K);
    goto done;
  }
  for (int k = 0; k < K; k++) {
    cl[k].cells = 0;
    cl[k].best = SIZE_MAX;
  }
  for (size_t i = 0; i < nh; i++) {
    if (label[i] < 0) continue;
    cluster *k = &cl[label[i]];
    k->cells++;
    if (k->best == SIZE_MAX || pw[hs[i].cell] > pw[k->best]) k->best = hs[i].cell;
  }
  for (int k = 0; k < K; k++) fill(f, pw, D->angle_bins, &cl[k]);
  size_t nd = (size_t)K;
  if (nd > SENSIM_RADAR_MAX_DETECTIONS) {
    qsort(cl, nd, sizeof *cl, by_power);
    nd = SENSIM_RADAR_MAX_DETECTIONS;
  }
  qsort(cl, nd, sizeof *cl, by_range);
  if ((st = sensim_frame_alloc(f, SENSIM_PAYLOAD_RADAR, (uint32_t)nd, 1))) goto done;
  memset(&f->fmcw, 0, sizeof f->fmcw);
  sensim_radar_detection *out = f->data;
  for (size_t i = 0; i < nd; i++) out[i] = cl[i].d;
done:
  free(pw);
  free(hits);
  free(hs);
  free(pts);
  free(label);
  free(cl);
  return st;
}

const sensim_builtin_filter sensim__filter_radar_cfar = {
    .def = {.name = "radar_cfar",
            .in = SENSIM_PAYLOAD_RADAR_RD,
            .out = SENSIM_PAYLOAD_RADAR,
            .init = NULL,
            .apply = rd_detect_apply,
            .destroy = free},
    .create = rd_detect_create,
    .accepts = NULL};
