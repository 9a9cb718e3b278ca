/* sensors/gnss_satellites.c: one fix of the satellites mode: trace and
 * measure (gnss_observe.c), solve (gnss_solve.c) and report.
 *
 * The fix's position is the solution, its ENU the world frame's (ENU at
 * the world's origin), latitude, longitude and height the solution's own
 * (sensim_ecef_to_geodetic). Reported covariance:
 * sigma^2 (H^T H)^-1, sigma the configured pseudorange standard deviation
 * (reported_sigma, by default range_sigma), rotated from the local ENU
 * frame at the solution into the world's. Without a solution the fix is
 * the "no fix" of gnss_outage: fix_type 0, satellites 0, DOPs 0 (not
 * reported), position, velocity, speed, course and covariance NaN, so NMEA
 * writes quality 0 and a NavSatFix status -1. */
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "sensim/geodesy.h"
#include "sensors/gnss_sat.h"
#include "sensors/traced.h"

static void no_fix(sensim_gnss_fix *fix) {
  fix->lat = fix->lon = fix->height = NAN;
  fix->speed = fix->course = NAN;
  for (int i = 0; i < 3; i++) fix->enu[i] = fix->vel_enu[i] = NAN;
  for (int i = 0; i < 9; i++) fix->cov_enu[i] = NAN;
  fix->satellites = 0;
  fix->hdop = fix->vdop = fix->pdop = 0.0;
  fix->fix_type = 0;
}

static void fill(const sensim__gnss_cfg *c, const sensim__gnss_solution *sol, sensim_gnss_fix *fix) {
  double o[3], ro[3][3], rl[3][3], lat, lon, h;
  sensim_geodetic_to_ecef(fix->origin[0], fix->origin[1], fix->origin[2], o);
  sensim__gnss_enu_axes(fix->origin[0], fix->origin[1], ro);
  sensim_ecef_to_geodetic(sol->pos, &lat, &lon, &h);
  sensim__gnss_enu_axes(lat, lon, rl);
  fix->lat = lat, fix->lon = lon, fix->height = h;
  const double d[3] = {sol->pos[0] - o[0], sol->pos[1] - o[1], sol->pos[2] - o[2]};
  for (int i = 0; i < 3; i++) {
    fix->enu[i] = ro[i][0] * d[0] + ro[i][1] * d[1] + ro[i][2] * d[2];
    fix->vel_enu[i] = ro[i][0] * sol->vel[0] + ro[i][1] * sol->vel[1] + ro[i][2] * sol->vel[2];
  }
  sensim_gnss_fill_speed_course(fix);
  /* a = Ro Rl^T takes the local ENU frame at the solution to the world's. */
  double a[3][3], aq[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) a[i][j] = ro[i][0] * rl[j][0] + ro[i][1] * rl[j][1] + ro[i][2] * rl[j][2];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      aq[i][j] = a[i][0] * sol->q_enu[j] + a[i][1] * sol->q_enu[3 + j] + a[i][2] * sol->q_enu[6 + j];
  const double s2 = c->sigma_report * c->sigma_report;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) fix->cov_enu[3 * i + j] = s2 * (aq[i][0] * a[j][0] + aq[i][1] * a[j][1] + aq[i][2] * a[j][2]);
  fix->satellites = sol->used;
  fix->hdop = sol->hdop, fix->vdop = sol->vdop, fix->pdop = sol->pdop;
  fix->fix_type = 1;
}

sensim_status sensim__gnss_sat_generate(sensim_capture_ctx ctx, sensim_frame *frame) {
  const sensim__gnss_cfg *c = ctx.impl;
  sensim_rt_view *view = NULL;
  sensim_status st = SENSIM_OK;
  if (ctx.aux && (st = sensim__traced_view(&ctx, &view)) != SENSIM_OK) return st;
  sensim__gnss_obs obs[SENSIM__GPS_PRN_MAX];
  int n = 0;
  double rx[3], rv[3];
  st = sensim__gnss_observe(&ctx, view, obs, &n, rx, rv);
  if (view) sensim__rt_view_destroy(view);
  if (st != SENSIM_OK) return st;
  double x0[3];
  sensim_geodetic_to_ecef(ctx.snap->params.origin_lat, ctx.snap->params.origin_lon, ctx.snap->params.origin_height,
                          x0);
  sensim__gnss_solution sol;
  sensim__gnss_solve(c, ctx.t_capture, obs, n, x0, &sol);
  if ((st = sensim_frame_alloc(frame, SENSIM_PAYLOAD_GNSS, 1, 1)) != SENSIM_OK) return st;
  sensim_gnss_fix *fix = (sensim_gnss_fix *)frame->data;
  memset(fix, 0, sizeof *fix);
  fix->origin[0] = ctx.snap->params.origin_lat;
  fix->origin[1] = ctx.snap->params.origin_lon;
  fix->origin[2] = ctx.snap->params.origin_height;
  if (sol.ok)
    fill(c, &sol, fix);
  else
    no_fix(fix);
  return SENSIM_OK;
}
