/* io/scenario_tiles.c: a scenario's "tiles" (sensim/tile.h): each a mesh
 * file (relative to the scenario's folder) and the box its geometry lies
 * in, declared when the scenario loads and read while it runs, the first
 * time a sensor's reach meets it (docs/scenario.md, "Tiles"). */
#include <stdlib.h>
#include "core/internal.h"
#include "io/scenario_internal.h"
#include "sensim/tile.h"

static sensim_status parse_tile(sensim_world *w, const cJSON *obj, const char *path, const char *base_dir) {
  static const char *const keys[] = {"file", "bounds", "class_id", NULL};
  const char *file = NULL;
  double bounds[6] = {0, 0, 0, 0, 0, 0}, cls = 0;
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "file", 1, &file);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "bounds", 1, 6, bounds);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "class_id", 0, 0, 65535, &cls);
  if (st != SENSIM_OK) return st;
  char *full = sensim__scenario_resolve(base_dir, file);
  if (!full) return sensim__fail(SENSIM_ENOMEM, "%s.file: out of memory", path);
  sensim_tile_params tp;
  sensim_tile_params_init(&tp);
  tp.path = full;
  for (int k = 0; k < 3; k++) tp.bounds_min[k] = bounds[k], tp.bounds_max[k] = bounds[3 + k];
  tp.class_id = (uint16_t)cls;
  sensim_tile *t = NULL;
  st = sensim_tile_add(w, &tp, &t); /* copies the path */
  free(full);
  if (st != SENSIM_OK) sensim__error_context("%s", path);
  return st;
}

sensim_status sensim__scenario_tiles(sensim_scenario *scn, const cJSON *arr, const char *base_dir) {
  size_t i = 0;
  for (const cJSON *e = arr->child; e; e = e->next, i++) {
    char path[64];
    sensim__jpath_index(path, sizeof path, "tiles", i);
    sensim_status st = parse_tile(scn->world, e, path, base_dir);
    if (st != SENSIM_OK) return st;
  }
  return SENSIM_OK;
}
