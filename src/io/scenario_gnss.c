/* io/scenario_gnss.c: a GNSS sensor's own keys in a scenario file
 * (docs/gnss.md, "Scenario keys"). The schedule keys (rate, lag, window)
 * and the filters are the common sensor keys. */
#include <string.h>
#include "core/internal.h"
#include "io/scenario_gnss.h"
#include "io/scenario_internal.h"
#include "sensim/nmea.h"

#define DEG (3.14159265358979323846 / 180.0)

/* The satellites mode's keys (an error in the nominal mode). */
static const char *const satellite_keys[] = {
    "ephemeris",          "utc_start",           "leap_seconds", "max_ephemeris_age", "elevation_mask_deg",
    "visibility",         "multipath",           "ionosphere",   "troposphere",       "correct_ionosphere",
    "correct_troposphere", "iono_alpha",         "iono_beta",    "humidity",          "range_sigma",
    "range_rate_sigma",   "reported_sigma",      NULL};
/* The nominal mode's keys (an error in the satellites mode). */
static const char *const nominal_keys[] = {"satellites", "hdop", "vdop", NULL};

const char *const sensim__scenario_gnss_keys[] = {
    "satellites",          "hdop",        "vdop",       "mode",
    "ephemeris",           "utc_start",   "leap_seconds", "max_ephemeris_age",
    "elevation_mask_deg",  "visibility",  "multipath",  "ionosphere",
    "troposphere",         "correct_ionosphere", "correct_troposphere", "iono_alpha",
    "iono_beta",           "humidity",    "range_sigma", "range_rate_sigma",
    "reported_sigma",      NULL};

/* The first of `keys` present in obj, or NULL. */
static const char *first_present(const cJSON *obj, const char *const *keys) {
  for (size_t i = 0; keys[i]; i++)
    if (cJSON_HasObjectItem(obj, keys[i])) return keys[i];
  return NULL;
}

static sensim_status parse_nominal(const cJSON *obj, const char *path, sensim_gnss_params *p) {
  double sats = p->satellites;
  sensim_status st = sensim__jint(obj, path, "satellites", 0, 0, 99, &sats);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "hdop", 0, &p->hdop);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "vdop", 0, &p->vdop);
  if (st != SENSIM_OK) return st;
  if (!(p->hdop >= 0.0 && p->hdop < 1000.0))
    return sensim__scenario_fail_range(path, "hdop", "in [0, 1000)", p->hdop);
  if (!(p->vdop >= 0.0 && p->vdop < 1000.0))
    return sensim__scenario_fail_range(path, "vdop", "in [0, 1000)", p->vdop);
  p->satellites = (int)sats;
  return SENSIM_OK;
}

static sensim_status parse_satellites(const cJSON *obj, const char *path, sensim_gnss_params *p) {
  const char *file = NULL, *utc = NULL;
  double leap = p->leap_seconds, mask = p->elevation_mask / DEG;
  sensim_status st = sensim__jstring(obj, path, "ephemeris", 1, &file);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "utc_start", 0, &utc);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "leap_seconds", 0, 0, 100, &leap);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "max_ephemeris_age", 0, &p->max_ephemeris_age);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "elevation_mask_deg", 0, &mask);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "visibility", &p->visibility);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "multipath", &p->multipath);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "ionosphere", &p->ionosphere);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "troposphere", &p->troposphere);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "correct_ionosphere", &p->correct_ionosphere);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "correct_troposphere", &p->correct_troposphere);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "iono_alpha", 0, 4, p->iono_alpha);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "iono_beta", 0, 4, p->iono_beta);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "humidity", 0, &p->humidity);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "range_sigma", 0, &p->range_sigma);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "range_rate_sigma", 0, &p->range_rate_sigma);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "reported_sigma", 0, &p->reported_sigma);
  if (st != SENSIM_OK) return st;
  if (!*file) return sensim__fail(SENSIM_EINVAL, "%s.ephemeris: must name a file", path);
  if (!(mask >= 0 && mask < 90))
    return sensim__scenario_fail_range(path, "elevation_mask_deg", "in [0, 90) deg", mask);
  if (!(p->max_ephemeris_age >= 0))
    return sensim__scenario_fail_range(path, "max_ephemeris_age", ">= 0 s (0: the file's)", p->max_ephemeris_age);
  if (!(p->humidity >= 0 && p->humidity <= 1))
    return sensim__scenario_fail_range(path, "humidity", "in [0, 1]", p->humidity);
  if (!(p->range_sigma >= 0)) return sensim__scenario_fail_range(path, "range_sigma", ">= 0 m", p->range_sigma);
  if (!(p->range_rate_sigma >= 0))
    return sensim__scenario_fail_range(path, "range_rate_sigma", ">= 0 m/s", p->range_rate_sigma);
  if (cJSON_HasObjectItem(obj, "reported_sigma") && !(p->reported_sigma >= 0))
    return sensim__scenario_fail_range(path, "reported_sigma", ">= 0 m (0: no covariance)", p->reported_sigma);
  if (cJSON_HasObjectItem(obj, "iono_alpha") != cJSON_HasObjectItem(obj, "iono_beta"))
    return sensim__fail(SENSIM_EINVAL, "%s.%s: give iono_alpha and iono_beta together", path,
                        cJSON_HasObjectItem(obj, "iono_alpha") ? "iono_beta" : "iono_alpha");
  if (utc) {
    if ((st = sensim_utc_parse_iso8601(utc, &p->utc_start)) != SENSIM_OK) {
      sensim__error_context("%s.utc_start", path);
      return st;
    }
    if (p->utc_start == 0.0)
      return sensim__fail(SENSIM_EINVAL, "%s.utc_start: 1970-01-01T00:00:00Z is not a GPS time", path);
  }
  p->leap_seconds = (int)leap;
  p->elevation_mask = mask * DEG;
  p->ephemeris = file;
  return SENSIM_OK;
}

sensim_status sensim__scenario_gnss(const cJSON *obj, const char *path, sensim_gnss_params *gp) {
  if (!obj || !path || !gp) return sensim__fail(SENSIM_EINVAL, "sensim__scenario_gnss: NULL argument");
  sensim_gnss_params p = *gp;
  const char *mode = NULL;
  sensim_status st = sensim__jstring(obj, path, "mode", 0, &mode);
  if (st != SENSIM_OK) return st;
  if (mode && strcmp(mode, "satellites") == 0) {
    p.mode = SENSIM_GNSS_SATELLITES;
  } else if (mode && strcmp(mode, "nominal") != 0) {
    static const char *const modes[] = {"nominal", "satellites", NULL};
    char hint[96];
    return sensim__fail(SENSIM_EINVAL, "%s.mode: unknown mode '%s'%s (nominal, satellites)", path, mode,
                        sensim__did_you_mean(hint, sizeof hint, mode, modes));
  }
  const char *wrong = first_present(obj, p.mode == SENSIM_GNSS_SATELLITES ? nominal_keys : satellite_keys);
  if (wrong)
    return sensim__fail(SENSIM_EINVAL, "%s.%s: only the %s mode takes this key (mode is '%s')", path, wrong,
                        p.mode == SENSIM_GNSS_SATELLITES ? "nominal" : "satellites",
                        p.mode == SENSIM_GNSS_SATELLITES ? "satellites" : "nominal");
  st = p.mode == SENSIM_GNSS_SATELLITES ? parse_satellites(obj, path, &p)
                                        : parse_nominal(obj, path, &p);
  if (st != SENSIM_OK) return st;
  *gp = p;
  return SENSIM_OK;
}
