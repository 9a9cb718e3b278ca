/* io/scenario_kinds.c: the keys of each sensor kind in a scenario file:
 * camera optics and rendering, lidar scan, beam and radiometry
 * (docs/scenario.md). */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "io/scenario_internal.h"
#include "sensim/sensim.h"

#define DEG (3.14159265358979323846 / 180.0)

/* "lens" and "dist": the lens model and its distortion coefficients in
 * OpenCV's order (Brown-Conrady k1 k2 p1 p2 k3, rational k1 k2 p1 p2 k3 k4
 * k5 k6, Kannala-Brandt k1 k2 k3 k4; division: lambda); missing trailing
 * coefficients are 0, as in OpenCV. */
static sensim_status parse_lens(const cJSON *obj, const char *path, sensim_camera_params *cp) {
  static const char *const names[] = {"pinhole",        "fov",      "brown_conrady",
                                      "kannala_brandt", "rational", "division", NULL};
  static const sensim_lens_model models[] = {SENSIM_LENS_PINHOLE,        SENSIM_LENS_FOV,
                                             SENSIM_LENS_BROWN_CONRADY,  SENSIM_LENS_KANNALA_BRANDT,
                                             SENSIM_LENS_RATIONAL,       SENSIM_LENS_DIVISION};
  const char *lens = NULL;
  const cJSON *dist = NULL;
  sensim_status st = sensim__jstring(obj, path, "lens", 0, &lens);
  if (st == SENSIM_OK) st = sensim__jarray(obj, path, "dist", 0, &dist);
  if (st != SENSIM_OK) return st;
  if (lens) {
    int k = -1;
    for (int i = 0; names[i]; i++)
      if (strcmp(lens, names[i]) == 0) k = i;
    char hint[96];
    if (k < 0)
      return sensim__fail(SENSIM_EINVAL,
                          "%s.lens: unknown lens '%s'%s (pinhole, fov, brown_conrady, "
                          "kannala_brandt, rational, division)", path, lens,
                          sensim__did_you_mean(hint, sizeof hint, lens, names));
    cp->lens = models[k];
  }
  if (!dist) return SENSIM_OK;
  int max = cp->lens == SENSIM_LENS_BROWN_CONRADY    ? 5
            : cp->lens == SENSIM_LENS_RATIONAL       ? 8
            : cp->lens == SENSIM_LENS_KANNALA_BRANDT ? 4
            : cp->lens == SENSIM_LENS_DIVISION       ? 1
                                                     : 0;
  int n = cJSON_GetArraySize(dist);
  if (max == 0)
    return sensim__fail(SENSIM_EINVAL, "%s.dist: only the brown_conrady, rational, kannala_brandt "
                                       "and division lenses take distortion coefficients", path);
  if (n > max)
    return sensim__fail(SENSIM_EINVAL, "%s.dist: %d coefficients, the %s lens takes at most %d",
                        path, n, lens ? lens : "", max);
  double d[8] = {0, 0, 0, 0, 0, 0, 0, 0};
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
  if (!(fx > 0)) return sensim__scenario_fail_range(path, "fx", "> 0 px", fx);
  if (!(fy > 0)) return sensim__scenario_fail_range(path, "fy", "> 0 px", fy);
  cp->fx = fx;
  cp->fy = fy;
  cp->cx = cx;
  cp->cy = cy;
  return SENSIM_OK;
}

sensim_status sensim__scenario_camera(const cJSON *obj, const char *path, sensim_camera_params *cp) {
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
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "max_bounces", 0, 0, 64, &bounces);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "fog_visibility", 0, &cp->fog_visibility);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "f_number", 0, &cp->f_number);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "aperture", 0, &cp->aperture);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "focus_distance", 0, &cp->focus_distance);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "pixel_pitch", 0, &cp->pixel_pitch);
  const char *integ = NULL;
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "integrator", 0, &integ);
  if (st != SENSIM_OK) return st;
  if (integ) {
    static const char *const names[] = {"direct", "path", NULL};
    if (strcmp(integ, "direct") == 0) {
      cp->integrator = SENSIM_INTEGRATOR_DIRECT;
    } else if (strcmp(integ, "path") == 0) {
      cp->integrator = SENSIM_INTEGRATOR_PATH;
    } else {
      char hint[96];
      return sensim__fail(SENSIM_EINVAL, "%s.integrator: unknown value '%s'%s (direct, path)", path, integ,
                          sensim__did_you_mean(hint, sizeof hint, integ, names));
    }
  }
  if (cp->integrator == SENSIM_INTEGRATOR_DIRECT && bounces > 8)
    return sensim__scenario_fail_range(path, "max_bounces", "in [0, 8] with the direct integrator", bounces);
  if (!(cp->f_number >= 0))
    return sensim__scenario_fail_range(path, "f_number", ">= 0 (0: no depth of field)", cp->f_number);
  if (!(cp->aperture >= 0)) return sensim__scenario_fail_range(path, "aperture", ">= 0 m (0: none)", cp->aperture);
  if (cp->f_number > 0 && cp->aperture > 0)
    return sensim__fail(SENSIM_EINVAL, "%s.aperture: give f_number or aperture, not both", path);
  if ((cp->f_number > 0 || cp->aperture > 0) && !(cp->focus_distance > 0))
    return sensim__scenario_fail_range(path, "focus_distance", "> 0 m with depth of field", cp->focus_distance);
  if (!(cp->pixel_pitch > 0)) return sensim__scenario_fail_range(path, "pixel_pitch", "> 0 m", cp->pixel_pitch);
  if (!(fov > 0 && fov < 180)) return sensim__scenario_fail_range(path, "hfov_deg", "in (0, 180) deg", fov);
  if (!(cp->exposure_time >= 0))
    return sensim__scenario_fail_range(path, "exposure_time", ">= 0 s", cp->exposure_time);
  if (!(cp->line_time >= 0)) return sensim__scenario_fail_range(path, "line_time", ">= 0 s", cp->line_time);
  if (!(cp->fog_visibility >= 0))
    return sensim__scenario_fail_range(path, "fog_visibility", ">= 0 m (0: no fog)", cp->fog_visibility);
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

/* The camera's own keys, those sensim__scenario_camera reads: a camera
 * sensor entry of a scenario (scenario_sensors.c) and
 * sensim_camera_params_from_json accept these. */
const char *const sensim__camera_keys[] = {
    "width",      "height",          "hfov_deg",   "samples",       "fx",
    "fy",         "cx",              "cy",         "lens",          "dist",
    "vignetting", "vignetting_poly", "lateral_ca", "exposure_time", "line_time",
    "depth_along_ray", "max_bounces", "fog_visibility", "f_number", "aperture",
    "focus_distance", "pixel_pitch", "integrator", NULL};

sensim_status sensim_camera_params_from_json(const char *json, const char *source, sensim_camera_params *cp) {
  if (!json || !cp) return sensim__fail(SENSIM_EINVAL, "sensim_camera_params_from_json: NULL argument");
  if (!source) source = "camera";
  char *clean = NULL;
  cJSON *root = NULL;
  sensim_status st = sensim__json_strip_comments(json, source, &clean);
  if (st == SENSIM_OK) st = sensim__json_parse(clean, source, &root);
  free(clean);
  if (st != SENSIM_OK) return st;
  /* Parsed into a copy so that a failure leaves *cp alone. */
  sensim_camera_params p = *cp;
  st = sensim__jcheck_object(root, source, sensim__camera_keys);
  if (st == SENSIM_OK) st = sensim__scenario_camera(root, source, &p);
  cJSON_Delete(root);
  if (st == SENSIM_OK) *cp = p;
  return st;
}

/* Per-channel tables a lidar's keys may give; they outlive the parse until
 * sensim_lidar_create has copied them. */

/* A string key naming one of n choices (names holds them and a NULL);
 * *k is left alone when absent. */
static sensim_status parse_choice(const cJSON *obj, const char *path, const char *key,
                                  const char *const *names, int n, const char *list, int *k) {
  const char *v = NULL;
  sensim_status st = sensim__jstring(obj, path, key, 0, &v);
  if (st != SENSIM_OK || !v) return st;
  for (int i = 0; i < n; i++)
    if (strcmp(v, names[i]) == 0) {
      *k = i;
      return SENSIM_OK;
    }
  char hint[96];
  return sensim__fail(SENSIM_EINVAL, "%s.%s: unknown value '%s'%s (%s)", path, key, v,
                      sensim__did_you_mean(hint, sizeof hint, v, names), list);
}

/* An array of exactly `n` numbers in [lo, hi], each times `scale`, into out;
 * *given says whether the key was there. */
static sensim_status parse_table(const cJSON *obj, const char *path, const char *key, int n,
                                 double lo, double hi, double scale, double *out, int *given) {
  const cJSON *arr = NULL;
  sensim_status st = sensim__jarray(obj, path, key, 0, &arr);
  *given = arr != NULL;
  if (st != SENSIM_OK || !arr) return st;
  if (cJSON_GetArraySize(arr) != n)
    return sensim__fail(SENSIM_EINVAL, "%s.%s: has %d values for %d channels", path, key,
                        cJSON_GetArraySize(arr), n);
  int i = 0;
  for (const cJSON *e = arr->child; e; e = e->next, i++) {
    if (!cJSON_IsNumber(e) || !(e->valuedouble >= lo && e->valuedouble <= hi))
      return sensim__fail(SENSIM_EINVAL, "%s.%s[%d]: must be a number in [%g, %g]", path, key, i,
                          lo, hi);
    out[i] = e->valuedouble * scale;
  }
  return SENSIM_OK;
}

/* "divergence_deg": one full angle (both axes) or [horizontal, vertical]. */
static sensim_status parse_divergence(const cJSON *obj, const char *path, sensim_lidar_params *lp) {
  const cJSON *d = cJSON_GetObjectItemCaseSensitive(obj, "divergence_deg");
  if (!d) return SENSIM_OK;
  double v[2];
  if (cJSON_IsNumber(d)) {
    v[0] = v[1] = d->valuedouble;
  } else if (cJSON_IsArray(d) && cJSON_GetArraySize(d) == 2 && cJSON_IsNumber(d->child) &&
             cJSON_IsNumber(d->child->next)) {
    v[0] = d->child->valuedouble;
    v[1] = d->child->next->valuedouble;
  } else {
    return sensim__fail(SENSIM_EPARSE, "%s.divergence_deg: must be a number or [h, v]", path);
  }
  for (int i = 0; i < 2; i++)
    if (!(v[i] >= 0 && v[i] < 180))
      return sensim__fail(SENSIM_EINVAL, "%s.divergence_deg: full angle %g deg must be in [0, 180)",
                          path, v[i]);
  lp->div_h = v[0] * DEG;
  lp->div_v = v[1] * DEG;
  return SENSIM_OK;
}

/* The names list each enum's values in the order lidar.h declares them. */
static sensim_status parse_lidar_enums(const cJSON *obj, const char *path, sensim_lidar_params *lp) {
  static const char *const patterns[] = {"spinning", "grid", NULL};
  static const char *const shapes[] = {"circular", "elliptical", "rectangular", NULL};
  static const char *const modes[] = {"strongest", "first", "last", "mean", "dual", NULL};
  int pat = (int)lp->pattern, shape = (int)lp->shape, mode = (int)lp->returns;
  sensim_status st = parse_choice(obj, path, "pattern", patterns, 2, "spinning, grid", &pat);
  if (st == SENSIM_OK)
    st = parse_choice(obj, path, "beam_shape", shapes, 3, "circular, elliptical, rectangular",
                      &shape);
  if (st == SENSIM_OK)
    st = parse_choice(obj, path, "returns", modes, 5, "strongest, first, last, mean, dual", &mode);
  if (st != SENSIM_OK) return st;
  lp->pattern = (sensim_lidar_pattern)pat;
  lp->shape = (sensim_beam_shape)shape;
  lp->returns = (sensim_return_mode)mode;
  return SENSIM_OK;
}

/* The beam model and radiometry keys. */
static sensim_status parse_lidar_beam(const cJSON *obj, const char *path, sensim_lidar_params *lp) {
  double sub = lp->subrays, bits = lp->intensity_bits;
  sensim_status st = parse_lidar_enums(obj, path, lp);
  if (st == SENSIM_OK) st = parse_divergence(obj, path, lp);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "clockwise", &lp->clockwise);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "subrays", 0, 1, 1024, &sub);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "intensity_bits", 0, 1, 16, &bits);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "range_resolution", 0, &lp->range_resolution);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "detection_range", 0, &lp->detection_range);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "extinction", 0, &lp->extinction);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "fog_visibility", 0, &lp->fog_visibility);
  if (st != SENSIM_OK) return st;
  if (!(lp->range_resolution > 0))
    return sensim__scenario_fail_range(path, "range_resolution", "> 0 m", lp->range_resolution);
  if (!(lp->detection_range > 0))
    return sensim__scenario_fail_range(path, "detection_range", "> 0 m", lp->detection_range);
  if (!(lp->extinction >= 0)) return sensim__scenario_fail_range(path, "extinction", ">= 0 1/m", lp->extinction);
  if (!(lp->fog_visibility >= 0))
    return sensim__scenario_fail_range(path, "fog_visibility", ">= 0 m (0: no fog)", lp->fog_visibility);
  lp->subrays = (int)sub;
  lp->intensity_bits = (int)bits;
  return SENSIM_OK;
}

/* The per-channel tables: given ones replace the preset's (or the uniform
 * default); a preset's table left in place must match the channel count. */
static sensim_status parse_sensim__lidar_tables(const cJSON *obj, const char *path, const char *preset,
                                        int preset_channels, sensim_lidar_params *lp,
                                        sensim__lidar_tables *tb) {
  int has_e = 0, has_a = 0, has_f = 0;
  int n = lp->channels;
  sensim_status st = parse_table(obj, path, "elevations_deg", n, -90, 90, DEG, tb->elev, &has_e);
  if (st == SENSIM_OK)
    st = parse_table(obj, path, "azimuth_offsets_deg", n, -180, 180, DEG, tb->az, &has_a);
  if (st == SENSIM_OK) st = parse_table(obj, path, "firing_offsets", n, 0, 1, 1.0, tb->fire, &has_f);
  if (st != SENSIM_OK) return st;
  int uniform = cJSON_HasObjectItem(obj, "elev_min_deg") || cJSON_HasObjectItem(obj, "elev_max_deg");
  if (has_e && uniform)
    return sensim__fail(SENSIM_EINVAL,
                        "%s.elevations_deg: give either elevations_deg or elev_min_deg and "
                        "elev_max_deg, not both", path);
  if (has_e) lp->elevations = tb->elev;
  if (uniform) lp->elevations = NULL;
  if (has_a) lp->azimuth_offsets = tb->az;
  if (has_f) lp->firing_offsets = tb->fire;
  if (!preset || n == preset_channels) return SENSIM_OK;
  const char *left = !has_e && lp->elevations              ? "elevations_deg"
                     : !has_a && lp->azimuth_offsets ? "azimuth_offsets_deg"
                     : !has_f && lp->firing_offsets  ? "firing_offsets"
                                                     : NULL;
  if (left)
    return sensim__fail(SENSIM_EINVAL,
                        "%s.channels: %d channels, but preset '%s' has tables for %d; give %s "
                        "for %d channels too", path, n, preset, preset_channels, left, n);
  return SENSIM_OK;
}

/* "preset" fills the parameters from sensim_lidar_preset(); every other key
 * then overrides them. */
sensim_status sensim__scenario_lidar(const cJSON *obj, const char *path, sensim_lidar_params *lp,
                                 sensim__lidar_tables *tb) {
  const char *preset = NULL;
  sensim_status st = sensim__jstring(obj, path, "preset", 0, &preset);
  if (st != SENSIM_OK) return st;
  if (preset && (st = sensim_lidar_preset(preset, lp)) != SENSIM_OK) {
    sensim__error_context("%s.preset", path); /* the message lists the presets */
    return st;
  }
  int preset_channels = lp->channels;
  double ch = lp->channels, cols = lp->columns;
  double emin = lp->elev_min / DEG, emax = lp->elev_max / DEG, fov = lp->hfov / DEG;
  double az = lp->start_azimuth / DEG;
  st = sensim__jint(obj, path, "channels", 0, 1, SENSIM_LIDAR_MAX_CHANNELS, &ch);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "columns", 0, 1, SENSIM_LIDAR_MAX_COLUMNS, &cols);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "elev_min_deg", 0, &emin);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "elev_max_deg", 0, &emax);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "hfov_deg", 0, &fov);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "start_azimuth_deg", 0, &az);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "min_range", 0, &lp->min_range);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "max_range", 0, &lp->max_range);
  if (st != SENSIM_OK) return st;
  if (!(fov > 0 && fov <= 360)) return sensim__scenario_fail_range(path, "hfov_deg", "in (0, 360] deg", fov);
  if (!(emin >= -90 && emax <= 90 && emin <= emax))
    return sensim__fail(SENSIM_EINVAL,
                        "%s.elev_min_deg/elev_max_deg: need -90 <= min <= max <= 90 (got %g, %g)",
                        path, emin, emax);
  if (!(lp->min_range >= 0)) return sensim__scenario_fail_range(path, "min_range", ">= 0 m", lp->min_range);
  if (!(lp->max_range > lp->min_range))
    return sensim__scenario_fail_range(path, "max_range", "> min_range", lp->max_range);
  lp->channels = (int)ch;
  lp->columns = (int)cols;
  lp->elev_min = emin * DEG;
  lp->elev_max = emax * DEG;
  lp->hfov = fov * DEG;
  lp->start_azimuth = az * DEG;
  if ((st = parse_lidar_beam(obj, path, lp)) != SENSIM_OK) return st;
  return parse_sensim__lidar_tables(obj, path, preset, preset_channels, lp, tb);
}
