/* tests/io/payload_formats.c: the output formats the payload table names
 * (core/payload.h) are formats the scenario loader writes.
 *
 * The table names them as text so that core need not know io's writers; a
 * misspelt name would silently turn a format off for its payload, or a
 * payload's default output into "none". */
#include <string.h>
#include "core/payload.h"
#include "io/scenario_internal.h"
#include "support/testutil.h"

static void test_every_format_the_payload_table_names_is_known_to_the_loader(void **state) {
  (void)state;
  for (int t = SENSIM_PAYLOAD_NONE; t <= SENSIM_PAYLOAD_ANY; t++) {
    const sensim__payload_desc *d = sensim__payload_desc_of((sensim_payload)t);
    assert_non_null(d);
    sensim__out_format f;
    for (const char *const *name = d->formats; name && *name; name++)
      if (!sensim__out_format_from_name(*name, &f))
        fail_msg("%s names output format '%s', which the scenario loader does not know", d->name,
                 *name);
    if (d->default_output && !sensim__out_format_from_name(d->default_output, &f))
      fail_msg("%s: default output '%s' is not a scenario format", d->name, d->default_output);
  }
  sensim__out_format f = SENSIM__OUT_PNG;
  assert_true(sensim__out_format_from_name("nmea", &f) && f == SENSIM__OUT_NMEA);
  assert_true(sensim__out_format_from_name("none", &f) && f == SENSIM__OUT_NONE);
  assert_false(sensim__out_format_from_name("jpeg", &f));
  assert_false(sensim__out_format_from_name(NULL, &f));
  assert_int_equal(f, SENSIM__OUT_NONE);
}

int sensim_test_payload_formats(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_format_the_payload_table_names_is_known_to_the_loader),
  };
  return cmocka_run_group_tests_name("payload_formats", tests, NULL, NULL);
}
