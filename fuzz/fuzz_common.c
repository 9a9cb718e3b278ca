/* fuzz/fuzz_common.c: what both fuzzing entry points share (fuzz/fuzz.h). */
#include <stdio.h>
#include <stdlib.h>
#include "fuzz/fuzz.h"
#include "sensim/sensim.h"

void sensim_fuzz_violation(const char *what, const uint8_t *data, size_t size) {
  (void)data;
  fprintf(stderr, "sensim fuzz: %s (input of %zu bytes; last error: %s)\n", what, size, sensim_last_error());
  abort(); /* libFuzzer saves the input; the replay test fails */
}
