/* tools/vepd_trajectory.c: the analytic manoeuvres of the VEPD experiment,
 * a 1/6-scale vehicle (wheelbase ~0.45 m, turning radius >= ~1.2 m) at
 * 1-3 m/s, as body states with exact velocity and acceleration (world
 * frame, body X along the velocity, so the vehicle does not slip and an
 * IMU at the body origin reads dv/dt on x and v psi' on y).
 *
 *   straight:  x = s(t), y = 0, v = 2 + 0.5 sin(2 pi t / 8) m/s
 *   circle:    radius 1.5 m, 2 m/s counter-clockwise, centre (0, 1.5)
 *   half-sine: y = A sin(k x), k = pi / L, A = 1 m, L = 5 m, x = u t with
 *              u = 2 m/s: consecutive half-sines of length L (a slalom),
 *              speed 2 .. 2.36 m/s, curvature radius >= 1/(A k^2) = 2.5 m. */
#include "tools/tools_internal.h"
#include "tools/vepd_internal.h"

#define ST_V0 2.0
#define ST_DV 0.5
#define ST_T 8.0
#define CI_R 1.5
#define CI_V 2.0
#define HS_A 1.0
#define HS_L 5.0
#define HS_U 2.0

const char *sensim_vepd_manoeuvre_name(sensim_vepd_manoeuvre m) {
  switch (m) {
  case SENSIM_VEPD_STRAIGHT:
    return "straight";
  case SENSIM_VEPD_CIRCLE:
    return "circle";
  case SENSIM_VEPD_HALF_SINE:
    return "half_sine";
  }
  return "unknown";
}

static void set_planar(sensim_body_state *s, double x, double y, double vx, double vy, double ax,
                       double ay, double yaw, double yaw_rate, double yaw_acc) {
  s->pose.pos = (sensim_vec3){x, y, 0.0};
  s->pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, yaw);
  s->flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
  s->lin_vel = (sensim_vec3){vx, vy, 0.0};
  s->lin_acc = (sensim_vec3){ax, ay, 0.0};
  s->ang_vel = (sensim_vec3){0.0, 0.0, yaw_rate};
  s->ang_acc = (sensim_vec3){0.0, 0.0, yaw_acc};
}

double sensim_tools__vepd_state(sensim_vepd_manoeuvre m, double t, sensim_body_state *s) {
  *s = (sensim_body_state){0};
  switch (m) {
  case SENSIM_VEPD_STRAIGHT: {
    double w = 2.0 * M_PI / ST_T;
    double x = ST_V0 * t + ST_DV / w * (1.0 - cos(w * t));
    double v = ST_V0 + ST_DV * sin(w * t);
    set_planar(s, x, 0.0, v, 0.0, ST_DV * w * cos(w * t), 0.0, 0.0, 0.0, 0.0);
    return v;
  }
  case SENSIM_VEPD_CIRCLE: {
    double w = CI_V / CI_R, th = w * t;
    set_planar(s, CI_R * sin(th), CI_R * (1.0 - cos(th)), CI_V * cos(th), CI_V * sin(th),
               -CI_V * w * sin(th), CI_V * w * cos(th), th, w, 0.0);
    return CI_V;
  }
  case SENSIM_VEPD_HALF_SINE:
  default: {
    double k = M_PI / HS_L, x = HS_U * t, c = cos(k * x), sn = sin(k * x);
    double vy = HS_A * k * HS_U * c, ay = -HS_A * k * k * HS_U * HS_U * sn;
    double jy = -HS_A * k * k * k * HS_U * HS_U * HS_U * c; /* d ay / dt */
    /* psi = atan2(vy, u): psi' = u ay / D, psi'' = (u jy D - u ay D') / D^2,
     * D = u^2 + vy^2, D' = 2 vy ay. */
    double D = HS_U * HS_U + vy * vy, Dd = 2.0 * vy * ay;
    double r = HS_U * ay / D, rd = (HS_U * jy * D - HS_U * ay * Dd) / (D * D);
    set_planar(s, x, HS_A * sn, HS_U, vy, 0.0, ay, atan2(vy, HS_U), r, rd);
    return sqrt(D);
  }
  }
}
