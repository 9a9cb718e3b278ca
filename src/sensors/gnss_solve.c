/* sensors/gnss_solve.c: the receiver's single-point solution.
 *
 * Position and clock by iterated (Gauss-Newton) least squares on the
 * pseudoranges, velocity and clock drift by linear least squares on the
 * range rates with the same geometry (Kaplan & Hegarty, "Understanding
 * GPS/GNSS", 3rd ed., 2017, sec. 11.2.1 and 11.2.2; Misra & Enge, "Global
 * Positioning System", 2nd ed., 2006, sec. 6.1). The receiver knows only
 * what a real one knows: its pseudoranges and range rates, the broadcast
 * records, and the models it is told to correct with. For each satellite
 *
 *   t_sv = t_rx - P / c                     (satellite time of transmission)
 *   t    = t_sv - dt_sv(t)                  (GPS time, two fixed-point steps)
 *   x_sv = R3(omega_e tau) orbit(t),  tau = |x_sv - x| / c   (three steps)
 *   P_c  = P + c dt_sv - I(x) - T(x)        (I, T only when corrected)
 *
 * and the normal equations of P_c = |x_sv - x| + b, rows H_i = [-u_i, 1],
 * are solved from x0 until a step moves x by less than 1e-5 m (at most 30
 * steps). All equations are weighted alike, so the DOPs are those of
 * (H^T H)^-1 in the local ENU frame at the solution. */
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "sensim/geodesy.h"
#include "sensors/gnss_sat.h"

/* Inverse of a 4 x 4 matrix by Gauss-Jordan elimination with partial
 * pivoting; -1 when a pivot is below 1e-12 of the largest entry. */
static int inv4(const double a_in[16], double out[16]) {
  double a[4][8];
  double big = 0.0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      a[i][j] = a_in[4 * i + j];
      a[i][4 + j] = i == j;
      if (fabs(a[i][j]) > big) big = fabs(a[i][j]);
    }
  if (!(big > 0.0)) return -1;
  for (int col = 0; col < 4; col++) {
    int piv = col;
    for (int r = col + 1; r < 4; r++)
      if (fabs(a[r][col]) > fabs(a[piv][col])) piv = r;
    if (!(fabs(a[piv][col]) > 1e-12 * big)) return -1;
    if (piv != col)
      for (int j = 0; j < 8; j++) {
        double t = a[col][j];
        a[col][j] = a[piv][j];
        a[piv][j] = t;
      }
    const double d = a[col][col];
    for (int j = 0; j < 8; j++) a[col][j] /= d;
    for (int r = 0; r < 4; r++) {
      if (r == col) continue;
      const double f = a[r][col];
      if (f != 0.0)
        for (int j = 0; j < 8; j++) a[r][j] -= f * a[col][j];
    }
  }
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) out[4 * i + j] = a[i][4 + j];
  return 0;
}

/* x = (H^T H)^-1 H^T y over rows h (n x 4); q gets (H^T H)^-1. */
static int lsq(const double (*h)[4], const double *y, int n, double x[4], double q[16]) {
  double g[16] = {0}, b[4] = {0};
  for (int k = 0; k < n; k++)
    for (int i = 0; i < 4; i++) {
      b[i] += h[k][i] * y[k];
      for (int j = 0; j < 4; j++) g[4 * i + j] += h[k][i] * h[k][j];
    }
  if (inv4(g, q)) return -1;
  for (int i = 0; i < 4; i++) x[i] = q[4 * i] * b[0] + q[4 * i + 1] * b[1] + q[4 * i + 2] * b[2] + q[4 * i + 3] * b[3];
  return 0;
}

int sensim__gnss_dops(const double (*los)[3], int n, sensim__gnss_solution *sol) {
  if (n < 4 || n > SENSIM__GPS_PRN_MAX) return -1;
  double h[SENSIM__GPS_PRN_MAX][4], q[16], y[SENSIM__GPS_PRN_MAX] = {0}, x[4];
  for (int k = 0; k < n; k++) h[k][0] = -los[k][0], h[k][1] = -los[k][1], h[k][2] = -los[k][2], h[k][3] = 1.0;
  if (lsq((const double (*)[4])h, y, n, x, q)) return -1;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) sol->q_enu[3 * i + j] = q[4 * i + j];
  sol->gdop = sqrt(q[0] + q[5] + q[10] + q[15]);
  sol->pdop = sqrt(q[0] + q[5] + q[10]);
  sol->hdop = sqrt(q[0] + q[5]);
  sol->vdop = sqrt(q[10]);
  sol->tdop = sqrt(q[15]);
  return 0;
}

/* Geodetic latitude, longitude (rad), height (m) and the ENU rows at x. */
static void local(const double x[3], double *lat, double *lon, double *h, double r[3][3]) {
  double la, lo;
  sensim_ecef_to_geodetic(x, &la, &lo, h);
  sensim__gnss_enu_axes(la, lo, r);
  *lat = la * M_PI / 180.0;
  *lon = lo * M_PI / 180.0;
}

typedef struct sat {
  const sensim__gnss_obs *o;
  double pos[3], vel[3]; /* Earth-fixed at transmission (before the flight rotation) */
  double pc;             /* P + c dt_sv, m */
  double rate;           /* range rate + c dt_sv', m/s */
  double los[3];         /* unit, ECEF, at the last step */
  double tau;            /* s */
} sat;

/* Transmission-time position of each satellite as the receiver computes it. */
static void transmit(const sensim__gnss_cfg *c, double t_rx, sat *s) {
  const sensim__gps_eph *e = s->o->eph;
  const double t_sv = t_rx - s->o->pseudorange / SENSIM__GPS_C;
  double dt = 0.0, ek = 0.0, p[3];
  for (int it = 0; it < 2; it++) {
    sensim__gps_orbit(e, (c->gps0 - e->toe) + t_sv - dt, p, &ek);
    dt = sensim__gps_clock(e, (c->gps0 - e->toc) + t_sv - dt, ek);
  }
  sensim__gps_orbit_vel(e, (c->gps0 - e->toe) + t_sv - dt, s->pos, s->vel);
  s->pc = s->o->pseudorange + SENSIM__GPS_C * dt;
  s->rate = s->o->range_rate + SENSIM__GPS_C * sensim__gps_clock_rate(e, (c->gps0 - e->toc) + t_sv - dt);
}

/* Range from x to the satellite rotated over its flight; fills los, tau. */
static double range(sat *s, const double x[3], double rot[3]) {
  double d = 0.0;
  s->tau = 0.0;
  for (int it = 0; it < 3; it++) {
    sensim__gps_earth_rotate(s->tau, s->pos, rot);
    d = sqrt((rot[0] - x[0]) * (rot[0] - x[0]) + (rot[1] - x[1]) * (rot[1] - x[1]) + (rot[2] - x[2]) * (rot[2] - x[2]));
    s->tau = d / SENSIM__GPS_C;
  }
  sensim__gps_earth_rotate(s->tau, s->pos, rot);
  d = sqrt((rot[0] - x[0]) * (rot[0] - x[0]) + (rot[1] - x[1]) * (rot[1] - x[1]) + (rot[2] - x[2]) * (rot[2] - x[2]));
  for (int i = 0; i < 3; i++) s->los[i] = (rot[i] - x[i]) / d;
  return d;
}

void sensim__gnss_solve(const sensim__gnss_cfg *c, double t_rx, const sensim__gnss_obs *obs, int n, const double x0[3],
                        sensim__gnss_solution *sol) {
  memset(sol, 0, sizeof *sol);
  const sensim_gnss_params *p = &c->p;
  sat s[SENSIM__GPS_PRN_MAX];
  int m = 0;
  for (int i = 0; i < n && m < SENSIM__GPS_PRN_MAX; i++)
    if (obs[i].path.state != SENSIM__GNSS_LOST) {
      s[m].o = &obs[i];
      transmit(c, t_rx, &s[m]);
      m++;
    }
  sol->used = m;
  if (m < 4) return;
  double x[4] = {x0[0], x0[1], x0[2], 0.0}, h[SENSIM__GPS_PRN_MAX][4], y[SENSIM__GPS_PRN_MAX], q[16], dx[4];
  double r[3][3], lat, lon, hgt;
  int converged = 0;
  for (int it = 0; it < 30 && !converged; it++) {
    const int corr = p->correct_ionosphere || p->correct_troposphere;
    if (corr) local(x, &lat, &lon, &hgt, r);
    for (int k = 0; k < m; k++) {
      double rot[3];
      const double d = range(&s[k], x, rot);
      double model = d + x[3];
      if (corr) {
        double le[3];
        for (int i = 0; i < 3; i++) le[i] = r[i][0] * s[k].los[0] + r[i][1] * s[k].los[1] + r[i][2] * s[k].los[2];
        const double el = asin(le[2] > 1 ? 1 : le[2] < -1 ? -1 : le[2]), az = atan2(le[0], le[1]);
        if (p->correct_ionosphere)
          model += sensim__klobuchar(p->iono_alpha, p->iono_beta, lat, lon, el, az, c->gps0 + t_rx);
        if (p->correct_troposphere && el > 0) model += sensim__saastamoinen(lat, hgt, el, p->humidity);
      }
      y[k] = s[k].pc - model;
      h[k][0] = -s[k].los[0], h[k][1] = -s[k].los[1], h[k][2] = -s[k].los[2], h[k][3] = 1.0;
    }
    if (lsq((const double (*)[4])h, y, m, dx, q)) return;
    for (int i = 0; i < 4; i++) x[i] += dx[i];
    sol->iterations = it + 1;
    converged = sqrt(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]) < 1e-5;
  }
  if (!converged || !(isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]))) return;
  /* Velocity and drift: the range rate's equations on the final geometry. */
  for (int k = 0; k < m; k++) {
    double rot[3], vr[3];
    range(&s[k], x, rot);
    sensim__gps_earth_rotate(s[k].tau, s[k].vel, vr);
    y[k] = s[k].rate - (vr[0] * s[k].los[0] + vr[1] * s[k].los[1] + vr[2] * s[k].los[2]);
    h[k][0] = -s[k].los[0], h[k][1] = -s[k].los[1], h[k][2] = -s[k].los[2], h[k][3] = 1.0;
  }
  double v[4];
  if (lsq((const double (*)[4])h, y, m, v, q)) return;
  local(x, &lat, &lon, &hgt, r);
  double los[SENSIM__GPS_PRN_MAX][3];
  for (int k = 0; k < m; k++)
    for (int i = 0; i < 3; i++) los[k][i] = r[i][0] * s[k].los[0] + r[i][1] * s[k].los[1] + r[i][2] * s[k].los[2];
  if (sensim__gnss_dops((const double (*)[3])los, m, sol)) return;
  for (int i = 0; i < 3; i++) sol->pos[i] = x[i], sol->vel[i] = v[i];
  sol->clock = x[3];
  sol->drift = v[3];
  sol->ok = 1;
}
