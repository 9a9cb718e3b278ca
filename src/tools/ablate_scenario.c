/* tools/ablate_scenario.c: camera-stage ablation (sensim_tools/ablate.h,
 * docs/ablation.md). Each variant is the scenario with one stage of every
 * camera removed, made by editing the scenario's JSON tree before the
 * loader sees it, so a variant is an ordinary scenario and renders with
 * the same frame times and names as the baseline:
 *
 *   lens_pinhole     "lens" -> "pinhole", "dist" removed; fx fy cx cy (or
 *                    hfov_deg) kept, so the focal length is the same
 *   noise_off        filters image_noise, noise_intensity, noise_emva1288
 *                    removed (the adc's rounding stays: it is digitisation)
 *   demosaic_off     cfa and demosaic removed together (the chain then
 *                    carries three channels per pixel throughout)
 *   wb_ideal         each white_balance replaced by the fixed gains
 *                    qe_G / qe_c of the image_sensor before it, which undo
 *                    the sensor's colour cast exactly for any scene (a
 *                    perfect illuminant estimate under white light)
 *   exposure_fixed   auto_exposure removed: the image_sensor's own
 *                    exposure_time and gain hold for every frame
 *   supersampling_1  "samples" -> 1 (one ray per pixel, no anti-aliasing)
 *   lens_pinhole_fov, lighting_flat, fov_lighting: ablate_fov.c,
 *                    ablate_lighting.c
 *   reflections_off, light_single: ablate_scene.c; lens_fov:
 *                    ablate_fov_lens.c (the camera component study's
 *                    variants, issue 28)
 *
 * Sensors other than cameras are dropped from every variant. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "tools/ablate_internal.h"
#include "tools/json_text.h"
#include "tools/tools_internal.h"

static const char *const kNames[SENSIM_ABLATE_COUNT] = {
    "baseline",        "lens_pinhole",     "noise_off",     "demosaic_off", "wb_ideal", "exposure_fixed",
    "supersampling_1", "lens_pinhole_fov", "lighting_flat", "fov_lighting", "reflections_off", "light_single",
    "lens_fov"};

const char *sensim_ablation_name(sensim_ablation a) {
  return (int)a >= 0 && a < SENSIM_ABLATE_COUNT ? kNames[a] : NULL;
}

sensim_status sensim_ablation_from_name(const char *name, sensim_ablation *a) {
  if (!name || !a) return sensim_error_set(SENSIM_EINVAL, "sensim_ablation_from_name: NULL argument");
  for (int i = 0; i < SENSIM_ABLATE_COUNT; i++)
    if (strcmp(name, kNames[i]) == 0) {
      *a = (sensim_ablation)i;
      return SENSIM_OK;
    }
  return sensim_error_set(SENSIM_ENOTFOUND,
                      "unknown ablation variant '%s' (baseline, lens_pinhole, noise_off, demosaic_off, wb_ideal, "
                      "exposure_fixed, supersampling_1, lens_pinhole_fov, lighting_flat, fov_lighting, reflections_off, "
                      "light_single, lens_fov)",
                      name);
}

void sensim_ablate_options_init(sensim_ablate_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->threads = -1;
}

/* ---- editing one camera ---- */

typedef sensim_tools__ablate_notes notes;

void sensim_tools__ablate_note(notes *n, const char *cam, const char *what) {
  if (!n->buf || n->size == 0) return;
  int k = snprintf(n->buf + n->len, n->size - n->len, "%s: %s\n", cam, what);
  if (k > 0) n->len = n->len + (size_t)k < n->size ? n->len + (size_t)k : n->size - 1;
}


static const char *filter_name(const cJSON *f) {
  const cJSON *nm = cJSON_IsObject(f) ? cJSON_GetObjectItemCaseSensitive(f, "name") : NULL;
  return cJSON_IsString(nm) ? nm->valuestring : "";
}

/* Remove the filters whose name is in the NULL-terminated list; the number removed. */
static int remove_filters(cJSON *filters, const char *const *names, char *removed, size_t size) {
  int count = 0;
  if (size) removed[0] = '\0';
  cJSON *f = filters ? filters->child : NULL;
  while (f) {
    cJSON *next = f->next;
    const char *nm = filter_name(f);
    int hit = 0;
    for (const char *const *p = names; *p; p++) hit |= strcmp(nm, *p) == 0;
    if (hit) {
      size_t l = strlen(removed);
      snprintf(removed + l, size - l, "%s%s", count ? ", " : "", nm);
      cJSON_Delete(cJSON_DetachItemViaPointer(filters, f));
      count++;
    }
    f = next;
  }
  return count;
}

static int has_filter(const cJSON *filters, const char *name) {
  for (const cJSON *f = filters ? filters->child : NULL; f; f = f->next)
    if (strcmp(filter_name(f), name) == 0) return 1;
  return 0;
}

/* Quantum efficiencies of an image_sensor entry ([0.5] x 3 when absent). */
static sensim_status sensor_qe(const cJSON *f, double qe[3], const char *cam) {
  qe[0] = qe[1] = qe[2] = 0.5;
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(f, "params");
  const cJSON *q = cJSON_IsObject(params) ? cJSON_GetObjectItemCaseSensitive(params, "qe") : NULL;
  if (!q) return SENSIM_OK;
  if (cJSON_IsNumber(q)) {
    qe[0] = qe[1] = qe[2] = q->valuedouble;
  } else if (cJSON_IsArray(q) && cJSON_GetArraySize(q) == 3) {
    for (int c = 0; c < 3; c++) {
      const cJSON *e = cJSON_GetArrayItem(q, c);
      if (!cJSON_IsNumber(e)) return sensim_error_set(SENSIM_EINVAL, "%s: image_sensor qe[%d] is not a number", cam, c);
      qe[c] = e->valuedouble;
    }
  } else {
    return sensim_error_set(SENSIM_EINVAL, "%s: image_sensor qe must be a number or [r, g, b]", cam);
  }
  for (int c = 0; c < 3; c++)
    if (!(qe[c] > 0 && qe[c] <= 1))
      return sensim_error_set(SENSIM_EINVAL, "%s: image_sensor qe[%d] = %g must be in (0, 1]", cam, c, qe[c]);
  return SENSIM_OK;
}

static sensim_status ideal_white_balance(cJSON *filters, const char *cam, notes *n) {
  double qe[3] = {0.5, 0.5, 0.5};
  int replaced = 0;
  char msg[200];
  for (cJSON *f = filters ? filters->child : NULL; f; f = f->next) {
    const char *nm = filter_name(f);
    if (strcmp(nm, "image_sensor") == 0) {
      sensim_status st = sensor_qe(f, qe, cam);
      if (st) return st;
    } else if (strcmp(nm, "white_balance") == 0) {
      double g[3] = {qe[1] / qe[0], 1.0, qe[1] / qe[2]};
      cJSON *params = cJSON_CreateObject();
      cJSON *gains = cJSON_CreateDoubleArray(g, 3);
      int ok = params && gains && cJSON_AddStringToObject(params, "mode", "fixed");
      if (ok && cJSON_AddItemToObject(params, "gains", gains))
        gains = NULL; /* owned by params now */
      else
        ok = 0;
      cJSON_Delete(gains);
      if (!ok) {
        cJSON_Delete(params);
        return sensim_error_set(SENSIM_ENOMEM, "ablation: out of memory");
      }
      if (cJSON_GetObjectItemCaseSensitive(f, "params"))
        cJSON_ReplaceItemInObjectCaseSensitive(f, "params", params);
      else
        cJSON_AddItemToObject(f, "params", params);
      snprintf(msg, sizeof msg, "white_balance -> fixed gains [%.6g, 1, %.6g] (qe %g %g %g)", g[0], g[2], qe[0],
               qe[1], qe[2]);
      sensim_tools__ablate_note(n, cam, msg);
      replaced++;
    }
  }
  if (!replaced) sensim_tools__ablate_note(n, cam, "no white_balance filter: unchanged");
  return SENSIM_OK;
}

sensim_status sensim_tools__ablate_set_number(cJSON *obj, const char *key, double v) {
  cJSON *num = cJSON_CreateNumber(v);
  if (!num) return sensim_error_set(SENSIM_ENOMEM, "ablation: out of memory");
  if (cJSON_GetObjectItemCaseSensitive(obj, key))
    cJSON_ReplaceItemInObjectCaseSensitive(obj, key, num);
  else
    cJSON_AddItemToObject(obj, key, num);
  return SENSIM_OK;
}

static sensim_status edit_camera(const cJSON *root, cJSON *cam, sensim_ablation a, const char *name, notes *n) {
  cJSON *filters = cJSON_GetObjectItemCaseSensitive(cam, "filters");
  if (filters && !cJSON_IsArray(filters)) return sensim_error_set(SENSIM_EPARSE, "%s: 'filters' is not an array", name);
  char removed[256], msg[320];
  switch (a) {
    case SENSIM_ABLATE_BASELINE:
      return SENSIM_OK;
    case SENSIM_ABLATE_LENS: {
      const cJSON *lens = cJSON_GetObjectItemCaseSensitive(cam, "lens");
      if (!cJSON_IsString(lens) || strcmp(lens->valuestring, "pinhole") == 0) {
        sensim_tools__ablate_note(n, name, "lens is already pinhole: unchanged");
        return SENSIM_OK;
      }
      snprintf(msg, sizeof msg, "lens %s -> pinhole, same intrinsics", lens->valuestring);
      cJSON *pin = cJSON_CreateString("pinhole");
      if (!pin) return sensim_error_set(SENSIM_ENOMEM, "ablation: out of memory");
      cJSON_ReplaceItemInObjectCaseSensitive(cam, "lens", pin);
      cJSON_DeleteItemFromObjectCaseSensitive(cam, "dist");
      sensim_tools__ablate_note(n, name, msg);
      return SENSIM_OK;
    }
    case SENSIM_ABLATE_NOISE: {
      static const char *const noise[] = {"image_noise", "noise_intensity", "noise_emva1288", NULL};
      if (remove_filters(filters, noise, removed, sizeof removed)) {
        snprintf(msg, sizeof msg, "removed %s", removed);
        sensim_tools__ablate_note(n, name, msg);
      } else {
        sensim_tools__ablate_note(n, name, "no noise filter: unchanged");
      }
      return SENSIM_OK;
    }
    case SENSIM_ABLATE_DEMOSAIC: {
      static const char *const mosaic[] = {"cfa", "demosaic", NULL};
      if (has_filter(filters, "demosaic")) {
        remove_filters(filters, mosaic, removed, sizeof removed);
        snprintf(msg, sizeof msg, "removed %s", removed);
        sensim_tools__ablate_note(n, name, msg);
      } else {
        sensim_tools__ablate_note(n, name,
             has_filter(filters, "cfa") ? "RAW output (cfa without demosaic): unchanged" : "no cfa/demosaic: unchanged");
      }
      return SENSIM_OK;
    }
    case SENSIM_ABLATE_WHITE_BALANCE:
      return ideal_white_balance(filters, name, n);
    case SENSIM_ABLATE_EXPOSURE: {
      static const char *const ae[] = {"auto_exposure", NULL};
      sensim_tools__ablate_note(n, name,
           remove_filters(filters, ae, removed, sizeof removed) ? "removed auto_exposure: image_sensor's exposure fixed"
                                                                : "no auto_exposure: unchanged");
      return SENSIM_OK;
    }
    case SENSIM_ABLATE_SUPERSAMPLING: {
      const cJSON *s = cJSON_GetObjectItemCaseSensitive(cam, "samples");
      if (cJSON_IsNumber(s) && s->valuedouble == 1) {
        sensim_tools__ablate_note(n, name, "samples is already 1: unchanged");
        return SENSIM_OK;
      }
      snprintf(msg, sizeof msg, "samples %g -> 1", cJSON_IsNumber(s) ? s->valuedouble : 4.0);
      sensim_tools__ablate_note(n, name, msg);
      return sensim_tools__ablate_set_number(cam, "samples", 1);
    }
    case SENSIM_ABLATE_LENS_FOV:
    case SENSIM_ABLATE_COMBINED:
      return sensim_tools__ablate_pinhole_fov(cam, name, n);
    case SENSIM_ABLATE_LIGHTING: /* the scene's, not a camera's: edit_tree */
    case SENSIM_ABLATE_SINGLE_LIGHT:
      return SENSIM_OK;
    case SENSIM_ABLATE_REFLECTIONS:
      return sensim_tools__ablate_no_reflections(root, cam, name, n);
    case SENSIM_ABLATE_FOV_LENS:
      return sensim_tools__ablate_fov_lens(cam, name, n);
    default:
      return sensim_error_set(SENSIM_EINVAL, "ablation: unknown variant %d", (int)a);
  }
}

/* A number member or its default. */
static double number_or(const cJSON *obj, const char *key, double dflt) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsNumber(it) ? it->valuedouble : dflt;
}

static sensim_status edit_tree(cJSON *root, sensim_ablation a, size_t frames, notes *n) {
  if (!cJSON_IsObject(root)) return sensim_error_set(SENSIM_EPARSE, "ablation: the scenario is not a JSON object");
  cJSON *sensors = cJSON_GetObjectItemCaseSensitive(root, "sensors");
  if (!cJSON_IsArray(sensors)) return sensim_error_set(SENSIM_EINVAL, "ablation: the scenario has no 'sensors' array");
  int cameras = 0;
  double duration = 0;
  /* Scenario defaults (docs/scenario.md): step 1 ms, rate 10 Hz, phase and lag 0. */
  double step = number_or(root, "step", 0.001);
  cJSON *s = sensors->child;
  for (size_t i = 0; s; i++) {
    cJSON *next = s->next;
    const cJSON *type = cJSON_IsObject(s) ? cJSON_GetObjectItemCaseSensitive(s, "type") : NULL;
    if (!cJSON_IsString(type) || strcmp(type->valuestring, "camera") != 0) {
      cJSON_Delete(cJSON_DetachItemViaPointer(sensors, s));
      s = next;
      continue;
    }
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(s, "name");
    char path[64];
    snprintf(path, sizeof path, "sensors[%zu]", i);
    sensim_status st = edit_camera(root, s, a, cJSON_IsString(nm) ? nm->valuestring : path, n);
    if (st) return st;
    double rate = number_or(s, "rate", 10), t = number_or(s, "phase", 0) + number_or(s, "lag", 0);
    if (!(rate > 0)) return sensim_error_set(SENSIM_EINVAL, "ablation: %s: rate %g must be > 0", path, rate);
    t += (double)(frames ? frames - 1 : 0) / rate;
    if (t > duration) duration = t;
    cameras++;
    s = next;
  }
  if (!cameras) return sensim_error_set(SENSIM_EINVAL, "ablation: the scenario has no camera sensor");
  if (a == SENSIM_ABLATE_LIGHTING || a == SENSIM_ABLATE_COMBINED) {
    sensim_status st = sensim_tools__ablate_flat_lighting(root, n);
    if (st) return st;
  }
  if (a == SENSIM_ABLATE_SINGLE_LIGHT) {
    sensim_status st = sensim_tools__ablate_single_light(root, n);
    if (st) return st;
  }
  /* Frame N - 1 is delivered at its capture time plus lag; one more step
   * reaches it wherever it falls between steps. */
  if (frames) return sensim_tools__ablate_set_number(root, "duration", duration + (step > 0 ? step : 0.001));
  return SENSIM_OK;
}

sensim_status sensim_ablation_edit(const char *json, sensim_ablation a, size_t frames, char **out, char *notes_buf,
                                   size_t notes_size) {
  if (!json || !out) return sensim_error_set(SENSIM_EINVAL, "sensim_ablation_edit: NULL argument");
  *out = NULL;
  if (!sensim_ablation_name(a)) return sensim_error_set(SENSIM_EINVAL, "ablation: unknown variant %d", (int)a);
  if (notes_buf && notes_size) notes_buf[0] = '\0';
  notes n = {notes_buf, notes_size, 0};
  char *clean = NULL;
  cJSON *root = NULL;
  sensim_status st = sensim_json_strict(json, "scenario", &clean);
  /* Strict JSON parses; only memory can fail here. */
  if (!st && !(root = cJSON_Parse(clean)))
    st = sensim_error_set(SENSIM_ENOMEM, "ablation: out of memory reading the scenario");
  free(clean);
  if (!st) st = edit_tree(root, a, frames, &n);
  if (!st) {
    *out = sensim_tools__json_print(root, 0);
    if (!*out) st = sensim_error_set(SENSIM_ENOMEM, "ablation: out of memory printing the scenario");
  }
  cJSON_Delete(root);
  return st;
}

/* ---- rendering every variant ---- */

static sensim_status run_variant(const char *text, const char *path, const char *base_dir, const char *out_dir,
                                 sensim_ablation a, const sensim_ablate_options *o) {
  const char *name = sensim_ablation_name(a);
  char notes_buf[4096];
  char *json = NULL;
  sensim_status st = sensim_ablation_edit(text, a, o->frames, &json, notes_buf, sizeof notes_buf);
  if (st) return st;
  if (o->log) {
    fprintf(o->log, "variant %s\n", name);
    for (char *line = notes_buf; *line;) {
      char *nl = strchr(line, '\n');
      fprintf(o->log, "  %.*s\n", (int)(nl ? nl - line : (ptrdiff_t)strlen(line)), line);
      line = nl ? nl + 1 : line + strlen(line);
    }
  }
  char *dir = malloc(strlen(out_dir) + strlen(name) + 2);
  if (!dir) {
    free(json);
    return sensim_error_set(SENSIM_ENOMEM, "ablation: out of memory");
  }
  sprintf(dir, "%s/%s", out_dir, name);
  sensim_scenario_overrides ov = {o->threads};
  sensim_scenario *scn = NULL;
  st = sensim_scenario_load_string_ex(json, path, base_dir, &ov, &scn);
  free(json);
  if (!st) st = sensim_mkdirs(dir);
  sensim_run_summary sum;
  if (!st) st = sensim_scenario_run(scn, dir, NULL, NULL, &sum);
  sensim_scenario_destroy(scn);
  free(dir);
  return st;
}

sensim_status sensim_ablate_run(const char *scenario_path, const char *out_dir, const sensim_ablate_options *opt) {
  if (!scenario_path || !out_dir || !*out_dir) return sensim_error_set(SENSIM_EINVAL, "sensim_ablate_run: NULL argument");
  sensim_ablate_options o;
  sensim_ablate_options_init(&o);
  if (opt) o = *opt;
  if (o.variants && o.nvariants == 0) return sensim_error_set(SENSIM_EINVAL, "ablation: an empty list of variants");
  for (size_t i = 0; o.variants && i < o.nvariants; i++)
    if (!sensim_ablation_name(o.variants[i]))
      return sensim_error_set(SENSIM_EINVAL, "ablation: variant %zu is %d, not a variant", i, (int)o.variants[i]);
  char *text = NULL;
  sensim_status st = sensim_read_text_file(scenario_path, "scenario", &text);
  if (st) return st;
  /* Relative files in the scenario resolve against its folder, as
   * sensim_scenario_load does. */
  char *base = sensim_tools__dirname(scenario_path);
  if (!base) {
    free(text);
    return SENSIM_ENOMEM;
  }
  size_t nv = o.variants ? o.nvariants : SENSIM_ABLATE_COUNT;
  for (size_t i = 0; st == SENSIM_OK && i < nv; i++) {
    sensim_ablation a = o.variants ? o.variants[i] : (sensim_ablation)i;
    st = run_variant(text, scenario_path, base, out_dir, a, &o);
    if (st) sensim_error_prefix("ablation variant %s", sensim_ablation_name(a));
  }
  free(base);
  free(text);
  return st;
}
