/* io/scenario_motion.c: scripted body motion for scenario files.
 *
 * Analytic paths (circle, line, stadium) are planar at a constant height
 * with the body's X axis along the velocity; their velocity and
 * acceleration are the exact time derivatives of the position, so an IMU on
 * the body reads the true specific force. Waypoints give poses only and
 * leave the derivatives to the world's keyframe estimate. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "io/scenario_internal.h"

#define PI 3.14159265358979323846

/* ---- parsing ------------------------------------------------------------- */

static sensim_status parse_direction(const cJSON *obj, const char *path, double *dir) {
  const char *d = NULL;
  sensim_status st = sensim__jstring(obj, path, "direction", 0, &d);
  if (st != SENSIM_OK || !d) return st;
  if (strcmp(d, "ccw") == 0)
    *dir = 1.0;
  else if (strcmp(d, "cw") == 0)
    *dir = -1.0;
  else
    return sensim__fail(SENSIM_EINVAL, "%s.direction: '%s' is not \"ccw\" or \"cw\"", path, d);
  return SENSIM_OK;
}

static sensim_status need(int ok, const char *path, const char *key, const char *what) {
  if (ok) return SENSIM_OK;
  return sensim__fail(SENSIM_EINVAL, "%s.%s: must be %s", path, key, what);
}

static sensim_status parse_waypoints(const cJSON *obj, const char *path, sensim__motion *m) {
  static const char *const keys[] = {"type", "points", "loop", NULL};
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  const cJSON *pts = NULL;
  if (st == SENSIM_OK) st = sensim__jarray(obj, path, "points", 1, &pts);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "loop", &m->loop);
  if (st != SENSIM_OK) return st;
  size_t n = (size_t)cJSON_GetArraySize(pts);
  if (n < 1 || (m->loop && n < 2))
    return sensim__fail(SENSIM_EINVAL, "%s.points: needs at least %d rows [t, x, y, z, yaw]",
                        path, m->loop ? 2 : 1);
  m->wp = malloc(n * 5 * sizeof *m->wp);
  if (!m->wp) return sensim__fail(SENSIM_ENOMEM, "%s.points: out of memory", path);
  m->nwp = n;
  char pp[256];
  sensim__jpath_key(pp, sizeof pp, path, "points");
  size_t i = 0;
  for (const cJSON *row = pts->child; row; row = row->next, i++) {
    if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != 5)
      return sensim__fail(SENSIM_EPARSE, "%s[%zu]: must be [t, x, y, z, yaw]", pp, i);
    size_t j = 0;
    for (const cJSON *e = row->child; e; e = e->next, j++) {
      if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
        return sensim__fail(SENSIM_EPARSE, "%s[%zu][%zu]: must be a finite number", pp, i, j);
      m->wp[i * 5 + j] = e->valuedouble;
    }
    if (i > 0 && !(m->wp[i * 5] > m->wp[(i - 1) * 5]))
      return sensim__fail(SENSIM_EINVAL, "%s[%zu][0]: time %g must be after the previous %g",
                          pp, i, m->wp[i * 5], m->wp[(i - 1) * 5]);
  }
  return SENSIM_OK;
}

static sensim_status parse_circle(const cJSON *obj, const char *path, sensim__motion *m) {
  static const char *const keys[] = {"type", "center", "radius", "speed", "direction", "phase",
                                     NULL};
  double c[3] = {0, 0, 0};
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "center", 0, 3, c);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "radius", 1, &m->radius);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "speed", 1, &m->speed);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "phase", 0, &m->phase);
  if (st == SENSIM_OK) st = parse_direction(obj, path, &m->dir);
  if (st == SENSIM_OK) st = need(m->radius > 0, path, "radius", "> 0 m");
  if (st == SENSIM_OK) st = need(m->speed >= 0, path, "speed", ">= 0 m/s");
  m->center = v3(c[0], c[1], c[2]);
  return st;
}

static sensim_status parse_line(const cJSON *obj, const char *path, sensim__motion *m) {
  static const char *const keys[] = {"type", "start", "velocity", NULL};
  double s[3] = {0, 0, 0}, v[3] = {0, 0, 0};
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "start", 0, 3, s);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "velocity", 1, 3, v);
  m->start = v3(s[0], s[1], s[2]);
  m->velocity = v3(v[0], v[1], v[2]);
  return st;
}

static sensim_status parse_stadium(const cJSON *obj, const char *path, sensim__motion *m) {
  static const char *const keys[] = {"type", "center", "length", "radius", "speed",
                                     "direction", "heading", NULL};
  double c[3] = {0, 0, 0};
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "center", 0, 3, c);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "length", 1, &m->length);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "radius", 1, &m->radius);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "speed", 1, &m->speed);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "heading", 0, &m->phase);
  if (st == SENSIM_OK) st = parse_direction(obj, path, &m->dir);
  if (st == SENSIM_OK) st = need(m->length >= 0, path, "length", ">= 0 m");
  if (st == SENSIM_OK) st = need(m->radius > 0, path, "radius", "> 0 m");
  if (st == SENSIM_OK) st = need(m->speed >= 0, path, "speed", ">= 0 m/s");
  m->center = v3(c[0], c[1], c[2]);
  return st;
}

sensim_status sensim__motion_parse(const cJSON *obj, const char *path, sensim__motion *m) {
  memset(m, 0, sizeof *m);
  m->dir = 1.0;
  const char *type = NULL;
  sensim_status st = cJSON_IsObject(obj)
                         ? sensim__jstring(obj, path, "type", 1, &type)
                         : sensim__fail(SENSIM_EPARSE, "%s: must be an object", path);
  if (st != SENSIM_OK) return st;
  if (strcmp(type, "waypoints") == 0) {
    m->type = SENSIM__MOTION_WAYPOINTS;
    st = parse_waypoints(obj, path, m);
  } else if (strcmp(type, "circle") == 0) {
    m->type = SENSIM__MOTION_CIRCLE;
    st = parse_circle(obj, path, m);
  } else if (strcmp(type, "line") == 0) {
    m->type = SENSIM__MOTION_LINE;
    st = parse_line(obj, path, m);
  } else if (strcmp(type, "stadium") == 0) {
    m->type = SENSIM__MOTION_STADIUM;
    st = parse_stadium(obj, path, m);
  } else {
    static const char *const names[] = {"waypoints", "circle", "line", "stadium", NULL};
    char hint[96];
    st = sensim__fail(SENSIM_EINVAL, "%s.type: unknown motion '%s'%s (waypoints, circle, line, stadium)", path,
                      type, sensim__did_you_mean(hint, sizeof hint, type, names));
  }
  if (st != SENSIM_OK) sensim__motion_free(m);
  return st;
}

void sensim__motion_free(sensim__motion *m) {
  if (!m) return;
  free(m->wp);
  m->wp = NULL;
  m->nwp = 0;
  m->type = SENSIM__MOTION_NONE;
}

/* ---- evaluation ---------------------------------------------------------- */

/* Planar kinematics of the moving frame: position, velocity, acceleration
 * in the XY plane, heading (yaw) and its rate. */
typedef struct planar {
  double px, py, vx, vy, ax, ay, yaw, yaw_rate;
} planar;

/* Uniform circular motion of radius r about (cx, cy) at polar angle phi,
 * travelling counter-clockwise at speed v: a = v^2 / r towards the centre. */
static planar arc_ccw(double cx, double cy, double r, double phi, double v) {
  planar p;
  double c = cos(phi), s = sin(phi), w = v / r;
  p.px = cx + r * c;
  p.py = cy + r * s;
  p.vx = -v * s;
  p.vy = v * c;
  p.ax = -v * w * c;
  p.ay = -v * w * s;
  p.yaw = phi + PI / 2;
  p.yaw_rate = w;
  return p;
}

static planar straight(double x, double y, double vx, double yaw) {
  planar p = {x, y, vx, 0, 0, 0, yaw, 0};
  return p;
}

/* Counter-clockwise stadium centred at the origin, straights along X at
 * y = -r (outbound, +X) and y = +r (return, -X), half-circles about
 * (+-L/2, 0). Arc length s = 0 is the middle of the lower straight. */
static planar stadium_ccw(double len, double r, double v, double t) {
  double per = 2 * len + 2 * PI * r;
  double s = fmod(v * t, per);
  if (s < 0) s += per;
  double h = 0.5 * len, arc = PI * r;
  if (s < h) return straight(s, -r, v, 0);
  s -= h;
  if (s < arc) return arc_ccw(h, 0, r, -PI / 2 + s / r, v);
  s -= arc;
  if (s < len) return straight(h - s, r, -v, PI);
  s -= len;
  if (s < arc) return arc_ccw(-h, 0, r, PI / 2 + s / r, v);
  s -= arc;
  return straight(-h + s, -r, v, 0);
}

/* Mirror y (clockwise travel) and rotate by `heading` about Z. */
static planar orient(planar p, double dir, double heading) {
  if (dir < 0) {
    p.py = -p.py;
    p.vy = -p.vy;
    p.ay = -p.ay;
    p.yaw = -p.yaw;
    p.yaw_rate = -p.yaw_rate;
  }
  double c = cos(heading), s = sin(heading);
  planar q = p;
  q.px = c * p.px - s * p.py;
  q.py = s * p.px + c * p.py;
  q.vx = c * p.vx - s * p.vy;
  q.vy = s * p.vx + c * p.vy;
  q.ax = c * p.ax - s * p.ay;
  q.ay = s * p.ax + c * p.ay;
  q.yaw = p.yaw + heading;
  return q;
}

static void waypoint_pose(const sensim__motion *m, double t, sensim_vec3 *pos, double *yaw) {
  const double *w = m->wp;
  size_t n = m->nwp;
  double t0 = w[0], t1 = w[(n - 1) * 5];
  if (m->loop) {
    double span = t1 - t0;
    double u = fmod(t - t0, span);
    if (u < 0) u += span;
    t = t0 + u;
  }
  if (t <= t0 || n == 1) {
    *pos = v3(w[1], w[2], w[3]);
    *yaw = w[4];
    return;
  }
  if (t >= t1) {
    const double *r = w + (n - 1) * 5;
    *pos = v3(r[1], r[2], r[3]);
    *yaw = r[4];
    return;
  }
  /* Last row with time <= t (binary search; rows are strictly increasing). */
  size_t lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (w[mid * 5] <= t)
      lo = mid;
    else
      hi = mid;
  }
  const double *a = w + lo * 5, *b = w + hi * 5;
  double s = (t - a[0]) / (b[0] - a[0]);
  *pos = v3_lerp(v3(a[1], a[2], a[3]), v3(b[1], b[2], b[3]), s);
  *yaw = a[4] + (b[4] - a[4]) * s;
}

void sensim__motion_state(const sensim__motion *m, const sensim_pose *offset, double t,
                          sensim_body_state *out) {
  memset(out, 0, sizeof *out);
  planar p = {0};
  double z = 0;
  switch (m->type) {
  case SENSIM__MOTION_CIRCLE: {
    /* Polar angle theta = phase + dir * (v / r) t; the heading is the
     * tangent, theta + dir * pi / 2. */
    double w = m->speed / m->radius;
    double th = m->phase + m->dir * w * t, c = cos(th), s = sin(th);
    p.px = m->center.x + m->radius * c;
    p.py = m->center.y + m->radius * s;
    p.vx = -m->dir * m->speed * s;
    p.vy = m->dir * m->speed * c;
    p.ax = -m->speed * w * c;
    p.ay = -m->speed * w * s;
    p.yaw = th + m->dir * PI / 2;
    p.yaw_rate = m->dir * w;
    z = m->center.z;
    break;
  }
  case SENSIM__MOTION_STADIUM:
    p = orient(stadium_ccw(m->length, m->radius, m->speed, t), m->dir, m->phase);
    p.px += m->center.x;
    p.py += m->center.y;
    z = m->center.z;
    break;
  case SENSIM__MOTION_LINE: {
    sensim_vec3 v = m->velocity;
    sensim_vec3 pos = v3_add(m->start, v3_scale(v, t));
    double yaw = (v.x != 0 || v.y != 0) ? atan2(v.y, v.x) : 0.0;
    out->pose.pos = pos;
    out->pose.rot = q_exp(v3(0, 0, yaw));
    out->lin_vel = v;
    out->flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    break;
  }
  case SENSIM__MOTION_WAYPOINTS: {
    double yaw;
    waypoint_pose(m, t, &out->pose.pos, &yaw);
    out->pose.rot = q_exp(v3(0, 0, yaw));
    break;
  }
  default:
    out->pose.rot = q_make(1, 0, 0, 0);
    out->flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    break;
  }
  if (m->type == SENSIM__MOTION_CIRCLE || m->type == SENSIM__MOTION_STADIUM) {
    out->pose.pos = v3(p.px, p.py, z);
    out->pose.rot = q_exp(v3(0, 0, p.yaw));
    out->lin_vel = v3(p.vx, p.vy, 0);
    out->lin_acc = v3(p.ax, p.ay, 0);
    out->ang_vel = v3(0, 0, p.yaw_rate);
    out->flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
  }
  /* Rigid offset r = R_m o in the moving frame: v_b = v + w x r,
   * a_b = a + alpha x r + w x (w x r) (rigid-body kinematics, e.g. Craig,
   * Introduction to Robotics, 3rd ed., eqs. 5.12 and 6.10); alpha = 0 for
   * every analytic path except at the instants the turn rate jumps. */
  sensim_vec3 r = q_rotate(out->pose.rot, offset->pos);
  out->pose.pos = v3_add(out->pose.pos, r);
  out->pose.rot = q_normalize(q_mul(out->pose.rot, offset->rot));
  if (out->flags & SENSIM_STATE_VELOCITY) {
    sensim_vec3 w = out->ang_vel;
    sensim_vec3 wr = v3_cross(w, r);
    out->lin_vel = v3_add(out->lin_vel, wr);
    out->lin_acc = v3_add(out->lin_acc, v3_cross(w, wr));
  }
}

/* ---- bounds -------------------------------------------------------------- */

static double max_abs(double a, double b, double c) { return fmax(fabs(a), fmax(fabs(b), fabs(c))); }

/* The farthest |coordinate| each motion reaches over [0, duration], before
 * the offset, and the largest speed and acceleration it pushes. Bounds are
 * per axis and conservative where the path turns (a circle is bounded by
 * its centre plus its radius on every axis). */
sensim_status sensim__motion_check(const sensim__motion *m, const sensim_pose *offset, double duration,
                                   double horizon, const char *path) {
  char what[256];
  double reach = 0, speed = 0, accel = 0, turn = 0;
  /* The offset turns with the moving frame: it adds its length on every
   * axis, and w x r, w x (w x r) to velocity and acceleration. */
  double r = v3_norm(offset->pos);
  switch (m->type) {
  case SENSIM__MOTION_CIRCLE:
  case SENSIM__MOTION_STADIUM: {
    double extent = m->radius + (m->type == SENSIM__MOTION_STADIUM ? 0.5 * m->length : 0.0);
    if (!(extent <= SENSIM_COORD_MAX))
      return sensim__fail(SENSIM_EINVAL,
                          "%s.radius: a path %g m from its centre is beyond the world coordinate limit of %.0f m "
                          "(SENSIM_COORD_MAX)",
                          path, extent, SENSIM_COORD_MAX);
    reach = fmax(fabs(m->center.x), fabs(m->center.y)) + extent;
    reach = fmax(reach, fabs(m->center.z));
    speed = m->speed;
    turn = m->speed / m->radius;
    accel = m->speed * turn;
    if (!isfinite(turn) || !isfinite(accel))
      return sensim__fail(SENSIM_EINVAL, "%s.speed: %g m/s on a %g m radius turns at %g rad/s, which is not finite",
                          path, m->speed, m->radius, turn);
    break;
  }
  case SENSIM__MOTION_LINE: {
    sensim_vec3 s = m->start, v = m->velocity;
    snprintf(what, sizeof what, "%s.start", path);
    sensim_status st = sensim__check_coord(s, 0.0, what);
    if (st) return st;
    /* A straight line is farthest from the origin at one of its ends. */
    sensim_vec3 e = v3_add(s, v3_scale(v, duration));
    snprintf(what, sizeof what, "%s.velocity (%g, %g, %g) m/s at t = %g s (the duration)", path, v.x, v.y, v.z,
             duration);
    if ((st = sensim__check_coord(e, 0.0, what))) return st;
    reach = fmax(max_abs(s.x, s.y, s.z), max_abs(e.x, e.y, e.z));
    speed = v3_norm(v);
    break;
  }
  case SENSIM__MOTION_WAYPOINTS:
    /* Linear interpolation stays inside the box of the rows. */
    for (size_t i = 0; i < m->nwp; i++) {
      const double *w = m->wp + 5 * i;
      snprintf(what, sizeof what, "%s.points[%zu]", path, i);
      sensim_status st = sensim__check_coord(v3(w[1], w[2], w[3]), r, what);
      if (st) return st;
      reach = fmax(reach, max_abs(w[1], w[2], w[3]));
    }
    break;
  default:
    break;
  }
  snprintf(what, sizeof what, "%s (with the body's pose offset %g m)", path, r);
  if (!(reach + r <= SENSIM_COORD_MAX))
    return sensim__fail(SENSIM_EINVAL,
                        "%s: reaches %g m from the origin, beyond the world coordinate limit of %.0f m "
                        "(SENSIM_COORD_MAX)",
                        what, reach + r, SENSIM_COORD_MAX);
  if (m->type == SENSIM__MOTION_WAYPOINTS || m->type == SENSIM__MOTION_NONE) return SENSIM_OK;
  return sensim__check_reach(reach + r, speed + turn * r, accel + turn * turn * r, horizon, what);
}
