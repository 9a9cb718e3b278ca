/* io/scenario_gnss.c: a GNSS sensor's own keys in a scenario file
 * (docs/gnss.md, "Scenario keys"). The schedule keys (rate, lag, window)
 * and the filters are the common sensor keys. */
#include "core/internal.h"
#include "io/scenario_gnss.h"
#include "io/scenario_internal.h"

const char *const sensim__scenario_gnss_keys[] = {"satellites", "hdop", "vdop", NULL};

sensim_status sensim__scenario_gnss(const cJSON *obj, const char *path, sensim_gnss_params *gp) {
  if (!obj || !path || !gp) return sensim__fail(SENSIM_EINVAL, "sensim__scenario_gnss: NULL argument");
  sensim_gnss_params p = *gp;
  double sats = p.satellites;
  sensim_status st = sensim__jint(obj, path, "satellites", 0, 0, 99, &sats);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "hdop", 0, &p.hdop);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "vdop", 0, &p.vdop);
  if (st != SENSIM_OK) return st;
  if (!(p.hdop >= 0.0 && p.hdop < 1000.0))
    return sensim__scenario_fail_range(path, "hdop", "in [0, 1000)", p.hdop);
  if (!(p.vdop >= 0.0 && p.vdop < 1000.0))
    return sensim__scenario_fail_range(path, "vdop", "in [0, 1000)", p.vdop);
  p.satellites = (int)sats;
  *gp = p;
  return SENSIM_OK;
}
