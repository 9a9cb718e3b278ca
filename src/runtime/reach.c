/* runtime/reach.c: where a sensor's rays can reach, as a box of world
 * space: the box of the sensor's positions over its carrier's keyframes,
 * grown by the kind's reach (a lidar's max_range). Positions between
 * keyframes are linear blends of theirs (scene/track.c), so they stay in
 * the keyframes' box; the mount's offset turns with the carrier, so the
 * box grows by its length instead. A capture's box (set on its snapshot)
 * lets the kernel leave out moving bodies beyond it (rt/view.c); the
 * boxes of every sensor at an advance choose the tiles in the scene
 * (scene/tiles.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "runtime/runtime_internal.h"

/* Float rounding of a ray's reach (tfar is binary32: relative 2^-24) and
 * of its origin, kept on the safe side. */
#define REACH_SLACK_REL 1e-5
#define REACH_SLACK_ABS 1e-2 /* m */

static void everywhere(sensim_reach *r) {
  for (int k = 0; k < 3; k++) r->lo[k] = -INFINITY, r->hi[k] = INFINITY;
}

/* The box of keyframes k[0 .. nk) of a carrier (NULL, 0: fixed to the
 * world) for a sensor mounted at `mount`, grown by `range`. */
static void reach_box(const sensim_keyframe *k, size_t nk, int carried, const sensim_pose *mount, double range,
                      sensim_reach *r) {
  if (!isfinite(range) || (carried && nk == 0)) {
    everywhere(r);
    return;
  }
  double grow = range * (1.0 + REACH_SLACK_REL) + REACH_SLACK_ABS;
  if (!carried) { /* the mount is the sensor's pose in the world */
    const double p[3] = {mount->pos.x, mount->pos.y, mount->pos.z};
    for (int a = 0; a < 3; a++) r->lo[a] = p[a] - grow, r->hi[a] = p[a] + grow;
    return;
  }
  grow += v3_norm(mount->pos);
  for (int a = 0; a < 3; a++) r->lo[a] = INFINITY, r->hi[a] = -INFINITY;
  for (size_t i = 0; i < nk; i++) {
    const double p[3] = {k[i].s.pose.pos.x, k[i].s.pose.pos.y, k[i].s.pose.pos.z};
    for (int a = 0; a < 3; a++) {
      if (p[a] < r->lo[a]) r->lo[a] = p[a];
      if (p[a] > r->hi[a]) r->hi[a] = p[a];
    }
  }
  for (int a = 0; a < 3; a++) r->lo[a] -= grow, r->hi[a] += grow;
}

static double kind_reach(const sensim_sensor *s) {
  return s->kind->reach ? s->kind->reach(s->impl) : INFINITY;
}

void sensim__reach_of_capture(const sensim_sensor *s, int carrier, sensim_snapshot *snap) {
  const sensim_body_snap *b = carrier >= 0 ? &snap->bodies[carrier] : NULL;
  reach_box(b ? b->k : NULL, b ? b->nk : 0, b != NULL, &s->params.mount, kind_reach(s), &snap->reach);
}

sensim_status sensim__reach_select_tiles(sensim_world *w, const sensim_runtime *rt, double t) {
  if (!w->ntiles) return SENSIM_OK;
  sensim_reach stack[32], *box = stack;
  memset(stack, 0, sizeof stack); /* read only up to n, which the compiler cannot see */
  if (rt->nsensors > sizeof stack / sizeof stack[0] && !(box = malloc(rt->nsensors * sizeof *box)))
    return sensim__fail(SENSIM_ENOMEM, "out of memory choosing the tiles in range");
  size_t n = 0;
  for (size_t i = 0; i < rt->nsensors; i++) {
    const sensim_sensor *s = rt->sensors[i];
    if (!s->kind->needs_geometry) continue;
    const sensim_body *c = s->params.body;
    size_t first = 0, nk = c ? c->track.n : 0;
    if (c) { /* the keyframes covering [t_lo, t]: the last at or before t_lo, and those after */
      double next = sensim__capture_time(s, s->next_index), t_lo = (next < t ? next : t) - s->params.window;
      first = nk;
      while (first > 0 && !(c->track.k[first - 1].t <= t_lo)) first--;
      if (first > 0) first--;
    }
    reach_box(c ? c->track.k + first : NULL, nk - first, c != NULL, &s->params.mount, kind_reach(s), &box[n++]);
  }
  sensim_status rc = sensim__tiles_select(w, box, n);
  if (box != stack) free(box);
  return rc;
}
