/* io/scenario_magnetometer.c: the keys of a "magnetometer" sensor in a
 * scenario file (io/scenario_magnetometer.h). Giving a constant field
 * ("field_enu" or "field_enu_ut") without "mag_model" selects the
 * constant model. */
#include <string.h>
#include "core/internal.h"
#include "io/scenario_internal.h"
#include "io/scenario_magnetometer.h"

const char *const sensim__scenario_magnetometer_keys[] = {
    "mag_model", "field_enu", "field_enu_ut", "gauss_nt", "ref_radius", NULL};

sensim_status sensim__scenario_magnetometer(const cJSON *obj, const char *path,
                                            sensim_magnetometer_params *mp) {
  if (!obj || !path || !mp) return sensim__fail(SENSIM_EINVAL, "magnetometer keys: NULL argument");
  sensim_magnetometer_params p = *mp;
  const char *model = NULL;
  double f[3], fu[3], g[3];
  int has_f = cJSON_HasObjectItem(obj, "field_enu"), has_fu = cJSON_HasObjectItem(obj, "field_enu_ut");
  int has_g = cJSON_HasObjectItem(obj, "gauss_nt");
  sensim_status st = sensim__jstring(obj, path, "mag_model", 0, &model);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "field_enu", 0, 3, f);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "field_enu_ut", 0, 3, fu);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "gauss_nt", 0, 3, g);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "ref_radius", 0, &p.ref_radius);
  if (st != SENSIM_OK) return st;
  if (has_f && has_fu)
    return sensim__fail(SENSIM_EINVAL, "%s: give field_enu (T) or field_enu_ut (uT), not both", path);
  if (model) {
    if (strcmp(model, "dipole") == 0) p.model = SENSIM_MAG_DIPOLE;
    else if (strcmp(model, "constant") == 0) p.model = SENSIM_MAG_CONSTANT;
    else {
      static const char *const models[] = {"dipole", "constant", NULL};
      char hint[96];
      return sensim__fail(SENSIM_EINVAL, "%s.mag_model: unknown model '%s'%s (dipole, constant)",
                          path, model, sensim__did_you_mean(hint, sizeof hint, model, models));
    }
  } else if (has_f || has_fu) {
    p.model = SENSIM_MAG_CONSTANT;
  }
  if (p.model == SENSIM_MAG_DIPOLE && (has_f || has_fu))
    return sensim__fail(SENSIM_EINVAL, "%s: a field vector goes with mag_model \"constant\"", path);
  if (p.model == SENSIM_MAG_CONSTANT && (has_g || cJSON_HasObjectItem(obj, "ref_radius")))
    return sensim__fail(SENSIM_EINVAL, "%s: gauss_nt and ref_radius go with mag_model \"dipole\"",
                        path);
  for (int i = 0; i < 3; i++) {
    if (has_f) p.field_enu[i] = f[i];
    if (has_fu) p.field_enu[i] = fu[i] * 1e-6;
  }
  if (has_g) p.g10 = g[0], p.g11 = g[1], p.h11 = g[2];
  if (!(isfinite(p.ref_radius) && p.ref_radius > 0.0))
    return sensim__scenario_fail_range(path, "ref_radius", "> 0 m", p.ref_radius);
  *mp = p;
  return SENSIM_OK;
}
