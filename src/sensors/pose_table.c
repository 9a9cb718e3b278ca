/* sensors/pose_table.c: a sensor's pose tabulated over a capture window.
 * The table's block comes from the capture's frame pool (core/frame_pool.h):
 * tables are made on the capture's own thread, so a sensor in steady state
 * reuses the block of an earlier capture. */
#include <stdlib.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensors/window.h"

sensim_status sensim__pose_table_init(sensim_pose_table *tab, const sensim_capture_ctx *ctx, double t0, double t1,
                                      int n) {
  if (!(t1 > t0) || n < 2) n = 1;
  tab->pose = sensim__frame_buffer((size_t)n * sizeof *tab->pose, 0);
  if (!tab->pose) return sensim__fail(SENSIM_ENOMEM, "out of memory for a pose table");
  tab->n = n;
  tab->t0 = t0;
  tab->t1 = t1;
  for (int i = 0; i < n; i++)
    tab->pose[i] = sensim__ctx_pose_at(ctx, n == 1 ? t1 : t0 + (t1 - t0) * i / (n - 1));
  return SENSIM_OK;
}

sensim_pose sensim__pose_table_at(const sensim_pose_table *tab, double t) {
  if (tab->n == 1) return tab->pose[0];
  double x = (t - tab->t0) / (tab->t1 - tab->t0) * (tab->n - 1);
  if (!(x > 0)) return tab->pose[0];
  int k = (int)x;
  if (k >= tab->n - 1) return tab->pose[tab->n - 1];
  double f = x - k;
  const sensim_pose *a = &tab->pose[k], *b = &tab->pose[k + 1];
  sensim_quat qb = b->rot;
  if (a->rot.w * qb.w + a->rot.x * qb.x + a->rot.y * qb.y + a->rot.z * qb.z < 0)
    qb = q_make(-qb.w, -qb.x, -qb.y, -qb.z);
  sensim_pose p;
  p.pos = v3_lerp(a->pos, b->pos, f);
  p.rot = q_normalize(q_make(a->rot.w + (qb.w - a->rot.w) * f, a->rot.x + (qb.x - a->rot.x) * f,
                             a->rot.y + (qb.y - a->rot.y) * f, a->rot.z + (qb.z - a->rot.z) * f));
  return p;
}

void sensim__pose_table_free(sensim_pose_table *tab) {
  sensim__frame_buffer_free(tab->pose);
  tab->pose = NULL;
  tab->n = 0;
}
