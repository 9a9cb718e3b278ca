/* io/scenario_instances.c: a scenario's "instances", each one mesh placed
 * many times by one static body (sensim_body_create_instances;
 * docs/scenario.md, "instances"). */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "io/scenario_internal.h"

/* Placement `path` as a pose object (scenario.md's "pose") or seven numbers
 * x, y, z, qw, qx, qy, qz (the quaternion normalised, as a pose object's). */
static sensim_status parse_placement(const cJSON *e, const char *path, sensim_pose *out) {
  if (cJSON_IsObject(e)) return sensim__scenario_pose(e, path, out);
  double v[7];
  int n = cJSON_IsArray(e) ? cJSON_GetArraySize(e) : -1;
  if (n != 7) return sensim__fail(SENSIM_EPARSE, "%s: must be a pose object or [x, y, z, qw, qx, qy, qz]", path);
  int k = 0;
  for (const cJSON *x = e->child; x; x = x->next, k++) {
    if (!cJSON_IsNumber(x)) return sensim__fail(SENSIM_EPARSE, "%s[%d]: must be a number", path, k);
    v[k] = x->valuedouble;
  }
  sensim_quat q = q_make(v[3], v[4], v[5], v[6]);
  if (!(q_norm(q) > 1e-9)) return sensim__fail(SENSIM_EINVAL, "%s: the quaternion must not be zero", path);
  out->pos = v3(v[0], v[1], v[2]);
  out->rot = q_normalize(q);
  return SENSIM_OK;
}

/* An array `key` of exactly n integers in [lo, hi] into out (as doubles). */
static sensim_status parse_ids(const cJSON *obj, const char *path, const char *key, size_t n, double lo, double hi,
                               double *out) {
  const cJSON *a = NULL;
  sensim_status st = sensim__jarray(obj, path, key, 1, &a);
  if (st) return st;
  if ((size_t)cJSON_GetArraySize(a) != n)
    return sensim__fail(SENSIM_EINVAL, "%s.%s: %d ids for %zu poses", path, key, cJSON_GetArraySize(a), n);
  size_t i = 0;
  for (const cJSON *x = a->child; x; x = x->next, i++) {
    const double v = cJSON_IsNumber(x) ? x->valuedouble : -1.0;
    if (!cJSON_IsNumber(x) || v != (double)(long long)v || !(v >= lo && v <= hi))
      return sensim__fail(SENSIM_EINVAL, "%s.%s[%zu]: must be an integer in [%.0f, %.0f]", path, key, i, lo, hi);
    out[i] = v;
  }
  return SENSIM_OK;
}

static sensim_status parse_group(sensim_scenario *scn, const cJSON *obj, const char *path) {
  static const char *const keys[] = {"mesh", "poses", "class_id", "class_ids", "instance_ids", "albedo_jitter",
                                     "reflectance_jitter", "fast_bvh", NULL};
  const char *mesh = NULL;
  const cJSON *poses = NULL;
  double cls = 0, aj = 0, rj = 0;
  int fast = 0;
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "mesh", 1, &mesh);
  if (st == SENSIM_OK) st = sensim__jarray(obj, path, "poses", 1, &poses);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "class_id", 0, 0, 65535, &cls);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "albedo_jitter", 0, &aj);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "reflectance_jitter", 0, &rj);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "fast_bvh", &fast);
  if (st != SENSIM_OK) return st;
  sensim_instances_desc d;
  sensim_instances_desc_init(&d);
  for (size_t i = 0; i < scn->nmeshes && !d.mesh; i++)
    if (strcmp(scn->meshes[i].name, mesh) == 0) d.mesh = scn->meshes[i].mesh;
  if (!d.mesh) return sensim__fail(SENSIM_ENOTFOUND, "%s.mesh: no mesh named '%s'", path, mesh);
  const size_t n = (size_t)cJSON_GetArraySize(poses);
  if (n == 0 || n > SENSIM_INSTANCES_MAX)
    return sensim__fail(SENSIM_EINVAL, "%s.poses: %zu placements is outside [1, %u]", path, n, SENSIM_INSTANCES_MAX);
  if (!(aj >= 0 && aj <= 0.5)) return sensim__scenario_fail_range(path, "albedo_jitter", "in [0, 0.5]", aj);
  if (!(rj >= 0 && rj <= 0.5)) return sensim__scenario_fail_range(path, "reflectance_jitter", "in [0, 0.5]", rj);
  sensim_pose *pose = malloc(n * sizeof *pose);
  double *ids = malloc(n * sizeof *ids);
  uint16_t *cids = NULL;
  uint32_t *iids = NULL;
  if (!pose || !ids) st = sensim__fail(SENSIM_ENOMEM, "%s: out of memory for %zu placements", path, n);
  size_t i = 0;
  for (const cJSON *e = poses->child; st == SENSIM_OK && e; e = e->next, i++) {
    char p2[112];
    snprintf(p2, sizeof p2, "%s.poses[%zu]", path, i);
    st = parse_placement(e, p2, &pose[i]);
  }
  if (st == SENSIM_OK && cJSON_HasObjectItem(obj, "class_ids") &&
      (st = parse_ids(obj, path, "class_ids", n, 0, 65535, ids)) == SENSIM_OK) {
    if (!(cids = malloc(n * sizeof *cids))) st = sensim__fail(SENSIM_ENOMEM, "%s: out of memory", path);
    for (i = 0; cids && i < n; i++) cids[i] = (uint16_t)ids[i];
  }
  if (st == SENSIM_OK && cJSON_HasObjectItem(obj, "instance_ids") &&
      (st = parse_ids(obj, path, "instance_ids", n, 1, 4294967295.0, ids)) == SENSIM_OK) {
    if (!(iids = malloc(n * sizeof *iids))) st = sensim__fail(SENSIM_ENOMEM, "%s: out of memory", path);
    for (i = 0; iids && i < n; i++) iids[i] = (uint32_t)ids[i];
  }
  if (st == SENSIM_OK) {
    d.n = n, d.poses = pose, d.class_id = (uint16_t)cls, d.class_ids = cids, d.instance_ids = iids;
    d.albedo_jitter = (float)aj, d.reflectance_jitter = (float)rj, d.fast_bvh = fast == 1;
    sensim_body *b = NULL;
    if ((st = sensim_body_create_instances(scn->world, &d, &b)) != SENSIM_OK) sensim__error_context("%s", path);
  }
  free(pose);
  free(ids);
  free(cids);
  free(iids);
  return st;
}

sensim_status sensim__scenario_instances(sensim_scenario *scn, const cJSON *arr) {
  size_t i = 0;
  for (const cJSON *e = arr->child; e; e = e->next, i++) {
    char path[64];
    sensim__jpath_index(path, sizeof path, "instances", i);
    if (!cJSON_IsObject(e)) return sensim__fail(SENSIM_EPARSE, "%s: must be an object", path);
    sensim_status st = parse_group(scn, e, path);
    if (st != SENSIM_OK) return st;
  }
  return SENSIM_OK;
}
