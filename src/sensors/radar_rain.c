/* sensors/radar_rain.c: attenuation of a radar's echoes by the world's rain
 * (docs/radar.md, "Weather"). Rain's specific attenuation follows the power
 * law
 *
 *     gamma = k R^alpha   dB/km,   R the rain rate in mm/h,
 *
 * with k and alpha from ITU-R Recommendation P.838-3 (03/2005), "Specific
 * attenuation model for rain for use in prediction methods", eqs. (2)-(3),
 * fitted over 1-1000 GHz:
 *
 *     log10 k = sum_j a_j exp(-((log10 f - b_j) / c_j)^2) + m_k log10 f + c_k
 *     alpha   = sum_j a_j exp(-((log10 f - b_j) / c_j)^2) + m_a log10 f + c_a
 *
 * f in GHz, the coefficients of its Tables 1 (k_H), 2 (k_V), 3 (alpha_H)
 * and 4 (alpha_V). The radar's polarisation is not modelled, so the
 * coefficients are those of circular polarisation, eqs. (4)-(5) with
 * tau = 45 deg (cos 2 tau = 0) for any path elevation:
 *
 *     k = (k_H + k_V) / 2,   alpha = (k_H alpha_H + k_V alpha_V) / (2 k).
 *
 * At 76.5 GHz: k = 1.123, alpha = 0.7135. This replaces the 1992 CCIR
 * Rec. 838 table (0.897 R^0.777 at 76.5 GHz), which that edition calls
 * tested only up to about 40 GHz. Fog and snow are not applied to the
 * radar. */
#include <math.h>
#include "sensors/radar_internal.h"

typedef struct gauss_term {
  double a, b, c;
} gauss_term;

/* P.838-3 Table 1: coefficients for k_H. */
static const gauss_term kKH[4] = {
    {-5.33980, -0.10008, 1.13098}, {-0.35351, 1.26970, 0.45400},
    {-0.23789, 0.86036, 0.15354},  {-0.94158, 0.64552, 0.16817}};
/* Table 2: k_V. */
static const gauss_term kKV[4] = {
    {-3.80595, 0.56934, 0.81061}, {-3.44965, -0.22911, 0.51059},
    {-0.39902, 0.73042, 0.11899}, {0.50167, 1.07319, 0.27195}};
/* Table 3: alpha_H. */
static const gauss_term kAH[5] = {{-0.14318, 1.82442, -0.55187}, {0.29591, 0.77564, 0.19822},
                                  {0.32177, 0.63773, 0.13164},   {-5.37610, -0.96230, 1.47828},
                                  {16.1721, -3.29980, 3.43990}};
/* Table 4: alpha_V. */
static const gauss_term kAV[5] = {{-0.07771, 2.33840, -0.76284}, {0.56727, 0.95545, 0.54039},
                                  {-0.20238, 1.14520, 0.26809},  {-48.2991, 0.791669, 0.116226},
                                  {48.5833, 0.791459, 0.116479}};

static double fit(const gauss_term *t, int n, double m, double c, double x) {
  double s = m * x + c;
  for (int j = 0; j < n; j++) {
    const double u = (x - t[j].b) / t[j].c;
    s += t[j].a * exp(-u * u);
  }
  return s;
}

void sensim__radar_rain_coefficients(double frequency, double *kh, double *ah, double *kv, double *av) {
  const double x = log10(frequency * 1e-9);
  *kh = pow(10.0, fit(kKH, 4, -0.18961, 0.71147, x));
  *kv = pow(10.0, fit(kKV, 4, -0.16398, 0.63297, x));
  *ah = fit(kAH, 5, 0.67849, -1.95537, x);
  *av = fit(kAV, 5, -0.053739, 0.83433, x);
}

double sensim__radar_rain_db_per_km(double frequency, double rain_rate) {
  if (!(rain_rate > 0)) return 0.0;
  double kh, ah, kv, av;
  sensim__radar_rain_coefficients(frequency, &kh, &ah, &kv, &av);
  const double k = 0.5 * (kh + kv), alpha = (kh * ah + kv * av) / (2.0 * k);
  return k * pow(rain_rate, alpha);
}
