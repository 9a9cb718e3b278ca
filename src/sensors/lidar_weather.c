/* sensors/lidar_weather.c: raindrops and snowflakes in a lidar's beams
 * (docs/weather.md, "Lidar: particle returns").
 *
 * The approach of Hahner et al. (2022), "LiDAR Snowfall Simulation for
 * Robust 3D Object Detection", CVPR, and Kilic et al. (2021), "Lidar Light
 * Scattering Augmentation (LISA)": each beam's cone holds particles of the
 * weather's size distribution N(D) = n0 exp(-lambda D) (scene/weather.c),
 * placed as a Poisson process of density N_T = n0 / lambda per m^3, so
 * N_T a_b(r) per metre of range, a_b the beam's cross-section at range r
 * (full divergences dh, dv: pi/4 dh dv r^2, or dh dv r^2 for a
 * rectangular beam; the beam's energy taken as spread evenly over it).
 * A particle of cross-section a_p(D) at range r returns, in the units of
 * the lidar's equation (sensors/lidar_columns.c: a Lambertian target of
 * reflectance rho filling the beam returns rho exp(-2 beta r) / r^2),
 *   P = albedo min(a_p / a_b, 1) exp(-2 beta r) / r^2,
 * and is detected if P >= p_min, the threshold the surfaces meet. Since P
 * grows with D, the detected particles at r are those with D >= D_min(r):
 *   D_min^e = p_min r^2 exp(2 beta r) a_b(r) / (albedo area_k)
 * (none at all where even a beam-filling particle falls short), and they
 * form a Poisson process along the beam of intensity
 *   lam(r) = N_T a_b(r) exp(-lambda D_min(r))   (per m)
 * whose sizes, given r, are D_min(r) plus an exponential of rate lambda
 * (the distribution is memoryless). Only detectable particles are drawn:
 * a beam in heavy rain holds thousands of drops, a handful of which can
 * be seen. The detected particles join the beam's surface hits, so the
 * return mode picks among them as it does among surfaces: a near flake
 * brighter than the wall behind it is the strongest return; with dual
 * returns the wall is the last. What a particle hides of the beam is left
 * to the extinction (scene/weather.c), which holds it on average. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensim/rng.h"
#include "sensors/lidar_internal.h"

/* The coarse search for the table's end: geometric steps from the
 * blanking range, and where lam has fallen below this fraction of its
 * peak, the remainder is left out (lam falls faster than exponentially:
 * D_min grows as a power of r). */
#define WX_COARSE_STEP 1.02
#define WX_NEGLIGIBLE 1e-12

/* The beam's cross-section per r^2, m^2 / m^2. */
static double beam_area_k(const sensim_lidar_params *p) {
  double dv = p->shape == SENSIM_BEAM_CIRCULAR ? p->div_h : p->div_v;
  return (p->shape == SENSIM_BEAM_RECTANGULAR ? 1.0 : M_PI / 4.0) * p->div_h * dv;
}

double sensim__lidar_wx_dmin(const sensim_lidar_wx *wx, int k, double r) {
  const sensim_particles *q = &wx->kind[k];
  const double r2 = r * r, atm = exp(-2.0 * wx->beta * r);
  if (!(q->albedo * atm >= wx->p_min * r2)) return INFINITY;
  /* a_p = area_k D^e mm^2 = area_k D^e 1e-6 m^2. */
  double x = wx->p_min * r2 * wx->ab_k * r2 / (atm * q->albedo * q->area_k * 1e-6);
  return pow(x, 1.0 / q->area_e);
}

double sensim__lidar_wx_lambda(const sensim_lidar_wx *wx, int k, double r) {
  const sensim_particles *q = &wx->kind[k];
  double d = sensim__lidar_wx_dmin(wx, k, r);
  if (!isfinite(d)) return 0.0;
  return q->n0 / q->lambda * wx->ab_k * r * r * exp(-q->lambda * d);
}

static double lam_total(const sensim_lidar_wx *wx, double r) {
  double s = 0.0;
  for (int k = 0; k < wx->nkind; k++) s += sensim__lidar_wx_lambda(wx, k, r);
  return s;
}

sensim_status sensim__lidar_wx_init(const sensim_lidar *l, const sensim_weather *w, double beta,
                                    sensim_lidar_wx **out) {
  *out = NULL;
  const sensim_lidar_params *p = &l->p;
  const double abk = beam_area_k(p);
  if (!(abk > 0.0) || !(w->rain_rate > 0.0 || w->snow_rate > 0.0)) return SENSIM_OK; /* an ideal ray meets none */
  sensim_lidar_wx *wx = sensim__frame_buffer(sizeof *wx, 1);
  if (!wx) return sensim__fail(SENSIM_ENOMEM, "out of memory for a lidar's weather table");
  wx->beta = beta;
  wx->p_min = l->p_min;
  wx->ab_k = abk;
  if (w->rain_rate > 0.0) sensim__rain_particles(w->rain_rate, &wx->kind[wx->nkind++]);
  if (w->snow_rate > 0.0) sensim__snow_particles(w->snow_rate, &wx->kind[wx->nkind++]);
  /* lam is unimodal (r^2 rising, exp(-lambda D_min) falling): the table
   * ends past the peak where lam is negligible, or at the maximum range. */
  const double r0 = p->min_range;
  double peak = 0.0, r1 = p->max_range;
  for (double r = r0 > 0.01 ? r0 : 0.01; r < p->max_range; r *= WX_COARSE_STEP) {
    double v = lam_total(wx, r);
    if (v > peak) peak = v;
    if (peak > 0.0 && v < WX_NEGLIGIBLE * peak) {
      r1 = r;
      break;
    }
  }
  if (!(peak > 0.0)) { /* nothing in these beams can be seen */
    sensim__frame_buffer_free(wx);
    return SENSIM_OK;
  }
  /* Quadratic spacing: fine near the sensor, where the drops are seen. */
  wx->cum[0] = 0.0;
  for (int i = 0; i <= SENSIM_LIDAR_WX_GRID; i++) {
    double u = (double)i / SENSIM_LIDAR_WX_GRID;
    wx->r[i] = r0 + (r1 - r0) * u * u;
    for (int k = 0; k < wx->nkind; k++) wx->lam[k][i] = sensim__lidar_wx_lambda(wx, k, wx->r[i]);
    if (i > 0) {
      double a = 0.0, b = 0.0;
      for (int k = 0; k < wx->nkind; k++) a += wx->lam[k][i - 1], b += wx->lam[k][i];
      wx->cum[i] = wx->cum[i - 1] + 0.5 * (a + b) * (wx->r[i] - wx->r[i - 1]);
    }
  }
  *out = wx;
  return SENSIM_OK;
}

/* The table interval holding r: i with r[i] <= r < r[i + 1]. */
static int interval(const sensim_lidar_wx *wx, double r) {
  int lo = 0, hi = SENSIM_LIDAR_WX_GRID;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (wx->r[mid] <= r) lo = mid;
    else hi = mid;
  }
  return lo;
}

static double lam_at(const sensim_lidar_wx *wx, int i) {
  double s = 0.0;
  for (int k = 0; k < wx->nkind; k++) s += wx->lam[k][i];
  return s;
}

/* Integral of the table's piecewise-linear lam over the first x metres of
 * interval i. */
static double partial(const sensim_lidar_wx *wx, int i, double x) {
  double a = lam_at(wx, i), b = lam_at(wx, i + 1), h = wx->r[i + 1] - wx->r[i];
  return a * x + (b - a) * x * x / (2.0 * h);
}

double sensim__lidar_wx_expected(const sensim_lidar_wx *wx, double r_end) {
  if (r_end <= wx->r[0]) return 0.0;
  if (r_end >= wx->r[SENSIM_LIDAR_WX_GRID]) return wx->cum[SENSIM_LIDAR_WX_GRID];
  int i = interval(wx, r_end);
  return wx->cum[i] + partial(wx, i, r_end - wx->r[i]);
}

int sensim__lidar_wx_hits(const sensim_lidar_wx *wx, sensim_rng *rng, double r_end, sensim_lidar_hit *out, int max) {
  const double total = sensim__lidar_wx_expected(wx, r_end);
  double t = 0.0;
  int n = 0, i = 0;
  while (n < max) {
    /* The next arrival of a unit-rate Poisson process in t = integral of
     * lam: its range is where the table's integral reaches t. */
    t -= log(1.0 - sensim_rng_uniform(rng));
    if (!(t < total)) break;
    int hi = SENSIM_LIDAR_WX_GRID; /* the last i with cum[i] <= t: cum[hi] > t */
    while (hi - i > 1) {
      int mid = (i + hi) / 2;
      if (wx->cum[mid] <= t) i = mid;
      else hi = mid;
    }
    double a = lam_at(wx, i), b = lam_at(wx, i + 1), h = wx->r[i + 1] - wx->r[i], s = t - wx->cum[i];
    /* a x + (b - a) x^2 / (2 h) = s, the root in [0, h] in its stable form. */
    double disc = a * a + 2.0 * (b - a) * s / h;
    double x = disc > 0.0 ? 2.0 * s / (a + sqrt(disc)) : h;
    if (!(x >= 0.0)) x = 0.0;
    if (x > h) x = h;
    const double r = wx->r[i] + x;
    /* Which kind, in proportion to their lam here; then its size. */
    double u = sensim_rng_uniform(rng), e = -log(1.0 - sensim_rng_uniform(rng));
    int k = 0;
    if (wx->nkind > 1) {
      double l0 = sensim__lidar_wx_lambda(wx, 0, r), l1 = sensim__lidar_wx_lambda(wx, 1, r);
      k = u * (l0 + l1) < l0 ? 0 : 1;
    }
    double dmin = sensim__lidar_wx_dmin(wx, k, r);
    if (!isfinite(dmin)) continue; /* the table's interpolation past the last visible range */
    const sensim_particles *q = &wx->kind[k];
    double d = dmin + e / q->lambda;
    double frac = q->area_k * pow(d, q->area_e) * 1e-6 / (wx->ab_k * r * r);
    if (frac > 1.0) frac = 1.0;
    double refl = q->albedo * frac;
    out[n].range = (float)r;
    out[n].intensity = (float)refl;
    out[n].power = (float)(refl * exp(-2.0 * wx->beta * r) / (r * r));
    out[n].elem = 0;
    out[n].body = ~0u; /* no body: a particle return's semantic ids are 0, as a miss's */
    n++;
  }
  return n;
}

int sensim__lidar_wx_returns(const sensim_lidar_scan *sc, int j, int c, const sensim_lidar_hit *h,
                             sensim_lidar_return out[2]) {
  const sensim_lidar *l = sc->l;
  const int S = l->fp.n;
  sensim_lidar_hit all[SENSIM_LIDAR_WX_MAX_SUBRAYS + SENSIM_LIDAR_WX_MAX];
  const int ns = S < SENSIM_LIDAR_WX_MAX_SUBRAYS ? S : SENSIM_LIDAR_WX_MAX_SUBRAYS;
  memcpy(all, h, (size_t)ns * sizeof *h);
  /* Particles stand in the beam up to the farthest surface any of its
   * sub-rays met, or its maximum range. */
  double r_end = 0.0;
  for (int k = 0; k < ns; k++) {
    double r = h[k].range > 0.0f ? h[k].range : l->p.max_range;
    if (r > r_end) r_end = r;
  }
  if (r_end > l->p.max_range) r_end = l->p.max_range;
  sensim_rng rng;
  /* Its own stream per beam (column j, channel c), in an element range no
   * other draw of a lidar frame uses: the same particles however the scan
   * is banded. */
  sensim_rng_init(&rng, sc->key.seed, sc->key.sensor, sc->key.frame,
                  SENSIM_LIDAR_WX_ELEMENT + (uint32_t)j * (uint32_t)l->p.channels + (uint32_t)c);
  int np = sensim__lidar_wx_hits(sc->wx, &rng, r_end, all + ns, SENSIM_LIDAR_WX_MAX);
  return sensim__lidar_returns(l, all, ns + np, out);
}
