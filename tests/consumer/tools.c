/* tests/consumer/tools.c: the smallest complete use of an installed
 * sensim_tools, next to sensim.
 *
 * A Wasserstein distance with a known value, a failure whose message the
 * tools library sets and libsensim's sensim_last_error() returns (one
 * per-thread error across the two libraries), and a scenario edited for
 * ablation (the tools calling into libsensim's JSON reader), and a plot
 * drawn and written (the tools' own dependency, cairo, which the static
 * link lines must carry), with viridis's first colour. Prints
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
  uint8_t rgb[3];
  sensim_colormap_viridis(0.0, rgb);
  if (rgb[0] != 68 || rgb[1] != 1 || rgb[2] != 84) {
    fprintf(stderr, "viridis(0) is (%d, %d, %d), not (68, 1, 84)\n", rgb[0], rgb[1], rgb[2]);
    return 1;
  }
  sensim_plot *plot = NULL;
  const double x[3] = {1, 10, 100}, y[3] = {3, 2, 1};
  const char *png = "consumer_tools_plot.png";
  st = sensim_plot_create(320, 240, "consumer", "x", "y", 1, 0, &plot);
  if (st == SENSIM_OK) st = sensim_plot_line(plot, x, y, 3, NULL);
  if (st == SENSIM_OK) st = sensim_plot_write_png(plot, png);
  sensim_plot_destroy(plot);
  FILE *fp = fopen(png, "rb");
  if (st != SENSIM_OK || !fp) {
    fprintf(stderr, "plot not written: %s: %s\n", sensim_status_str(st), sensim_last_error());
    if (fp) fclose(fp);
    return 1;
  }
  fclose(fp);
  remove(png);
  printf("tools: ok\n");
  return 0;
}
