/* cli/judge_cmd.c: `sensim judge`, the perception judge (docs/judge.md):
 * the study's experiments are Python (torch), so this command runs
 * `python3 -m sensim.judge ARGS...` with sensim's package on the path and
 * returns its exit status. Exit codes as main.c: 0 success, 1 failure
 * (bad data, a failed step, no Python), 2 bad usage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cli.h"

#ifndef SENSIM_JUDGE_PYTHON
#define SENSIM_JUDGE_PYTHON "python3"
#endif

enum { EXIT_FAILED = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: sensim judge test|train|job DATASET --out DIR [--real DIR] [--variants L]\n"
    "                    [--epochs N] [--seeds N] [--batch N] [--lr X] [--content-batch N]\n"
    "                    [--size N] [--boot N] [--threads N] [--variant V --seed S]\n"
    "  which camera components change a detector's behaviour (docs/judge.md):\n"
    "    test   detectors trained on the baseline (3 seeds) evaluated on every\n"
    "           variant's validation set against the reference (the study's Fig. 23)\n"
    "    train  a detector trained per variant, evaluated on its own validation set\n"
    "           and on the reference against the baseline's (Fig. 24)\n"
    "    job    one training (--variant V --seed S) of a study: what a sweep rank runs\n"
    "  DATASET is what `sensim dataset` writes. The reference is --real DIR (images/,\n"
    "  labels/ in YOLO txt, classes.txt: sim-to-real, Fig. 22) or the baseline.\n"
    "  Writes DIR/report_<test|train>.md, DIR/<test|train>_differences.csv, plots,\n"
    "  and DIR/models/<variant>_s<seed>/ (checkpoints: a killed study resumes).\n"
    "options:\n"
    "  --out DIR          the study's folder: new, or this study's own to resume\n"
    "  --real DIR         a real labelled dataset as the reference\n"
    "  --variants L       comma-separated variants (default: every one of DATASET)\n"
    "  --epochs N         training epochs [15]\n"
    "  --seeds N          baseline seeds for the seed-to-seed spread, >= 2 [3]\n"
    "  --batch N          training batch size [16]\n"
    "  --lr X             AdamW learning rate, cosine-decayed [0.002]\n"
    "  --content-batch N  images per batch of similar content [10]\n"
    "  --size N           network input size, a multiple of 8 [96]\n"
    "  --boot N           bootstrap resamples [1000]\n"
    "  --threads N        torch threads per process [1]\n"
    "  environment: SENSIM_PYTHON names the interpreter (default " SENSIM_JUDGE_PYTHON ")\n"
    "example:\n"
    "  sensim judge train out/cones --out out/judge --epochs 15\n"
    "exit status: 0 success, 1 failure, 2 bad usage\n";

#if defined(SENSIM_JUDGE_BUILD_PATH) || defined(SENSIM_JUDGE_INSTALL_PATH)
static int is_dir(const char *p) {
  struct stat sb;
  return p && stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}
#endif

/* PYTHONPATH with sensim's package folder first: the build tree's when
 * this program runs from it, else the installed one. */
static int set_python_path(void) {
  if (!getenv("SENSIM_PYTHON") && setenv("SENSIM_PYTHON", SENSIM_JUDGE_PYTHON, 1)) return -1;
  const char *pkg = NULL;
#ifdef SENSIM_JUDGE_BUILD_PATH
  if (is_dir(SENSIM_JUDGE_BUILD_PATH "/sensim/judge")) pkg = SENSIM_JUDGE_BUILD_PATH;
#endif
#ifdef SENSIM_JUDGE_INSTALL_PATH
  if (!pkg && is_dir(SENSIM_JUDGE_INSTALL_PATH "/sensim/judge")) pkg = SENSIM_JUDGE_INSTALL_PATH;
#endif
  if (!pkg) return 0; /* `import sensim` must then work from the interpreter's own path */
  const char *old = getenv("PYTHONPATH");
  size_t n = strlen(pkg) + (old ? strlen(old) : 0) + 2;
  char *v = malloc(n);
  if (!v) return -1;
  snprintf(v, n, "%s%s%s", pkg, old && *old ? ":" : "", old && *old ? old : "");
  int rc = setenv("PYTHONPATH", v, 1);
  free(v);
  return rc;
}

int sensim__cli_judge_env(void) { return set_python_path(); }

int sensim__cli_judge(int argc, char **argv) {
  if (argc < 3) {
    fputs(usage_text, stderr);
    return EXIT_USAGE;
  }
  for (int i = 2; i < argc; i++)
    if (sensim__cli_is_help(argv[i])) {
      fputs(usage_text, stdout);
      return 0;
    }
  static const char *const subs[] = {"test", "train", "job", NULL};
  int known = 0;
  for (const char *const *s = subs; *s; s++) known |= strcmp(argv[2], *s) == 0;
  if (!known) {
    const char *near = sensim_suggest(argv[2], subs);
    fprintf(stderr, "sensim judge: unknown experiment '%s'%s%s%s (test, train, job)\nTry 'sensim judge --help'.\n",
            argv[2], near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    return EXIT_USAGE;
  }
  const char *py = getenv("SENSIM_PYTHON");
  if (!py || !*py) py = SENSIM_JUDGE_PYTHON;
  char **args = calloc((size_t)argc + 2, sizeof *args);
  if (!args || set_python_path()) {
    free(args);
    fprintf(stderr, "sensim judge: out of memory\n");
    return EXIT_FAILED;
  }
  args[0] = (char *)py;
  args[1] = "-m";
  args[2] = "sensim.judge";
  for (int i = 2; i < argc; i++) args[i + 1] = argv[i];
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    execvp(py, args);
    fprintf(stderr, "sensim judge: cannot run %s: %s (set SENSIM_PYTHON)\n", py, strerror(errno));
    _exit(EXIT_FAILED);
  }
  free(args);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) {
    fprintf(stderr, "sensim judge: cannot start %s: %s\n", py, strerror(errno));
    return EXIT_FAILED;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status) <= EXIT_USAGE ? WEXITSTATUS(status) : EXIT_FAILED;
  fprintf(stderr, "sensim judge: %s ended by signal %d\n", py, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return EXIT_FAILED;
}
