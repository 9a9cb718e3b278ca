/* sensim/geodesy.h: exact WGS84 conversions between geodetic coordinates,
 * ECEF and the world's local ENU frame. */
#ifndef SENSIM_GEODESY_H
#define SENSIM_GEODESY_H

#include "sensim/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* WGS84 (NIMA TR8350.2): a = 6378137 m, f = 1 / 298.257223563. */
SENSIM_API void sensim_geodetic_to_ecef(double lat_deg, double lon_deg, double h, double ecef[3]);
/* Exact closed-form inverse (Vermeille 2004, J. Geodesy 78:94-95). */
SENSIM_API void sensim_ecef_to_geodetic(const double ecef[3], double *lat_deg, double *lon_deg, double *h);
/* Local ENU at origin (lat0, lon0, h0) to geodetic and back. */
SENSIM_API void sensim_enu_to_geodetic(const double origin[3], const double enu[3], double *lat_deg,
                            double *lon_deg, double *h);
SENSIM_API void sensim_geodetic_to_enu(const double origin[3], double lat_deg, double lon_deg, double h,
                            double enu[3]);

#ifdef __cplusplus
}
#endif
#endif
