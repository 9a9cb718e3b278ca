/* sensors/gnss_observe.c: what the receiver measures at one epoch: for
 * every healthy satellite with a valid record and above the elevation
 * mask, the signal's path (gnss_sky.c), its pseudorange and range rate.
 *
 * Signal model (the receiver's clock is perfect: its bias and drift are 0;
 * the solver estimates them anyway, and they absorb what is common to all
 * satellites):
 *
 *   P    = rho - c dt_sv + I + T + M + sigma_P n_P
 *   Pdot = (v_sv - v_rx) . u - c dt_sv' + M' + sigma_D n_D
 *
 * rho: the geometric range from the satellite at transmission to the
 * antenna at reception, in the Earth-fixed frame of reception: the
 * transmission time t - tau is iterated with tau = rho / c and the
 * satellite's Earth-fixed position rotated by the Earth's turn during the
 * flight, R3(omega_e tau) (IS-GPS-200N 20.3.3.4.3.4; the Sagnac effect,
 * tens of metres). dt_sv: the satellite clock with its relativistic term
 * and TGD (gnss_orbit.c). I, T: Klobuchar and Saastamoinen delays at the
 * true antenna (gnss_atmosphere.c). M, M': the extra path of a reflected
 * signal and its rate. n_P, n_D: standard normals from the stream keyed by
 * (seed, sensor, frame, 0x474E5300 + PRN). u: unit line of sight. The
 * delays' own rates (mm/s) are left out of Pdot. */
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensim/geodesy.h"
#include "sensim/rng.h"
#include "sensors/gnss_sat.h"

#define RNG_ELEMENT 0x474E5300u /* "GNS" + PRN */

void sensim__gnss_enu_axes(double lat_deg, double lon_deg, double r[3][3]) {
  const double lat = lat_deg * M_PI / 180.0, lon = lon_deg * M_PI / 180.0;
  const double sl = sin(lat), cl = cos(lat), so = sin(lon), co = cos(lon);
  r[0][0] = -so, r[0][1] = co, r[0][2] = 0.0;
  r[1][0] = -sl * co, r[1][1] = -sl * so, r[1][2] = cl;
  r[2][0] = cl * co, r[2][1] = cl * so, r[2][2] = sl;
}

static void mul(const double r[3][3], const double v[3], double out[3]) {
  for (int i = 0; i < 3; i++) out[i] = r[i][0] * v[0] + r[i][1] * v[1] + r[i][2] * v[2];
}
static void mul_t(const double r[3][3], const double v[3], double out[3]) {
  for (int i = 0; i < 3; i++) out[i] = r[0][i] * v[0] + r[1][i] * v[1] + r[2][i] * v[2];
}

/* The satellite's signal received at world time t by an antenna at rx:
 * position and velocity at transmission in the frame of reception, range
 * and flight time, eccentric anomaly at transmission. */
static void signal(const sensim__gnss_cfg *c, const sensim__gps_eph *e, double t, const double rx[3],
                   sensim__gnss_obs *o, double *tau_out, double *ek) {
  const double tk0 = (c->gps0 - e->toe) + t;
  double tau = 0.075, p[3], v[3];
  for (int it = 0; it < 8; it++) { /* converges by about 1e-5 per step */
    sensim__gps_orbit(e, tk0 - tau, p, NULL);
    sensim__gps_earth_rotate(tau, p, o->sat_pos);
    const double dx = o->sat_pos[0] - rx[0], dy = o->sat_pos[1] - rx[1], dz = o->sat_pos[2] - rx[2];
    const double next = sqrt(dx * dx + dy * dy + dz * dz) / SENSIM__GPS_C;
    const double step = fabs(next - tau);
    tau = next;
    if (step < 1e-14) break;
  }
  sensim__gps_orbit(e, tk0 - tau, p, ek);
  sensim__gps_orbit_vel(e, tk0 - tau, p, v); /* the same position, and its rate */
  sensim__gps_earth_rotate(tau, p, o->sat_pos);
  sensim__gps_earth_rotate(tau, v, o->sat_vel);
  const double dx = o->sat_pos[0] - rx[0], dy = o->sat_pos[1] - rx[1], dz = o->sat_pos[2] - rx[2];
  o->rho = sqrt(dx * dx + dy * dy + dz * dz);
  *tau_out = tau;
}

/* A satellite this far (rad) below the mask at the instant of reception
 * stays below it at transmission: in the signal's 0.09 s it moves by less
 * than 1e-5 rad as seen from the Earth. */
#define SCREEN_MARGIN 1e-3

/* Whether the satellite is below elevation `el` at t (no flight time): a
 * cheap screen before the signal's iteration. */
static int below(const sensim__gnss_cfg *c, const sensim__gps_eph *e, double t, const double rx[3],
                 const double rl[3][3], double el) {
  double p[3], d[3], n = 0.0;
  sensim__gps_orbit(e, (c->gps0 - e->toe) + t, p, NULL);
  for (int i = 0; i < 3; i++) d[i] = p[i] - rx[i], n += d[i] * d[i];
  return rl[2][0] * d[0] + rl[2][1] * d[1] + rl[2][2] * d[2] < sin(el) * sqrt(n);
}

sensim_status sensim__gnss_observe(const sensim_capture_ctx *ctx, const sensim_rt_view *view, sensim__gnss_obs *obs,
                                   int *n_out, double rx[3], double rx_vel[3]) {
  const sensim__gnss_cfg *c = ctx->impl;
  const sensim_gnss_params *p = &c->p;
  const double t = ctx->t_capture;
  sensim_vec3 apos, avel;
  sensim__gnss_antenna(ctx, t, &apos, &avel);
  const double origin[3] = {ctx->snap->params.origin_lat, ctx->snap->params.origin_lon,
                            ctx->snap->params.origin_height};
  double o_ecef[3], ro[3][3], rl[3][3], lat, lon, h;
  sensim_geodetic_to_ecef(origin[0], origin[1], origin[2], o_ecef);
  sensim__gnss_enu_axes(origin[0], origin[1], ro);
  const double aw[3] = {apos.x, apos.y, apos.z}, vw[3] = {avel.x, avel.y, avel.z};
  mul_t(ro, aw, rx);
  for (int i = 0; i < 3; i++) rx[i] += o_ecef[i];
  mul_t(ro, vw, rx_vel);
  sensim_ecef_to_geodetic(rx, &lat, &lon, &h);
  sensim__gnss_enu_axes(lat, lon, rl);
  lat *= M_PI / 180.0;
  lon *= M_PI / 180.0;

  const double gps_t = c->gps0 + t;
  double tau[SENSIM__GPS_PRN_MAX], ek[SENSIM__GPS_PRN_MAX];
  sensim_vec3 dirs[SENSIM__GPS_PRN_MAX];
  int n = 0;
  for (int prn = 1; prn <= SENSIM__GPS_PRN_MAX; prn++) {
    const sensim__gps_eph *e = sensim__gnss_nav_select(&c->nav, prn, gps_t, p->max_ephemeris_age);
    if (!e || e->health != 0) continue;
    if (below(c, e, t, rx, rl, p->elevation_mask - SCREEN_MARGIN)) continue;
    sensim__gnss_obs *o = &obs[n];
    memset(o, 0, sizeof *o);
    o->prn = prn;
    o->eph = e;
    signal(c, e, t, rx, o, &tau[n], &ek[n]);
    double u[3], le[3], uw[3];
    for (int i = 0; i < 3; i++) u[i] = (o->sat_pos[i] - rx[i]) / o->rho;
    mul(rl, u, le);
    o->el = asin(le[2] > 1 ? 1 : le[2] < -1 ? -1 : le[2]);
    if (o->el < p->elevation_mask) continue;
    o->az = atan2(le[0], le[1]);
    if (o->az < 0) o->az += 2.0 * M_PI;
    mul(ro, u, uw);
    o->dir = v3(uw[0], uw[1], uw[2]);
    dirs[n] = o->dir;
    n++;
  }

  sensim__gnss_path paths[SENSIM__GPS_PRN_MAX];
  sensim__gnss_sky sky;
  sensim__gnss_sky_init(&sky, p->visibility ? view : NULL, apos, avel, t, ctx->carrier, p->multipath);
  sensim__gnss_sky_trace(&sky, dirs, paths, n);

  for (int i = 0; i < n; i++) {
    sensim__gnss_obs *o = &obs[i];
    const sensim__gps_eph *e = o->eph;
    o->path = paths[i];
    const double tc = (c->gps0 - e->toc) + t - tau[i];
    o->sat_clock = sensim__gps_clock(e, tc, ek[i]);
    o->iono = p->ionosphere ? sensim__klobuchar(p->iono_alpha, p->iono_beta, lat, lon, o->el, o->az, gps_t) : 0.0;
    o->tropo = p->troposphere ? sensim__saastamoinen(lat, h, o->el, p->humidity) : 0.0;
    if (o->path.state == SENSIM__GNSS_LOST) {
      o->pseudorange = o->range_rate = NAN;
      continue;
    }
    sensim_rng rng;
    sensim_rng_init(&rng, ctx->key.seed, ctx->key.sensor, ctx->key.frame, RNG_ELEMENT + (uint32_t)o->prn);
    double np, nd;
    sensim_rng_normal2(&rng, &np, &nd);
    o->pseudorange = o->rho - SENSIM__GPS_C * o->sat_clock + o->iono + o->tropo + o->path.extra + p->range_sigma * np;
    double rate = 0.0;
    for (int k = 0; k < 3; k++) rate += (o->sat_vel[k] - rx_vel[k]) * (o->sat_pos[k] - rx[k]) / o->rho;
    o->range_rate = rate - SENSIM__GPS_C * sensim__gps_clock_rate(e, tc) + o->path.extra_rate +
                    p->range_rate_sigma * nd;
  }
  *n_out = n;
  return SENSIM_OK;
}
