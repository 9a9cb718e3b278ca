/* tests/vepd/doc_variants_tests.c: docs/gnss.md's table of the study's
 * five variants is the experiment's own (sensim_vepd_experiment_params_init):
 * the same names, chains and parameters, so the page cannot drift from
 * what `sensim vepd-experiment` runs. */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include <sensim_tools/sensim_tools.h>
#include "support/testutil.h"
#include "vepd/vepd_groups.h"

#define GNSS_DOC SENSIM_TEST_DATA "/../../docs/gnss.md"

/* Row k of the table: "| k name (`code`) | `[...]` |". The code name and
 * the filters array (parsed) of the row, or fail. */
static cJSON *doc_row(const char *doc, int k, char *code, size_t n) {
  char head[8];
  snprintf(head, sizeof head, "\n| %d ", k);
  const char *row = strstr(doc, head);
  if (!row) fail_msg("docs/gnss.md: no variant row %d", k);
  const char *end = strchr(row + 1, '\n');
  const char *c = strstr(row, "(`");
  if (!c || c > end) fail_msg("docs/gnss.md: row %d names no variant (`name`)", k);
  size_t len = strcspn(c + 2, "`");
  snprintf(code, n, "%.*s", (int)len, c + 2);
  const char *a = strstr(c + 2 + len, "`[");
  if (!a || a > end) fail_msg("docs/gnss.md: row %d has no filters array", k);
  size_t alen = strcspn(a + 1, "`");
  char *text = malloc(alen + 1);
  memcpy(text, a + 1, alen);
  text[alen] = '\0';
  cJSON *arr = cJSON_Parse(text);
  if (!arr || !cJSON_IsArray(arr)) fail_msg("docs/gnss.md: row %d: '%s' is not a JSON array", k, text);
  free(text);
  return arr;
}

static void test_gnss_doc_variants_are_the_experiments(void **state) {
  (void)state;
  char *doc = test_slurp(GNSS_DOC, NULL);
  sensim_vepd_experiment_params p;
  sensim_vepd_experiment_params_init(&p);
  assert_int_equal(p.nvariants, 5);
  /* The paper's IMU rate and entropy (issue 28). */
  assert_true(p.imu_rate == 100.0);
  assert_int_equal(p.entropy_bins, SENSIM_ENTROPY_ALL_BINS);
  for (size_t v = 0; v < p.nvariants; v++) {
    char code[64];
    cJSON *arr = doc_row(doc, (int)v + 1, code, sizeof code);
    const sensim_vepd_variant *var = &p.variants[v];
    assert_string_equal(code, var->name);
    if ((size_t)cJSON_GetArraySize(arr) != var->nfilters)
      fail_msg("docs/gnss.md: %s has %d filters, the experiment %zu", code, cJSON_GetArraySize(arr),
               var->nfilters);
    for (size_t f = 0; f < var->nfilters; f++) {
      const cJSON *e = cJSON_GetArrayItem(arr, (int)f);
      const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
      const cJSON *params = cJSON_GetObjectItemCaseSensitive(e, "params");
      assert_true(cJSON_IsString(name));
      assert_string_equal(name->valuestring, var->filters[f]);
      cJSON *want = var->params[f] ? cJSON_Parse(var->params[f]) : NULL;
      if ((want == NULL) != (params == NULL) || (want && !cJSON_Compare(want, params, 1)))
        fail_msg("docs/gnss.md: %s filter %zu params differ from the experiment's %s", code, f,
                 var->params[f] ? var->params[f] : "(none)");
      cJSON_Delete(want);
    }
    cJSON_Delete(arr);
  }
  free(doc);
}

int sensim_test_vepd_doc_variants(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gnss_doc_variants_are_the_experiments),
  };
  return cmocka_run_group_tests_name("vepd_doc_variants", tests, NULL, NULL);
}
