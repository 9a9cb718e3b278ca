/* tests/io/scenario_fixtures.h: what the scenario loader's test groups
 * share (tests/io/scenario_*_tests.c): the scratch folder, the table of
 * bad inputs with their expected codes and messages, and small file
 * readers. */
#ifndef SENSIM_TESTS_SCENARIO_FIXTURES_H
#define SENSIM_TESTS_SCENARIO_FIXTURES_H

#include <stdint.h>
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/scenario"
#define EXAMPLES SENSIM_TEST_DATA "/../../examples"
#define PI 3.14159265358979323846

/* A scenario text that must fail with `code` and a message containing
 * `message`. */
typedef struct bad_case {
  const char *json;
  sensim_status code;
  const char *message; /* must appear in sensim_last_error() */
} bad_case;

/* One sensor entry in a world with no worker threads. */
#define CAM_WRAP(body) "{\"duration\": 1, \"world\": {\"threads\": 0}, \"sensors\": [" body "]}"

/* Load each case's text (base_dir as given) and fail unless it returns the
 * case's code with its message and leaves the out-pointer NULL. */
void scenario_expect_bad_cases(const bad_case *cases, size_t n, const char *base_dir);
/* Group setup: make the scratch folder. */
int scenario_setup(void **state);
/* Newlines in s. */
int scenario_count_lines(const char *s);
/* Width and height from a PNG's IHDR (bytes 16..23, big-endian). */
void scenario_png_size(const char *path, uint32_t *w, uint32_t *h);

#endif
