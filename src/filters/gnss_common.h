/* filters/gnss_common.h: what the GNSS error filters share (static inline,
 * so every filter file still exports only its own sensim__filter_gnss_*).
 * Not installed. */
#ifndef SENSIM_FILTERS_GNSS_COMMON_H
#define SENSIM_FILTERS_GNSS_COMMON_H

#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "filters/chain.h"
#include "sensim/geodesy.h"

/* The fix a GNSS frame holds, or NULL (with the message) if it holds none. */
static inline sensim_gnss_fix *sensim__gnss_fix_of(sensim_frame *frame, const char *filter) {
  if (frame->type != SENSIM_PAYLOAD_GNSS || frame->count < 1 || !frame->data) {
    sensim__fail(SENSIM_ETYPE, "%s: frame holds no GNSS fix", filter);
    return NULL;
  }
  return frame->data;
}

/* Read `key` as a number (the same for east, north, up) or as an array of 3
 * numbers; absent keeps v. Every value must be finite. */
static inline sensim_status sensim__gnss_param_axes(const cJSON *params, const char *key, double v[3]) {
  return sensim__param_number_or_vec3(params, key, v);
}

/* Recompute latitude, longitude and height from the fix's ENU position. */
static inline void sensim__gnss_update_geodetic(sensim_gnss_fix *fix) {
  sensim_enu_to_geodetic(fix->origin, fix->enu, &fix->lat, &fix->lon, &fix->height);
}

/* Add diag(var) to the reported covariance: independent error sources add
 * their covariances. */
static inline void sensim__gnss_add_cov_diag(sensim_gnss_fix *fix, const double var[3]) {
  for (int i = 0; i < 3; i++) fix->cov_enu[4 * i] += var[i];
}

#endif
