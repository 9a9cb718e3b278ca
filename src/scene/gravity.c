/* scene/gravity.c: normal gravity of the WGS84 ellipsoid, the world's
 * default gravity at its origin.
 *
 * Normal gravity is the gravity of the level ellipsoid (attraction plus the
 * centrifugal acceleration of the Earth's rotation), normal to the
 * ellipsoid, so it points along the world's -Z (ENU up is the ellipsoid
 * normal at the origin). On the ellipsoid, Somigliana's closed formula
 * (NIMA TR8350.2, 3rd ed., 2000, eq. 4-1):
 *   gamma = gamma_e (1 + k sin^2 phi) / sqrt(1 - e^2 sin^2 phi)
 * and above it the second-order expansion in height (TR8350.2 eq. 4-3):
 *   gamma_h = gamma [1 - 2/a (1 + f + m - 2 f sin^2 phi) h + 3 h^2 / a^2]
 * with the WGS84 constants of TR8350.2 tables 3.1 and 3.3. phi is the
 * geodetic latitude, h the ellipsoidal height. The truncation error of
 * eq. 4-3 is of order gamma (h/a)^3, 3.6e-11 m/s^2 at 100 km (the origin
 * height limit, scene/world.c). */
#include <math.h>
#include "core/internal.h"

#define WGS84_A 6378137.0                  /* semi-major axis, m (table 3.1) */
#define WGS84_F (1.0 / 298.257223563)      /* flattening (table 3.1) */
#define WGS84_GAMMA_E 9.7803253359         /* normal gravity at the equator, m/s^2 (table 3.3) */
#define WGS84_K 0.00193185265241           /* Somigliana's constant (table 3.3) */
#define WGS84_E2 0.00669437999013          /* first eccentricity squared (table 3.3) */
#define WGS84_M 0.00344978650684           /* omega^2 a^2 b / GM (table 3.3) */

double sensim_normal_gravity(double lat_deg, double height) {
  if (!(lat_deg >= -90.0 && lat_deg <= 90.0) || !isfinite(height)) return NAN;
  double s = sin(lat_deg * (M_PI / 180.0)), s2 = s * s;
  double g0 = WGS84_GAMMA_E * (1.0 + WGS84_K * s2) / sqrt(1.0 - WGS84_E2 * s2);
  double r = height / WGS84_A;
  return g0 * (1.0 - 2.0 * (1.0 + WGS84_F + WGS84_M - 2.0 * WGS84_F * s2) * r + 3.0 * r * r);
}
