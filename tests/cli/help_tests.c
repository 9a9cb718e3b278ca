/* tests/cli/help_tests.c: every command's help is its own (usage,
 * options, an example) on stdout with exit 0, and an unknown command or
 * option names the near known one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/run_cli.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/cli_help"
#define OUT TMP "/out.txt"
#define ERR TMP "/err.txt"

static int setup(void **state) {
  (void)state;
  test_remove_tree(TMP);
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

/* Run the program; its stdout and stderr in *out and *err (free() them). */
static int run_split(const char *const *args, char **out, char **err) {
  return test_run_cli_read(OUT, ERR, args, out, err);
}

/* The command names `sensim --help` lists under "commands:", one per line
 * as "  NAME  summary", into names (at most max); returns the count. */
static size_t listed_commands(const char *overview, char names[][32], size_t max) {
  const char *p = strstr(overview, "commands:\n");
  assert_non_null(p);
  p += strlen("commands:\n");
  size_t n = 0;
  while (n < max && p[0] == ' ' && p[1] == ' ' && p[2] != ' ') {
    size_t k = strcspn(p + 2, " \n");
    assert_true(k > 0 && k < 32);
    memcpy(names[n], p + 2, k);
    names[n++][k] = '\0';
    p = strchr(p, '\n');
    assert_non_null(p);
    p++;
  }
  return n;
}

static void test_overview_lists_every_command_on_stdout(void **state) {
  (void)state;
  const char *args[] = {"--help", NULL};
  char *out, *err;
  assert_int_equal(run_split(args, &out, &err), 0);
  assert_string_equal(err, "");
  char names[32][32];
  size_t n = listed_commands(out, names, 32);
  static const char *const expect[] = {"run", "demo", "noise-calib", "allan", "vepd", "ekf",
                                       "vepd-experiment", "sweep", "ablate", "dataset", "judge", "augment", "image-stats",
                                       "contact-sheet", "preview-depth", "preview-labels"};
  assert_int_equal(n, sizeof expect / sizeof expect[0]);
  for (size_t i = 0; i < n; i++) assert_string_equal(names[i], expect[i]);
  free(out);
  free(err);
  /* Without a command: the overview on stderr, bad usage. */
  const char *none[] = {NULL};
  assert_int_equal(run_split(none, &out, &err), 2);
  assert_string_equal(out, "");
  assert_non_null(strstr(err, "commands:"));
  free(out);
  free(err);
}

/* `sensim CMD --help`, `-h` and `sensim help CMD` print the same text: a
 * usage line of CMD, its options, an example using CMD, nothing of the
 * other commands' usage, to stdout, exit 0, nothing on stderr. */
static void test_each_command_prints_its_own_help(void **state) {
  (void)state;
  const char *args[] = {"--help", NULL};
  char *overview, *err;
  assert_int_equal(run_split(args, &overview, &err), 0);
  free(err);
  char names[32][32];
  size_t n = listed_commands(overview, names, 32);
  free(overview);
  for (size_t i = 0; i < n; i++) {
    const char *cmd = names[i];
    char usage[64], example[64];
    snprintf(usage, sizeof usage, "usage: sensim %s ", cmd);
    snprintf(example, sizeof example, "  sensim %s ", cmd);
    const char *forms[3][4] = {{cmd, "--help", NULL}, {cmd, "-h", NULL}, {"help", cmd, NULL}};
    char *first = NULL;
    for (int f = 0; f < 3; f++) {
      char *out;
      int rc = run_split(forms[f], &out, &err);
      if (rc != 0) fail_msg("'%s' help form %d exited %d: %s", cmd, f, rc, err);
      if (*err) fail_msg("'%s' help form %d wrote to stderr: %s", cmd, f, err);
      if (strncmp(out, usage, strlen(usage)) != 0) fail_msg("'%s' help starts:\n%.200s", cmd, out);
      if (!strstr(out, "options:\n")) fail_msg("'%s' help has no options:\n%s", cmd, out);
      const char *ex = strstr(out, "example");
      if (!ex || !strstr(ex, example)) fail_msg("'%s' help has no example of it:\n%s", cmd, out);
      /* Another command's usage line would mean the global text. */
      const char *u = out;
      int usages = 0;
      while ((u = strstr(u, "usage: sensim ")) != NULL) usages++, u++;
      if (usages != 1) fail_msg("'%s' help has %d usage lines:\n%s", cmd, usages, out);
      if (!first) {
        first = out;
      } else {
        assert_string_equal(out, first);
        free(out);
      }
      free(err);
    }
    free(first);
  }
}

typedef struct near_case {
  const char *args[8];
  const char *hint; /* expected on stderr; NULL: no "did you mean" */
} near_case;

static void test_unknown_commands_and_options_name_the_near_one(void **state) {
  (void)state;
  static const near_case cases[] = {
      {{"rn", NULL}, "unknown command 'rn'; did you mean 'run'?"},
      {{"vepd_experiment", NULL}, "did you mean 'vepd-experiment'?"},
      {{"help", "imagestats", NULL}, "did you mean 'image-stats'?"},
      {{"--verison", NULL}, "did you mean '--version'?"},
      {{"frobnicate", NULL}, NULL},
      {{"run", "a.json", "--outt", "x", NULL}, "unknown option '--outt'; did you mean '--out'?"},
      {{"demo", "--duraton", "1", NULL}, "did you mean '--duration'?"},
      {{"noise-calib", "d", "--bin", "8", NULL}, "did you mean '--bins'?"},
      {{"allan", "a.csv", "--colum", "gz", NULL}, "did you mean '--column'?"},
      {{"vepd", "a", "b", "--perrun", NULL}, "did you mean '--per-run'?"},
      {{"ekf", "g.csv", "i.csv", "--truht", "t.csv", NULL}, "did you mean '--truth'?"},
      {{"vepd-experiment", "--run", "3", NULL}, "did you mean '--runs'?"},
      {{"ablate", "s.json", "--variant", "baseline", NULL}, "did you mean '--variants'?"},
      {{"sweep", "s.json", "--thread", "2", NULL}, "unknown option '--thread'; did you mean '--threads'?"},
      {{"augment", "a", "b", "--stage", "noise", NULL}, "did you mean '--stages'?"},
      {{"image-stats", "a", "b", "--bin", "8", NULL}, "did you mean '--bins'?"},
      {{"run", "a.json", "--zzzzzz", NULL}, NULL},
      {{"run", "a.json", "--mcp", "r.mcap", NULL}, "unknown option '--mcp'; did you mean '--mcap'?"},
      {{"demo", "--lidar-tim", "end", NULL}, "did you mean '--lidar-time'?"},
      {{"demo", "--out", "o", "--mcap", "r.mcap", "--lidar-time", "ned", NULL}, "did you mean 'end'?"},
      {{"ablate", "s.json", "--out", "o", "--variants", "noise_of", NULL},
       "unknown variant 'noise_of'; did you mean 'noise_off'?"},
      {{"augment", "a", "b", "--stages", "noise,mosiac", NULL},
       "unknown stage 'mosiac'; did you mean 'mosaic'?"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *out, *err;
    int rc = run_split(cases[i].args, &out, &err);
    if (rc != 2) fail_msg("case %zu exited %d, expected 2: %s", i, rc, err);
    if (cases[i].hint && !strstr(err, cases[i].hint))
      fail_msg("case %zu: stderr lacks \"%s\":\n%s", i, cases[i].hint, err);
    if (!cases[i].hint && strstr(err, "did you mean"))
      fail_msg("case %zu suggests a far name:\n%s", i, err);
    if (!strstr(err, "--help")) fail_msg("case %zu does not say where help is:\n%s", i, err);
    free(out);
    free(err);
  }
}

int sensim_test_cli_help(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_overview_lists_every_command_on_stdout),
      cmocka_unit_test(test_each_command_prints_its_own_help),
      cmocka_unit_test(test_unknown_commands_and_options_name_the_near_one),
  };
  return cmocka_run_group_tests_name("cli_help", tests, setup, NULL);
}
