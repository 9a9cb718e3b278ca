/* fuzz/fuzz_scenario.c: the scenario loader on arbitrary text (fuzz/fuzz.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz/fuzz.h"
#include "sensim/sensim.h"

#ifndef SENSIM_FUZZ_BASE_DIR
#error "SENSIM_FUZZ_BASE_DIR: the folder relative mesh and texture paths resolve in"
#endif

sensim_status sensim_fuzz_scenario(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) abort();
  memcpy(text, data, size);
  text[size] = '\0';
  /* No workers: a pool per input would time thread start-up, not the
   * loader, and the loader's checks of "threads" run all the same. */
  sensim_scenario_overrides ov = {0};
  sensim_scenario *scn = NULL;
  (void)sensim_error_set(SENSIM_OK, NULL); /* so a stale message cannot pass for this load's */
  sensim_status st = sensim_scenario_load_string_ex(text, "fuzz", SENSIM_FUZZ_BASE_DIR, &ov, &scn);
  free(text);
  if (st == SENSIM_OK) {
    if (!scn || !sensim_scenario_world(scn)) sensim_fuzz_violation("success without a scenario", data, size);
  } else {
    if (st < SENSIM_EBACKEND || st > SENSIM_EINVAL)
      sensim_fuzz_violation("a status outside sensim_status", data, size);
    if (scn) sensim_fuzz_violation("a failed load left a scenario", data, size);
    if (!sensim_last_error()[0]) sensim_fuzz_violation("a failure without a message", data, size);
  }
  sensim_scenario_destroy(scn);
  return st;
}

#ifdef SENSIM_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)sensim_fuzz_scenario(data, size);
  return 0;
}
#endif
