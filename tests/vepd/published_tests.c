/* tests/vepd/published_tests.c: the VEPD paper's record
 * (sensim_published_vepd, tools/published.c), which `sensim
 * vepd-experiment` prints beside its own numbers. The expected words are
 * typed here from the paper's abstract (arXiv:2403.11000v1), apart from
 * the record, so a record that drifts from the paper fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sensim_tools/sensim_tools.h>
#include "support/testutil.h"
#include "vepd/vepd_groups.h"

#define TMP SENSIM_TEST_TMP "/vepd_published"

/* Some claim of p holds `what`. */
static int claims_hold(const sensim_published *p, const char *what) {
  for (size_t i = 0; i < p->nclaims; i++)
    if (strstr(p->claims[i], what)) return 1;
  return 0;
}

static void test_vepd_record_is_the_papers_abstract(void **state) {
  (void)state;
  const sensim_published *p = sensim_published_vepd();
  assert_non_null(p);
  assert_non_null(strstr(p->cite, "Mahajan"));
  assert_non_null(strstr(p->cite, "Quantifying the Sim2real Gap for GPS and IMU Sensors"));
  assert_non_null(strstr(p->cite, "arXiv:2403.11000"));
  assert_non_null(strstr(p->cite, "2024"));
  /* Abstract: "we conduct 40 real-world experiments across diverse
   * environments then replicate the experiments in simulation with five
   * distinct sensor noise models". */
  assert_true(claims_hold(p, "40 real-world experiments"));
  assert_true(claims_hold(p, "five distinct sensor noise models"));
  assert_true(claims_hold(p, "fails to quantify the sim2real gap"));
  assert_true(claims_hold(p, "open-source"));
  /* The results tables were not read, and the record says so: no number
   * of the paper's results, no per-model entry. */
  assert_non_null(p->unread);
  assert_non_null(strstr(p->unread, "VEPD, W1 and W2"));
  assert_non_null(strstr(p->unread, "Section I"));
  assert_int_equal(p->nvariants, 0);
  assert_null(sensim_published_variant_of(p, "gauss"));
  assert_non_null(strstr(p->differs, "real drives"));
  assert_non_null(strstr(p->differs, "sensim's own EKF"));
}

/* The printed block carries every field, indented as asked; bad
 * arguments are refused. */
static void test_published_print_writes_every_field(void **state) {
  (void)state;
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP));
  FILE *fp = fopen(TMP "/block.txt", "w+");
  assert_non_null(fp);
  const sensim_published *p = sensim_published_vepd();
  SENSIM_OK_OR_FAIL(sensim_published_print(fp, p, "# "));
  fclose(fp);
  char *text = test_slurp(TMP "/block.txt", NULL);
  assert_non_null(strstr(text, "# beside the paper: I. Mahajan et al."));
  assert_non_null(strstr(text, "#   not printed: "));
  for (size_t i = 0; i < p->nclaims; i++) assert_non_null(strstr(text, p->claims[i]));
  assert_non_null(strstr(text, p->differs));
  for (const char *l = text; *l; l = strchr(l, '\n') + 1) {
    assert_memory_equal(l, "# ", 2);
    if (!strchr(l, '\n')) break;
  }
  free(text);
  assert_int_equal(sensim_published_print(NULL, p, NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_published_print(stdout, NULL, NULL), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "NULL"));
}

int sensim_test_vepd_published(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vepd_record_is_the_papers_abstract),
      cmocka_unit_test(test_published_print_writes_every_field),
  };
  return cmocka_run_group_tests_name("vepd_published", tests, NULL, NULL);
}
