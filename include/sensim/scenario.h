/* sensim/scenario.h: JSON scenario files.
 *
 * A scenario describes a world, its meshes and bodies with scripted motion,
 * its sensors with their filter chains, and what to write; docs/scenario.md
 * documents every key. Comments (// and slash-star) are allowed. */
#ifndef SENSIM_SCENARIO_H
#define SENSIM_SCENARIO_H

#include "sensim/export.h"

#include <stddef.h>
#include "sensim/camera.h"
#include "sensim/record.h"
#include "sensim/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sensim_scenario sensim_scenario;

/* What a scenario file may ask of a run, checked at load before anything
 * runs (SENSIM_EINVAL naming duration, step or rate and the bound), along
 * with duration <= SENSIM_TIME_MAX (world.h):
 *   steps, floor(duration / step) + 1 <= SENSIM_SCENARIO_MAX_STEPS;
 *   frames of each sensor, floor((duration - phase) rate) + 1
 *     <= SENSIM_SCENARIO_MAX_FRAMES.
 * Why 1e8: a day of simulated time at the default 1 ms step is 8.64e7
 * steps, and a day of a 1 kHz IMU 8.64e7 frames, so day-long runs (static
 * IMU recordings for Allan deviation last hours) fit. A step costs at
 * least 0.4 us even when nothing is due (push, advance and polls of the
 * four-sensor rig, docs/performance.md) and a frame at least a capture job
 * and a filter chain, so the bounds cap a run at minutes to hours of work
 * instead of the endless one of {"duration": 1e17, "step": 1e16} with a
 * 10 Hz sensor (1e18 frames). */
#define SENSIM_SCENARIO_MAX_STEPS 100000000
#define SENSIM_SCENARIO_MAX_FRAMES 100000000

/* Load and build a scenario from a file. Relative mesh paths are resolved
 * against the file's folder. On failure nothing is left allocated and
 * sensim_last_error() names the key at fault. */
SENSIM_API sensim_status sensim_scenario_load(const char *path, sensim_scenario **out);
/* What a caller may override in the file (a command line's --threads). */
typedef struct sensim_scenario_overrides {
  int threads; /* worker threads; < 0: as the file says */
} sensim_scenario_overrides;

/* sensim_scenario_load() with overrides; `ov` may be NULL. */
SENSIM_API sensim_status sensim_scenario_load_ex(const char *path, const sensim_scenario_overrides *ov,
                                      sensim_scenario **out);

/* The same from a JSON text; relative paths resolve against `base_dir`
 * (NULL: the current folder). */
SENSIM_API sensim_status sensim_scenario_load_string(const char *json, const char *base_dir,
                                          sensim_scenario **out);
/* The same with overrides (`ov` may be NULL) and the name `source` that
 * messages give the text ("variant.json:3:7: ..."; NULL: "scenario"). For
 * programs that edit a scenario's JSON before loading it. */
SENSIM_API sensim_status sensim_scenario_load_string_ex(const char *json, const char *source,
                                                       const char *base_dir,
                                                       const sensim_scenario_overrides *ov,
                                                       sensim_scenario **out);
SENSIM_API void sensim_scenario_destroy(sensim_scenario *scn);

/* Warnings of the load: what a scenario file may say but probably does not
 * mean, which loads and runs all the same. Today: a camera or lidar whose
 * frames end in a payload no output format writes (rgb_f32 radiance,
 * lidar beams, ...) and whose "output" is not given, so nothing of it is
 * written ("output": {"format": "none"} says that is meant); a lidar range
 * image written as PNG (millimetres on 16 bits, 65.535 m at most) by a
 * lidar whose max_range is farther, so far returns are clamped. Each is
 * one line starting with the sensor's path and name ("sensors[1] 'lidar':
 * ..."), in file order. 0 for NULL. */
SENSIM_API size_t sensim_scenario_warning_count(const sensim_scenario *scn);
/* Warning i, owned by the scenario (valid until sensim_scenario_destroy);
 * NULL for i out of range or a NULL scenario. */
SENSIM_API const char *sensim_scenario_warning_get(const sensim_scenario *scn, size_t i);

/* The scenario's world (owned by the scenario). */
SENSIM_API sensim_world *sensim_scenario_world(sensim_scenario *scn);
/* Simulated duration and host step from the file, s. */
SENSIM_API double sensim_scenario_duration(const sensim_scenario *scn);
SENSIM_API double sensim_scenario_step(const sensim_scenario *scn);

typedef struct sensim_run_summary {
  double sim_time;        /* simulated seconds run */
  double wall_time;       /* wall-clock seconds taken */
  size_t sensors;         /* number of sensors */
  uint64_t frames[64];    /* frames delivered per sensor (first 64 sensors) */
} sensim_run_summary;

/* Step the scenario's scripted bodies from t = 0 to its duration, advancing
 * the world each step and writing every delivered frame under out_dir, one
 * folder per sensor (NULL: write nothing). `progress`, if not NULL, is called
 * about once per simulated second with the simulation time. Before anything
 * runs: SENSIM_EINVAL for a sensor whose first frame (phase + lag) is due
 * after the last step, which would deliver nothing; temporary files left
 * in out_dir and the sensors' folders by a writer that crashed are removed
 * (sensim_atomic_file_open). The same as sensim_scenario_run_ex with
 * out_dir, progress and user and no recording; the sensors' folders also
 * get their poses.txt and camera_info.yaml (below). */
SENSIM_API sensim_status sensim_scenario_run(sensim_scenario *scn, const char *out_dir,
                                  void (*progress)(double t, double duration, void *user),
                                  void *user, sensim_run_summary *summary);

/* Name of the empty file a run puts in every sensor folder it writes into
 * under out_dir: it marks the folder as a run's output, which `sensim run
 * --force` may replace; a folder without it is the user's and is never
 * removed. */
#define SENSIM_RUN_FOLDER_MARK ".sensim-output"

/* What a run writes besides its sensors' frames (sensim_scenario_run_ex). */
typedef struct sensim_scenario_run_options {
  const char *out_dir;  /* folder of the sensors' folders (created if missing);
                           NULL: write no files (a recording may still be made) */
  void (*progress)(double t, double duration, void *user); /* about once per
                           simulated second; NULL: none */
  void *user;           /* progress's last argument */
  const char *mcap;     /* path of a ROS 2 recording of the run (record.h); NULL: none */
  const sensim_recorder_params *mcap_params; /* the recording's parameters;
                           NULL: sensim_recorder_params_init's defaults */
} sensim_scenario_run_options;

/* Everything off: no files, no progress, no recording. */
SENSIM_API void sensim_scenario_run_options_init(sensim_scenario_run_options *o);

/* sensim_scenario_run with options (`o` NULL: sensim_scenario_run_options_init's).
 *
 * Each sensor's folder under out_dir also gets poses.txt, the sensor's
 * true pose at each delivered frame's capture time in the TUM format
 * (sensim_tum_append; a '#' comment line first), and each camera's folder
 * camera_info.yaml (sensim_write_camera_info_yaml), written at its first
 * frame for the images its chain delivers (a "downsample" filter's
 * blocks, sensim_frame.binning, scale the intrinsics); a FOV or division
 * lens, which ROS has no model for, exactly with sensim's model name, and
 * camera_info_fit.yaml beside it, the nearest ROS model with its fitting
 * error (sensim_write_camera_info_fit_yaml). Sensors whose "output" is "none" have no
 * folder and get neither.
 *
 * With o->mcap, the run records every sensor to that file as ROS 2
 * messages (record.h): each scenario body with a "motion" is published
 * on /tf and /<name>/odom under its scenario name, every delivered frame
 * is handed to the recorder (sensors whose payload no ROS 2 message
 * carries, a cone's detections, are left out), and the recorder is
 * advanced after every step. The file appears, renamed into place, only
 * when the run succeeded; a failed run leaves no recording. */
SENSIM_API sensim_status sensim_scenario_run_ex(sensim_scenario *scn, const sensim_scenario_run_options *o,
                                               sensim_run_summary *summary);

/* ---- stepping by hand (io/scenario_step.c) -------------------------------
 * For a program that runs a scenario's world itself instead of
 * sensim_scenario_run: it steps the scripted bodies and polls the sensors
 * (sensim_world_sensor, sensim_sensor_poll) as it likes. */

/* Push every dynamic body's state at time t, s (its "motion" at t, or its
 * held pose without one) and advance the world to t. Nothing is polled or
 * written. t must not go back (SENSIM_ESTATE, as sensim_world_advance).
 * After a step the scenario cannot also be run (sensim_scenario_run gives
 * SENSIM_ESTATE), nor stepped after a run. */
SENSIM_API sensim_status sensim_scenario_step_to(sensim_scenario *scn, double t);

/* A body of the scenario file's "bodies" section. */
typedef struct sensim_scenario_body_info {
  const char *name;   /* its "name" (owned by the scenario) */
  sensim_body *body;  /* the body in the scenario's world (owned by the world) */
  int is_static;      /* 1 for "static": true (never pushed) */
  int has_motion;     /* 1 when a scripted "motion" moves it */
} sensim_scenario_body_info;

/* Bodies in file order (0 for NULL). */
SENSIM_API size_t sensim_scenario_body_count(const sensim_scenario *scn);
/* Body i; SENSIM_EINVAL for i out of range or NULL arguments. */
SENSIM_API sensim_status sensim_scenario_body_get(const sensim_scenario *scn, size_t i,
                                                 sensim_scenario_body_info *out);

/* ---- sensors from their scenario keys (io/scenario_sensors.c) ----------
 * The keys a scenario file gives each sensor kind (docs/scenario.md), for
 * hosts that hold parameters as text or name/value pairs (bindings,
 * configuration files of their own): units ride in the key names
 * ("hfov_deg", "max_range" in m), as in scenario files. */

/* The sensor kinds by name, NULL-terminated: "camera", "lidar", "gnss",
 * "imu", "magnetometer", "cone". */
SENSIM_API const char *const *sensim_sensor_kinds(void);

/* The kind's own keys (not the schedule's "name", "rate", "filters", ...),
 * NULL-terminated; NULL for an unknown kind. */
SENSIM_API const char *const *sensim_sensor_kind_keys(const char *kind);

/* The payload the kind's frames have before any filter (camera rgb_f32,
 * lidar beams, gnss, imu, magnetometer mag, cone detection, radar radar):
 * what the first filter of its chain takes, so a chain can be checked on
 * a standalone chain (filter.h) before the sensor exists. A radar whose
 * output_mode is "adc" or "range_doppler" gives radar_cube or radar_rd
 * instead (radar.h): the kind's default is what this says.
 * SENSIM_PAYLOAD_NONE for an unknown kind. */
SENSIM_API sensim_payload sensim_sensor_kind_payload(const char *kind);

/* Create a sensor of `kind` with the schedule *sp and the kind's keys as a
 * JSON object text in the scenario dialect (NULL or "{}": the kind's
 * defaults). SENSIM_ENOTFOUND for an unknown kind (with a suggestion),
 * SENSIM_EPARSE for bad JSON, a non-object or an unknown key, SENSIM_EINVAL
 * for a value out of its domain, each message starting with sp->name; the
 * world is unchanged on failure. */
SENSIM_API sensim_status sensim_sensor_create_json(sensim_world *world, const char *kind,
                                                  const sensim_sensor_params *sp,
                                                  const char *params_json, sensim_sensor **out);

/* ---- the JSON of scenario files (io/json.c, io/scenario_kinds.c) --------- */

/* A text in the JSON dialect of scenario files (standard JSON plus // and
 * slash-star comments) as standard JSON any parser reads: comments become
 * spaces, newlines are kept (so line and column numbers are those of the
 * original), and the result is checked to parse. *out is malloc'd (free()
 * it), written only on success. SENSIM_EPARSE names source:line:column
 * (`source` NULL: "json") of an unterminated comment or a syntax error. */
SENSIM_API sensim_status sensim_json_strict(const char *text, const char *source, char **out);

/* Apply a scenario camera's own keys (docs/scenario.md, "camera": "width",
 * "height", "hfov_deg", "fx", "lens", "dist", "lateral_ca", ...), given as
 * a JSON object text in the scenario dialect, onto *cp, which the caller
 * has initialised (sensim_camera_params_init); keys left out keep cp's
 * values, and cp's width and height are those "cx" and "cy" default from.
 * The sensor keys every kind has ("name", "rate", "filters", ...) are not
 * camera keys. SENSIM_EPARSE for bad JSON, a non-object or an unknown key,
 * SENSIM_EINVAL for a value out of its domain, each message starting with
 * `source` (NULL: "camera"). *cp is written only on success. */
SENSIM_API sensim_status sensim_camera_params_from_json(const char *json, const char *source,
                                                       sensim_camera_params *cp);

#ifdef __cplusplus
}
#endif
#endif
