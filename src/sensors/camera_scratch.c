/* sensors/camera_scratch.c: the camera's render scratch, kept between
 * frames. Bands of one frame, and frames of one camera rendered at once,
 * each take their own set; a set is sized for the camera (4 rows x width x
 * samples), which never changes, so a set once made serves every later
 * band. */
#include <stdatomic.h>
#include <stdlib.h>
#include "core/internal.h"
#include "scene/scene.h"
#include "sensors/camera_internal.h"
#include "sensors/shading.h"

static void scratch_free(sensim_camera_scratch *s) {
  free(s->col);
  free(s->uvoff);
  free(s->lens);
  free(s->t);
  free(s->pose);
  free(s->axial);
  free(s->hit_t);
  free(s->hit_n);
  free(s->hit_body);
  free(s->hit_elem);
  free(s->words);
  free(s->bodies);
  free(s->cur.ray);
  free(s->next.ray);
  free(s);
}

static sensim_status scratch_new(const sensim_camera *c, sensim_camera_scratch **out);

static void scratch_free_any(void *s) { scratch_free(s); }

sensim_status sensim__camera_scratch_take(sensim_camera *c, sensim_camera_scratch **out) {
  *out = sensim__stash_take(&c->scratch);
  if (*out) return SENSIM_OK;
  sensim_status rc = scratch_new(c, out);
  if (!rc) atomic_fetch_add(&c->scratch_made, 1);
  return rc;
}

static sensim_status bodies_reserve(sensim_camera_scratch *s, size_t n);

sensim_status sensim__camera_scratch_reserve(sensim_camera *c, size_t n, size_t nbodies) {
  for (size_t made = atomic_load(&c->scratch_made); made < n; made = atomic_load(&c->scratch_made)) {
    if (!atomic_compare_exchange_weak(&c->scratch_made, &made, made + 1)) continue;
    sensim_camera_scratch *s;
    sensim_status rc = scratch_new(c, &s);
    if (!rc && (rc = bodies_reserve(s, nbodies))) scratch_free(s); /* any set may hold a frame's table */
    if (rc) {
      atomic_fetch_sub(&c->scratch_made, 1);
      return rc;
    }
    sensim__camera_scratch_give(c, s);
  }
  return SENSIM_OK;
}

static sensim_status scratch_new(const sensim_camera *c, sensim_camera_scratch **out) {
  sensim_camera_scratch *s;
  const size_t n = (size_t)4 * c->p.width * (size_t)c->p.samples;
  s = calloc(1, sizeof *s);
  if (!s) return sensim__fail(SENSIM_ENOMEM, "out of memory for camera scratch");
  s->col = malloc(n * sizeof *s->col);
  s->uvoff = malloc(n * sizeof *s->uvoff);
  s->lens = c->dof_radius > 0 ? malloc(n * sizeof *s->lens) : NULL;
  s->t = malloc(n * sizeof *s->t);
  s->pose = malloc(n * sizeof *s->pose);
  s->axial = malloc(n * sizeof *s->axial);
  s->hit_t = malloc(n * sizeof *s->hit_t);
  s->hit_n = malloc(n * sizeof *s->hit_n);
  s->hit_body = malloc(n * sizeof *s->hit_body);
  s->hit_elem = malloc(n * sizeof *s->hit_elem);
  s->words = malloc(5 * (n / 4) * sizeof *s->words);
  if (!s->col || !s->uvoff || (c->dof_radius > 0 && !s->lens) || !s->t || !s->pose || !s->axial || !s->hit_t || !s->hit_n || !s->hit_body || !s->hit_elem || !s->words) {
    scratch_free(s);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for the scratch of %zu camera samples", n);
  }
  *out = s;
  return SENSIM_OK;
}

void sensim__camera_scratch_give(sensim_camera *c, sensim_camera_scratch *s) {
  if (sensim__stash_give(&c->scratch, s)) return;
  scratch_free(s);
  atomic_fetch_sub(&c->scratch_made, 1);
}

void sensim__camera_scratch_free_all(sensim_camera *c) { sensim__stash_destroy(&c->scratch, scratch_free_any); }

/* Room for n bodies in s's body table. */
static sensim_status bodies_reserve(sensim_camera_scratch *s, size_t n) {
  if (n <= s->cap_bodies) return SENSIM_OK;
  sensim_camera_body *b = realloc(s->bodies, n * sizeof *b);
  if (!b) return sensim__fail(SENSIM_ENOMEM, "out of memory for %zu camera bodies", n);
  s->bodies = b;
  s->cap_bodies = n;
  return SENSIM_OK;
}

sensim_status sensim__camera_scratch_bodies(sensim_camera_scratch *s, const sensim_snapshot *snap) {
  sensim_status rc = bodies_reserve(s, snap->nbodies);
  if (rc) return rc;
  for (size_t i = 0; i < snap->nbodies; i++) {
    const sensim_body_snap *bs = &snap->bodies[i];
    sensim_camera_body *cb = &s->bodies[i];
    cb->class_id = bs->class_id;
    cb->instance_id = bs->instance_id;
    cb->group = bs->group;
    if (!bs->mesh) { /* never hit: it has no geometry */
      cb->base[0] = cb->base[1] = cb->base[2] = 0.0f;
      cb->rough = 1.0f, cb->metal = 0.0f, cb->textured = 0;
      cb->emission[0] = cb->emission[1] = cb->emission[2] = 0.0f;
      cb->specular = 0.0f, cb->ior = 1.0f, cb->transmission = 0.0f, cb->thin_walled = 0;
      continue;
    }
    const sensim_material *m = &bs->mesh->material;
    for (int c = 0; c < 3; c++) cb->base[c] = m->base_color[c];
    cb->rough = m->roughness, cb->metal = m->metallic;
    cb->textured = sensim__surface_varies(bs->mesh);
    for (int c = 0; c < 3; c++) cb->emission[c] = m->emission[c];
    cb->specular = m->specular, cb->ior = m->ior, cb->transmission = m->transmission;
    cb->thin_walled = m->thin_walled;
  }
  return SENSIM_OK;
}
