/* io/scenario_sensors.c: the "sensors" section of a scenario file: the
 * schedule every sensor shares, each kind's parameters, the filter chain
 * and the output format. docs/scenario.md documents every key. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "io/scenario_internal.h"
#include "sensim/sensim.h"

#define DEG (3.14159265358979323846 / 180.0)

static const char *const common_keys[] = {"name", "type",   "body",    "mount",  "rate", "phase",
                                          "lag",  "window", "filters", "output", NULL};
static const char *const camera_keys[] = {
    "width",      "height",          "hfov_deg",   "samples",       "fx",
    "fy",         "cx",              "cy",         "lens",          "dist",
    "vignetting", "vignetting_poly", "lateral_ca", "exposure_time", "line_time",
    "depth_along_ray", "max_bounces", "fog_visibility", NULL};
static const char *const lidar_keys[] = {"channels",  "elev_min_deg",      "elev_max_deg",
                                         "elevations_deg", "columns", "hfov_deg",
                                         "start_azimuth_deg", "min_range", "max_range", NULL};

/* common_keys followed by the kind's own keys, in `all` (room for 32). */
static void join_keys(const char *const *kind, const char **all) {
  size_t n = 0;
  for (size_t i = 0; common_keys[i]; i++) all[n++] = common_keys[i];
  for (size_t i = 0; kind && kind[i]; i++) all[n++] = kind[i];
  all[n] = NULL;
}

static sensim_status fail_range(const char *path, const char *key, const char *what, double v) {
  return sensim__fail(SENSIM_EINVAL, "%s.%s: must be %s (got %g)", path, key, what, v);
}

static sensim_status parse_schedule(sensim_scenario *scn, const cJSON *obj, const char *path,
                                    sensim_sensor_params *sp) {
  const char *body = NULL;
  const cJSON *mount = NULL;
  sensim_status st = sensim__jstring(obj, path, "body", 0, &body);
  if (st == SENSIM_OK) st = sensim__jobject(obj, path, "mount", 0, &mount);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "rate", 0, &sp->rate);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "phase", 0, &sp->phase);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "lag", 0, &sp->lag);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "window", 0, &sp->window);
  if (st != SENSIM_OK) return st;
  if (!(sp->rate > 0)) return fail_range(path, "rate", "> 0 Hz", sp->rate);
  if (!(sp->phase >= 0)) return fail_range(path, "phase", ">= 0 s", sp->phase);
  if (!(sp->lag >= 0)) return fail_range(path, "lag", ">= 0 s", sp->lag);
  if (body) {
    for (size_t i = 0; i < scn->nbodies && !sp->body; i++)
      if (strcmp(scn->bodies[i].name, body) == 0) sp->body = scn->bodies[i].body;
    if (!sp->body) return sensim__fail(SENSIM_ENOTFOUND, "%s.body: no body named '%s'", path, body);
  }
  if (mount) {
    char sub[128];
    sensim__jpath_key(sub, sizeof sub, path, "mount");
    st = sensim__scenario_pose(mount, sub, &sp->mount);
  }
  return st;
}

/* "lens" and "dist": the lens model and its distortion coefficients in
 * OpenCV's order (Brown-Conrady k1 k2 p1 p2 k3, Kannala-Brandt k1 k2 k3 k4);
 * missing trailing coefficients are 0, as in OpenCV. */
static sensim_status parse_lens(const cJSON *obj, const char *path, sensim_camera_params *cp) {
  static const char *const names[] = {"pinhole", "fov", "brown_conrady", "kannala_brandt"};
  static const sensim_lens_model models[] = {SENSIM_LENS_PINHOLE, SENSIM_LENS_FOV,
                                             SENSIM_LENS_BROWN_CONRADY,
                                             SENSIM_LENS_KANNALA_BRANDT};
  const char *lens = NULL;
  const cJSON *dist = NULL;
  sensim_status st = sensim__jstring(obj, path, "lens", 0, &lens);
  if (st == SENSIM_OK) st = sensim__jarray(obj, path, "dist", 0, &dist);
  if (st != SENSIM_OK) return st;
  if (lens) {
    int k = -1;
    for (int i = 0; i < 4; i++)
      if (strcmp(lens, names[i]) == 0) k = i;
    if (k < 0)
      return sensim__fail(SENSIM_EINVAL,
                          "%s.lens: unknown lens '%s' (pinhole, fov, brown_conrady, "
                          "kannala_brandt)", path, lens);
    cp->lens = models[k];
  }
  if (!dist) return SENSIM_OK;
  int max = cp->lens == SENSIM_LENS_BROWN_CONRADY    ? 5
            : cp->lens == SENSIM_LENS_KANNALA_BRANDT ? 4
                                                     : 0;
  int n = cJSON_GetArraySize(dist);
  if (max == 0)
    return sensim__fail(SENSIM_EINVAL, "%s.dist: only the brown_conrady and kannala_brandt "
                                       "lenses take distortion coefficients", path);
  if (n > max)
    return sensim__fail(SENSIM_EINVAL, "%s.dist: %d coefficients, the %s lens takes at most %d",
                        path, n, lens ? lens : "", max);
  double d[5] = {0, 0, 0, 0, 0};
  int i = 0;
  for (const cJSON *e = dist->child; e; e = e->next, i++) {
    if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
      return sensim__fail(SENSIM_EPARSE, "%s.dist[%d]: must be a finite number", path, i);
    d[i] = e->valuedouble;
  }
  memcpy(cp->dist, d, sizeof d);
  return SENSIM_OK;
}

/* "fx", "fy", "cx", "cy": intrinsics as a calibration or a ROS camera_info
 * (K = [fx 0 cx; 0 fy cy; 0 0 1]) gives them. */
static sensim_status parse_intrinsics(const cJSON *obj, const char *path,
                                      sensim_camera_params *cp) {
  int has_fx = cJSON_HasObjectItem(obj, "fx"), has_fy = cJSON_HasObjectItem(obj, "fy");
  int has_cx = cJSON_HasObjectItem(obj, "cx"), has_cy = cJSON_HasObjectItem(obj, "cy");
  double fx = 0, fy = 0, cx = 0.5 * (cp->width - 1.0), cy = 0.5 * (cp->height - 1.0);
  sensim_status st = sensim__jnumber(obj, path, "fx", 0, &fx);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "fy", 0, &fy);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "cx", 0, &cx);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "cy", 0, &cy);
  if (st != SENSIM_OK) return st;
  if (has_fx != has_fy)
    return sensim__fail(SENSIM_EINVAL, "%s.%s: give fx and fy together", path,
                        has_fx ? "fy" : "fx");
  if ((has_cx || has_cy) && !has_fx)
    return sensim__fail(SENSIM_EINVAL, "%s.%s: the principal point needs fx and fy (without them "
                        "the intrinsics come from hfov_deg)", path, has_cx ? "cx" : "cy");
  if (!has_fx) return SENSIM_OK;
  if (!(fx > 0)) return fail_range(path, "fx", "> 0 px", fx);
  if (!(fy > 0)) return fail_range(path, "fy", "> 0 px", fy);
  cp->fx = fx;
  cp->fy = fy;
  cp->cx = cx;
  cp->cy = cy;
  return SENSIM_OK;
}

static sensim_status parse_camera(const cJSON *obj, const char *path, sensim_camera_params *cp) {
  double w = cp->width, h = cp->height, s = cp->samples, fov = cp->hfov / DEG;
  double bounces = cp->max_bounces;
  sensim_status st = sensim__jint(obj, path, "width", 0, 1, 65536, &w);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "height", 0, 1, 65536, &h);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "samples", 0, 1, 4096, &s);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "hfov_deg", 0, &fov);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "vignetting", &cp->vignetting);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "vignetting_poly", 0, 3, cp->vignetting_poly);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "lateral_ca", 0, 3, cp->lateral_ca);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "exposure_time", 0, &cp->exposure_time);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "line_time", 0, &cp->line_time);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "depth_along_ray", &cp->depth_along_ray);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "max_bounces", 0, 0, 8, &bounces);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "fog_visibility", 0, &cp->fog_visibility);
  if (st != SENSIM_OK) return st;
  if (!(fov > 0 && fov < 180)) return fail_range(path, "hfov_deg", "in (0, 180) deg", fov);
  if (!(cp->exposure_time >= 0))
    return fail_range(path, "exposure_time", ">= 0 s", cp->exposure_time);
  if (!(cp->line_time >= 0)) return fail_range(path, "line_time", ">= 0 s", cp->line_time);
  if (!(cp->fog_visibility >= 0))
    return fail_range(path, "fog_visibility", ">= 0 m (0: no fog)", cp->fog_visibility);
  for (int c = 0; c < 3; c++)
    if (!(cp->lateral_ca[c] >= 0))
      return sensim__fail(SENSIM_EINVAL, "%s.lateral_ca[%d]: must be >= 0 (0 or 1: none; got %g)",
                          path, c, cp->lateral_ca[c]);
  cp->width = (uint32_t)w;
  cp->height = (uint32_t)h;
  cp->samples = (int)s;
  cp->hfov = fov * DEG;
  cp->max_bounces = (int)bounces;
  if ((st = parse_intrinsics(obj, path, cp)) != SENSIM_OK) return st;
  return parse_lens(obj, path, cp);
}

/* elev holds SENSIM_LIDAR_MAX_CHANNELS values when "elevations_deg" is given. */
static sensim_status parse_lidar(const cJSON *obj, const char *path, sensim_lidar_params *lp,
                                 double *elev) {
  double ch = lp->channels, cols = lp->columns;
  double emin = lp->elev_min / DEG, emax = lp->elev_max / DEG, fov = lp->hfov / DEG;
  double az = lp->start_azimuth / DEG;
  const cJSON *table = NULL;
  sensim_status st = sensim__jint(obj, path, "channels", 0, 1, SENSIM_LIDAR_MAX_CHANNELS, &ch);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "columns", 0, 1, 1e7, &cols);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "elev_min_deg", 0, &emin);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "elev_max_deg", 0, &emax);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "hfov_deg", 0, &fov);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "start_azimuth_deg", 0, &az);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "min_range", 0, &lp->min_range);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "max_range", 0, &lp->max_range);
  if (st == SENSIM_OK) st = sensim__jarray(obj, path, "elevations_deg", 0, &table);
  if (st != SENSIM_OK) return st;
  if (!(fov > 0 && fov <= 360)) return fail_range(path, "hfov_deg", "in (0, 360] deg", fov);
  if (!(emin >= -90 && emax <= 90 && emin <= emax))
    return sensim__fail(SENSIM_EINVAL,
                        "%s.elev_min_deg/elev_max_deg: need -90 <= min <= max <= 90 (got %g, %g)",
                        path, emin, emax);
  if (!(lp->min_range >= 0)) return fail_range(path, "min_range", ">= 0 m", lp->min_range);
  if (!(lp->max_range > lp->min_range))
    return fail_range(path, "max_range", "> min_range", lp->max_range);
  lp->channels = (int)ch;
  lp->columns = (int)cols;
  lp->elev_min = emin * DEG;
  lp->elev_max = emax * DEG;
  lp->hfov = fov * DEG;
  lp->start_azimuth = az * DEG;
  lp->elevations = NULL;
  if (!table) return SENSIM_OK;
  if (cJSON_HasObjectItem(obj, "elev_min_deg") || cJSON_HasObjectItem(obj, "elev_max_deg"))
    return sensim__fail(SENSIM_EINVAL,
                        "%s.elevations_deg: give either elevations_deg or elev_min_deg and "
                        "elev_max_deg, not both", path);
  if (cJSON_GetArraySize(table) != lp->channels)
    return sensim__fail(SENSIM_EINVAL, "%s.elevations_deg: has %d values for %d channels", path,
                        cJSON_GetArraySize(table), lp->channels);
  size_t i = 0;
  for (const cJSON *e = table->child; e; e = e->next, i++) {
    if (!cJSON_IsNumber(e) || !(e->valuedouble >= -90 && e->valuedouble <= 90))
      return sensim__fail(SENSIM_EINVAL, "%s.elevations_deg[%zu]: must be a number in [-90, 90]",
                          path, i);
    elev[i] = e->valuedouble * DEG;
    if (i > 0 && !(elev[i] > elev[i - 1]))
      return sensim__fail(SENSIM_EINVAL, "%s.elevations_deg[%zu]: must be above the previous",
                          path, i);
  }
  lp->elevations = elev;
  return SENSIM_OK;
}

static int filter_known(const char *name) {
  const char *const *names = sensim_filter_names();
  for (size_t i = 0; names && names[i]; i++)
    if (strcmp(names[i], name) == 0) return 1;
  return 0;
}

/* base_dir + "/" + file unless file is absolute or base_dir empty; malloc'd. */
static char *resolve_path(const char *base_dir, const char *file) {
  size_t nb = (file[0] == '/' || !base_dir || !*base_dir) ? 0 : strlen(base_dir);
  char *r = malloc(nb + strlen(file) + 2);
  if (!r) return NULL;
  if (nb)
    sprintf(r, "%s/%s", base_dir, file);
  else
    strcpy(r, file);
  return r;
}

/* Per-channel or luminance statistics of the "reference_images" files. */
static sensim_status reference_stats(const cJSON *list, const char *path, const char *base_dir,
                                     int luma, double mean[3], double std[3]) {
  int n = cJSON_GetArraySize(list);
  if (n < 1) return sensim__fail(SENSIM_EINVAL, "%s: needs at least one image", path);
  char **files = calloc((size_t)n, sizeof *files);
  if (!files) return sensim__fail(SENSIM_ENOMEM, "%s: out of memory", path);
  sensim_status st = SENSIM_OK;
  int i = 0;
  for (const cJSON *e = list->child; e && st == SENSIM_OK; e = e->next, i++) {
    if (!cJSON_IsString(e) || !*e->valuestring)
      st = sensim__fail(SENSIM_EPARSE, "%s[%d]: must be a file name", path, i);
    else if (!(files[i] = resolve_path(base_dir, e->valuestring)))
      st = sensim__fail(SENSIM_ENOMEM, "%s: out of memory", path);
  }
  /* Rec. 709 luminance weights (ITU-R BT.709-6), as "match_stats" uses
   * with per_channel false. */
  static const double luma709[3] = {0.2126, 0.7152, 0.0722};
  if (st == SENSIM_OK)
    st = luma ? sensim_image_stats_pngs_weighted((const char *const *)files, (size_t)n, luma709,
                                                 mean, std)
              : sensim_image_stats_pngs((const char *const *)files, (size_t)n, mean, std);
  if (st != SENSIM_OK) sensim__error_context("%s", path);
  for (int k = 0; k < n; k++) free(files[k]);
  free(files);
  return st;
}

static sensim_status add_numbers(cJSON *obj, const char *key, const double *v, int n) {
  cJSON *item = n == 1 ? cJSON_CreateNumber(v[0]) : cJSON_CreateDoubleArray(v, n);
  if (!item || !cJSON_AddItemToObject(obj, key, item)) {
    cJSON_Delete(item);
    return sensim__fail(SENSIM_ENOMEM, "out of memory");
  }
  return SENSIM_OK;
}

/* The filter parameters to hand over: a copy of `params` in which
 * "reference_images" of "white_balance" and "match_stats" is replaced by
 * the statistics those filters take ("reference_mean", and for match_stats
 * "reference_std"; white_balance also gets "mode": "reference" when it has
 * no mode). Other filters get their params unchanged (and refuse the key
 * themselves). *out is NULL for no params. */
static sensim_status filter_params(const char *name, const cJSON *params, const char *path,
                                   const char *base_dir, cJSON **out) {
  *out = NULL;
  if (!params) return SENSIM_OK;
  cJSON *copy = cJSON_Duplicate(params, 1);
  if (!copy) return sensim__fail(SENSIM_ENOMEM, "%s: out of memory", path);
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(copy, "reference_images");
  int wb = strcmp(name, "white_balance") == 0, ms = strcmp(name, "match_stats") == 0;
  if (!list || !(wb || ms)) {
    *out = copy;
    return SENSIM_OK;
  }
  char kp[160];
  sensim__jpath_key(kp, sizeof kp, path, "reference_images");
  sensim_status st = SENSIM_OK;
  if (!cJSON_IsArray(list))
    st = sensim__fail(SENSIM_EPARSE, "%s: must be an array of file names", kp);
  else if (cJSON_HasObjectItem(copy, "reference_mean") ||
           cJSON_HasObjectItem(copy, "reference_std"))
    st = sensim__fail(SENSIM_EINVAL, "%s: give reference_images or reference_mean/reference_std, "
                                     "not both", kp);
  const cJSON *pc = cJSON_GetObjectItemCaseSensitive(copy, "per_channel");
  int luma = ms && cJSON_IsFalse(pc);
  double mean[3], std[3];
  if (st == SENSIM_OK) st = reference_stats(list, kp, base_dir, luma, mean, std);
  if (st == SENSIM_OK) {
    cJSON_DeleteItemFromObjectCaseSensitive(copy, "reference_images");
    st = add_numbers(copy, "reference_mean", mean, luma ? 1 : 3);
    if (st == SENSIM_OK && ms) st = add_numbers(copy, "reference_std", std, luma ? 1 : 3);
    if (st == SENSIM_OK && wb && !cJSON_HasObjectItem(copy, "mode") &&
        !cJSON_AddStringToObject(copy, "mode", "reference"))
      st = sensim__fail(SENSIM_ENOMEM, "%s: out of memory", path);
  }
  if (st != SENSIM_OK) {
    cJSON_Delete(copy);
    return st;
  }
  *out = copy;
  return SENSIM_OK;
}

static sensim_status parse_filter(sensim_sensor *s, const cJSON *obj, const char *path,
                                  const char *base_dir) {
  static const char *const keys[] = {"name", "params", NULL};
  const char *name = NULL;
  const cJSON *params = NULL;
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "name", 1, &name);
  if (st == SENSIM_OK) st = sensim__jobject(obj, path, "params", 0, &params);
  if (st != SENSIM_OK) return st;
  if (!filter_known(name)) {
    char list[512] = "";
    const char *const *names = sensim_filter_names();
    size_t used = 0;
    for (size_t i = 0; names && names[i] && used + 1 < sizeof list; i++) {
      int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", names[i]);
      if (w < 0) break;
      used += (size_t)w;
    }
    return sensim__fail(SENSIM_ENOTFOUND, "%s.name: unknown filter '%s' (built-in: %s)", path,
                        name, list);
  }
  char pp[160];
  sensim__jpath_key(pp, sizeof pp, path, "params");
  cJSON *given = NULL;
  if ((st = filter_params(name, params, pp, base_dir, &given)) != SENSIM_OK) return st;
  char *text = NULL;
  if (given && !(text = cJSON_PrintUnformatted(given))) {
    cJSON_Delete(given);
    return sensim__fail(SENSIM_ENOMEM, "%s.params: out of memory", path);
  }
  cJSON_Delete(given);
  st = sensim_sensor_add_filter(s, name, text);
  if (st != SENSIM_OK) sensim__error_context("%s", path);
  cJSON_free(text);
  return st;
}

/* The writer each output format needs, and the format a payload gets when
 * "output" is not given. */
static int format_takes(sensim__out_format f, sensim_payload p) {
  switch (f) {
  case SENSIM__OUT_NONE:
    return 1;
  case SENSIM__OUT_PNG:
    return p == SENSIM_PAYLOAD_RGBA8 || p == SENSIM_PAYLOAD_GRAY8 || p == SENSIM_PAYLOAD_GRAY16 ||
           p == SENSIM_PAYLOAD_DEPTH_F32 || p == SENSIM_PAYLOAD_LABELS ||
           p == SENSIM_PAYLOAD_RGB16 || p == SENSIM_PAYLOAD_RAW16;
  case SENSIM__OUT_PCD:
  case SENSIM__OUT_PCD_ASCII:
    return p == SENSIM_PAYLOAD_POINTS;
  case SENSIM__OUT_CSV:
    return p == SENSIM_PAYLOAD_GNSS || p == SENSIM_PAYLOAD_IMU || p == SENSIM_PAYLOAD_POINTS;
  }
  return 0;
}

static sensim__out_format default_format(sensim_payload p) {
  if (format_takes(SENSIM__OUT_PNG, p)) return SENSIM__OUT_PNG;
  if (p == SENSIM_PAYLOAD_POINTS) return SENSIM__OUT_PCD;
  if (format_takes(SENSIM__OUT_CSV, p)) return SENSIM__OUT_CSV;
  return SENSIM__OUT_NONE;
}

static sensim_status parse_output(const cJSON *obj, const char *path, sensim_payload p,
                                  sensim__out_format *f) {
  static const char *const keys[] = {"format", NULL};
  static const char *const names[] = {"none", "png", "pcd", "pcd_ascii", "csv"};
  *f = default_format(p);
  if (!obj) return SENSIM_OK;
  const char *fmt = NULL;
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "format", 1, &fmt);
  if (st != SENSIM_OK) return st;
  int k = -1;
  for (int i = 0; i < 5; i++)
    if (strcmp(fmt, names[i]) == 0) k = i;
  if (k < 0)
    return sensim__fail(SENSIM_EINVAL,
                        "%s.format: unknown format '%s' (png, pcd, pcd_ascii, csv, none)", path,
                        fmt);
  if (!format_takes((sensim__out_format)k, p))
    return sensim__fail(SENSIM_ETYPE, "%s.format: %s cannot hold the %s frames this chain gives",
                        path, fmt, sensim_payload_name(p));
  *f = (sensim__out_format)k;
  return SENSIM_OK;
}

static sensim_status parse_sensor(sensim_scenario *scn, const cJSON *obj, const char *path,
                                  const char *base_dir, sensim__scn_sensor *out) {
  const char *type = NULL, *name = NULL;
  sensim_status st = cJSON_IsObject(obj)
                         ? sensim__jstring(obj, path, "type", 1, &type)
                         : sensim__fail(SENSIM_EPARSE, "%s: must be an object", path);
  if (st != SENSIM_OK) return st;
  const char *const *kind_keys = NULL;
  if (strcmp(type, "camera") == 0)
    kind_keys = camera_keys;
  else if (strcmp(type, "lidar") == 0)
    kind_keys = lidar_keys;
  else if (strcmp(type, "gnss") != 0 && strcmp(type, "imu") != 0)
    return sensim__fail(SENSIM_EINVAL, "%s.type: unknown sensor '%s' (camera, lidar, gnss, imu)",
                        path, type);
  const char *keys[32];
  join_keys(kind_keys, keys);
  if ((st = sensim__jcheck_object(obj, path, keys)) != SENSIM_OK) return st;
  if ((st = sensim__jstring(obj, path, "name", 1, &name)) != SENSIM_OK) return st;
  if (!*name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
    return sensim__fail(SENSIM_EINVAL, "%s.name: '%s' is not a usable folder name", path, name);
  if (sensim_world_sensor_by_name(scn->world, name))
    return sensim__fail(SENSIM_EINVAL, "%s.name: '%s' is already a sensor", path, name);

  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = name;
  if ((st = parse_schedule(scn, obj, path, &sp)) != SENSIM_OK) return st;

  sensim_sensor *s = NULL;
  sensim_camera_params cp;
  sensim_lidar_params lp;
  double elev[SENSIM_LIDAR_MAX_CHANNELS];
  sensim_camera_params_init(&cp);
  sensim_lidar_params_init(&lp);
  if (kind_keys == camera_keys && (st = parse_camera(obj, path, &cp)) != SENSIM_OK) return st;
  if (kind_keys == lidar_keys && (st = parse_lidar(obj, path, &lp, elev)) != SENSIM_OK) return st;
  if (kind_keys == camera_keys)
    st = sensim_camera_create(scn->world, &sp, &cp, &s);
  else if (kind_keys == lidar_keys)
    st = sensim_lidar_create(scn->world, &sp, &lp, &s);
  else if (strcmp(type, "gnss") == 0)
    st = sensim_gnss_create(scn->world, &sp, &s);
  else
    st = sensim_imu_create(scn->world, &sp, &s);
  if (st != SENSIM_OK) {
    sensim__error_context("%s", path);
    return st;
  }

  const cJSON *filters = NULL, *output = NULL;
  if ((st = sensim__jarray(obj, path, "filters", 0, &filters)) != SENSIM_OK) return st;
  size_t j = 0;
  for (const cJSON *f = filters ? filters->child : NULL; f; f = f->next, j++) {
    char fp[128], fk[112];
    sensim__jpath_key(fk, sizeof fk, path, "filters");
    sensim__jpath_index(fp, sizeof fp, fk, j);
    if ((st = parse_filter(s, f, fp, base_dir)) != SENSIM_OK) return st;
  }
  char op[128];
  sensim__jpath_key(op, sizeof op, path, "output");
  if ((st = sensim__jobject(obj, path, "output", 0, &output)) != SENSIM_OK) return st;
  if ((st = parse_output(output, op, sensim_sensor_output_type(s), &out->format)) != SENSIM_OK)
    return st;
  out->sensor = s;
  return SENSIM_OK;
}

sensim_status sensim__scenario_sensors(sensim_scenario *scn, const cJSON *arr, const char *base_dir) {
  size_t n = (size_t)cJSON_GetArraySize(arr);
  if (n == 0) return SENSIM_OK;
  scn->sensors = calloc(n, sizeof *scn->sensors);
  if (!scn->sensors) return sensim__fail(SENSIM_ENOMEM, "sensors: out of memory");
  size_t i = 0;
  for (const cJSON *e = arr->child; e; e = e->next, i++) {
    char path[64];
    sensim__jpath_index(path, sizeof path, "sensors", i);
    sensim_status st = parse_sensor(scn, e, path, base_dir, &scn->sensors[scn->nsensors]);
    if (st != SENSIM_OK) return st;
    scn->nsensors++;
  }
  return SENSIM_OK;
}

