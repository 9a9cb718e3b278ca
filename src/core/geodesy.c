/* core/geodesy.c: WGS84 geodetic <-> ECEF <-> local ENU.
 *
 * Ellipsoid: WGS84, NIMA TR8350.2 (3rd ed., 2000), defining parameters:
 * a = 6378137 m, f = 1 / 298.257223563, e^2 = f (2 - f).
 * ECEF -> geodetic is the exact closed form of H. Vermeille, "Computing
 * geodetic coordinates from geocentric coordinates", J. Geodesy 78 (2004)
 * 94-95; ENU is the local tangent frame of e.g. Hofmann-Wellenhof,
 * Lichtenegger & Wasle, "GNSS" (2008), ch. 10. Angles in the API are
 * degrees, lengths metres. */
#include <math.h>
#include "sensim/geodesy.h"

#define WGS84_A 6378137.0
#define WGS84_F (1.0 / 298.257223563)
#define WGS84_E2 (WGS84_F * (2.0 - WGS84_F))

static const double kDeg = 3.14159265358979323846 / 180.0;

void sensim_geodetic_to_ecef(double lat_deg, double lon_deg, double h, double ecef[3]) {
  double lat = lat_deg * kDeg, lon = lon_deg * kDeg;
  double sl = sin(lat), cl = cos(lat);
  /* Prime-vertical radius of curvature N(lat) = a / sqrt(1 - e^2 sin^2 lat). */
  double n = WGS84_A / sqrt(1.0 - WGS84_E2 * sl * sl);
  ecef[0] = (n + h) * cl * cos(lon);
  ecef[1] = (n + h) * cl * sin(lon);
  ecef[2] = (n * (1.0 - WGS84_E2) + h) * sl;
}

/* Points inside the evolute of the meridian ellipse (within ~43 km of the
 * Earth's centre: a e^2 on the equator) are outside the domain of
 * Vermeille's 2004 formula. There the classical fixed-point iteration
 * phi = atan((Z + e^2 N(phi) sin phi) / P) (Heiskanen & Moritz, "Physical
 * Geodesy", 1967, ch. 5) is used. Such points never occur for a sensor near
 * the surface; they are handled so no input gives NaN. */
static void ecef_to_geodetic_deep(double x, double y, double z, double *lat, double *h) {
  double pr = hypot(x, y);
  if (pr == 0.0 && z == 0.0) {
    /* The centre: every direction is normal to the ellipsoid; report the
     * north pole, the nearest surface point. */
    *lat = 0.5 * 3.14159265358979323846;
    *h = -WGS84_A * (1.0 - WGS84_F);
    return;
  }
  double phi = atan2(z, pr * (1.0 - WGS84_E2));
  for (int i = 0; i < 200; i++) {
    double s = sin(phi);
    double n = WGS84_A / sqrt(1.0 - WGS84_E2 * s * s);
    double next = atan2(z + WGS84_E2 * n * s, pr);
    if (fabs(next - phi) < 1e-15) {
      phi = next;
      break;
    }
    phi = next;
  }
  double s = sin(phi), c = cos(phi);
  /* Height along the normal, valid at any latitude (no 1/cos). */
  *h = pr * c + z * s - WGS84_A * sqrt(1.0 - WGS84_E2 * s * s);
  *lat = phi;
}

void sensim_ecef_to_geodetic(const double ecef[3], double *lat_deg, double *lon_deg, double *h) {
  const double a2 = WGS84_A * WGS84_A, e2 = WGS84_E2, e4 = e2 * e2;
  double x = ecef[0], y = ecef[1], z = ecef[2];
  double rxy2 = x * x + y * y;
  double rxy = sqrt(rxy2);
  /* Vermeille (2004), eqs. in section 2: p, q, r, s, t, u, v, w, k, D. */
  double p = rxy2 / a2;
  double q = (1.0 - e2) / a2 * z * z;
  double r = (p + q - e4) / 6.0;
  double evol = 8.0 * r * r * r + e4 * p * q; /* > 0 outside the evolute */
  double lat, height;
  if (evol > 0.0 && r != 0.0) {
    double s = e4 * p * q / (4.0 * r * r * r);
    /* s >= 0 for r > 0. For r < 0 outside the evolute (only within ~43 km
     * of the centre) s < -2, and 1 + s + sqrt(s (2 + s)) cancels; with
     * c = -s - 1 > 1 it equals sqrt(c^2 - 1) - c = -1 / (c + sqrt(c^2 - 1)),
     * computed without cancellation, and cbrt takes the real root. */
    double t3;
    if (s >= 0.0) {
      t3 = 1.0 + s + sqrt(s * (2.0 + s));
    } else {
      double c = -s - 1.0;
      t3 = -1.0 / (c + sqrt((c - 1.0) * (c + 1.0)));
    }
    double t = cbrt(t3);
    double u = r * (1.0 + t + 1.0 / t);
    double v = sqrt(u * u + e4 * q);
    double w = e2 * (u + v - q) / (2.0 * v);
    double k = sqrt(u + v + w * w) - w;
    double d = k * rxy / (k + e2);
    double dz = sqrt(d * d + z * z);
    lat = 2.0 * atan2(z, d + dz);
    height = (k + e2 - 1.0) / k * dz;
  } else {
    ecef_to_geodetic_deep(x, y, z, &lat, &height);
  }
  /* Longitude: atan2 is Vermeille's half-angle form without its singularity
   * on the negative X axis. */
  *lon_deg = (rxy > 0.0 ? atan2(y, x) : 0.0) / kDeg;
  *lat_deg = lat / kDeg;
  *h = height;
}

/* Rows of the ECEF -> ENU rotation at (lat, lon): east, north, up unit
 * vectors in ECEF (Hofmann-Wellenhof et al. 2008). */
static void enu_axes(double lat_deg, double lon_deg, double e[3], double n[3], double u[3]) {
  double lat = lat_deg * kDeg, lon = lon_deg * kDeg;
  double sl = sin(lat), cl = cos(lat), so = sin(lon), co = cos(lon);
  e[0] = -so;
  e[1] = co;
  e[2] = 0.0;
  n[0] = -sl * co;
  n[1] = -sl * so;
  n[2] = cl;
  u[0] = cl * co;
  u[1] = cl * so;
  u[2] = sl;
}

void sensim_enu_to_geodetic(const double origin[3], const double enu[3], double *lat_deg,
                            double *lon_deg, double *h) {
  double o[3], e[3], n[3], u[3], x[3];
  sensim_geodetic_to_ecef(origin[0], origin[1], origin[2], o);
  enu_axes(origin[0], origin[1], e, n, u);
  for (int i = 0; i < 3; i++) x[i] = o[i] + enu[0] * e[i] + enu[1] * n[i] + enu[2] * u[i];
  sensim_ecef_to_geodetic(x, lat_deg, lon_deg, h);
}

void sensim_geodetic_to_enu(const double origin[3], double lat_deg, double lon_deg, double h,
                            double enu[3]) {
  double o[3], e[3], n[3], u[3], x[3], d[3];
  sensim_geodetic_to_ecef(origin[0], origin[1], origin[2], o);
  sensim_geodetic_to_ecef(lat_deg, lon_deg, h, x);
  enu_axes(origin[0], origin[1], e, n, u);
  for (int i = 0; i < 3; i++) d[i] = x[i] - o[i];
  enu[0] = e[0] * d[0] + e[1] * d[1] + e[2] * d[2];
  enu[1] = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
  enu[2] = u[0] * d[0] + u[1] * d[1] + u[2] * d[2];
}
