/* io/scenario_environment.c: "world": {"environment": {...}} and
 * sensim_world_set_environment_json: the environment as JSON.
 *   {"type": "none"}
 *   {"type": "uniform", "radiance": [r, g, b]}  (W/(sr m^2))
 *   {"type": "sky", "sun_elevation_deg": e, "sun_azimuth_deg": a,
 *    "turbidity": t, "sun": true}
 *   {"type": "map", "path": "file.hdr", "scale": s} */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "io/scenario_internal.h"

sensim_status sensim__scenario_environment(const cJSON *obj, const char *path, sensim_world *world,
                                           const char *base_dir, sensim_environment *env) {
  static const char *const types[] = {"none", "uniform", "sky", "map", NULL};
  if (!cJSON_IsObject(obj)) return sensim__fail(SENSIM_EPARSE, "%s: must be an object", path);
  const char *type = NULL;
  sensim_status st = sensim__jstring(obj, path, "type", 1, &type);
  if (st != SENSIM_OK) return st;
  sensim_environment e;
  sensim_environment_init(&e);
  if (strcmp(type, "none") == 0) {
    static const char *const keys[] = {"type", NULL};
    if ((st = sensim__jcheck_object(obj, path, keys)) != SENSIM_OK) return st;
  } else if (strcmp(type, "uniform") == 0) {
    static const char *const keys[] = {"type", "radiance", NULL};
    double L[3] = {e.radiance[0], e.radiance[1], e.radiance[2]};
    if ((st = sensim__jcheck_object(obj, path, keys)) != SENSIM_OK) return st;
    if ((st = sensim__jvec(obj, path, "radiance", 1, 3, L)) != SENSIM_OK) return st;
    e.type = SENSIM_ENVIRONMENT_UNIFORM;
    for (int c = 0; c < 3; c++) {
      if (!(L[c] >= 0 && L[c] <= 3.4e38))
        return sensim__fail(SENSIM_EINVAL, "%s.radiance[%d]: must be finite and >= 0 W/(sr m^2) (got %g)", path, c,
                            L[c]);
      e.radiance[c] = (float)L[c];
    }
  } else if (strcmp(type, "sky") == 0) {
    static const char *const keys[] = {"type", "sun_elevation_deg", "sun_azimuth_deg", "turbidity", "sun", NULL};
    double el = e.sun_elevation * 180.0 / M_PI, az = e.sun_azimuth * 180.0 / M_PI, t = e.turbidity;
    if ((st = sensim__jcheck_object(obj, path, keys)) != SENSIM_OK) return st;
    if ((st = sensim__jnumber(obj, path, "sun_elevation_deg", 0, &el)) != SENSIM_OK) return st;
    if ((st = sensim__jnumber(obj, path, "sun_azimuth_deg", 0, &az)) != SENSIM_OK) return st;
    if ((st = sensim__jnumber(obj, path, "turbidity", 0, &t)) != SENSIM_OK) return st;
    if ((st = sensim__jbool(obj, path, "sun", &e.sun)) != SENSIM_OK) return st;
    if (!(el >= -90 && el <= 90)) return sensim__scenario_fail_range(path, "sun_elevation_deg", "in [-90, 90]", el);
    if (!(fabs(az) <= 1e6)) return sensim__scenario_fail_range(path, "sun_azimuth_deg", "finite", az);
    if (!(t >= 1.7 && t <= 10)) return sensim__scenario_fail_range(path, "turbidity", "in [1.7, 10]", t);
    e.type = SENSIM_ENVIRONMENT_SKY;
    e.sun_elevation = el * M_PI / 180.0;
    e.sun_azimuth = az * M_PI / 180.0;
    e.turbidity = t;
  } else if (strcmp(type, "map") == 0) {
    static const char *const keys[] = {"type", "path", "scale", NULL};
    const char *file = NULL;
    double scale = e.scale;
    if ((st = sensim__jcheck_object(obj, path, keys)) != SENSIM_OK) return st;
    if ((st = sensim__jstring(obj, path, "path", 1, &file)) != SENSIM_OK) return st;
    if ((st = sensim__jnumber(obj, path, "scale", 0, &scale)) != SENSIM_OK) return st;
    if (!(scale >= 0 && scale <= 3.4e38)) return sensim__scenario_fail_range(path, "scale", "finite and >= 0", scale);
    char full[4096];
    const int n = file[0] == '/' || !base_dir ? snprintf(full, sizeof full, "%s", file)
                                              : snprintf(full, sizeof full, "%s/%s", base_dir, file);
    if (n < 0 || (size_t)n >= sizeof full) return sensim__fail(SENSIM_EINVAL, "%s.path: path too long", path);
    sensim_texture *t = NULL;
    if ((st = sensim_texture_load_hdr(world, full, &t)) != SENSIM_OK) {
      sensim__error_context("%s.path", path);
      return st;
    }
    e.type = SENSIM_ENVIRONMENT_MAP;
    e.map = t;
    e.scale = (float)scale;
  } else {
    char hint[96];
    return sensim__fail(SENSIM_EINVAL, "%s.type: unknown environment type '%s'%s (none, uniform, sky, map)", path, type,
                        sensim__did_you_mean(hint, sizeof hint, type, types));
  }
  *env = e;
  return SENSIM_OK;
}

sensim_status sensim_world_set_environment_json(sensim_world *world, const char *json, const char *source) {
  if (!world || !json) return sensim__fail(SENSIM_EINVAL, "sensim_world_set_environment_json: NULL argument");
  if (!source) source = "environment";
  char *clean = NULL;
  cJSON *root = NULL;
  sensim_status st = sensim__json_strip_comments(json, source, &clean);
  if (st == SENSIM_OK) st = sensim__json_parse(clean, source, &root);
  free(clean);
  if (st != SENSIM_OK) return st;
  sensim_environment e;
  st = sensim__scenario_environment(root, source, world, NULL, &e);
  cJSON_Delete(root);
  if (st == SENSIM_OK) st = sensim_world_set_environment(world, &e);
  return st;
}
