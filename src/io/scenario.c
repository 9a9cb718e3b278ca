/* io/scenario.c: the scenario object: reading the file, the root object
 * and the "world" section, and its lifetime. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "io/scenario_internal.h"

/* "world": {"weather": {...}}: fog, rain and snow for every sensor
 * (docs/weather.md). Ranges are the world's: checked here with the keys'
 * paths, by the same call sensim_world_create makes. */
static sensim_status parse_weather(const cJSON *world, sensim_weather *wx) {
  static const char *const keys[] = {"fog_visibility", "rain_rate", "snow_rate", NULL};
  const char *path = "world.weather";
  const cJSON *obj = NULL;
  sensim_status st = sensim__jobject(world, "world", "weather", 0, &obj);
  if (st != SENSIM_OK || !obj) return st;
  sensim_weather w = *wx;
  st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "fog_visibility", 0, &w.fog_visibility);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "rain_rate", 0, &w.rain_rate);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "snow_rate", 0, &w.snow_rate);
  if (st != SENSIM_OK) return st;
  if (!(sensim_weather_extinction(&w, 0.0) >= 0.0)) { /* its message reads "weather.<key> = ..." */
    sensim_error_prefix("world");
    return SENSIM_EINVAL;
  }
  *wx = w;
  return SENSIM_OK;
}

static sensim_status parse_world(const cJSON *obj, const sensim_scenario_overrides *ov,
                                 sensim_world_params *wp) {
  static const char *const keys[] = {"seed",    "threads",    "origin", "gravity",
                                     "background", "ambient", "weather", "environment", NULL};
  const char *path = "world";
  double seed = (double)wp->seed, threads = wp->threads, g = wp->gravity, amb = wp->ambient;
  double origin[3] = {wp->origin_lat, wp->origin_lon, wp->origin_height};
  double bg[3] = {wp->background[0], wp->background[1], wp->background[2]};
  sensim_weather wx = wp->weather;
  sensim_status st = SENSIM_OK;
  if (obj) {
    st = sensim__jcheck_object(obj, path, keys);
    /* Seeds above 2^53 cannot be written exactly as JSON numbers (doubles). */
    if (st == SENSIM_OK) st = sensim__jint(obj, path, "seed", 0, 0, 9007199254740992.0, &seed);
    if (st == SENSIM_OK) st = sensim__jint(obj, path, "threads", 0, 0, 1024, &threads);
    if (st == SENSIM_OK) st = sensim__jvec(obj, path, "origin", 0, 3, origin);
    const cJSON *jg = cJSON_GetObjectItemCaseSensitive(obj, "gravity");
    if (st == SENSIM_OK && cJSON_IsString(jg)) {
      /* "normal": WGS84 normal gravity at the origin (world.h). */
      if (strcmp(jg->valuestring, "normal") != 0)
        st = sensim__fail(SENSIM_EINVAL,
                          "world.gravity: \"%s\" is not a number (m/s^2) or \"normal\"",
                          jg->valuestring);
      g = SENSIM_GRAVITY_NORMAL;
    } else if (st == SENSIM_OK) {
      st = sensim__jnumber(obj, path, "gravity", 0, &g);
      if (st == SENSIM_OK && jg && !(g >= 0))
        st = sensim__fail(SENSIM_EINVAL, "world.gravity: must be >= 0 (got %g)", g);
    }
    if (st == SENSIM_OK) st = sensim__jvec(obj, path, "background", 0, 3, bg);
    if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "ambient", 0, &amb);
    if (st == SENSIM_OK) st = parse_weather(obj, &wx);
    if (st != SENSIM_OK) return st;
  }
  if (!(origin[0] >= -90 && origin[0] <= 90 && origin[1] >= -180 && origin[1] <= 180))
    return sensim__fail(SENSIM_EINVAL, "world.origin: latitude %g / longitude %g out of range",
                        origin[0], origin[1]);
  if (!(amb >= 0)) return sensim__fail(SENSIM_EINVAL, "world.ambient: must be >= 0 (got %g)", amb);
  for (int i = 0; i < 3; i++)
    if (!(bg[i] >= 0))
      return sensim__fail(SENSIM_EINVAL, "world.background[%d]: must be >= 0 (got %g)", i, bg[i]);
  wp->seed = (uint64_t)seed;
  wp->threads = ov && ov->threads >= 0 ? ov->threads : (int)threads;
  wp->origin_lat = origin[0];
  wp->origin_lon = origin[1];
  wp->origin_height = origin[2];
  wp->gravity = g;
  for (int i = 0; i < 3; i++) wp->background[i] = (float)bg[i];
  wp->ambient = (float)amb;
  wp->weather = wx;
  return SENSIM_OK;
}

/* What the file asks of a run, checked once every sensor exists and before
 * anything runs: at most SENSIM_SCENARIO_MAX_FRAMES captures per sensor
 * over the duration (scenario.h), and scripted motions that stay within
 * the world coordinate limit over the duration, with the velocity and
 * acceleration they push passing sensim_body_push_state's reach check for
 * the longest window any sensor has. */
static sensim_status check_run(const sensim_scenario *scn) {
  double horizon = 0;
  for (size_t i = 0; i < scn->nsensors; i++) {
    const sensim_sensor_params *sp = sensim_sensor_params_get(scn->sensors[i].sensor);
    if (sp->window > horizon) horizon = sp->window;
    if (sp->phase > scn->duration) continue;
    double frames = floor((scn->duration - sp->phase) * sp->rate) + 1;
    if (!(frames <= SENSIM_SCENARIO_MAX_FRAMES))
      return sensim__fail(SENSIM_EINVAL,
                          "sensors[%zu] '%s': rate %g Hz over the duration %g s asks for %.0f frames, more than %d "
                          "(SENSIM_SCENARIO_MAX_FRAMES)",
                          i, sp->name, sp->rate, scn->duration, frames, SENSIM_SCENARIO_MAX_FRAMES);
  }
  for (size_t i = 0; i < scn->nbodies; i++) {
    const sensim__scn_body *b = &scn->bodies[i];
    char path[96];
    snprintf(path, sizeof path, "bodies[%zu].motion", i);
    sensim_status st = sensim__motion_check(&b->motion, &b->offset, scn->duration, horizon, path);
    if (st != SENSIM_OK) return st;
  }
  return SENSIM_OK;
}

static sensim_status parse_root(sensim_scenario *scn, const cJSON *root, const char *base_dir,
                                const sensim_scenario_overrides *ov) {
  static const char *const keys[] = {"description", "world",   "duration", "step",      "meshes", "lights",
                                     "bodies",      "sensors", "record",   "instances", "tiles",  NULL};
  const char *desc = NULL;
  const cJSON *world = NULL, *meshes = NULL, *lights = NULL, *bodies = NULL, *sensors = NULL,
              *record = NULL, *instances = NULL, *tiles = NULL;
  scn->step = 0.001;
  sensim_status st = sensim__jcheck_object(root, "", keys);
  if (st == SENSIM_OK) st = sensim__jstring(root, "", "description", 0, &desc);
  if (st == SENSIM_OK) st = sensim__jobject(root, "", "world", 0, &world);
  if (st == SENSIM_OK) st = sensim__jnumber(root, "", "duration", 1, &scn->duration);
  if (st == SENSIM_OK) st = sensim__jnumber(root, "", "step", 0, &scn->step);
  if (st == SENSIM_OK) st = sensim__jarray(root, "", "meshes", 0, &meshes);
  if (st == SENSIM_OK) st = sensim__jarray(root, "", "lights", 0, &lights);
  if (st == SENSIM_OK) st = sensim__jarray(root, "", "bodies", 0, &bodies);
  if (st == SENSIM_OK) st = sensim__jarray(root, "", "sensors", 0, &sensors);
  if (st == SENSIM_OK) st = sensim__jobject(root, "", "record", 0, &record);
  if (st == SENSIM_OK && record) st = sensim__scenario_record(scn, record);
  if (st == SENSIM_OK) st = sensim__jarray(root, "", "instances", 0, &instances);
  if (st == SENSIM_OK) st = sensim__jarray(root, "", "tiles", 0, &tiles);
  if (st != SENSIM_OK) return st;
  if (!(scn->duration > 0))
    return sensim__fail(SENSIM_EINVAL, "duration: must be > 0 s (got %g)", scn->duration);
  if (!(scn->step > 0))
    return sensim__fail(SENSIM_EINVAL, "step: must be > 0 s (got %g)", scn->step);
  if ((st = sensim__check_time(scn->duration, "duration:")) != SENSIM_OK) return st;
  /* The runner steps t = k step for k = 0 .. floor(duration / step)
   * (io/scenario_run.c); scenario.h says why the count is bounded. */
  double nsteps = floor(scn->duration / scn->step + 1e-9) + 1;
  if (!(nsteps <= SENSIM_SCENARIO_MAX_STEPS))
    return sensim__fail(SENSIM_EINVAL,
                        "step: %g s over the duration %g s gives %.0f steps, more than %d "
                        "(SENSIM_SCENARIO_MAX_STEPS)",
                        scn->step, scn->duration, nsteps, SENSIM_SCENARIO_MAX_STEPS);

  sensim_world_params wp;
  sensim_world_params_init(&wp);
  if ((st = parse_world(world, ov, &wp)) != SENSIM_OK) return st;
  if ((st = sensim_world_create(&wp, &scn->world)) != SENSIM_OK) {
    sensim__error_context("world");
    return st;
  }
  /* The environment once the world exists (a map's texture lives in it). */
  const cJSON *jenv = world ? cJSON_GetObjectItemCaseSensitive(world, "environment") : NULL;
  if (jenv) {
    sensim_environment env;
    if ((st = sensim__scenario_environment(jenv, "world.environment", scn->world, base_dir, &env)) != SENSIM_OK)
      return st;
    if ((st = sensim_world_set_environment(scn->world, &env)) != SENSIM_OK) {
      sensim__error_context("world.environment");
      return st;
    }
  }
  if (meshes && (st = sensim__scenario_meshes(scn, meshes, base_dir)) != SENSIM_OK) return st;
  if (lights && (st = sensim__scenario_lights(scn, lights)) != SENSIM_OK) return st;
  if (bodies && (st = sensim__scenario_bodies(scn, bodies)) != SENSIM_OK) return st;
  if (instances && (st = sensim__scenario_instances(scn, instances)) != SENSIM_OK) return st;
  if (tiles && (st = sensim__scenario_tiles(scn, tiles, base_dir)) != SENSIM_OK) return st;
  if (sensors && (st = sensim__scenario_sensors(scn, sensors, base_dir)) != SENSIM_OK) return st;
  return check_run(scn);
}

sensim_status sensim__scenario_load_text(const char *json, const char *source,
                                         const char *base_dir,
                                         const sensim_scenario_overrides *ov,
                                         sensim_scenario **out) {
  if (!out) return sensim__fail(SENSIM_EINVAL, "scenario: NULL out");
  *out = NULL;
  if (!json) return sensim__fail(SENSIM_EINVAL, "scenario: NULL text");
  if (!source) source = "scenario";
  char *clean = NULL;
  cJSON *root = NULL;
  sensim_status st = sensim__json_strip_comments(json, source, &clean);
  if (st == SENSIM_OK) st = sensim__json_parse(clean, source, &root);
  free(clean);
  if (st != SENSIM_OK) return st;
  sensim_scenario *scn = calloc(1, sizeof *scn);
  if (!scn) {
    cJSON_Delete(root);
    return sensim__fail(SENSIM_ENOMEM, "scenario: out of memory");
  }
  st = parse_root(scn, root, base_dir, ov);
  cJSON_Delete(root);
  if (st != SENSIM_OK) {
    sensim_scenario_destroy(scn);
    return st;
  }
  *out = scn;
  return SENSIM_OK;
}

sensim_status sensim_scenario_load_string(const char *json, const char *base_dir,
                                          sensim_scenario **out) {
  return sensim__scenario_load_text(json, "scenario", base_dir, NULL, out);
}

sensim_status sensim_scenario_load_string_ex(const char *json, const char *source, const char *base_dir,
                                             const sensim_scenario_overrides *ov, sensim_scenario **out) {
  return sensim__scenario_load_text(json, source, base_dir, ov, out);
}

sensim_status sensim_scenario_load_ex(const char *path, const sensim_scenario_overrides *ov,
                                         sensim_scenario **out) {
  if (!out) return sensim__fail(SENSIM_EINVAL, "sensim_scenario_load: NULL out");
  *out = NULL;
  if (!path) return sensim__fail(SENSIM_EINVAL, "sensim_scenario_load: NULL path");
  char *text = NULL;
  sensim_status st = sensim_read_text_file(path, "scenario", &text);
  if (st != SENSIM_OK) return st;
  /* Relative mesh files resolve against the scenario's own folder. */
  char *dir = sensim__strdup(path);
  if (!dir) {
    free(text);
    return SENSIM_ENOMEM;
  }
  char *slash = strrchr(dir, '/');
  if (slash == dir)
    dir[1] = '\0';
  else if (slash)
    *slash = '\0';
  else
    strcpy(dir, ".");
  st = sensim__scenario_load_text(text, path, dir, ov, out);
  free(dir);
  free(text);
  return st;
}

sensim_status sensim_scenario_load(const char *path, sensim_scenario **out) {
  return sensim_scenario_load_ex(path, NULL, out);
}

void sensim_scenario_destroy(sensim_scenario *scn) {
  if (!scn) return;
  sensim_world_destroy(scn->world);
  for (size_t i = 0; i < scn->nmeshes; i++) free(scn->meshes[i].name);
  for (size_t i = 0; i < scn->nbodies; i++) {
    free(scn->bodies[i].name);
    sensim__motion_free(&scn->bodies[i].motion);
  }
  free(scn->meshes);
  free(scn->bodies);
  free(scn->sensors);
  sensim__scenario_warnings_free(scn);
  sensim__scenario_record_free(scn);
  free(scn);
}

sensim_world *sensim_scenario_world(sensim_scenario *scn) { return scn ? scn->world : NULL; }

double sensim_scenario_duration(const sensim_scenario *scn) { return scn ? scn->duration : NAN; }

double sensim_scenario_step(const sensim_scenario *scn) { return scn ? scn->step : NAN; }
