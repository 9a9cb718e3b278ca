/* sensors/gnss_orbit.c: a GPS satellite's position and clock from its
 * broadcast ephemeris or almanac, the user algorithm of IS-GPS-200N
 * (Table 20-IV, "Elements of Coordinate Systems"; 20.3.3.3.3.1, "User
 * Algorithm for SV Clock Correction"). An almanac is the same algorithm
 * with the terms it does not carry (harmonic corrections, dn, IDOT, af2,
 * TGD) zero (20.3.3.5.2.1). */
#include <math.h>
#include "core/internal.h"
#include "sensors/gnss_sat.h"

/* Kepler's equation M = E - e sin E by Newton's method from E = M, as the
 * ICD's Table 20-IV now spells out; for e < 0.1 it gains about 15 digits
 * in 3 steps, and stops when a step changes E by less than 1e-15 rad
 * (3e-8 m along a GPS orbit). */
static double kepler(double m, double e) {
  double ek = m;
  for (int i = 0; i < 30; i++) {
    double d = (m - (ek - e * sin(ek))) / (1.0 - e * cos(ek));
    ek += d;
    if (fabs(d) < 1e-15) break;
  }
  return ek;
}

void sensim__gps_orbit(const sensim__gps_eph *eph, double tk, double pos[3], double *ek_out) {
  const double a = eph->sqrt_a * eph->sqrt_a;
  const double n = sqrt(SENSIM__GPS_MU / (a * a * a)) + eph->dn; /* corrected mean motion */
  const double mk = eph->m0 + n * tk;
  const double e = eph->e;
  const double ek = kepler(mk, e);
  /* True anomaly; atan2 keeps the quadrant the ICD's 2 atan(sqrt((1+e)/(1-e)) tan(E/2)) gives. */
  const double vk = atan2(sqrt(1.0 - e * e) * sin(ek), cos(ek) - e);
  const double phik = vk + eph->omega; /* argument of latitude */
  const double s2 = sin(2.0 * phik), c2 = cos(2.0 * phik);
  const double uk = phik + eph->cus * s2 + eph->cuc * c2;
  const double rk = a * (1.0 - e * cos(ek)) + eph->crs * s2 + eph->crc * c2;
  const double ik = eph->i0 + eph->cis * s2 + eph->cic * c2 + eph->idot * tk;
  const double xp = rk * cos(uk), yp = rk * sin(uk); /* in the orbital plane */
  /* Corrected longitude of the ascending node, Earth-fixed. */
  const double om = eph->omega0 + (eph->omega_dot - SENSIM__GPS_OMEGA_E) * tk - SENSIM__GPS_OMEGA_E * eph->toe_sow;
  const double co = cos(om), so = sin(om), ci = cos(ik), si = sin(ik);
  pos[0] = xp * co - yp * ci * so;
  pos[1] = xp * so + yp * ci * co;
  pos[2] = yp * si;
  if (ek_out) *ek_out = ek;
}

void sensim__gps_orbit_vel(const sensim__gps_eph *eph, double tk, double pos[3], double vel[3]) {
  double a[3], b[3];
  sensim__gps_orbit(eph, tk, pos, NULL);
  sensim__gps_orbit(eph, tk - 0.5, a, NULL);
  sensim__gps_orbit(eph, tk + 0.5, b, NULL);
  for (int i = 0; i < 3; i++) vel[i] = b[i] - a[i];
}

double sensim__gps_clock(const sensim__gps_eph *eph, double tc, double ek) {
  const double rel = SENSIM__GPS_F * eph->e * eph->sqrt_a * sin(ek);
  return eph->af0 + (eph->af1 + eph->af2 * tc) * tc + rel - eph->tgd;
}

double sensim__gps_clock_rate(const sensim__gps_eph *eph, double tc) { return eph->af1 + 2.0 * eph->af2 * tc; }

void sensim__gps_earth_rotate(double tau, const double in[3], double out[3]) {
  const double th = SENSIM__GPS_OMEGA_E * tau, c = cos(th), s = sin(th);
  const double x = in[0], y = in[1];
  out[0] = c * x + s * y;
  out[1] = -s * x + c * y;
  out[2] = in[2];
}
