/* scene/instances.c: one mesh placed many times by one static body
 * (sensim_body_create_instances), and each placement's material variation.
 *
 * Why one body for all placements: as bodies, 100 000 trees cost 2.5 kB
 * each (an Embree instance geometry, the body record, its keyframe track,
 * snapshot and instance-list entries: docs/performance.md, "Scale"). A
 * group keeps 48 bytes of transform per placement (and 6 of ids where the
 * host gives them); the kernel traces it as one user geometry over the
 * shared mesh's BVH (rt/instances.c). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "scene/scene.h"
#include "sensim/rng.h"

/* The stream "sensor" of the variation draws: outside the range of sensor
 * ids (the runtime numbers sensors from 0), so no sensor's noise shares it. */
#define VARIATION_STREAM 0xFFFFFFFFu

void sensim_instances_desc_init(sensim_instances_desc *d) {
  if (d) memset(d, 0, sizeof *d);
}

void sensim__group_free(sensim_instance_group *g) {
  if (!g) return;
  free(g->xf);
  free(g->class_ids);
  free(g->instance_ids);
  free(g);
}

/* Factor uniform in [1 - j, 1 + j] from a 32-bit word (24 bits used, so
 * the float is exact): mean exactly 1, variance j^2 / 3. */
static float jitter(uint32_t word, float j) {
  return 1.0f + j * (2.0f * (float)(word >> 8) * (1.0f / 16777216.0f) - 1.0f);
}

void sensim__group_variation(const sensim_instance_group *g, size_t k, float albedo[3], float *reflectance) {
  albedo[0] = albedo[1] = albedo[2] = 1.0f;
  *reflectance = 1.0f;
  if (g->albedo_jitter == 0.0f && g->reflectance_jitter == 0.0f) return;
  /* One Philox block per placement, keyed by (world seed, holding body,
   * placement): the same on every thread, in every capture and sensor. */
  sensim_rng r;
  sensim_rng_init(&r, g->seed, VARIATION_STREAM, g->body_index, (uint32_t)k);
  uint32_t w[4];
  sensim_rng_fill_u32(&r, w, 4);
  for (int c = 0; c < 3; c++) albedo[c] = jitter(w[c], g->albedo_jitter);
  *reflectance = jitter(w[3], g->reflectance_jitter);
}

static sensim_status check_desc(const sensim_world *w, const sensim_instances_desc *d) {
  if (!d->mesh) return sensim__fail(SENSIM_EINVAL, "sensim_body_create_instances: mesh is NULL");
  if (d->mesh->world != w)
    return sensim__fail(SENSIM_EINVAL,
                        "sensim_body_create_instances: mesh %d (%zu triangles) belongs to another world",
                        d->mesh->index, d->mesh->ntri);
  if (d->n == 0 || d->n > SENSIM_INSTANCES_MAX)
    return sensim__fail(SENSIM_EINVAL, "sensim_body_create_instances: n = %zu placements is outside [1, %u]", d->n,
                        SENSIM_INSTANCES_MAX);
  if (!d->poses) return sensim__fail(SENSIM_EINVAL, "sensim_body_create_instances: poses is NULL");
  if (!(d->albedo_jitter >= 0.0f && d->albedo_jitter <= 0.5f))
    return sensim__fail(SENSIM_EINVAL, "sensim_body_create_instances: albedo_jitter %g is outside [0, 0.5]",
                        (double)d->albedo_jitter);
  if (!(d->reflectance_jitter >= 0.0f && d->reflectance_jitter <= 0.5f))
    return sensim__fail(SENSIM_EINVAL, "sensim_body_create_instances: reflectance_jitter %g is outside [0, 0.5]",
                        (double)d->reflectance_jitter);
  char what[96];
  for (size_t k = 0; k < d->n; k++) {
    snprintf(what, sizeof what, "sensim_body_create_instances: placement %zu", k);
    sensim_status rc = sensim__check_pose(&d->poses[k], what);
    if (!rc) rc = sensim__check_coord(d->poses[k].pos, d->mesh->radius, what);
    if (rc) return rc;
    if (d->instance_ids && d->instance_ids[k] == 0)
      return sensim__fail(SENSIM_EINVAL, "sensim_body_create_instances: placement %zu's instance id is 0 (ids start at 1)",
                          k);
  }
  if (!d->instance_ids && (uint64_t)w->next_instance_id + d->n - 1 > UINT32_MAX)
    return sensim__fail(SENSIM_EINVAL,
                        "sensim_body_create_instances: %zu new instance ids after %u would pass UINT32_MAX", d->n,
                        w->next_instance_id);
  return SENSIM_OK;
}

/* The group of d, every array copied; NULL with the error set. */
static sensim_instance_group *group_make(const sensim_world *w, const sensim_instances_desc *d) {
  sensim_instance_group *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->n = d->n;
  g->xf = malloc(d->n * sizeof *g->xf);
  if (d->class_ids && (g->class_ids = malloc(d->n * sizeof *g->class_ids)))
    memcpy(g->class_ids, d->class_ids, d->n * sizeof *g->class_ids);
  if (d->instance_ids && (g->instance_ids = malloc(d->n * sizeof *g->instance_ids)))
    memcpy(g->instance_ids, d->instance_ids, d->n * sizeof *g->instance_ids);
  if (!g->xf || (d->class_ids && !g->class_ids) || (d->instance_ids && !g->instance_ids)) {
    sensim__group_free(g);
    sensim__fail(SENSIM_ENOMEM, "out of memory for %zu placements", d->n);
    return NULL;
  }
  /* The float matrix a static body of this pose gets in the kernel
   * (rt/view.c: q_matrix_f and the translation rounded to float), so a
   * placement is traced through the same transform. */
  for (size_t k = 0; k < d->n; k++) {
    float *x = g->xf[k];
    q_matrix_f(d->poses[k].rot, x);
    x[9] = (float)d->poses[k].pos.x;
    x[10] = (float)d->poses[k].pos.y;
    x[11] = (float)d->poses[k].pos.z;
  }
  g->class_id = d->class_id;
  g->albedo_jitter = d->albedo_jitter;
  g->reflectance_jitter = d->reflectance_jitter;
  g->fast_bvh = d->fast_bvh != 0;
  g->seed = w->params.seed;
  return g;
}

sensim_status sensim_body_create_instances(sensim_world *w, const sensim_instances_desc *d, sensim_body **out) {
  if (!w || !d || !out) return sensim__fail(SENSIM_EINVAL, "sensim_body_create_instances: NULL argument");
  sensim_status rc = check_desc(w, d);
  if (rc) return rc;
  sensim_instance_group *g = group_make(w, d);
  if (!g) return SENSIM_ENOMEM;
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = d->mesh;
  bp.class_id = d->class_id;
  bp.is_static = 1;
  sensim_body *b = NULL;
  if ((rc = sensim_body_create(w, &bp, &b))) {
    sensim__group_free(g);
    return rc;
  }
  /* Ids: the body's own (never hit) is placement 0's when sensim assigns
   * them; n consecutive ids are then used. */
  if (g->instance_ids) {
    for (size_t k = 0; k < g->n; k++)
      if (g->instance_ids[k] >= w->next_instance_id && g->instance_ids[k] < UINT32_MAX)
        w->next_instance_id = g->instance_ids[k] + 1;
  } else {
    g->first_id = b->instance_id;
    w->next_instance_id = (uint32_t)((uint64_t)b->instance_id + g->n < UINT32_MAX ? b->instance_id + g->n : UINT32_MAX);
  }
  g->body_index = (uint32_t)b->index;
  b->group = g;
  sensim__body_snap_base(b, &w->snap_base[b->index]);
  *out = b;
  return SENSIM_OK;
}

size_t sensim_body_instance_count(const sensim_body *b) { return b && b->group ? b->group->n : 0; }

sensim_status sensim_body_instance_variation(const sensim_body *b, size_t k, float albedo_scale[3],
                                             float *reflectance_scale) {
  if (!b || !albedo_scale || !reflectance_scale)
    return sensim__fail(SENSIM_EINVAL, "sensim_body_instance_variation: NULL argument");
  if (!b->group) return sensim__fail(SENSIM_EINVAL, "body %d holds no placements", b->index);
  if (k >= b->group->n)
    return sensim__fail(SENSIM_EINVAL, "placement %zu is out of range (body %d holds %zu)", k, b->index, b->group->n);
  sensim__group_variation(b->group, k, albedo_scale, reflectance_scale);
  return SENSIM_OK;
}
