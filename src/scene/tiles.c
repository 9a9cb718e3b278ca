/* scene/tiles.c: tiles of a large static world (sensim/tile.h): declared
 * with their bounds, read ahead on a thread when a sensor's reach grown by
 * a margin meets them (scene/tile_reader.c), made into the world's mesh
 * and body the first time the reach itself meets them, and left out of
 * captures (their body's snapshot entry without a mesh) while none does.
 * The runtime says where the sensors reach (runtime/reach.c); this file
 * decides what that means for each tile. What a capture sees depends on
 * the reach alone: a tile read ahead or not joins the scene at the same
 * advance (which waits for a read still running). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/scene.h"
#include "scene/tile_reader.h"
#include "sensim/tile.h"

struct sensim_tile {
  sensim_world *world;
  char *path;
  sensim_reach bounds;        /* declared, world, m */
  sensim_material material;
  int has_material;
  uint16_t class_id;
  sensim_tile_state state;
  int in_range;
  sensim_mesh *mesh;          /* once loaded */
  sensim_body *body;          /* once loaded: static, identity pose */
  char error[320];            /* why the load failed */
  sensim_tile_job job;        /* its file read ahead (scene/tile_reader.h) */
};

void sensim_tile_params_init(sensim_tile_params *p) {
  if (p) memset(p, 0, sizeof *p);
}

static sensim_status check_bounds(const sensim_tile_params *p) {
  static const char axis[3] = {'x', 'y', 'z'};
  for (int k = 0; k < 3; k++) {
    double a = p->bounds_min[k], b = p->bounds_max[k];
    if (!(fabs(a) <= SENSIM_COORD_MAX) || !(fabs(b) <= SENSIM_COORD_MAX))
      return sensim__fail(SENSIM_EINVAL,
                          "tile '%s': bounds %c [%g, %g] m must be finite and within SENSIM_COORD_MAX (%g m)",
                          p->path, axis[k], a, b, SENSIM_COORD_MAX);
    if (a > b)
      return sensim__fail(SENSIM_EINVAL, "tile '%s': bounds %c are inverted: min %g m > max %g m", p->path,
                          axis[k], a, b);
  }
  return SENSIM_OK;
}

sensim_status sensim_tile_add(sensim_world *w, const sensim_tile_params *p, sensim_tile **out) {
  if (!w || !p || !out) return sensim__fail(SENSIM_EINVAL, "sensim_tile_add: NULL argument");
  if (!p->path || !p->path[0]) return sensim__fail(SENSIM_EINVAL, "sensim_tile_add: the tile's path is empty");
  sensim_status rc = check_bounds(p);
  if (!rc && p->material) rc = sensim__material_check(w, p->material);
  if (!rc) rc = sensim__grow((void **)&w->tiles, &w->cap_tiles, w->ntiles + 1, sizeof *w->tiles);
  if (rc) return rc;
  sensim_tile *t = calloc(1, sizeof *t);
  char *path = sensim__strdup(p->path);
  if (!t || !path) {
    free(t);
    free(path);
    return sensim__fail(SENSIM_ENOMEM, "tile '%s': out of memory", p->path);
  }
  t->world = w;
  t->path = path;
  memcpy(t->bounds.lo, p->bounds_min, sizeof t->bounds.lo);
  memcpy(t->bounds.hi, p->bounds_max, sizeof t->bounds.hi);
  if (p->material) t->material = *p->material, t->has_material = 1;
  t->class_id = p->class_id;
  t->state = SENSIM_TILE_PENDING;
  t->job.path = t->path;
  w->tiles[w->ntiles++] = t;
  *out = t;
  return SENSIM_OK;
}

sensim_tile_state sensim_tile_state_get(const sensim_tile *t) { return t ? t->state : SENSIM_TILE_FAILED; }
int sensim_tile_in_range(const sensim_tile *t) { return t && t->in_range; }
const char *sensim_tile_error(const sensim_tile *t) { return t ? t->error : ""; }
const sensim_mesh *sensim_tile_mesh(const sensim_tile *t) { return t ? t->mesh : NULL; }

void sensim__tiles_free(sensim_world *w) {
  sensim__tile_reader_free(w->tile_reader); /* its thread stops before the jobs go */
  for (size_t i = 0; i < w->ntiles; i++) {
    sensim__mesh_import_free(w->tiles[i]->job.scene); /* read ahead, never needed */
    free(w->tiles[i]->path);
    free(w->tiles[i]);
  }
  free(w->tiles);
}

/* Read t's file into the world: its mesh, checked against the declared
 * bounds, and a static body for it. On failure the tile is FAILED with
 * the message (the error stays set for the caller). */
static sensim_status load(sensim_tile *t) {
  sensim_world *w = t->world;
  const double *lo = t->bounds.lo, *hi = t->bounds.hi;
  sensim_mesh *m = NULL;
  const struct aiScene *sc = NULL;
  sensim_status rc;
  if (t->job.state != SENSIM__TILE_JOB_IDLE && sensim__tile_reader_claim(w->tile_reader, &t->job)) {
    rc = t->job.status; /* read ahead */
    if (rc) sensim__fail(rc, "%s", t->job.error);
    sc = t->job.scene;
    t->job.scene = NULL;
  } else {
    rc = sensim__mesh_import(t->path, &sc);
  }
  if (!rc) rc = sensim__mesh_from_import(w, t->path, sc, t->has_material ? &t->material : NULL, &m);
  for (size_t v = 0; !rc && v < m->nvert; v++) {
    const float *x = m->vertices + 3 * v;
    for (int k = 0; k < 3; k++)
      if (!(x[k] >= lo[k] && x[k] <= hi[k])) {
        rc = sensim__fail(SENSIM_EINVAL,
                          "vertex %zu (%g, %g, %g) m lies outside the tile's bounds [%g, %g] x [%g, %g] x [%g, %g] m",
                          v, x[0], x[1], x[2], lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
        break;
      }
  }
  if (!rc) {
    sensim_body_params bp;
    sensim_body_params_init(&bp);
    bp.mesh = m;
    bp.class_id = t->class_id;
    bp.is_static = 1;
    rc = sensim_body_create(w, &bp, &t->body);
  }
  if (rc) {
    /* The mesh of a file read but refused stays in the world, unused. */
    sensim__error_context("tile '%s'", t->path);
    snprintf(t->error, sizeof t->error, "%s", sensim_last_error());
    t->state = SENSIM_TILE_FAILED;
    return rc;
  }
  t->mesh = m;
  t->state = SENSIM_TILE_LOADED;
  return SENSIM_OK;
}

/* Whether t's bounds meet one of the n boxes. */
static int meets_any(const sensim_tile *t, const sensim_reach *box, size_t n) {
  for (size_t r = 0; r < n; r++)
    if (sensim__reach_meets(&t->bounds, &box[r])) return 1;
  return 0;
}

sensim_status sensim__tiles_select(sensim_world *w, const sensim_reach *reach, const sensim_reach *ahead, size_t n) {
  sensim_status first = SENSIM_OK;
  char msg[sizeof ((sensim_tile *)0)->error] = "";
  for (size_t i = 0; ahead && !w->tile_read_ahead_off && i < w->ntiles; i++) {
    sensim_tile *t = w->tiles[i];
    if (t->state != SENSIM_TILE_PENDING) continue;
    const int near = meets_any(t, ahead, n);
    if (!near && t->job.state != SENSIM__TILE_JOB_IDLE) { /* passed by: its read is not kept */
      sensim__tile_reader_drop(w->tile_reader, &t->job);
      continue;
    }
    if (!near || t->job.state != SENSIM__TILE_JOB_IDLE) continue;
    if (!w->tile_reader && !(w->tile_reader = sensim__tile_reader_new())) break; /* no thread: read when needed */
    sensim__tile_reader_submit(w->tile_reader, &t->job);
  }
  for (size_t i = 0; i < w->ntiles; i++) {
    sensim_tile *t = w->tiles[i];
    int in = t->state != SENSIM_TILE_FAILED && meets_any(t, reach, n);
    if (in && t->state == SENSIM_TILE_PENDING) {
      sensim_status rc = load(t);
      if (rc && !first) first = rc, snprintf(msg, sizeof msg, "%s", t->error);
      in = !rc;
    }
    t->in_range = in;
    if (t->body) w->snap_base[t->body->index].mesh = in ? t->mesh : NULL;
  }
  if (first) sensim__fail(first, "%s", msg); /* the first failure's message, whatever came after */
  return first;
}
