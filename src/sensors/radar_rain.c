/* sensors/radar_rain.c: attenuation of a radar's echoes by the world's rain
 * (docs/radar.md, "Weather"). Rain's specific attenuation at microwave and
 * millimetre-wave frequencies follows the power law
 *
 *     gamma = k R^alpha   dB/km,   R the rain rate in mm/h,
 *
 * with k and alpha for horizontal (H) and vertical (V) polarisation from
 * CCIR Recommendation 838 (1992), "Specific attenuation model for rain for
 * use in prediction methods", Table 1, interpolated as its text says:
 * logarithmic in frequency and k, linear in alpha. The radar's polarisation
 * is not modelled, so the coefficients are those of circular polarisation,
 * Rec. 838 eqs. (2)-(3) with tau = 45 deg on a level path:
 *
 *     k = (kH + kV) / 2,   alpha = (kH aH + kV aV) / (2 k).
 *
 * Rec. 838 calls its values tested up to about 40 GHz; ITU-R P.838-3
 * (2005) refits the same scattering calculations up to 1000 GHz and is not
 * transcribed here. The table ends at 90 GHz: beyond it the 90 GHz
 * coefficients stand (automotive radars are at 24 and 76-81 GHz). Fog and
 * snow are not applied to the radar. */
#include <math.h>
#include "sensors/radar_internal.h"

typedef struct rain_row {
  double ghz, kh, kv, ah, av;
} rain_row;

/* CCIR Rec. 838 (1992), Table 1. */
static const rain_row kRows[] = {
    {1, 0.0000387, 0.0000352, 0.912, 0.880}, {2, 0.000154, 0.000138, 0.963, 0.923},
    {4, 0.000650, 0.000591, 1.121, 1.075},   {6, 0.00175, 0.00155, 1.308, 1.265},
    {7, 0.00301, 0.00265, 1.332, 1.312},     {8, 0.00454, 0.00395, 1.327, 1.310},
    {10, 0.0101, 0.00887, 1.276, 1.264},     {12, 0.0188, 0.0168, 1.217, 1.200},
    {15, 0.0367, 0.0335, 1.154, 1.128},      {20, 0.0751, 0.0691, 1.099, 1.065},
    {25, 0.124, 0.113, 1.061, 1.030},        {30, 0.187, 0.167, 1.021, 1.000},
    {35, 0.263, 0.233, 0.979, 0.963},        {40, 0.350, 0.310, 0.939, 0.929},
    {45, 0.442, 0.393, 0.903, 0.897},        {50, 0.536, 0.479, 0.873, 0.868},
    {60, 0.707, 0.642, 0.826, 0.824},        {70, 0.851, 0.784, 0.793, 0.793},
    {80, 0.975, 0.906, 0.769, 0.769},        {90, 1.06, 0.999, 0.753, 0.754},
};
enum { NROWS = sizeof kRows / sizeof kRows[0] };

double sensim__radar_rain_db_per_km(double frequency, double rain_rate) {
  if (!(rain_rate > 0)) return 0.0;
  double f = frequency * 1e-9;
  if (f <= kRows[0].ghz) f = kRows[0].ghz;
  if (f >= kRows[NROWS - 1].ghz) f = kRows[NROWS - 1].ghz;
  int i = 0;
  while (i < NROWS - 2 && f > kRows[i + 1].ghz) i++;
  const rain_row *a = &kRows[i], *b = &kRows[i + 1];
  const double u = (log(f) - log(a->ghz)) / (log(b->ghz) - log(a->ghz));
  const double kh = exp(log(a->kh) + u * (log(b->kh) - log(a->kh)));
  const double kv = exp(log(a->kv) + u * (log(b->kv) - log(a->kv)));
  const double ah = a->ah + u * (b->ah - a->ah), av = a->av + u * (b->av - a->av);
  const double k = 0.5 * (kh + kv), alpha = (kh * ah + kv * av) / (2.0 * k);
  return k * pow(rain_rate, alpha);
}
