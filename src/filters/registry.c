/* filters/registry.c: the table of built-in filters, by name. Each filter
 * lives in its own file and exports one sensim_builtin_filter. */
#include <string.h>
#include "filters/chain.h"

extern const sensim_builtin_filter sensim__filter_srgb8;
extern const sensim_builtin_filter sensim__filter_depth;
extern const sensim_builtin_filter sensim__filter_labels;
extern const sensim_builtin_filter sensim__filter_image_noise;
extern const sensim_builtin_filter sensim__filter_points;
extern const sensim_builtin_filter sensim__filter_range_noise;
extern const sensim_builtin_filter sensim__filter_gnss_noise;
extern const sensim_builtin_filter sensim__filter_imu_noise;

static const sensim_builtin_filter *const builtins[] = {
    &sensim__filter_srgb8,  &sensim__filter_depth,       &sensim__filter_labels,
    &sensim__filter_image_noise, &sensim__filter_points, &sensim__filter_range_noise,
    &sensim__filter_gnss_noise, &sensim__filter_imu_noise};

#define NBUILTINS (sizeof builtins / sizeof builtins[0])

const sensim_builtin_filter *sensim__filter_find(const char *name) {
  for (size_t i = 0; i < NBUILTINS; i++)
    if (strcmp(builtins[i]->def.name, name) == 0) return builtins[i];
  return NULL;
}

const char *const *sensim_filter_names(void) {
  static const char *names[NBUILTINS + 1];
  /* Filled on each call from the constant table: idempotent, so concurrent
   * callers write the same values. */
  for (size_t i = 0; i < NBUILTINS; i++) names[i] = builtins[i]->def.name;
  names[NBUILTINS] = NULL;
  return names;
}
