/* sensors/window_mean.c: a reading averaged over the collection window,
 * shared by the sensors that integrate their signal over it (IMU,
 * magnetometer, GNSS receiver). */
#include "sensors/window.h"

void sensim__window_mean(const sensim_capture_ctx *ctx, double t1, sensim__reading_fn read, const void *user,
                         int n, double *mean) {
  sensim_body_state st;
  sensim__ctx_carrier_state(ctx, t1, &st);
  double end[SENSIM_READING_MAX];
  read(ctx, &st, user, end);
  double win = ctx->window;
  if (!(win > 0.0) || ctx->carrier < 0) {
    for (int j = 0; j < n; j++) mean[j] = end[j];
    return;
  }
  double t0 = t1 - win;
  const sensim_keyframe *k = NULL;
  size_t nk = 0;
  if ((size_t)ctx->carrier < ctx->snap->nbodies) {
    k = ctx->snap->bodies[ctx->carrier].k;
    nk = ctx->snap->bodies[ctx->carrier].nk;
  }
  double prev[SENSIM_READING_MAX], cur[SENSIM_READING_MAX], sum[SENSIM_READING_MAX] = {0};
  sensim__ctx_carrier_state(ctx, t0, &st);
  read(ctx, &st, user, prev);
  double t_prev = t0;
  for (size_t i = 0; i < nk; i++) {
    if (!(k[i].t > t0 && k[i].t < t1)) continue;
    read(ctx, &k[i].s, user, cur);
    double h = k[i].t - t_prev;
    for (int j = 0; j < n; j++) {
      sum[j] += 0.5 * h * (prev[j] + cur[j]);
      prev[j] = cur[j];
    }
    t_prev = k[i].t;
  }
  double h = t1 - t_prev;
  for (int j = 0; j < n; j++) mean[j] = (sum[j] + 0.5 * h * (prev[j] + end[j])) / win;
}
