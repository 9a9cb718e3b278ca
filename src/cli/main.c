/* cli/main.c: the `sensim` program: the list of commands, the overview
 * `sensim --help` prints, and dispatch. Each command parses its own
 * arguments and prints its own help (run_cmd.c for `run` and `demo`, one
 * file per tool command).
 *
 * Exit codes: 0 success, 1 the command failed (bad scenario, I/O error),
 * 2 bad usage. */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"

enum { EXIT_USAGE = 2 };

typedef struct command {
  const char *name;
  sensim__cli_fn fn;
  const char *summary; /* one line for the overview */
} command;

static const command commands[] = {
    {"run", sensim__cli_run, "step a scenario file and write every sensor's frames"},
    {"demo", sensim__cli_demo_cmd, "a built-in scene: a small vehicle lapping a coned course"},
    {"noise-calib", sensim__cli_noise_calib, "camera noise parameters s1, s2 from a stack of frames"},
    {"allan", sensim__cli_allan, "Allan deviation of a recorded IMU CSV, with fitted N and K"},
    {"vepd", sensim__cli_vepd, "VEPD between two sets of velocity-estimation runs"},
    {"ekf", sensim__cli_ekf, "the VEPD judge: an EKF's speed estimates from GNSS and IMU CSVs"},
    {"vepd-experiment", sensim__cli_vepd_experiment,
     "the five GNSS models on three manoeuvres, scored by VEPD"},
    {"sweep", sensim__cli_sweep, "many runs over seeds, values and variants, alone or under mpirun"},
    {"ablate", sensim__cli_ablate, "render a scenario once per camera stage removed"},
    {"dataset", sensim__cli_dataset, "labelled images (YOLO boxes) per ablation variant"},
    {"judge", sensim__cli_judge, "which camera components change a detector: train/test study"},
    {"augment", sensim__cli_augment, "give existing images a camera's signature, stage by stage"},
    {"image-stats", sensim__cli_image_stats, "statistics and histograms of two image sets"},
    {"contact-sheet", sensim__cli_contact_sheet, "a folder's camera frames on one page"},
    {"preview-depth", sensim__cli_preview_depth, "a depth image in colour, with a colour bar in metres"},
    {"preview-labels", sensim__cli_preview_labels, "a label image in colour, with a legend of ids"},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void overview(FILE *fp) {
  fputs("usage: sensim COMMAND [ARGUMENTS] [OPTIONS]\n"
        "       sensim COMMAND --help   (or: sensim help COMMAND)\n"
        "       sensim --help | --version\n"
        "commands:\n",
        fp);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(fp, "  %-16s %s\n", commands[i].name, commands[i].summary);
  fputs("example:\n"
        "  sensim run examples/cart.json --out out/cart\n"
        "exit status: 0 success, 1 the command failed, 2 bad usage\n",
        fp);
}

static const command *find(const char *name) {
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(name, commands[i].name) == 0) return &commands[i];
  return NULL;
}

static int unknown_command(const char *name) {
  const char *names[NCOMMANDS + 1];
  for (size_t i = 0; i < NCOMMANDS; i++) names[i] = commands[i].name;
  names[NCOMMANDS] = NULL;
  const char *near = sensim_suggest(name, names);
  fprintf(stderr, "sensim: unknown command '%s'%s%s%s\nTry 'sensim --help'.\n", name,
          near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
  return EXIT_USAGE;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    overview(stderr);
    return EXIT_USAGE;
  }
  const char *name = argv[1];
  if (sensim__cli_is_help(name) || (strcmp(name, "help") == 0 && argc == 2)) {
    overview(stdout);
    return 0;
  }
  if (strcmp(name, "--version") == 0) {
    printf("sensim %d.%d.%d\n", SENSIM_VERSION_MAJOR, SENSIM_VERSION_MINOR, SENSIM_VERSION_PATCH);
    return 0;
  }
  if (strcmp(name, "help") == 0) {
    /* `sensim help CMD` is `sensim CMD --help`. */
    if (argc > 3) {
      fprintf(stderr, "sensim help: takes one command name\nTry 'sensim --help'.\n");
      return EXIT_USAGE;
    }
    const command *c = find(argv[2]);
    if (!c) return unknown_command(argv[2]);
    char help[] = "--help";
    char *args[] = {argv[0], argv[2], help, NULL};
    return c->fn(3, args);
  }
  const command *c = find(name);
  if (!c) {
    if (name[0] == '-') {
      static const char *const global[] = {"--help", "--version", NULL};
      const char *near = sensim_suggest(name, global);
      fprintf(stderr, "sensim: unknown option '%s'%s%s%s\nTry 'sensim --help'.\n", name,
              near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
      return EXIT_USAGE;
    }
    return unknown_command(name);
  }
  return c->fn(argc, argv);
}
