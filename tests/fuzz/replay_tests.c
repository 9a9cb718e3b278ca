/* tests/fuzz/replay_tests.c: every input of the checked-in fuzzing corpus
 * (tests/data/fuzz/mesh/, tests/data/fuzz/scenario/, tests/data/fuzz/nav/) through the fuzzers'
 * own entry points (fuzz/fuzz.h), without libFuzzer. An entry point aborts
 * when the library breaks its contract on an input (docs/fuzzing.md), so
 * a crash, a sanitizer report or an abort fails this binary; the file
 * name's prefix, where it has one, gives the status the input must get:
 *
 *   ok-  eparse-  einval-  enotfound-  eio-  etype-  enomem-
 *
 * Files without one (inputs the fuzzers found, cut and flipped seeds)
 * must only come back. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz/fuzz.h"
#include "support/testutil.h"

typedef sensim_status (*fuzz_entry)(const uint8_t *data, size_t size);

/* 1 and the status a name's prefix asks for, or 0 for any status. */
static int expected_status(const char *name, sensim_status *want) {
  static const struct {
    const char *prefix;
    sensim_status st;
  } prefixes[] = {{"ok-", SENSIM_OK},         {"eparse-", SENSIM_EPARSE}, {"einval-", SENSIM_EINVAL},
                  {"enotfound-", SENSIM_ENOTFOUND}, {"eio-", SENSIM_EIO},   {"etype-", SENSIM_ETYPE},
                  {"enomem-", SENSIM_ENOMEM}};
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
    if (strncmp(name, prefixes[i].prefix, strlen(prefixes[i].prefix)) == 0) {
      *want = prefixes[i].st;
      return 1;
    }
  return 0;
}

static int visible(const struct dirent *e) { return e->d_name[0] != '.'; }

static uint8_t *read_input(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot open %s", path);
  size_t cap = 4096, n = 0;
  uint8_t *b = malloc(cap);
  for (;;) {
    if (!b) fail_msg("out of memory reading %s", path);
    n += fread(b + n, 1, cap - n, f);
    if (n < cap) break;
    cap *= 2;
    b = realloc(b, cap);
  }
  fclose(f);
  *size = n;
  return b;
}

/* Replay every input of tests/data/fuzz/<corpus>; at least `min_inputs`
 * of them, so an emptied folder cannot pass. */
static void replay(const char *corpus, fuzz_entry entry, int min_inputs) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/fuzz/%s", SENSIM_TEST_DATA, corpus);
  struct dirent **names = NULL;
  int n = scandir(dir, &names, visible, alphasort);
  if (n < 0) fail_msg("cannot list %s", dir);
  int wrong = 0, checked = 0;
  for (int i = 0; i < n; i++) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
    size_t size = 0;
    uint8_t *data = read_input(path, &size);
    sensim_status st = entry(data, size), want;
    free(data);
    if (expected_status(names[i]->d_name, &want)) {
      checked++;
      if (st != want) {
        print_error("%s/%s: status %d (%s), expected %d (%s); %s\n", corpus, names[i]->d_name, st,
                    sensim_status_str(st), want, sensim_status_str(want), sensim_last_error());
        wrong++;
      }
    }
  }
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
  print_message("%s corpus: %d inputs replayed, %d with an expected status\n", corpus, n, checked);
  assert_true(n >= min_inputs);
  assert_int_equal(wrong, 0);
}

static void test_mesh_corpus_loads_or_fails_with_its_expected_status(void **state) {
  (void)state;
  replay("mesh", sensim_fuzz_mesh, 100);
}

static void test_scenario_corpus_loads_or_fails_with_its_expected_status(void **state) {
  (void)state;
  replay("scenario", sensim_fuzz_scenario, 50);
}

static void test_nav_corpus_reads_or_fails_with_its_expected_status(void **state) {
  (void)state;
  replay("nav", sensim_fuzz_nav, 30);
}

int sensim_test_fuzz_replay(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mesh_corpus_loads_or_fails_with_its_expected_status),
      cmocka_unit_test(test_scenario_corpus_loads_or_fails_with_its_expected_status),
      cmocka_unit_test(test_nav_corpus_reads_or_fails_with_its_expected_status),
  };
  return cmocka_run_group_tests_name("fuzz_replay", tests, NULL, NULL);
}
