/* tests/support/filter_harness.h: calling a built-in filter's create and
 * apply directly on hand-made frames (the filter test groups share it). */
#ifndef SENSIM_TESTS_FILTER_HARNESS_H
#define SENSIM_TESTS_FILTER_HARNESS_H

#include "filters/chain.h"
#include "support/testutil.h"

/* The world seed filters see through the harness. */
#define SEED 771u

sensim_status fh_try_create(const sensim_builtin_filter *b, const char *json, void **user);
void *fh_make(const sensim_builtin_filter *b, const char *json);
void fh_drop(const sensim_builtin_filter *b, void *user);
void fh_expect_refused(const sensim_builtin_filter *b, const char *json, sensim_status code, const char *needle);
sensim_exposure_state *fh_exposure(void);
sensim_status fh_apply(const sensim_builtin_filter *b, void *user, sensim_frame *f);
void fh_run_ok(const sensim_builtin_filter *b, const char *json, sensim_frame *f);
sensim_frame fh_new_frame(sensim_payload type, uint32_t w, uint32_t h);

#endif
