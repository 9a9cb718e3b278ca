/* io/scenario_internal.h: what the io module's files share: atomic file
 * writing, the strict JSON reader with error paths, scripted motion and the
 * scenario object. Not installed. */
#ifndef SENSIM_IO_SCENARIO_INTERNAL_H
#define SENSIM_IO_SCENARIO_INTERNAL_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "sensim/io.h"
#include "sensim/scenario.h"
#include "sensim/environment.h"
#include "sensim/camera.h"
#include "sensim/lidar.h"
#include "sensim/sensor.h"

/* ---- atomic files (io/fs.c) ---------------------------------------------
 * Writers fill a temporary file next to the target and rename it over the
 * target only when every byte was written, so a failed write never leaves a
 * truncated file under the final name (rename is atomic within a file
 * system, POSIX.1-2008 rename()). */
typedef struct sensim__afile_sink sensim__afile_sink;
typedef struct sensim__afile {
  FILE *fp;       /* open on the temporary file */
  char *tmp;      /* temporary path, owned */
  char *path;     /* final path, owned */
  sensim__afile_sink *sink; /* the descriptor under fp and the errno of its first
                               failed write, owned */
} sensim__afile;

/* Create the temporary file for `path`; SENSIM_EIO if its folder is missing
 * or not writable. */
sensim_status sensim__afile_open(const char *path, sensim__afile *af);
/* Close and rename into place; on any write or close error the temporary
 * file is removed and SENSIM_EIO returned. Frees `af` either way. */
sensim_status sensim__afile_commit(sensim__afile *af);
/* Close and remove the temporary file. Safe on a zeroed or freed afile. */
void sensim__afile_abort(sensim__afile *af);
/* The errno of the first write that failed on af->fp (ENOSPC on a full
 * disk, EIO, EFBIG...), 0 while none has: what error messages name. */
int sensim__afile_errno(const sensim__afile *af);
/* After a failed write: keep the first `keep` bytes written (the last
 * point at which the content was whole), append `tail` (n bytes, a
 * closing record; skipped if it does not fit), and rename the result to
 * `dest` instead of the final path. Buffered bytes not yet written are
 * dropped. Frees `af` either way; SENSIM_EIO if even the truncation or
 * the rename fails (the temporary file is then removed). */
sensim_status sensim__afile_salvage(sensim__afile *af, uint64_t keep, const void *tail, size_t n, const char *dest);
/* The same two for the public handle (io/atomic_file.c); the salvage frees f. */
int sensim__atomic_file_errno(const sensim_atomic_file *f);
sensim_status sensim__atomic_file_salvage(sensim_atomic_file *f, uint64_t keep, const void *tail, size_t n,
                                          const char *dest);

/* Remove the temporary files "<name>.tmp-<pid>-<n>" in folder `dir` whose
 * writer is gone (kill(pid, 0) fails with ESRCH): what a crash or a kill
 * during a write leaves behind. Files of live processes, the caller's
 * own included, are never touched. Best effort: unreadable folders and
 * failed removals are skipped. A recording's ("x.mcap.tmp-<pid>-<n>") is
 * not removed but kept as "x.partial-<pid>.mcap", said on stderr: its
 * whole chunks are data. Returns the number removed or kept. A process in
 * another pid namespace sharing the folder looks dead from here; such
 * setups must not share output folders while running. */
size_t sensim__sweep_temp_files(const char *dir);

/* Close a CSV file started by sensim_csv_open() and remove it (io/csv.c).
 * NULL is a no-op. */
void sensim__csv_abort(sensim_csv *csv);

/* ---- the files beside a recording (io/tum.c) ---------------------------- */

/* The longest TUM line: 8 numbers of at most 24 characters and their
 * separators. */
#define SENSIM__TUM_LINE_MAX 256
/* Frame f's TUM line, "t tx ty tz qx qy qz qw\n" (sensim_tum_append), into
 * buf; its length, or -1 when it does not fit. */
int sensim__tum_line(char *buf, size_t size, const sensim_frame *f);

/* ---- strict JSON reading (io/json.c) ------------------------------------
 * Every reader takes the JSON path of the object it reads ("sensors[2]") so
 * that each failure message starts with the path of the value at fault. */

/* Copy `text` with // and slash-star comments replaced by spaces (newlines
 * kept, so line numbers of errors stay right); strings are left alone.
 * SENSIM_EPARSE for an unterminated block comment. */
sensim_status sensim__json_strip_comments(const char *text, const char *source, char **out);
/* Parse a comment-free JSON text; SENSIM_EPARSE names source:line:column. */
sensim_status sensim__json_parse(const char *text, const char *source, cJSON **out);

/* Child paths: "a" + "b" -> "a.b", "a" + 3 -> "a[3]". Truncates silently
 * (paths are for messages only). */
void sensim__jpath_key(char *dst, size_t n, const char *parent, const char *key);
void sensim__jpath_index(char *dst, size_t n, const char *parent, size_t i);

/* `obj` must be an object whose keys are all in the NULL-terminated list
 * `known`, each at most once; SENSIM_EPARSE otherwise. */
sensim_status sensim__jcheck_object(const cJSON *obj, const char *path, const char *const *known);

/* Optional members: absent leaves *v untouched and returns OK; present with
 * the wrong type is SENSIM_EPARSE. `required` makes absence SENSIM_EPARSE. */
sensim_status sensim__jnumber(const cJSON *obj, const char *path, const char *key, int required,
                              double *v);
/* An integral number in [lo, hi]; out of range is SENSIM_EINVAL. */
sensim_status sensim__jint(const cJSON *obj, const char *path, const char *key, int required,
                           double lo, double hi, double *v);
sensim_status sensim__jbool(const cJSON *obj, const char *path, const char *key, int *v);
/* *v borrows the string inside obj. */
sensim_status sensim__jstring(const cJSON *obj, const char *path, const char *key, int required,
                              const char **v);
/* An array of exactly n (<= 16) finite numbers. */
sensim_status sensim__jvec(const cJSON *obj, const char *path, const char *key, int required,
                           size_t n, double *v);
/* *v borrows the member (NULL when absent and not required). */
sensim_status sensim__jobject(const cJSON *obj, const char *path, const char *key, int required,
                              const cJSON **v);
sensim_status sensim__jarray(const cJSON *obj, const char *path, const char *key, int required,
                             const cJSON **v);

/* ---- scripted motion (io/scenario_motion.c) ----------------------------- */

typedef enum sensim__motion_type {
  SENSIM__MOTION_NONE,
  SENSIM__MOTION_WAYPOINTS,
  SENSIM__MOTION_CIRCLE,
  SENSIM__MOTION_LINE,
  SENSIM__MOTION_STADIUM
} sensim__motion_type;

typedef struct sensim__motion {
  sensim__motion_type type;
  /* waypoints: n rows of (t, x, y, z, yaw), t strictly increasing */
  double *wp;
  size_t nwp;
  int loop;
  /* circle and stadium */
  sensim_vec3 center;  /* m */
  double radius;       /* m, > 0 */
  double speed;        /* m/s along the path, > 0 */
  double dir;          /* +1 counter-clockwise seen from above, -1 clockwise */
  double phase;        /* circle: polar angle of the start, rad */
  double length;       /* stadium: length of each straight, m, >= 0 */
  /* line */
  sensim_vec3 start;   /* m */
  sensim_vec3 velocity; /* m/s */
} sensim__motion;

/* Parse the "motion" object at `path`. */
sensim_status sensim__motion_parse(const cJSON *obj, const char *path, sensim__motion *m);
void sensim__motion_free(sensim__motion *m);
/* State of the motion's frame at time t, then composed with the body's
 * offset pose (the body's "pose" key, expressed in the moving frame).
 * Analytic motions fill velocity and acceleration (flags set); waypoints
 * give the pose only (flags 0). */
void sensim__motion_state(const sensim__motion *m, const sensim_pose *offset, double t,
                          sensim_body_state *out);
/* Check that the motion keeps the body (its offset included) within the
 * world coordinate limit over [0, duration] and that the velocity and
 * acceleration it pushes pass sensim_body_push_state's reach check for
 * windows up to `horizon` s; SENSIM_EINVAL naming `path`'s key, the value
 * and the limit. Waypoints (poses only) are checked row by row. */
sensim_status sensim__motion_check(const sensim__motion *m, const sensim_pose *offset, double duration,
                                   double horizon, const char *path);

/* ---- the scenario (io/scenario_*.c) ------------------------------------- */

typedef enum sensim__out_format {
  SENSIM__OUT_NONE,
  SENSIM__OUT_PNG,
  SENSIM__OUT_PCD,
  SENSIM__OUT_PCD_ASCII,
  SENSIM__OUT_CSV,
  SENSIM__OUT_PLY,
  SENSIM__OUT_PLY_ASCII,
  SENSIM__OUT_NMEA,
  SENSIM__OUT_NPY
} sensim__out_format;

/* The output format a scenario names `name` ("png", "pcd_ascii", "none",
 * ...): 1 with *out set, or 0 for NULL or an unknown name. */
int sensim__out_format_from_name(const char *name, sensim__out_format *out);

typedef struct sensim__scn_body {
  char *name;
  sensim_body *body;
  int is_static;
  sensim_pose offset;        /* the "pose" key: offset in the motion frame */
  sensim__motion motion;     /* SENSIM__MOTION_NONE: held at `offset` */
} sensim__scn_body;

typedef struct sensim__scn_sensor {
  sensim_sensor *sensor;     /* owned by the world */
  sensim__out_format format;
  double utc_start;          /* nmea: UTC of t = 0, POSIX s */
} sensim__scn_sensor;

typedef struct sensim__scn_mesh {
  char *name;
  sensim_mesh *mesh;         /* owned by the world */
} sensim__scn_mesh;

/* The "record" section (io/scenario_record.c): names owned, NULL = the
 * recorder's default. */
typedef struct sensim__scn_record {
  char *map_frame, *odom_frame, *odom_body;
  sensim_odom_drift drift;
} sensim__scn_record;

struct sensim_scenario {
  sensim_world *world;
  double duration;           /* s */
  double step;               /* s */
  sensim__scn_mesh *meshes;
  size_t nmeshes;
  sensim__scn_body *bodies;
  size_t nbodies;
  sensim__scn_sensor *sensors;
  size_t nsensors;
  int has_run;               /* 0 fresh, 1 run (sensim_scenario_run), 2 stepped by hand */
  char **warnings;           /* sensim_scenario_warning_get's lines, owned */
  size_t nwarnings, cwarnings;
  sensim__scn_record record;  /* what a recording of the run publishes */
};

/* Parse "record" into scn->record; give a recording's parameters its
 * frames and odometry drift; free it. */
sensim_status sensim__scenario_record(sensim_scenario *scn, const cJSON *obj);
void sensim__scenario_record_params(const sensim_scenario *scn, sensim_recorder_params *p);
void sensim__scenario_record_free(sensim_scenario *scn);

/* Load from text with overrides; `source` names the text in messages. */
sensim_status sensim__scenario_load_text(const char *json, const char *source,
                                         const char *base_dir,
                                         const sensim_scenario_overrides *ov,
                                         sensim_scenario **out);

/* Parse the sections of the root object into scn (scenario_load.c and
 * scenario_sensors.c). Each leaves everything it created owned by scn. */
sensim_status sensim__scenario_meshes(sensim_scenario *scn, const cJSON *arr,
                                      const char *base_dir);
/* "instances": placements of a mesh, one static body each group
 * (io/scenario_instances.c). */
sensim_status sensim__scenario_instances(sensim_scenario *scn, const cJSON *arr);
sensim_status sensim__scenario_lights(sensim_scenario *scn, const cJSON *arr);
sensim_status sensim__scenario_bodies(sensim_scenario *scn, const cJSON *arr);
/* "tiles": [{"file", "bounds": [min x, y, z, max x, y, z], "class_id"}]
 * (io/scenario_tiles.c, sensim/tile.h): declared, loaded as sensors come
 * in range while the scenario runs. */
sensim_status sensim__scenario_tiles(sensim_scenario *scn, const cJSON *arr, const char *base_dir);
/* base_dir + "/" + file unless file is absolute or base_dir is NULL or
 * empty; malloc'd, NULL when out of memory (io/scenario_load.c). */
char *sensim__scenario_resolve(const char *base_dir, const char *file);
/* Relative file names in the section ("reference_images") resolve against
 * base_dir (NULL: the working folder). */
sensim_status sensim__scenario_sensors(sensim_scenario *scn, const cJSON *arr, const char *base_dir);
/* Push every dynamic body's state at t (its motion, or its held pose);
 * the first failure names the body (io/scenario_step.c). */
sensim_status sensim__scenario_push_states(sensim_scenario *scn, double t);
/* Parse {position, rpy | quaternion} at path into a pose. */
sensim_status sensim__scenario_pose(const cJSON *obj, const char *path, sensim_pose *pose);

/* ---- warnings (io/scenario_warnings.c) ---- */

/* Add a formatted warning line; SENSIM_ENOMEM when it cannot be kept. */
sensim_status sensim__scenario_warn(sensim_scenario *scn, const char *fmt, ...) SENSIM_PRINTF_FORMAT(2, 3);
void sensim__scenario_warnings_free(sensim_scenario *scn);
/* Warn about sensor `ss` (at `path`, of kind `type`) when its output
 * writes nothing useful: a camera or lidar whose frames no format writes
 * and whose "output" was not given, a lidar range image whose PNG clamps
 * ranges below its max_range (m; 0 for other kinds). */
sensim_status sensim__scenario_check_output(sensim_scenario *scn, const char *path,
                                            const char *type, const sensim__scn_sensor *ss,
                                            int output_given, double max_range);

/* ---- sensor kinds' keys (io/scenario_kinds.c) ---- */

/* "name.key: must be <what> (got v)" as SENSIM_EINVAL. */
/* "environment" (world.environment): parsed into *env, keys named by path;
 * a map's file (relative to base_dir, NULL: the working directory) is
 * loaded into world (io/scenario_environment.c). */
sensim_status sensim__scenario_environment(const cJSON *obj, const char *path, sensim_world *world,
                                           const char *base_dir, sensim_environment *env);
sensim_status sensim__scenario_fail_range(const char *path, const char *key, const char *what, double v);

/* Storage for the lidar tables a scenario gives (the params point into it). */
typedef struct sensim__lidar_tables {
  double elev[SENSIM_LIDAR_MAX_CHANNELS];  /* rad */
  double az[SENSIM_LIDAR_MAX_CHANNELS];    /* rad */
  double fire[SENSIM_LIDAR_MAX_CHANNELS];  /* s */
} sensim__lidar_tables;

/* A camera's or lidar's own keys into its parameters (after the kind's
 * defaults; a lidar "preset" first). */
sensim_status sensim__scenario_camera(const cJSON *obj, const char *path, sensim_camera_params *cp);
/* Those camera keys, NULL-terminated (io/scenario_kinds.c). */
extern const char *const sensim__camera_keys[];
sensim_status sensim__scenario_lidar(const cJSON *obj, const char *path, sensim_lidar_params *lp,
                                     sensim__lidar_tables *tb);

#endif
