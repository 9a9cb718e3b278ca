/* filters/radar_peak.c: reading a peak off a range-Doppler map.
 *
 * Interpolation. Near its peak a windowed tone's spectrum is close to a
 * Gaussian, whose logarithm is a parabola: through the log powers a, b, c
 * of the bins before, at and after the peak the vertex lies at
 * 0.5 (a - c) / (a - 2 b + c) bins (Richards, "Fundamentals of Radar
 * Signal Processing", 2nd ed., 2014, sec. 5.3.2; Gasior and Gonzalez,
 * CERN-AB-2004-023, for the log-parabola's small bias with a Hann window).
 *
 * Angle. Virtual channel m at y = m lambda / 2 sees an arrival from
 * sin(az) cos(el) = u with phase -pi m u (sensors/radar_adc.c), so the
 * DFT over channels X(q) = sum_m x_m exp(-j 2 pi q m / Q) peaks at
 * q / Q = -u / 2: u = -2 q / Q for q in [-Q/2, Q/2) (Richards sec. 2.8,
 * digital beamforming; TI SWRA553 sec. 5 for the angle FFT). Channels of
 * transmitter t were sampled t T_c after those of transmitter 0 and carry
 * the extra Doppler phase 2 pi (2 v / lambda) t T_c, removed first. */
#include <math.h>
#include "core/internal.h"
#include "core/fmcw.h"
#include "filters/radar_peak.h"

#define C0 299792458.0

static double vertex(double a, double b, double c) {
  const double den = a - 2.0 * b + c;
  if (!(den < 0)) return 0.0;
  const double o = 0.5 * (a - c) / den;
  return o < -0.5 ? -0.5 : o > 0.5 ? 0.5 : o;
}

static double lg(float p) { return log(p > 1e-30f ? (double)p : 1e-30); }

void sensim__rd_refine(const float *power, int nd, int nr, int d, int r, double *fd, double *fr) {
  const double b = lg(power[(size_t)d * nr + r]);
  *fr = r > 0 && r + 1 < nr ? vertex(lg(power[(size_t)d * nr + r - 1]), b, lg(power[(size_t)d * nr + r + 1])) : 0.0;
  *fd = nd > 2 ? vertex(lg(power[(size_t)((d + nd - 1) % nd) * nr + r]), b,
                        lg(power[(size_t)((d + 1) % nd) * nr + r]))
               : 0.0;
}

double sensim__rd_angle(const sensim_frame *f, int d, int r, double v, int npad) {
  const sensim_fmcw_info *h = &f->fmcw;
  const size_t N = h->samples, C = h->chirps, M = (size_t)h->tx * h->rx;
  if (M < 2 || npad < 4) return 0.0;
  double xr[1024], xi[1024];
  const size_t mm = M < 1024 ? M : 1024;
  const float *x = f->data;
  const double fd = 2.0 * v * h->frequency / C0;
  for (size_t m = 0; m < mm; m++) {
    const float *s = x + 2 * (m * N * C + (size_t)d * N + (size_t)r);
    const double ph = -2.0 * M_PI * fd * (double)(m / h->rx) * h->chirp_interval;
    xr[m] = s[0] * cos(ph) - s[1] * sin(ph);
    xi[m] = s[0] * sin(ph) + s[1] * cos(ph);
  }
  /* Power at q = -Q/2 .. Q/2 - 1, with one more on each side for the
   * parabola at the ends (the spectrum is periodic in q). */
  double best = -1.0, pm = 0.0, p0 = 0.0, pp = 0.0;
  int qbest = 0;
  double prev2 = 0.0, prev = 0.0;
  for (int q = -npad / 2 - 1; q <= npad / 2; q++) {
    double re = 0.0, im = 0.0;
    for (size_t m = 0; m < mm; m++) {
      const double ph = -2.0 * M_PI * (double)q * (double)m / npad;
      re += xr[m] * cos(ph) - xi[m] * sin(ph);
      im += xr[m] * sin(ph) + xi[m] * cos(ph);
    }
    const double pw = re * re + im * im;
    if (q >= -npad / 2 + 1 && prev > best) {
      best = prev;
      qbest = q - 1;
      pm = prev2;
      p0 = prev;
      pp = pw;
    }
    prev2 = prev;
    prev = pw;
  }
  const double u = -2.0 * (qbest + vertex(log(pm + 1e-300), log(p0 + 1e-300), log(pp + 1e-300))) / npad;
  return u < -1.0 ? -1.0 : u > 1.0 ? 1.0 : u;
}
