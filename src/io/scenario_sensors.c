/* io/scenario_sensors.c: the "sensors" section of a scenario file: the
 * schedule every sensor shares, each kind's parameters, the filter chain
 * and the output format. docs/scenario.md documents every key. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/payload.h"
#include "core/vecmath.h"
#include "io/scenario_cone.h"
#include "io/scenario_radar.h"
#include "io/scenario_gnss.h"
#include "io/scenario_internal.h"
#include "io/scenario_magnetometer.h"
#include "sensim/nmea.h"
#include "sensim/sensim.h"

static const char *const common_keys[] = {"name", "type",   "body",    "mount",  "rate", "phase",
                                          "lag",  "window", "filters", "output", NULL};
static const char *const lidar_keys[] = {
    "preset",         "pattern",        "channels",         "elev_min_deg",
    "elev_max_deg",   "elevations_deg", "azimuth_offsets_deg", "firing_offsets",
    "columns",        "hfov_deg",       "start_azimuth_deg", "clockwise",
    "min_range",      "max_range",      "divergence_deg",   "beam_shape",
    "subrays",        "returns",        "range_resolution", "detection_range",
    "intensity_bits", "extinction",     "fog_visibility",   NULL};

/* common_keys followed by the kind's own keys, in `all` (room for 48). */
static void join_keys(const char *const *kind, const char **all) {
  size_t n = 0;
  for (size_t i = 0; common_keys[i]; i++) all[n++] = common_keys[i];
  for (size_t i = 0; kind && kind[i]; i++) all[n++] = kind[i];
  all[n] = NULL;
}

sensim_status sensim__scenario_fail_range(const char *path, const char *key, const char *what, double v) {
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
  if (!(sp->rate > 0)) return sensim__scenario_fail_range(path, "rate", "> 0 Hz", sp->rate);
  if (!(1.0 / sp->rate <= SENSIM_TIME_MAX)) /* a denormal rate's period is inf */
    return sensim__scenario_fail_range(path, "rate", ">= 1/SENSIM_TIME_MAX Hz (a period within the time limit)",
                                       sp->rate);
  if (!(sp->phase >= 0)) return sensim__scenario_fail_range(path, "phase", ">= 0 s", sp->phase);
  if (!(sp->lag >= 0)) return sensim__scenario_fail_range(path, "lag", ">= 0 s", sp->lag);
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
    char hint[96];
    return sensim__fail(SENSIM_ENOTFOUND, "%s.name: unknown filter '%s'%s (built-in: %s)", path,
                        name, sensim__did_you_mean(hint, sizeof hint, name, names), list);
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

/* Output formats by name. Which payloads each can hold, and which one a
 * payload gets when "output" is not given, are the payload table's
 * (core/payload.h): a new payload brings its own. */
static const char *const format_names[] = {"none", "png", "pcd", "pcd_ascii", "csv", "ply", "ply_ascii", "nmea",
                                           "npy", NULL};
static const sensim__out_format format_values[] = {SENSIM__OUT_NONE, SENSIM__OUT_PNG,
                                                   SENSIM__OUT_PCD,  SENSIM__OUT_PCD_ASCII,
                                                   SENSIM__OUT_CSV,  SENSIM__OUT_PLY,
                                                   SENSIM__OUT_PLY_ASCII, SENSIM__OUT_NMEA,
                                                   SENSIM__OUT_NPY};
enum { NFORMATS = sizeof format_names / sizeof format_names[0] - 1 };

int sensim__out_format_from_name(const char *name, sensim__out_format *out) {
  for (int i = 0; name && i < NFORMATS; i++)
    if (strcmp(name, format_names[i]) == 0) {
      *out = format_values[i];
      return 1;
    }
  return 0;
}

static sensim_status parse_output(const cJSON *obj, const char *path, sensim_payload p,
                                  sensim__out_format *f, double *utc_start) {
  static const char *const keys[] = {"format", "utc_start", NULL};
  const sensim__payload_desc *desc = sensim__payload_desc_of(p);
  if (!desc || !sensim__out_format_from_name(desc->default_output, f)) *f = SENSIM__OUT_NONE;
  *utc_start = SENSIM_NMEA_DEFAULT_UTC_START;
  if (!obj) return SENSIM_OK;
  const char *fmt = NULL, *utc = NULL;
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "format", 1, &fmt);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "utc_start", 0, &utc);
  if (st != SENSIM_OK) return st;
  sensim__out_format given;
  char hint[96];
  if (!sensim__out_format_from_name(fmt, &given))
    return sensim__fail(SENSIM_EINVAL,
                        "%s.format: unknown format '%s'%s (png, pcd, pcd_ascii, ply, ply_ascii, "
                        "csv, nmea, npy, none)", path, fmt,
                        sensim__did_you_mean(hint, sizeof hint, fmt, format_names));
  if (!sensim__payload_takes_output(desc, fmt))
    return sensim__fail(SENSIM_ETYPE, "%s.format: %s cannot hold the %s frames this chain gives",
                        path, fmt, sensim_payload_name(p));
  if (utc && given != SENSIM__OUT_NMEA)
    return sensim__fail(SENSIM_EINVAL, "%s.utc_start: only the nmea format takes a UTC start", path);
  if (utc && (st = sensim_utc_parse_iso8601(utc, utc_start)) != SENSIM_OK) {
    sensim__error_context("%s.utc_start", path);
    return st;
  }
  *f = given;
  return SENSIM_OK;
}

/* Each kind: its keys after the common ones, and how its own parameters are
 * read and the sensor created. *reach gets a ranging sensor's max range, m
 * (left 0 by the others), for the output checks (io/scenario_warnings.c). */
typedef sensim_status (*scn_create_fn)(sensim_world *w, const cJSON *obj, const char *path,
                                       const sensim_sensor_params *sp, sensim_sensor **s,
                                       double *reach);

static sensim_status create_camera(sensim_world *w, const cJSON *obj, const char *path,
                                   const sensim_sensor_params *sp, sensim_sensor **s, double *reach) {
  (void)reach;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  sensim_status st = sensim__scenario_camera(obj, path, &cp);
  return st != SENSIM_OK ? st : sensim_camera_create(w, sp, &cp, s);
}

static sensim_status create_lidar(sensim_world *w, const cJSON *obj, const char *path,
                                  const sensim_sensor_params *sp, sensim_sensor **s, double *reach) {
  sensim_lidar_params lp;
  sensim__lidar_tables tables; /* holds the arrays lp points to until creation */
  sensim_lidar_params_init(&lp);
  sensim_status st = sensim__scenario_lidar(obj, path, &lp, &tables);
  *reach = lp.max_range;
  return st != SENSIM_OK ? st : sensim_lidar_create(w, sp, &lp, s);
}

static sensim_status create_gnss(sensim_world *w, const cJSON *obj, const char *path,
                                 const sensim_sensor_params *sp, sensim_sensor **s, double *reach) {
  (void)reach;
  sensim_gnss_params gp;
  sensim_gnss_params_init(&gp);
  sensim_status st = sensim__scenario_gnss(obj, path, &gp);
  return st != SENSIM_OK ? st : sensim_gnss_create(w, sp, &gp, s);
}

static const char *const imu_keys[] = {"earth_rotation", NULL};

static sensim_status create_imu(sensim_world *w, const cJSON *obj, const char *path,
                                const sensim_sensor_params *sp, sensim_sensor **s, double *reach) {
  (void)reach;
  sensim_imu_params ip;
  sensim_imu_params_init(&ip);
  sensim_status st = sensim__jbool(obj, path, "earth_rotation", &ip.earth_rotation);
  return st != SENSIM_OK ? st : sensim_imu_create(w, sp, &ip, s);
}

static sensim_status create_cone(sensim_world *w, const cJSON *obj, const char *path,
                                 const sensim_sensor_params *sp, sensim_sensor **s, double *reach) {
  (void)reach;
  sensim_cone_params cp;
  sensim_cone_params_init(&cp);
  sensim_status st = sensim__scenario_cone(obj, path, &cp);
  return st != SENSIM_OK ? st : sensim_cone_create(w, sp, &cp, s);
}

static sensim_status create_radar(sensim_world *w, const cJSON *obj, const char *path,
                                  const sensim_sensor_params *sp, sensim_sensor **s, double *reach) {
  sensim_radar_params rp;
  sensim_radar_params_init(&rp);
  sensim_status st = sensim__scenario_radar(obj, path, &rp);
  *reach = rp.max_range;
  return st != SENSIM_OK ? st : sensim_radar_create(w, sp, &rp, s);
}

static sensim_status create_magnetometer(sensim_world *w, const cJSON *obj, const char *path,
                                         const sensim_sensor_params *sp, sensim_sensor **s, double *reach) {
  (void)reach;
  sensim_magnetometer_params mp;
  sensim_magnetometer_params_init(&mp);
  sensim_status st = sensim__scenario_magnetometer(obj, path, &mp);
  return st != SENSIM_OK ? st : sensim_magnetometer_create(w, sp, &mp, s);
}

typedef struct scn_kind {
  const char *type;
  const char *const *keys;
  scn_create_fn create;
  sensim_payload raw; /* what its frames are before any filter */
} scn_kind;

static const scn_kind kinds[] = {
    {"camera", sensim__camera_keys, create_camera, SENSIM_PAYLOAD_RGB_F32},
    {"lidar", lidar_keys, create_lidar, SENSIM_PAYLOAD_BEAMS},
    {"gnss", sensim__scenario_gnss_keys, create_gnss, SENSIM_PAYLOAD_GNSS},
    {"imu", imu_keys, create_imu, SENSIM_PAYLOAD_IMU},
    {"magnetometer", sensim__scenario_magnetometer_keys, create_magnetometer, SENSIM_PAYLOAD_MAG},
    {"cone", sensim__scenario_cone_keys, create_cone, SENSIM_PAYLOAD_DETECTION},
    {"radar", sensim__scenario_radar_keys, create_radar, SENSIM_PAYLOAD_RADAR},
};

static const scn_kind *kind_named(const char *type) {
  for (size_t i = 0; type && i < sizeof kinds / sizeof kinds[0]; i++)
    if (strcmp(type, kinds[i].type) == 0) return &kinds[i];
  return NULL;
}

const char *const *sensim_sensor_kinds(void) {
  static const char *const names[] = {"camera", "lidar", "gnss", "imu", "magnetometer", "cone", "radar", NULL};
  return names;
}

const char *const *sensim_sensor_kind_keys(const char *kind) {
  const scn_kind *k = kind_named(kind);
  return k ? k->keys : NULL;
}

sensim_payload sensim_sensor_kind_payload(const char *kind) {
  const scn_kind *k = kind_named(kind);
  return k ? k->raw : SENSIM_PAYLOAD_NONE;
}

sensim_status sensim_sensor_create_json(sensim_world *world, const char *kind,
                                        const sensim_sensor_params *sp, const char *params_json,
                                        sensim_sensor **out) {
  if (!world || !kind || !sp || !out)
    return sensim__fail(SENSIM_EINVAL, "sensim_sensor_create_json: NULL argument");
  const scn_kind *k = kind_named(kind);
  if (!k) {
    char hint[96];
    return sensim__fail(SENSIM_ENOTFOUND,
                        "unknown sensor kind '%s'%s (camera, lidar, gnss, imu, magnetometer, cone, radar)",
                        kind, sensim__did_you_mean(hint, sizeof hint, kind, sensim_sensor_kinds()));
  }
  const char *path = sp->name ? sp->name : kind;
  char *clean = NULL;
  cJSON *root = NULL;
  sensim_status st = sensim__json_strip_comments(params_json ? params_json : "{}", path, &clean);
  if (st == SENSIM_OK) st = sensim__json_parse(clean, path, &root);
  free(clean);
  if (st == SENSIM_OK) st = sensim__jcheck_object(root, path, k->keys);
  double reach = 0.0;
  if (st == SENSIM_OK) st = k->create(world, root, path, sp, out, &reach);
  cJSON_Delete(root);
  return st;
}

/* Keys of sensor objects that name a file (the GNSS receiver's
 * "ephemeris"): a relative name is relative to the scenario's folder, so
 * *out gets a copy of obj with such names joined to base_dir (NULL when
 * nothing needs it). */
static sensim_status resolve_file_keys(const cJSON *obj, const char *path, const char *base_dir, cJSON **out) {
  static const char *const file_keys[] = {"ephemeris", NULL};
  *out = NULL;
  for (size_t i = 0; file_keys[i]; i++) {
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(obj, file_keys[i]);
    if (!cJSON_IsString(f) || !f->valuestring[0] || f->valuestring[0] == '/' || !base_dir || !*base_dir) continue;
    char *full = resolve_path(base_dir, f->valuestring);
    if (!*out) *out = cJSON_Duplicate(obj, 1);
    if (!full || !*out || !cJSON_ReplaceItemInObjectCaseSensitive(*out, file_keys[i], cJSON_CreateString(full))) {
      free(full);
      cJSON_Delete(*out);
      *out = NULL;
      return sensim__fail(SENSIM_ENOMEM, "%s.%s: out of memory", path, file_keys[i]);
    }
    free(full);
  }
  return SENSIM_OK;
}

static sensim_status parse_sensor(sensim_scenario *scn, const cJSON *obj, const char *path,
                                  const char *base_dir, sensim__scn_sensor *out) {
  const char *type = NULL, *name = NULL;
  sensim_status st = cJSON_IsObject(obj)
                         ? sensim__jstring(obj, path, "type", 1, &type)
                         : sensim__fail(SENSIM_EPARSE, "%s: must be an object", path);
  if (st != SENSIM_OK) return st;
  const scn_kind *kind = kind_named(type);
  if (!kind) {
    const char *types[sizeof kinds / sizeof kinds[0] + 1];
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) types[i] = kinds[i].type;
    types[sizeof kinds / sizeof kinds[0]] = NULL;
    char hint[96];
    return sensim__fail(SENSIM_EINVAL,
                        "%s.type: unknown sensor '%s'%s (camera, lidar, gnss, imu, magnetometer, cone, radar)",
                        path, type, sensim__did_you_mean(hint, sizeof hint, type, types));
  }
  const char *keys[48];
  join_keys(kind->keys, keys);
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
  double reach = 0.0;
  cJSON *resolved = NULL;
  if ((st = resolve_file_keys(obj, path, base_dir, &resolved)) != SENSIM_OK) return st;
  st = kind->create(scn->world, resolved ? resolved : obj, path, &sp, &s, &reach);
  cJSON_Delete(resolved);
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
  if ((st = parse_output(output, op, sensim_sensor_output_type(s), &out->format, &out->utc_start)) != SENSIM_OK)
    return st;
  /* NMEA of a receiver that simulates its satellites: the receiver's UTC
   * unless the output gives its own. */
  sensim_gnss_params gp;
  if (out->format == SENSIM__OUT_NMEA && strcmp(kind->type, "gnss") == 0 &&
      !cJSON_HasObjectItem(output, "utc_start") && sensim_gnss_params_get(s, &gp) == SENSIM_OK &&
      gp.mode == SENSIM_GNSS_SATELLITES)
    out->utc_start = gp.utc_start;
  out->sensor = s;
  return sensim__scenario_check_output(scn, path, kind->type, out, output != NULL, reach);
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

