/* sensors/window_mean.c: a reading averaged over the collection window,
 * shared by the sensors that integrate their signal over it (IMU,
 * magnetometer, GNSS receiver). */
#include "sensors/sensor_internal.h"

void sensim__sensor_window_mean(const sensim_sensor *s, const sensim_snapshot *snap, double t1,
                                sensim__reading_fn read, const void *user, int n, double *mean) {
  sensim_body_state st;
  sensim__sensor_carrier_state(s, snap, t1, &st);
  double end[SENSIM_READING_MAX];
  read(s, &st, user, end);
  double win = s->params.window;
  if (!(win > 0.0) || !s->params.body) {
    for (int j = 0; j < n; j++) mean[j] = end[j];
    return;
  }
  double t0 = t1 - win;
  const sensim_keyframe *k = NULL;
  size_t nk = 0;
  int bi = s->params.body->index;
  if (bi >= 0 && (size_t)bi < snap->nbodies) {
    k = snap->bodies[bi].k;
    nk = snap->bodies[bi].nk;
  }
  double prev[SENSIM_READING_MAX], cur[SENSIM_READING_MAX], sum[SENSIM_READING_MAX] = {0};
  sensim__sensor_carrier_state(s, snap, t0, &st);
  read(s, &st, user, prev);
  double t_prev = t0;
  for (size_t i = 0; i < nk; i++) {
    if (!(k[i].t > t0 && k[i].t < t1)) continue;
    read(s, &k[i].s, user, cur);
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
