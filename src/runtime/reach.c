/* runtime/reach.c: where a sensor's rays can reach, as a box of world
 * space: the box of the sensor's positions over the keyframes its carrier
 * holds for a stretch of time, grown by the kind's reach (a lidar's
 * max_range). Positions between keyframes are linear blends of theirs
 * (scene/track.c), so they stay in the keyframes' box; the mount's offset
 * turns with the carrier, so the box grows by its length instead. A
 * capture's box goes to its snapshot, which leaves out the moving bodies
 * beyond it (scene/snapshot.c); the boxes of every sensor at an advance
 * choose the tiles in the scene (scene/tiles.c). */
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
/* Tiles are read ahead (on a thread) from this much farther out, as a
 * fraction of the sensor's reach: a lidar of 120 m driving at 30 m/s and
 * scanning at 10 Hz has 2 s, 20 scans, to read a tile before it is needed. */
#define READ_AHEAD 0.5

/* The reach of s over [t0, t1], its range scaled by `scale`: its
 * carrier's keyframes covering the stretch (none: fixed to the world at
 * its mount), grown by the kind's reach; everywhere for a kind without
 * one. */
static void reach_over(const sensim_sensor *s, double t0, double t1, double scale, sensim_reach *r) {
  double range = s->kind->reach ? scale * s->kind->reach(s->impl) : INFINITY;
  const sensim_body *c = s->params.body;
  const sensim_pose *mount = &s->params.mount;
  if (!isfinite(range) || (c && c->track.n == 0)) {
    sensim__reach_everywhere(r);
    return;
  }
  double grow = range * (1.0 + REACH_SLACK_REL) + REACH_SLACK_ABS;
  if (!c) { /* the mount is the sensor's pose in the world */
    const double p[3] = {mount->pos.x, mount->pos.y, mount->pos.z};
    for (int a = 0; a < 3; a++) r->lo[a] = p[a] - grow, r->hi[a] = p[a] + grow;
    return;
  }
  size_t first, n;
  sensim__track_window(&c->track, t0, t1, &first, &n);
  sensim__keys_box(c->track.k + first, n, grow + v3_norm(mount->pos), r);
}

const sensim_reach *sensim__reach_of_capture(const sensim_sensor *s, double t0, double t1, sensim_reach *r) {
  if (s->world->keep_beyond_reach) return NULL;
  reach_over(s, t0, t1, 1.0, r);
  return r;
}

sensim_status sensim__reach_select_tiles(sensim_world *w, const sensim_runtime *rt, double t) {
  if (!w->ntiles) return SENSIM_OK;
  /* Boxes: the sensors' reach, and the same grown for reading ahead. */
  const size_t m = rt->nsensors;
  sensim_reach stack[2][32], *box = stack[0], *ahead = stack[1];
  memset(stack, 0, sizeof stack); /* read only up to n, which the compiler cannot see */
  if (m > 32) {
    box = malloc(2 * m * sizeof *box);
    if (!box) return sensim__fail(SENSIM_ENOMEM, "out of memory choosing the tiles in range");
    ahead = box + m;
  }
  size_t n = 0;
  for (size_t i = 0; i < m; i++) {
    const sensim_sensor *s = rt->sensors[i];
    if (!s->kind->needs_geometry) continue;
    /* From the earliest capture this advance starts (or t) less its window. */
    double next = sensim__capture_time(s, s->next_index), t0 = (next < t ? next : t) - s->params.window;
    reach_over(s, t0, t, 1.0, &box[n]);
    reach_over(s, t0, t, 1.0 + READ_AHEAD, &ahead[n]);
    n++;
  }
  sensim_status rc = sensim__tiles_select(w, box, ahead, n);
  if (box != stack[0]) free(box);
  return rc;
}
