/* cli/run_cmd.c: `sensim run` and `sensim demo`: their options and help,
 * the progress line and the summary printed after a run. The demo's scene
 * is in demo.c. Exit codes as main.c: 0 success, 1 failure, 2 bad usage. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"

enum { EXIT_RUN_FAILED = 1, EXIT_USAGE = 2 };

/* The recording's options, as run and demo share them. */
#define MCAP_HELP                                                                         \
  "  --mcap FILE    also record every sensor to FILE as ROS 2 messages (MCAP,\n"       \
  "                 zstd; for ros2 bag and Foxglove, docs/recording.md); an\n"         \
  "                 existing FILE is refused unless --force\n"                         \
  "  --lidar-time start|end\n"                                                          \
  "                 what a recorded point's time counts from: the scan's start\n"      \
  "                 (default; >= 0, as Velodyne and Ouster drivers publish) or its\n"  \
  "                 end, the capture time (<= 0)\n"

static const char run_help[] =
    "usage: sensim run SCENARIO.json --out DIR [--threads N] [--force]\n"
    "                  [--mcap FILE [--lidar-time start|end]]\n"
    "  load a scenario file (docs/scenario.md: world, meshes, scripted bodies,\n"
    "  sensors with their filter chains) and write every sensor's frames under\n"
    "  DIR/<sensor name>/, with the sensor's true poses (poses.txt, TUM) and a\n"
    "  camera's calibration (camera_info.yaml); prints the frames per sensor and\n"
    "  the real-time factor.\n"
    "  Warns on stderr about what loads but writes nothing useful (a camera or\n"
    "  lidar whose frames no format writes, a range image that clamps ranges).\n"
    "arguments:\n"
    "  SCENARIO.json  the scenario file\n"
    "options:\n"
    "  --out DIR      output folder (created if missing); one that is not empty\n"
    "                 is refused, so two runs' frames never mix\n"
    "  --force        run into a non-empty DIR: the folders of the scenario's\n"
    "                 sensors in it are removed first, other files kept; only\n"
    "                 folders a run made, and regular files, are ever removed\n"
    "  --threads N    worker threads, 0..1024 (0: run jobs on the calling thread;\n"
    "                 default: the file's); output is identical for every N\n"
    MCAP_HELP
    "examples:\n"
    "  sensim run examples/cart.json --out out/cart --threads 2\n"
    "  sensim run examples/cart.json --out out/cart --mcap out/cart.mcap\n"
    "exit status: 0 success, 1 the scenario or its output failed, 2 bad usage\n";

static const char demo_help[] =
    "usage: sensim demo --out DIR [--threads N] [--duration S] [--force]\n"
    "                   [--mcap FILE [--lidar-time start|end]]\n"
    "  a 1/6-scale vehicle lapping a coned stadium course with a camera, a\n"
    "  16-channel lidar, a GNSS receiver and an IMU; writes their frames under\n"
    "  DIR/<sensor name>/ and the last lidar scan seen from above as\n"
    "  DIR/lidar_birdseye.png\n"
    "options:\n"
    "  --out DIR      output folder (created if missing; refused if not empty)\n"
    "  --force        run into a non-empty DIR, replacing its sensor folders\n"
    "  --threads N    worker threads, 0..1024 (default 2); output is identical\n"
    "                 for every N\n"
    "  --duration S   simulated seconds, > 0 (default 10)\n"
    MCAP_HELP
    "examples:\n"
    "  sensim demo --out out/demo --duration 2\n"
    "  sensim demo --out out/demo --mcap out/demo.mcap\n"
    "exit status: 0 success, 1 the run or its output failed, 2 bad usage\n";

static int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "sensim %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\nTry 'sensim %s --help'.\n", cmd);
  va_end(ap);
  return EXIT_USAGE;
}

void sensim__cli_progress(double t, double duration, void *user) {
  (void)user;
  fprintf(stderr, "sensim: t = %6.2f / %.2f s\n", t, duration);
}

void sensim__cli_print_summary(sensim_scenario *scn, const sensim_run_summary *sum) {
  sensim_world *w = sensim_scenario_world(scn);
  printf("%-20s %-10s %8s\n", "sensor", "payload", "frames");
  for (size_t i = 0; i < sum->sensors && i < 64; i++) {
    sensim_sensor *s = sensim_world_sensor(w, i);
    printf("%-20s %-10s %8llu\n", sensim_sensor_name(s),
           sensim_payload_name(sensim_sensor_output_type(s)),
           (unsigned long long)sum->frames[i]);
  }
  double rtf = sum->wall_time > 0 ? sum->sim_time / sum->wall_time : INFINITY;
  printf("simulated %.3f s in %.3f s wall time: real-time factor %.2f\n", sum->sim_time,
         sum->wall_time, rtf);
}

/* Options of run and demo; NULL/negative when not given. */
typedef struct cli_opts {
  const char *scenario;
  const char *out;
  int threads;
  double duration;
  int force;
  const char *mcap;
  const char *lidar_time; /* as given; checked to be "start" or "end" */
} cli_opts;

static int parse_int(const char *s, long lo, long hi, long *v) {
  char *end = NULL;
  errno = 0;
  long x = strtol(s, &end, 10);
  if (errno || end == s || *end || x < lo || x > hi) return -1;
  *v = x;
  return 0;
}

/* Returns 0, an exit code, or -1 after printing help. */
static int parse_opts(int argc, char **argv, int demo, cli_opts *o) {
  static const char *const run_opts[] = {"--out", "--threads", "--force", "--mcap", "--lidar-time",
                                         "--help", NULL};
  static const char *const demo_opts[] = {"--out",  "--threads",    "--duration", "--force",
                                          "--mcap", "--lidar-time", "--help",     NULL};
  static const char *const lidar_times[] = {"start", "end", NULL};
  const char *cmd = demo ? "demo" : "run";
  o->scenario = NULL;
  o->out = NULL;
  o->threads = -1;
  o->duration = -1;
  o->force = 0;
  o->mcap = NULL;
  o->lidar_time = NULL;
  for (int i = 2; i < argc; i++)
    if (sensim__cli_is_help(argv[i])) {
      fputs(demo ? demo_help : run_help, stdout);
      return -1;
    }
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    int takes = strcmp(a, "--out") == 0 || strcmp(a, "--threads") == 0 || strcmp(a, "--mcap") == 0 ||
                strcmp(a, "--lidar-time") == 0 || (demo && strcmp(a, "--duration") == 0);
    if (takes) {
      if (!val) return usage_error(cmd, "option '%s' needs a value", a);
      i++;
      if (strcmp(a, "--out") == 0) {
        if (!*val) return usage_error(cmd, "--out needs a non-empty folder");
        o->out = val;
      } else if (strcmp(a, "--mcap") == 0) {
        if (!*val) return usage_error(cmd, "--mcap needs a non-empty file name");
        o->mcap = val;
      } else if (strcmp(a, "--lidar-time") == 0) {
        if (strcmp(val, "start") != 0 && strcmp(val, "end") != 0) {
          const char *near = sensim_suggest(val, lidar_times);
          return usage_error(cmd,
                             "--lidar-time '%s': expected 'start' (s from the scan's start) or 'end' "
                             "(s relative to the capture time)%s%s%s",
                             val, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
        }
        o->lidar_time = val;
      } else if (strcmp(a, "--threads") == 0) {
        long n;
        if (parse_int(val, 0, 1024, &n) != 0)
          return usage_error(cmd, "--threads '%s': expected an integer in 0..1024", val);
        o->threads = (int)n;
      } else {
        char *end = NULL;
        double d = strtod(val, &end);
        if (end == val || *end || !(d > 0) || !isfinite(d) || d > 1e6)
          return usage_error(cmd, "--duration '%s': expected seconds > 0", val);
        o->duration = d;
      }
    } else if (strcmp(a, "--force") == 0) {
      o->force = 1;
    } else if (!demo && strcmp(a, "--duration") == 0) {
      return usage_error(cmd, "--duration is an option of 'demo' only");
    } else if (a[0] == '-' && a[1] != '\0') {
      return sensim__cli_unknown_option(cmd, a, demo ? demo_opts : run_opts);
    } else if (!demo && !o->scenario) {
      o->scenario = a;
    } else {
      return usage_error(cmd, "unexpected argument '%s'", a);
    }
  }
  if (!demo && !o->scenario) return usage_error(cmd, "'run' needs a scenario file");
  if (!o->out) return usage_error(cmd, "--out DIR is required");
  if (o->lidar_time && !o->mcap)
    return usage_error(cmd, "--lidar-time sets the recording's point times: give --mcap FILE too");
  return 0;
}

/* The recording's parameters from the options. */
static void recorder_params(const cli_opts *o, sensim_recorder_params *rp) {
  sensim_recorder_params_init(rp);
  if (o->lidar_time && strcmp(o->lidar_time, "end") == 0) rp->lidar_time = SENSIM_LIDAR_TIME_FROM_END;
}

int sensim__cli_check_mcap(const char *cmd, const char *mcap, int force) {
  struct stat sb;
  if (!mcap || stat(mcap, &sb) != 0) return 0;
  if (S_ISDIR(sb.st_mode)) {
    fprintf(stderr, "sensim %s: --mcap '%s' is a folder; name the recording's file\n", cmd, mcap);
    return 1;
  }
  /* A recording is written beside its name and renamed over it, which
   * would put a regular file where a device, FIFO or socket was (with
   * --mcap /dev/full, the device's node). */
  if (!S_ISREG(sb.st_mode)) {
    fprintf(stderr,
            "sensim %s: --mcap '%s' is %s, not a regular file: a recording replaces only a regular file, "
            "with or without --force\n",
            cmd, mcap,
            S_ISCHR(sb.st_mode)    ? "a character device"
            : S_ISBLK(sb.st_mode)  ? "a block device"
            : S_ISFIFO(sb.st_mode) ? "a FIFO"
            : S_ISSOCK(sb.st_mode) ? "a socket"
                                   : "something else");
    return 1;
  }
  if (!force) {
    fprintf(stderr, "sensim %s: recording '%s' exists; choose another --mcap, or give --force to "
                    "replace it\n", cmd, mcap);
    return 1;
  }
  return 0;
}

int sensim__cli_run(int argc, char **argv) {
  cli_opts o;
  int rc = parse_opts(argc, argv, 0, &o);
  if (rc != 0) return rc < 0 ? 0 : rc;
  sensim_scenario_overrides ov = {o.threads};
  sensim_scenario *scn = NULL;
  sensim_status st = sensim_scenario_load_ex(o.scenario, &ov, &scn);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim: %s: %s (%s)\n", o.scenario, sensim_last_error(),
            sensim_status_str(st));
    return EXIT_RUN_FAILED;
  }
  for (size_t i = 0; i < sensim_scenario_warning_count(scn); i++)
    fprintf(stderr, "sensim run: %s: warning: %s\n", o.scenario, sensim_scenario_warning_get(scn, i));
  if (sensim__cli_prepare_out("run", o.out, scn, o.force) != 0 ||
      sensim__cli_check_mcap("run", o.mcap, o.force) != 0) {
    sensim_scenario_destroy(scn);
    return EXIT_RUN_FAILED;
  }
  sensim_recorder_params rp;
  recorder_params(&o, &rp);
  sensim_scenario_run_options ro;
  sensim_scenario_run_options_init(&ro);
  ro.out_dir = o.out;
  ro.progress = sensim__cli_progress;
  ro.mcap = o.mcap;
  ro.mcap_params = &rp;
  sensim_run_summary sum;
  st = sensim_scenario_run_ex(scn, &ro, &sum);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim: %s: %s (%s)\n", o.scenario, sensim_last_error(),
            sensim_status_str(st));
    sensim_scenario_destroy(scn);
    return EXIT_RUN_FAILED;
  }
  sensim__cli_print_summary(scn, &sum);
  if (o.mcap) printf("ROS 2 recording: %s\n", o.mcap);
  sensim_scenario_destroy(scn);
  return 0;
}

int sensim__cli_demo_cmd(int argc, char **argv) {
  cli_opts o;
  int rc = parse_opts(argc, argv, 1, &o);
  if (rc != 0) return rc < 0 ? 0 : rc;
  sensim_recorder_params rp;
  recorder_params(&o, &rp);
  return sensim__cli_demo(o.out, o.threads < 0 ? 2 : o.threads, o.duration > 0 ? o.duration : 10.0,
                          o.force, o.mcap, &rp);
}
