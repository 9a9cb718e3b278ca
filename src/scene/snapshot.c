/* scene/snapshot.c: immutable copies of the world for capture jobs. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/scene.h"

/* The keyframes of `tr` that cover [t0, t1]: those inside, plus the last one
 * before t0 and the first one after t1, as [*first, *first + *n). */
void sensim__track_window(const sensim_track *tr, double t0, double t1, size_t *first, size_t *n) {
  /* Binary searches (times increase strictly): a town's 10 000 cars hold
   * 10-70 keyframes each, and a snapshot looks up every car's window. */
  const sensim_keyframe *k = tr->k;
  size_t nk = tr->n, lo = 1, hi = nk;
  while (lo < hi) { /* a + 1: the first keyframe after t0, from index 1 */
    size_t mid = lo + (hi - lo) / 2;
    if (k[mid].t <= t0) lo = mid + 1;
    else hi = mid;
  }
  size_t a = nk ? lo - 1 : 0;
  lo = a, hi = nk ? nk - 1 : 0;
  while (lo < hi) { /* b: the first from a at or after t1, else the last */
    size_t mid = lo + (hi - lo) / 2;
    if (k[mid].t < t1) lo = mid + 1;
    else hi = mid;
  }
  *first = a;
  *n = nk ? lo - a + 1 : 0;
}

/* Round up to the alignment of any object, so each part of the single
 * block starts aligned. */
static size_t aligned(size_t n) {
  const size_t al = _Alignof(max_align_t);
  return (n + al - 1) / al * al;
}

void sensim__body_snap_base(const sensim_body *b, sensim_body_snap *out) {
  out->mesh = b->mesh;
  out->body_index = b->index;
  out->class_id = b->class_id;
  out->instance_id = b->instance_id;
  out->is_static = b->is_static;
  /* A static body stands where it was created; one that was destroyed
   * (made static) has no mesh and is never traced, so its pose is never
   * read. */
  out->pose = b->pose0;
  /* A static track is one keyframe, whatever the window. */
  out->k = b->is_static ? b->track.k : NULL;
  out->nk = b->is_static ? b->track.n : 0;
  out->nvk = out->nvert = 0; /* a deforming body's vertices are copied per snapshot */
  out->vk_t = NULL;
  out->vk_v = NULL;
  out->group = b->group;
}

/* One allocation holds the snapshot, its body table, its lights and every
 * copied keyframe: a capture job costs one malloc and one free here, not one
 * per body (a town of 1 900 bodies made this a visible share of a lidar
 * capture). The body table starts as a copy of the world's snap_base;
 * then the dynamic bodies' keyframes over the window are copied in (two
 * passes: count, then copy).
 *
 * A static body's keyframes are not copied: the snapshot points at the
 * world's. They never change while the world lives (pushes to a static
 * body are refused, reset leaves static bodies alone, and
 * sensim_body_destroy does not touch a static body's track), and a capture
 * job never outlives the world (sensors, and with them their jobs, go
 * first in sensim_world_destroy). A town's buildings then cost one copy of
 * their table entries here per capture. */
/* Whether dynamic body b, whose window keyframes are k[0 .. n), is left
 * out of a snapshot with reach r (NULL: everywhere). A deforming body's
 * vertices are not bound by its mesh's radius: always kept. */
static int beyond(const sensim_body *b, const sensim_keyframe *k, size_t n, const sensim_reach *r) {
  if (!r || isinf(r->lo[0]) || !b->mesh || b->deform.n || !n) return 0;
  sensim_reach box;
  sensim__keys_box(k, n, b->mesh->radius, &box);
  return !sensim__reach_meets(&box, r);
}

sensim_status sensim__snapshot_take_into(sensim_world *w, double t0, double t1, int all, int only,
                                         const sensim_reach *reach, void **reuse, size_t *reuse_cap,
                                         sensim_snapshot **out) {
  size_t nb = w->nbodies, nl = w->nlights, nk = 0, nvk = 0, nvf = 0;
  /* Each dynamic body's window and whether it is left out, found once here
   * and read by the copy below: with 10 000 cars both are passes over
   * megabytes of keyframes. */
  if (sensim__grow((void **)&w->snap_win, &w->cap_snap_win, 2 * w->ndynamic + 2, sizeof *w->snap_win))
    return sensim__fail(SENSIM_ENOMEM, "out of memory for a snapshot of %zu moving bodies", w->ndynamic);
  for (size_t d = 0; d < w->ndynamic; d++) {
    const size_t i = w->dynamic[d];
    size_t *win = &w->snap_win[2 * d];
    win[0] = SIZE_MAX;
    if (!all && (int)i != only) continue;
    size_t first, n;
    sensim__track_window(&w->bodies[i]->track, t0, t1, &first, &n);
    if ((int)i != only && beyond(w->bodies[i], w->bodies[i]->track.k + first, n, reach)) continue;
    win[0] = first, win[1] = n;
    nk += n;
    const sensim_vtrack *vt = &w->bodies[i]->deform;
    if (all && vt->n) { /* a deforming body's vertices: only geometry needs them */
      sensim__vtrack_window(vt, t0, t1, &first, &n);
      nvk += n;
      nvf += n * 3 * vt->nvert;
    }
  }
  size_t off_bodies = aligned(sizeof(sensim_snapshot));
  size_t off_lights = off_bodies + aligned(nb * sizeof(sensim_body_snap));
  size_t off_keys = off_lights + aligned(nl * sizeof(sensim_light));
  if (nk > (SIZE_MAX - off_keys) / sizeof(sensim_keyframe) / 2)
    return sensim__fail(SENSIM_ENOMEM, "snapshot of %zu keyframes is too large", nk);
  size_t off_vt = off_keys + aligned(nk * sizeof(sensim_keyframe));
  size_t off_vv = off_vt + aligned(nvk * sizeof(double));
  size_t bytes = off_vv + nvf * sizeof(float);
  unsigned char *block = *reuse;
  if (!block || *reuse_cap < bytes) {
    /* Room for some growth (bodies added, more keyframes in a window), so
     * a world that changes a little does not reallocate every capture. */
    size_t want = bytes <= SIZE_MAX / 2 ? bytes + bytes / 4 : bytes;
    block = malloc(want);
    if (!block)
      return sensim__fail(SENSIM_ENOMEM, "out of memory for a snapshot of %zu keyframes", nk);
    free(*reuse);
    *reuse = block;
    *reuse_cap = want;
  }
  sensim_snapshot *s = (sensim_snapshot *)block;
  s->t0 = t0;
  s->t1 = t1;
  if (reach) s->reach = *reach;
  else sensim__reach_everywhere(&s->reach);
  s->params = w->params;
  s->nbodies = nb;
  s->bodies = (sensim_body_snap *)(block + off_bodies);
  s->nlights = nl;
  s->env = w->env;
  s->lights = (sensim_light *)(block + off_lights);
  if (nl) memcpy(s->lights, w->lights, nl * sizeof *s->lights);
  if (nb) memcpy(s->bodies, w->snap_base, nb * sizeof *s->bodies);
  sensim_keyframe *keys = (sensim_keyframe *)(block + off_keys);
  for (size_t d = 0; d < w->ndynamic; d++) {
    const size_t i = w->dynamic[d];
    if (!all && (int)i != only) continue;
    const sensim_body *b = w->bodies[i];
    const size_t first = w->snap_win[2 * d], n = w->snap_win[2 * d + 1];
    if (first == SIZE_MAX) {
      s->bodies[i].mesh = NULL; /* out of the capture's scene */
      continue;
    }
    if (n == 0) continue;
    s->bodies[i].k = keys;
    s->bodies[i].nk = n;
    memcpy(keys, b->track.k + first, n * sizeof *keys);
    keys += n;
  }
  double *vts = (double *)(block + off_vt);
  float *vvs = (float *)(block + off_vv);
  for (size_t d = 0; all && nvk && d < w->ndynamic; d++) {
    const size_t i = w->dynamic[d];
    const sensim_vtrack *vt = &w->bodies[i]->deform;
    if (!vt->n) continue;
    size_t first, n;
    sensim__vtrack_window(vt, t0, t1, &first, &n);
    s->bodies[i].nvk = n;
    s->bodies[i].nvert = vt->nvert;
    s->bodies[i].vk_t = vts;
    s->bodies[i].vk_v = vvs;
    memcpy(vts, vt->t + first, n * sizeof *vts);
    memcpy(vvs, vt->v + first * 3 * vt->nvert, n * 3 * vt->nvert * sizeof *vvs);
    vts += n;
    vvs += n * 3 * vt->nvert;
  }
  *out = s;
  return SENSIM_OK;
}

sensim_status sensim__snapshot_take(sensim_world *w, double t0, double t1, int all, int only,
                                    sensim_snapshot **out) {
  void *block = NULL;
  size_t cap = 0;
  return sensim__snapshot_take_into(w, t0, t1, all, only, NULL, &block, &cap, out);
}

void sensim__snapshot_free(sensim_snapshot *s) {
  free(s); /* the single block of sensim__snapshot_take */
}

void sensim__snap_state_at(const sensim_snapshot *s, size_t i, double t, sensim_body_state *out) {
  const sensim_body_snap *b = &s->bodies[i];
  sensim__track_state_at(b->k, b->nk, t, out);
}
