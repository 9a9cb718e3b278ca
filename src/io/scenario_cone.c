/* io/scenario_cone.c: the cone sensor's keys in a scenario file
 * (docs/cone.md, "Scenario keys"):
 *   theta_deg, phi_deg   full angles, deg, in (0, 180)
 *   length               m, > 0
 *   method               "lines" (published), "exact", "rays"
 *   lines                segments per face N, >= 2 (lines method)
 *   rays                 rays per axis, >= 2 (rays method)
 *   published_speed      true / false: compute speed and speed_diff */
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "io/scenario_cone.h"
#include "io/scenario_internal.h"

#define DEG (3.14159265358979323846 / 180.0)

const char *const sensim__scenario_cone_keys[] = {"theta_deg", "phi_deg", "length", "method",
                                                  "lines",     "rays",    "published_speed", NULL};

sensim_status sensim__scenario_cone(const cJSON *obj, const char *path, sensim_cone_params *cp) {
  if (!obj || !path || !cp) return sensim__fail(SENSIM_EINVAL, "scenario cone: NULL argument");
  static const char *const names[] = {"lines", "exact", "rays", NULL};
  static const sensim_cone_method methods[] = {SENSIM_CONE_LINES, SENSIM_CONE_EXACT, SENSIM_CONE_RAYS};
  double theta = cp->theta / DEG, phi = cp->phi / DEG, lines = cp->lines, rays = cp->rays;
  const char *method = NULL;
  sensim_status st = sensim__jnumber(obj, path, "theta_deg", 0, &theta);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "phi_deg", 0, &phi);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "length", 0, &cp->length);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "method", 0, &method);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "lines", 0, 2, 100000, &lines);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "rays", 0, 2, 1024, &rays);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "published_speed", &cp->published_speed);
  if (st != SENSIM_OK) return st;
  if (!(theta > 0 && theta < 180)) return sensim__scenario_fail_range(path, "theta_deg", "in (0, 180) deg", theta);
  if (!(phi > 0 && phi < 180)) return sensim__scenario_fail_range(path, "phi_deg", "in (0, 180) deg", phi);
  if (!(cp->length > 0)) return sensim__scenario_fail_range(path, "length", "> 0 m", cp->length);
  if (method) {
    int k = -1;
    for (int i = 0; i < 3; i++)
      if (strcmp(method, names[i]) == 0) k = i;
    char hint[96];
    if (k < 0)
      return sensim__fail(SENSIM_EINVAL, "%s.method: unknown cone method '%s'%s (lines, exact, rays)",
                          path, method, sensim__did_you_mean(hint, sizeof hint, method, names));
    cp->method = methods[k];
  }
  cp->theta = theta * DEG;
  cp->phi = phi * DEG;
  cp->lines = (int)lines;
  cp->rays = (int)rays;
  st = sensim_cone_params_check(cp);
  if (st != SENSIM_OK) sensim__error_context("%s", path);
  return st;
}
