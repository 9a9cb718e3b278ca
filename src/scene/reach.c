/* scene/reach.c: boxes of keyframe positions against a capture's reach
 * (sensim_reach, scene.h): what the snapshot leaves out and what the
 * runtime's reach boxes are made of (runtime/reach.c). */
#include <math.h>
#include "scene/scene.h"

void sensim__keys_box(const sensim_keyframe *k, size_t nk, double grow, sensim_reach *out) {
  for (int a = 0; a < 3; a++) out->lo[a] = INFINITY, out->hi[a] = -INFINITY;
  for (size_t i = 0; i < nk; i++) {
    const double p[3] = {k[i].s.pose.pos.x, k[i].s.pose.pos.y, k[i].s.pose.pos.z};
    for (int a = 0; a < 3; a++) {
      if (p[a] < out->lo[a]) out->lo[a] = p[a];
      if (p[a] > out->hi[a]) out->hi[a] = p[a];
    }
  }
  for (int a = 0; a < 3; a++) out->lo[a] -= grow, out->hi[a] += grow;
}

int sensim__reach_meets(const sensim_reach *a, const sensim_reach *b) {
  for (int k = 0; k < 3; k++)
    if (!(a->lo[k] <= b->hi[k] && b->lo[k] <= a->hi[k])) return 0;
  return 1;
}

void sensim__reach_everywhere(sensim_reach *r) {
  for (int k = 0; k < 3; k++) r->lo[k] = -INFINITY, r->hi[k] = INFINITY;
}
