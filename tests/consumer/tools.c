/* tests/consumer/tools.c: the smallest complete use of an installed
 * sensim_tools, next to sensim.
 *
 * A Wasserstein distance with a known value, a failure whose message the
 * tools library sets and libsensim's sensim_last_error() returns (one
 * per-thread error across the two libraries), and a scenario edited for
 * ablation (the tools calling into libsensim's JSON reader). Prints
 * "tools: ok" and exits 0 only if all of it worked. */
#include <sensim/sensim.h>
#include <sensim_tools/sensim_tools.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  /* {1, 2} is {0, 1} shifted by 1: W1 = 1. */
  const double a[2] = {0.0, 1.0}, b[2] = {1.0, 2.0};
  double w = 0.0;
  sensim_status st = sensim_wasserstein1(a, 2, b, 2, &w);
  if (st != SENSIM_OK || fabs(w - 1.0) > 1e-12) {
    fprintf(stderr, "sensim_wasserstein1 gave %g (%s: %s), not 1\n", w, sensim_status_str(st),
            sensim_last_error());
    return 1;
  }
  if (sensim_wasserstein1(NULL, 2, b, 2, &w) != SENSIM_EINVAL || sensim_last_error()[0] == '\0') {
    fprintf(stderr, "a tools failure left no message in sensim_last_error()\n");
    return 1;
  }
  const char *scenario =
      "{\"duration\": 1, // a comment, as scenario files allow\n"
      " \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"lens\": \"fov\"}]}";
  char *edited = NULL;
  st = sensim_ablation_edit(scenario, SENSIM_ABLATE_LENS, 0, &edited, NULL, 0);
  if (st != SENSIM_OK || !edited || !strstr(edited, "pinhole")) {
    fprintf(stderr, "sensim_ablation_edit failed: %s: %s\n", sensim_status_str(st), sensim_last_error());
    free(edited);
    return 1;
  }
  free(edited);
  printf("tools: ok\n");
  return 0;
}
