/* tests/io/scenario_fixtures.c: the scenario groups' shared helpers
 * (scenario_fixtures.h). */
#include <stdio.h>
#include <string.h>
#include "io/scenario_fixtures.h"

int scenario_setup(void **state) {
  (void)state;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

int scenario_count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

void scenario_png_size(const char *path, uint32_t *w, uint32_t *h) {
  unsigned char b[24];
  FILE *fp = fopen(path, "rb");
  if (!fp) fail_msg("cannot open %s", path);
  assert_int_equal(fread(b, 1, 24, fp), 24);
  fclose(fp);
  *w = (uint32_t)b[16] << 24 | (uint32_t)b[17] << 16 | (uint32_t)b[18] << 8 | b[19];
  *h = (uint32_t)b[20] << 24 | (uint32_t)b[21] << 16 | (uint32_t)b[22] << 8 | b[23];
}

void scenario_expect_bad_cases(const bad_case *cases, size_t n, const char *base_dir) {
  for (size_t i = 0; i < n; i++) {
    const bad_case *c = &cases[i];
    sensim_scenario *scn = (sensim_scenario *)&scn; /* must be reset to NULL */
    sensim_status st = sensim_scenario_load_string(c->json, base_dir, &scn);
    if (st != c->code || !strstr(sensim_last_error(), c->message))
      fail_msg("case %zu: got %d '%s', expected %d containing '%s'", i, st, sensim_last_error(), c->code,
               c->message);
    assert_null(scn);
  }
}
