/* sensors/gnss_atmosphere.c: the delays the atmosphere puts on a GPS L1
 * signal: the broadcast (Klobuchar) ionosphere and the Saastamoinen
 * troposphere over a standard atmosphere. The same functions make the
 * simulated delay and, when turned on, the receiver's correction. */
#include <math.h>
#include "core/internal.h"
#include "sensors/gnss_sat.h"

/* IS-GPS-200N 20.3.3.5.2.5 and figure 20-4 (Klobuchar, "Ionospheric
 * time-delay algorithm for single-frequency GPS users", IEEE Trans. AES
 * 23(3), 1987). Angles in semicircles except the arguments of cos, which
 * the ICD takes in radians of the semicircle values times pi. */
double sensim__klobuchar(const double alpha[4], const double beta[4], double lat, double lon, double el, double az,
                         double gps_time) {
  const double pi = SENSIM__GPS_PI;
  const double e = el / pi;                        /* elevation, semicircles */
  const double psi = 0.0137 / (e + 0.11) - 0.022;  /* Earth's central angle to the pierce point */
  double phi_i = lat / pi + psi * cos(az);         /* pierce point's geodetic latitude */
  if (phi_i > 0.416) phi_i = 0.416;
  if (phi_i < -0.416) phi_i = -0.416;
  const double lam_i = lon / pi + psi * sin(az) / cos(phi_i * pi);
  const double phi_m = phi_i + 0.064 * cos((lam_i - 1.617) * pi); /* geomagnetic latitude */
  double t = fmod(4.32e4 * lam_i + gps_time, 86400.0);            /* local time at the pierce point */
  if (t < 0.0) t += 86400.0;
  const double f = 1.0 + 16.0 * pow(0.53 - e, 3.0); /* obliquity factor */
  double amp = alpha[0] + phi_m * (alpha[1] + phi_m * (alpha[2] + phi_m * alpha[3]));
  double per = beta[0] + phi_m * (beta[1] + phi_m * (beta[2] + phi_m * beta[3]));
  if (amp < 0.0) amp = 0.0;
  if (per < 72000.0) per = 72000.0;
  const double x = 2.0 * pi * (t - 50400.0) / per; /* phase, rad */
  double delay = 5.0e-9;                             /* night-time floor, s */
  if (fabs(x) < 1.57) delay += amp * (1.0 - x * x / 2.0 + x * x * x * x / 24.0);
  return SENSIM__GPS_C * f * delay;
}

/* The troposphere of the ICAO standard atmosphere (ICAO Doc 7488, 1993;
 * identical below 11 km to the US Standard Atmosphere 1976): 288.15 K and
 * 1013.25 hPa at sea level, lapse rate 6.5 K/km, p = p0 (T / T0)^(g0 M / (R L))
 * with g0 M / (R L) = 5.25588. Saturation over water by Bolton, Mon. Wea.
 * Rev. 108, 1980, eq. 10: 6.112 exp(17.67 Tc / (Tc + 243.5)) hPa. */
void sensim__std_atmosphere(double h, double rh, double *p_hpa, double *t_k, double *e_hpa) {
  if (h < -500.0) h = -500.0;
  if (h > 11000.0) h = 11000.0;
  const double t = 288.15 - 0.0065 * h;
  const double tc = t - 273.15;
  *t_k = t;
  *p_hpa = 1013.25 * pow(t / 288.15, 5.25588);
  *e_hpa = rh * 6.112 * exp(17.67 * tc / (tc + 243.5));
}

/* Saastamoinen, "Atmospheric correction for the troposphere and
 * stratosphere in radio ranging of satellites", Geophys. Monogr. 15, AGU,
 * 1972: zenith hydrostatic delay 0.0022768 p / (1 - 0.00266 cos 2 lat -
 * 0.28e-6 h) (the gravity term as Davis et al., Radio Sci. 20(6), 1985,
 * give it), zenith wet delay 0.002277 (1255 / T + 0.05) e, both times
 * sec z = 1 / sin(el). The tan^2 z and delta-R terms of Saastamoinen's full
 * formula, which correct sec z below about 15 deg, are left out. */
void sensim__saastamoinen_zenith(double lat, double h, double p_hpa, double t_k, double e_hpa, double *zhd,
                                 double *zwd) {
  *zhd = 0.0022768 * p_hpa / (1.0 - 0.00266 * cos(2.0 * lat) - 0.28e-6 * h);
  *zwd = 0.002277 * (1255.0 / t_k + 0.05) * e_hpa;
}

double sensim__saastamoinen(double lat, double h, double el, double rh) {
  double p, t, e, zhd, zwd;
  sensim__std_atmosphere(h, rh, &p, &t, &e);
  sensim__saastamoinen_zenith(lat, h < -500.0 ? -500.0 : h > 11000.0 ? 11000.0 : h, p, t, e, &zhd, &zwd);
  const double min_el = 1.0 * M_PI / 180.0;
  return (zhd + zwd) / sin(el > min_el ? el : min_el);
}
