/* sensors/radar_trig.h: sine and cosine of a double without libm's call,
 * for the radar facets' phase terms (four per lit sub-triangle, tens of
 * thousands per scan), where glibc's sincos, which saves and restores the
 * rounding mode on every call, was the largest single cost of the echoes.
 * Not installed.
 *
 * Reduction: x = q pi/2 + r, q the nearest integer to x 2/pi, r by
 * Cody and Waite's method (W. J. Cody, W. Waite, "Software Manual for the
 * Elementary Functions", 1980, ch. 8) with pi/2 split into three parts,
 * the first two of 33 significant bits, so q P1 and q P2 are exact for
 * |q| < 2^20: |x| < 1e6 rad (beyond that, libm). Then sin r and cos r
 * from their Taylor series to r^17 and r^18 on |r| <= pi/4 (the next
 * terms are below 1e-19), and the quadrant q mod 4 swaps and negates them.
 * Within a unit in the last place of libm's values (tests/radar: at most
 * 2.2e-16 apart over 600 000 arguments up to 1e6, 4e-16 allowed). */
#ifndef SENSIM_SENSORS_RADAR_TRIG_H
#define SENSIM_SENSORS_RADAR_TRIG_H

#include <math.h>

static inline void sensim__radar_sincos(double x, double *s, double *c) {
  if (!(fabs(x) < 1.0e6)) {
    *s = sin(x);
    *c = cos(x);
    return;
  }
  /* nearest integer by the 1.5 x 2^52 shift (round to nearest, the
   * default mode): no libm call */
  const double shift = 6755399441055744.0;
  const double q = (x * 0.63661977236758134308 + shift) - shift;
  const double p1 = 0x1.921fb544p+0, p2 = 0x1.0b4611a6p-34, p3 = 0x1.3198a2e037073p-69;
  const double r = ((x - q * p1) - q * p2) - q * p3, r2 = r * r;
  /* 1/n! */
  const double sn =
      r + r * r2 *
              (-1.6666666666666666e-01 +
               r2 * (8.3333333333333332e-03 +
                     r2 * (-1.9841269841269841e-04 +
                           r2 * (2.7557319223985893e-06 +
                                 r2 * (-2.5052108385441720e-08 +
                                       r2 * (1.6059043836821613e-10 +
                                             r2 * (-7.6471637318198164e-13 + r2 * 2.8114572543455206e-15)))))));
  const double cs =
      1.0 - 0.5 * r2 +
      r2 * r2 *
          (4.1666666666666664e-02 +
           r2 * (-1.3888888888888889e-03 +
                 r2 * (2.4801587301587302e-05 +
                       r2 * (-2.7557319223985888e-07 +
                             r2 * (2.0876756987868100e-09 +
                                   r2 * (-1.1470745597729725e-11 +
                                         r2 * (4.7794773323873853e-14 + r2 * -1.5619206968586225e-16)))))));
  switch ((long long)q & 3) {
    case 0: *s = sn, *c = cs; break;
    case 1: *s = cs, *c = -sn; break;
    case 2: *s = -sn, *c = -cs; break;
    default: *s = -cs, *c = sn; break;
  }
}

#endif
