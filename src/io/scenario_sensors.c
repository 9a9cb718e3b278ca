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
static const char *const camera_keys[] = {"width", "height", "hfov_deg", "samples", NULL};
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

static sensim_status parse_camera(const cJSON *obj, const char *path, sensim_camera_params *cp) {
  double w = cp->width, h = cp->height, s = cp->samples, fov = cp->hfov / DEG;
  sensim_status st = sensim__jint(obj, path, "width", 0, 1, 65536, &w);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "height", 0, 1, 65536, &h);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "samples", 0, 1, 4096, &s);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "hfov_deg", 0, &fov);
  if (st != SENSIM_OK) return st;
  if (!(fov > 0 && fov < 180)) return fail_range(path, "hfov_deg", "in (0, 180) deg", fov);
  cp->width = (uint32_t)w;
  cp->height = (uint32_t)h;
  cp->samples = (int)s;
  cp->hfov = fov * DEG;
  return SENSIM_OK;
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

static sensim_status parse_filter(sensim_sensor *s, const cJSON *obj, const char *path) {
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
  char *text = NULL;
  if (params && !(text = cJSON_PrintUnformatted(params)))
    return sensim__fail(SENSIM_ENOMEM, "%s.params: out of memory", path);
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
           p == SENSIM_PAYLOAD_DEPTH_F32 || p == SENSIM_PAYLOAD_LABELS;
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
                                  sensim__scn_sensor *out) {
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
    if ((st = parse_filter(s, f, fp)) != SENSIM_OK) return st;
  }
  char op[128];
  sensim__jpath_key(op, sizeof op, path, "output");
  if ((st = sensim__jobject(obj, path, "output", 0, &output)) != SENSIM_OK) return st;
  if ((st = parse_output(output, op, sensim_sensor_output_type(s), &out->format)) != SENSIM_OK)
    return st;
  out->sensor = s;
  return SENSIM_OK;
}

sensim_status sensim__scenario_sensors(sensim_scenario *scn, const cJSON *arr) {
  size_t n = (size_t)cJSON_GetArraySize(arr);
  if (n == 0) return SENSIM_OK;
  scn->sensors = calloc(n, sizeof *scn->sensors);
  if (!scn->sensors) return sensim__fail(SENSIM_ENOMEM, "sensors: out of memory");
  size_t i = 0;
  for (const cJSON *e = arr->child; e; e = e->next, i++) {
    char path[64];
    sensim__jpath_index(path, sizeof path, "sensors", i);
    sensim_status st = parse_sensor(scn, e, path, &scn->sensors[scn->nsensors]);
    if (st != SENSIM_OK) return st;
    scn->nsensors++;
  }
  return SENSIM_OK;
}
