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

/* `sensim demo`: run the built-in scenario into out_dir; returns an exit code. */
int sensim__cli_demo(const char *out_dir, int threads, double duration);
/* Progress line on stderr, about once per simulated second. */
void sensim__cli_progress(double t, double duration, void *user);
/* Frames per sensor, wall time and real-time factor on stdout. */
void sensim__cli_print_summary(sensim_scenario *scn, const sensim_run_summary *sum);

/* `sensim noise-calib ...` (argv as main's); returns an exit code, or -1
 * when --help was asked for. */
int sensim__cli_noise_calib(int argc, char **argv);

/* Further commands, each in its own file: `sensim NAME ARGS...` calls
 * fn(argc, argv) with argv[1] == NAME; fn prints its own usage for --help
 * and returns an exit code (0, 1 failure, 2 bad usage). */
typedef int (*sensim__cli_fn)(int argc, char **argv);
int sensim__cli_allan(int argc, char **argv);
int sensim__cli_vepd(int argc, char **argv);
int sensim__cli_ekf(int argc, char **argv);
int sensim__cli_vepd_experiment(int argc, char **argv);
int sensim__cli_ablate(int argc, char **argv);
int sensim__cli_augment(int argc, char **argv);
int sensim__cli_image_stats(int argc, char **argv);
int sensim__cli_contact_sheet(int argc, char **argv);  /* contact_sheet_cmd.c */
int sensim__cli_preview_depth(int argc, char **argv);  /* preview_cmd.c */
int sensim__cli_preview_labels(int argc, char **argv); /* preview_cmd.c */

#endif
