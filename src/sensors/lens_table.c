/* sensors/lens_table.c: the camera's per-pixel ray table behind a public
 * handle (camera.h, "the lens as a table"). The table is the one the
 * renderer traces with (sensors/optics.c), so code outside the library that
 * remaps images through a lens (the tools library's distortion
 * augmentation) uses exactly the rays a rendered frame has. */
#include <math.h>
#include <stdlib.h>
#include "core/internal.h"
#include "sensors/optics.h"

struct sensim_lens_table {
  sensim_optics *optics;
};

sensim_status sensim_lens_table_create(const sensim_camera_params *cp, sensim_lens_table **out) {
  if (!out) return sensim__fail(SENSIM_EINVAL, "sensim_lens_table_create: NULL out");
  *out = NULL;
  if (!cp) return sensim__fail(SENSIM_EINVAL, "sensim_lens_table_create: NULL parameters");
  sensim_lens_table *t = calloc(1, sizeof *t);
  if (!t) return sensim__fail(SENSIM_ENOMEM, "lens table: out of memory");
  sensim_status st = sensim__optics_create(cp, &t->optics);
  if (st) {
    free(t);
    return st;
  }
  *out = t;
  return SENSIM_OK;
}

void sensim_lens_table_destroy(sensim_lens_table *t) {
  if (!t) return;
  sensim__optics_destroy(t->optics);
  free(t);
}

int sensim_lens_table_ray(const sensim_lens_table *t, double u, double v, int c, sensim_vec3 *dir) {
  if (!t || !dir || c < 0 || c > 2 || !isfinite(u) || !isfinite(v)) return 0;
  return sensim__optics_ray(t->optics, u, v, c, dir);
}

int sensim_lens_table_channels(const sensim_lens_table *t) {
  if (!t) return 0;
  return sensim__optics_has_ca(t->optics) ? 3 : 1;
}
