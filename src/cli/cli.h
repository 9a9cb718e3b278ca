/* cli/cli.h: what the sensim program's files share.
 *
 * The program is a user of the public APIs: it includes sensim's and the
 * tools library's public headers and this file, links libsensim and
 * libsensim_tools, and nothing else (its include path holds include/ and
 * its own folder only). */
#ifndef SENSIM_CLI_CLI_H
#define SENSIM_CLI_CLI_H

#include <sensim/sensim.h>
#include <sensim_tools/sensim_tools.h>

/* `sensim demo`: run the built-in scenario into out_dir (a non-empty one
 * only with force, as sensim__cli_prepare_out), recording it to `mcap`
 * with *rp when mcap is not NULL; returns an exit code. */
int sensim__cli_demo(const char *out_dir, int threads, double duration, int force, const char *mcap,
                     const sensim_recorder_params *rp);
/* Progress line on stderr, about once per simulated second. */
void sensim__cli_progress(double t, double duration, void *user);
/* Frames per sensor, wall time and real-time factor on stdout. */
void sensim__cli_print_summary(sensim_scenario *scn, const sensim_run_summary *sum);

/* The commands, each in its own file: `sensim NAME ARGS...` calls
 * fn(argc, argv) with argv[1] == NAME; fn prints its own usage (options,
 * arguments, an example) to stdout for --help or -h and returns an exit
 * code (0, 1 failure, 2 bad usage). */
typedef int (*sensim__cli_fn)(int argc, char **argv);
int sensim__cli_run(int argc, char **argv);
int sensim__cli_demo_cmd(int argc, char **argv);
int sensim__cli_noise_calib(int argc, char **argv);
int sensim__cli_allan(int argc, char **argv);
int sensim__cli_vepd(int argc, char **argv);
int sensim__cli_ekf(int argc, char **argv);
int sensim__cli_vepd_experiment(int argc, char **argv);
int sensim__cli_ablate(int argc, char **argv);
int sensim__cli_dataset(int argc, char **argv);  /* dataset_cmd.c */
int sensim__cli_judge(int argc, char **argv);    /* judge_cmd.c: runs python3 -m sensim.judge */
/* SENSIM_PYTHON (when unset) and PYTHONPATH for sensim.judge, as `sensim
 * judge` runs it: for judge sweeps, whose runs start it. 0, or -1. */
int sensim__cli_judge_env(void);
int sensim__cli_sweep(int argc, char **argv); /* sweep_cmd.c, sweep_mpi.c */
int sensim__cli_augment(int argc, char **argv);
int sensim__cli_image_stats(int argc, char **argv);
int sensim__cli_contact_sheet(int argc, char **argv);  /* contact_sheet_cmd.c */
int sensim__cli_preview_depth(int argc, char **argv);  /* preview_cmd.c */
int sensim__cli_preview_labels(int argc, char **argv); /* preview_cmd.c */


/* Shared by the commands' parsers (cli_util.c). */
/* Whether arg asks for help (--help, -h). */
int sensim__cli_is_help(const char *arg);
/* "sensim CMD: unknown option 'OPT'; did you mean '--x'?" (the hint when an
 * option of the NULL-terminated `known` is near) and where help is, on
 * stderr; returns 2, the exit code of bad usage. */
int sensim__cli_unknown_option(const char *cmd, const char *opt, const char *const *known);
/* "sensim CMD: WHAT 'ARG'" (without the quoted part for a NULL arg) and
 * where help is, on stderr; returns 2, the exit code of bad usage. */
int sensim__cli_usage(const char *cmd, const char *what, const char *arg);
/* Comma-separated ablation variant names (sensim ablate, sensim dataset)
 * into list (room for SENSIM_ABLATE_COUNT); -1 on an unknown (with a
 * suggestion on stderr, naming `cmd`), repeated or empty one. */
int sensim__cli_parse_variants(const char *cmd, const char *s, sensim_ablation *list, size_t *n);
/* A whole decimal integer in lo..hi into *v: 0, or -1 (v untouched) for
 * anything else (empty, trailing text, out of range). */
int sensim__cli_parse_long(const char *s, long lo, long hi, long *v);

/* Before a run of scn into dir (out_dir.c): 0 when dir is missing or
 * empty; when it holds anything, 1 with a message on stderr, unless force,
 * which removes dir/<sensor name> for each of scn's sensors (0, or 1 with
 * a message when that fails). */
int sensim__cli_prepare_out(const char *cmd, const char *dir, sensim_scenario *scn, int force);
/* Before a run recording to `mcap` (run_cmd.c): 0 when mcap is NULL or
 * names no file, or names a file and force is given (the recording
 * replaces it when complete); 1 with a message on stderr for a folder or,
 * without force, an existing file. */
int sensim__cli_check_mcap(const char *cmd, const char *mcap, int force);

#endif
