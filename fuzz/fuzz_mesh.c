/* fuzz/fuzz_mesh.c: sensim_mesh_load on arbitrary bytes (fuzz/fuzz.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz/fuzz.h"
#include "scene/scene.h"
#include "sensim/sensim.h"

/* One scratch folder per process, removed at exit: the harness runs in
 * parallel fuzzing jobs and test binaries at once. */
static char scratch[256];

static void remove_scratch(void) {
  if (scratch[0]) rmdir(scratch);
}

static const char *scratch_dir(void) {
  if (scratch[0]) return scratch;
  const char *tmp = getenv("TMPDIR");
  snprintf(scratch, sizeof scratch, "%s/sensim_fuzz_mesh_XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(scratch)) {
    perror("sensim_fuzz_mesh: mkdtemp");
    abort(); /* the harness cannot run at all; not a finding */
  }
  atexit(remove_scratch);
  return scratch;
}

static const char *extension(uint8_t b) {
  static const char *const ext[] = {"obj", "ply", "stl", "gltf", "glb"};
  switch (b) {
    case 'o': return "obj";
    case 'p': return "ply";
    case 's': return "stl";
    case 'g': return "gltf";
    case 'b': return "glb";
    default: return ext[b % 5];
  }
}

/* What a loaded mesh must hold whatever the file said. */
static int mesh_sound(const sensim_mesh *m) {
  if (!m || m->ntri == 0 || m->nvert < 3) return 0;
  for (size_t i = 0; i < 3 * m->nvert; i++)
    if (!isfinite(m->vertices[i])) return 0;
  for (size_t i = 0; i < 3 * m->ntri; i++)
    if (m->indices[i] >= m->nvert) return 0;
  return 1;
}

sensim_status sensim_fuzz_mesh(const uint8_t *data, size_t size) {
  if (size == 0) return SENSIM_OK;
  char path[512];
  snprintf(path, sizeof path, "%s/input.%s", scratch_dir(), extension(data[0]));
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data + 1, 1, size - 1, f) != size - 1 || fclose(f) != 0) {
    perror("sensim_fuzz_mesh: writing the input");
    abort();
  }
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = 0;
  sensim_world *w = NULL;
  if (sensim_world_create(&p, &w) != SENSIM_OK) abort();
  sensim_mesh *m = NULL;
  (void)sensim_error_set(SENSIM_OK, NULL); /* so a stale message cannot pass for this load's */
  sensim_status st = sensim_mesh_load(w, path, NULL, &m);
  if (st == SENSIM_OK) {
    if (w->nmeshes != 1 || !mesh_sound(m)) sensim_fuzz_violation("loaded mesh is not sound", data, size);
  } else {
    /* Malformed (EPARSE), too large (ENOMEM), or well formed with
     * geometry outside the world's domain (EINVAL: a vertex beyond
     * SENSIM_COORD_MAX). */
    if (st != SENSIM_EPARSE && st != SENSIM_ENOMEM && st != SENSIM_EINVAL)
      sensim_fuzz_violation("a broken file gave neither SENSIM_EPARSE, SENSIM_ENOMEM nor SENSIM_EINVAL", data,
                            size);
    if (w->nmeshes != 0 || m != NULL) sensim_fuzz_violation("a failed load changed the world", data, size);
    if (!strstr(sensim_last_error(), path))
      sensim_fuzz_violation("the error message does not name the file", data, size);
  }
  sensim_world_destroy(w);
  remove(path);
  return st;
}

#ifdef SENSIM_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)sensim_fuzz_mesh(data, size);
  return 0;
}
#endif
