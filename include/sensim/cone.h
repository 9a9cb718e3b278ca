/* sensim/cone.h: the cone sensor, a function-based detection sensor.
 *
 * The field of view is an elliptical cone with its apex at the sensor
 * origin. In the cone's own frame (z forward) it is
 *
 *   x^2 / (z^2 tan^2(theta/2)) + y^2 / (z^2 tan^2(phi/2)) <= 1,  0 <= z <= r
 *
 * with theta the horizontal and phi the vertical full angle and r the
 * length (a flat end cap at z = r). The cone frame is the sensor frame
 * (REP 103: X forward, Y left, Z up) with its axes renamed:
 *
 *   cone x = sensor Y (left),  cone y = sensor Z (up),  cone z = sensor X
 *
 * a right-handed frame (x cross y = z), so theta is measured in the
 * sensor's XY plane and phi in its XZ plane.
 *
 * Each frame reports the nearest point of any body's mesh inside the cone
 * (sensim_detection, frame.h): its range, its azimuth atan2(Y, X)
 * (counter-clockwise from +X about +Z, positive to the left), its
 * elevation, the point in the sensor frame, the body's ids, and its speed
 * three ways (docs/cone.md). The carrier body's own mesh is never detected.
 *
 * Elevation: EXACT and RAYS report the true spherical elevation
 * atan2(Z, sqrt(X^2 + Y^2)) (positive up), the lidar's sensim_beam
 * convention. LINES, the published mode, reports the thesis's Eq. 3.8,
 * atan(y / z) in the cone frame = atan2(Z, X): the angle in the sensor's
 * vertical XZ plane, which equals the spherical one only when Y = 0.
 *
 * Speed: `speed` is the thesis's Eq. 3.9, |q_k - q_(k-1)| / (t_k - t_(k-1))
 * with q the nearest points (sensor frame) of two consecutive captures;
 * `speed_diff` the range rate by differences, (R_k - R_(k-1)) / (t_k -
 * t_(k-1)); `radial_speed` and `rel_vel` the exact ones from the bodies'
 * velocities.
 *
 * Methods (docs/cone.md):
 *   LINES  the published method: every quadrilateral face covered by N
 *          segments clipped to the cone; angular error bounded by the line
 *          spacing. Of two equally near points (within 1e-12 relative) the
 *          upper one (larger sensor Z) wins, the thesis's tie rule: its
 *          Table 2 elevations are positive.
 *   EXACT  the nearest point of every triangle clipped to the cone, exact
 *          to floating-point precision.
 *   RAYS   a grid of rays through the ray-tracing kernel; the error is the
 *          grid's sampling error (docs/cone.md states the bound).
 *
 * The schedule's window (sensor.h) defaults to 1 / rate: the published
 * speeds need the scene at the previous capture time, which must lie inside
 * the window. A window shorter than 1 / rate gives speed = speed_diff = NaN. */
#ifndef SENSIM_CONE_H
#define SENSIM_CONE_H

#include "sensim/export.h"

#include "sensim/sensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sensim_cone_method {
  SENSIM_CONE_LINES = 0, /* published: N lines per quadrilateral face */
  SENSIM_CONE_EXACT = 1, /* exact nearest point of each triangle in the cone */
  SENSIM_CONE_RAYS = 2   /* rays through the kernel, rays x rays grid */
} sensim_cone_method;

typedef struct sensim_cone_params {
  double theta;              /* horizontal full angle (in the sensor XY plane), rad, (0, pi) [pi/2] */
  double phi;                /* vertical full angle (in the sensor XZ plane), rad, (0, pi) [pi/2] */
  double length;             /* r: cone length along the axis, m, > 0 [10] */
  sensim_cone_method method; /* [SENSIM_CONE_EXACT] */
  int lines;                 /* LINES: segments per face N, [2, 100000] [10] */
  int rays;                  /* RAYS: rays per axis of the sampling grid, [2, 1024] [65] */
  int published_speed;       /* nonzero: compute speed and speed_diff (one more query per frame) [1] */
} sensim_cone_params;

/* Defaults: 90 deg x 90 deg, 10 m, exact method, 10 lines, 65 rays per
 * axis, published speed on. */
SENSIM_API void sensim_cone_params_init(sensim_cone_params *p);

/* Check every field of `p`: SENSIM_EINVAL with a message naming the field
 * for an angle that is not finite or not in (0, pi), a length that is not
 * finite and > 0, an unknown method, or lines / rays out of range for the
 * chosen method. */
SENSIM_API sensim_status sensim_cone_params_check(const sensim_cone_params *p);

/* Create a cone sensor (raw payload SENSIM_PAYLOAD_DETECTION, one
 * sensim_detection per frame). `sp` and `cp` are copied. On failure nothing
 * is created and *out is left unchanged. */
SENSIM_API sensim_status sensim_cone_create(sensim_world *world, const sensim_sensor_params *sp,
                                 const sensim_cone_params *cp, sensim_sensor **out);

/* ---- geometry in the cone frame (pure functions, any thread) -----------
 * They take a shape filled by sensim_cone_shape_init. A point with a NaN or
 * infinite coordinate is never inside: the functions then report nothing
 * (0, or a distance of INFINITY); so do NULL arguments. */

/* The cone's shape, from validated parameters. */
typedef struct sensim_cone_shape {
  double tan_h;  /* tan(theta / 2) */
  double tan_v;  /* tan(phi / 2) */
  double length; /* r, m */
} sensim_cone_shape;

/* Fill `k` from `cp` (sensim_cone_params_check's failures; `k` unchanged). */
SENSIM_API sensim_status sensim_cone_shape_init(const sensim_cone_params *cp, sensim_cone_shape *k);

/* Map a point between the sensor frame (X, Y, Z) and the cone frame
 * (x, y, z) = (Y, Z, X). In and out may alias. */
SENSIM_API void sensim_cone_from_sensor(const double sensor[3], double cone[3]);
SENSIM_API void sensim_cone_to_sensor(const double cone[3], double sensor[3]);

/* 1 if the cone-frame point p lies in the cone (boundary included). */
SENSIM_API int sensim_cone_inside(const sensim_cone_shape *k, const double p[3]);

/* Real roots s of the lateral-surface equation along p(s) = p0 + s (p1 - p0)
 * (the double cone x^2/tan_h^2 + y^2/tan_v^2 = z^2, either nappe, no length
 * limit), discriminant tested first: returns the number of distinct roots
 * (0, 1 tangent, 2) in ascending order in s[], or -1 when the equation holds
 * for every s (the segment lies on the surface). A segment parallel to a
 * generator of the cone makes the equation linear: at most one root. */
SENSIM_API int sensim_cone_surface_roots(const sensim_cone_shape *k, const double p0[3], const double p1[3],
                              double s[2]);

/* Clip the segment p0 -> p1 to the cone: returns 1 and the parameter range
 * [s[0], s[1]] (0 <= s[0] <= s[1] <= 1) of the part inside, or 0 if no point
 * is inside. A part reaching beyond the end cap ends at z = r (the far
 * intersection slides along the segment to the cap plane). */
SENSIM_API int sensim_cone_clip_segment(const sensim_cone_shape *k, const double p0[3], const double p1[3],
                             double s[2]);

/* Nearest point to the apex of the part of segment p0 -> p1 inside the cone
 * (clamped projection of the origin on the clipped segment): its distance,
 * m, and the point in out (may be NULL); INFINITY if none is inside. */
SENSIM_API double sensim_cone_segment_nearest(const sensim_cone_shape *k, const double p0[3],
                                   const double p1[3], double out[3]);

/* The published lines method on one quadrilateral face v0..v3 (v0 v1 and
 * v3 v2 opposite edges): the nearest point over its n >= 2 segments
 * L_i = (v0 + (v3 - v0) i/(n-1), v1 + (v2 - v1) i/(n-1)). A triangle
 * (a, b, c) is the degenerate quad (a, b, c, c). Of equally near points
 * (1e-12 relative) the one with the larger y. Distance, m, or INFINITY. */
SENSIM_API double sensim_cone_quad_nearest_lines(const sensim_cone_shape *k, const double v0[3],
                                      const double v1[3], const double v2[3], const double v3[3],
                                      int n, double out[3]);

/* The exact nearest point to the apex of triangle (v0, v1, v2) clipped to
 * the cone. Distance, m, or INFINITY if the triangle misses the cone. */
SENSIM_API double sensim_cone_triangle_nearest(const sensim_cone_shape *k, const double v0[3],
                                    const double v1[3], const double v2[3], double out[3]);

#ifdef __cplusplus
}
#endif
#endif
