/* tests/core/math_tests.c: quaternions and poses (src/core/math.c) against
 * closed forms: slerp as a rotation about a fixed axis by s * angle,
 * Tait-Bryan angles against a rotation matrix written out by hand, pose
 * composition identities. */
#include <math.h>
#include "support/testutil.h"
#include "core/vecmath.h"

static const double PI = 3.14159265358979323846;

/* Two quaternions name the same rotation when q1 = +-q2. */
static void assert_same_rotation(sensim_quat a, sensim_quat b, double tol) {
  double d = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
  double sg = d < 0 ? -1.0 : 1.0;
  assert_near(a.w, sg * b.w, tol);
  assert_near(a.x, sg * b.x, tol);
  assert_near(a.y, sg * b.y, tol);
  assert_near(a.z, sg * b.z, tol);
}

static void assert_vec_near(sensim_vec3 a, sensim_vec3 b, double tol) {
  assert_near(a.x, b.x, tol);
  assert_near(a.y, b.y, tol);
  assert_near(a.z, b.z, tol);
}

/* A fixed, non-trivial unit quaternion and axis used as starting points. */
static sensim_quat some_rotation(void) {
  return sensim_quat_from_axis_angle(v3(0.3, -0.5, 0.8), 0.9);
}

/* slerp(a, a * exp(axis * angle), s) = a * exp(axis * s * angle) for
 * |angle| < pi (Shoemake 1985: constant angular velocity about one axis). */
static void check_slerp_closed_form(double angle, double tol) {
  sensim_quat a = some_rotation();
  sensim_vec3 axis = v3_normalize(v3(-0.2, 0.7, 0.4));
  sensim_quat b = q_mul(a, sensim_quat_from_axis_angle(axis, angle));
  for (int i = 0; i <= 20; i++) {
    double s = i / 20.0;
    sensim_quat got = sensim_quat_slerp(a, b, s);
    sensim_quat want = q_mul(a, sensim_quat_from_axis_angle(axis, s * angle));
    assert_same_rotation(got, want, tol);
    assert_near(q_norm(got), 1.0, 1e-12);
  }
}

static void test_slerp_matches_rotation_by_fraction_of_angle(void **state) {
  (void)state;
  check_slerp_closed_form(2.5, 1e-12);
  check_slerp_closed_form(-1.2, 1e-12);
  check_slerp_closed_form(0.3, 1e-12);
}

/* Rotations closer than 2 acos(0.9995) = 0.063 rad take the lerp-and-
 * normalise branch. Its error, as an angle on the unit quaternion sphere, is
 *   atan2(s sin W, 1 - s + s cos W) - s W ~ W^3 s (1 - s)(1 - 2 s) / 6
 * for quaternions W rad apart (half the rotation angle; Taylor series of
 * the atan2), and it bounds each component's error. 1e-3 rad of rotation
 * (W = 5e-4) stays below 1e-11. */
static void test_slerp_near_parallel_branch_matches_closed_form(void **state) {
  (void)state;
  check_slerp_closed_form(1e-3, 1e-11);
  check_slerp_closed_form(-1e-6, 1e-14);
  /* Identical inputs give back the input for every s. */
  sensim_quat a = some_rotation();
  assert_same_rotation(sensim_quat_slerp(a, a, 0.37), a, 1e-15);
}

/* Just inside the branch boundary (0.06 rad of rotation, W = 0.03) the
 * series above peaks at W^3 * 0.0962 / 6 = 4.3e-7 (s = 0.211, where
 * s (1 - s)(1 - 2 s) = 0.0962); 5 % margin for the next term. */
static void test_slerp_near_parallel_branch_error_within_series_bound(void **state) {
  (void)state;
  double angle = 0.06, W = 0.5 * angle;
  check_slerp_closed_form(angle, 1.05 * W * W * W * 0.0963 / 6.0 + 1e-12);
}

/* q and -q are the same rotation; slerp must take the shorter arc either
 * way, so slerp(a, -b) rotates vectors exactly as slerp(a, b). */
static void test_slerp_antipodal_input_takes_shorter_arc(void **state) {
  (void)state;
  sensim_quat a = some_rotation();
  sensim_vec3 axis = v3_normalize(v3(1, 2, -1));
  sensim_quat b = q_mul(a, sensim_quat_from_axis_angle(axis, 1.1));
  sensim_quat nb = q_make(-b.w, -b.x, -b.y, -b.z);
  for (int i = 0; i <= 10; i++) {
    double s = i / 10.0;
    assert_same_rotation(sensim_quat_slerp(a, nb, s), sensim_quat_slerp(a, b, s), 1e-12);
  }
  /* Identity to 270 deg about Z: the short way is -90 deg, so halfway is
   * -45 deg about Z. from_axis_angle(z, 1.5 pi) has w = cos(0.75 pi) < 0. */
  sensim_quat id = q_make(1, 0, 0, 0);
  sensim_quat q270 = sensim_quat_from_axis_angle(v3(0, 0, 1), 1.5 * PI);
  assert_true(q270.w < 0);
  sensim_quat half = sensim_quat_slerp(id, q270, 0.5);
  assert_same_rotation(half, sensim_quat_from_axis_angle(v3(0, 0, 1), -0.25 * PI), 1e-12);
  sensim_vec3 x = sensim_quat_rotate(half, v3(1, 0, 0));
  assert_vec_near(x, v3(cos(-0.25 * PI), sin(-0.25 * PI), 0), 1e-12);
}

/* Intrinsic Z-Y'-X'' = extrinsic X, then Y, then Z: R = Rz(yaw) Ry(pitch)
 * Rx(roll). Checked by rotating a vector through three separate axis
 * rotations. */
static void test_ypr_equals_composed_axis_rotations(void **state) {
  (void)state;
  const double angles[][3] = {{0.3, -0.4, 1.2}, {-2.9, 1.1, -0.2}, {1.0, 0.0, 0.0}, {0.0, 1.4, 3.0}};
  const sensim_vec3 vs[] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.3, -2.0, 0.7}};
  for (size_t i = 0; i < sizeof angles / sizeof angles[0]; i++) {
    double y = angles[i][0], p = angles[i][1], r = angles[i][2];
    sensim_quat q = sensim_quat_from_ypr(y, p, r);
    assert_near(q_norm(q), 1.0, 1e-14);
    for (size_t j = 0; j < sizeof vs / sizeof vs[0]; j++) {
      sensim_vec3 w = sensim_quat_rotate(sensim_quat_from_axis_angle(v3(1, 0, 0), r), vs[j]);
      w = sensim_quat_rotate(sensim_quat_from_axis_angle(v3(0, 1, 0), p), w);
      w = sensim_quat_rotate(sensim_quat_from_axis_angle(v3(0, 0, 1), y), w);
      assert_vec_near(sensim_quat_rotate(q, vs[j]), w, 1e-12);
    }
  }
}

/* The product Rz(yaw) Ry(pitch) Rx(roll) of the elementary right-handed
 * rotation matrices, multiplied out by hand (active, body to world):
 *   [ cy cp   cy sp sr - sy cr   cy sp cr + sy sr ]
 *   [ sy cp   sy sp sr + cy cr   sy sp cr - cy sr ]
 *   [ -sp     cp sr              cp cr            ]
 * Its columns are the images of the unit axes. */
static void test_ypr_matches_hand_written_rotation_matrix(void **state) {
  (void)state;
  const double y = 0.7, p = -0.35, r = 2.1;
  double cy = cos(y), sy = sin(y), cp = cos(p), sp = sin(p), cr = cos(r), sr = sin(r);
  const double R[3][3] = {{cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr},
                          {sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr},
                          {-sp, cp * sr, cp * cr}};
  sensim_quat q = sensim_quat_from_ypr(y, p, r);
  const sensim_vec3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int c = 0; c < 3; c++) {
    sensim_vec3 col = sensim_quat_rotate(q, e[c]);
    assert_near(col.x, R[0][c], 1e-14);
    assert_near(col.y, R[1][c], 1e-14);
    assert_near(col.z, R[2][c], 1e-14);
  }
  /* Yaw alone by 90 deg turns body X (forward) into world Y (left). */
  assert_vec_near(sensim_quat_rotate(sensim_quat_from_ypr(0.5 * PI, 0, 0), v3(1, 0, 0)), v3(0, 1, 0), 1e-15);
  /* Pitch alone by +90 deg turns X down to -Z (right-handed about +Y). */
  assert_vec_near(sensim_quat_rotate(sensim_quat_from_ypr(0, 0.5 * PI, 0), v3(1, 0, 0)), v3(0, 0, -1), 1e-15);
}

static void test_axis_angle_normalises_axis_and_zero_axis_gives_identity(void **state) {
  (void)state;
  sensim_quat a = sensim_quat_from_axis_angle(v3(0, 0, 5), 0.8);
  sensim_quat b = sensim_quat_from_axis_angle(v3(0, 0, 1), 0.8);
  assert_same_rotation(a, b, 1e-15);
  assert_near(a.w, cos(0.4), 1e-15);
  assert_near(a.z, sin(0.4), 1e-15);
  sensim_quat z = sensim_quat_from_axis_angle(v3(0, 0, 0), 1.0);
  assert_same_rotation(z, q_make(1, 0, 0, 0), 0);
}

static sensim_pose make_pose(double x, double y, double z, double yaw, double pitch, double roll) {
  sensim_pose p;
  p.pos = v3(x, y, z);
  p.rot = sensim_quat_from_ypr(yaw, pitch, roll);
  return p;
}

/* The inverse of a pose written out: rot^-1 and -rot^-1 pos. */
static sensim_pose pose_inverse(sensim_pose p) {
  sensim_pose r;
  r.rot = q_conj(p.rot);
  r.pos = v3_scale(q_rotate(r.rot, p.pos), -1.0);
  return r;
}

static void test_pose_compose_apply_round_trip(void **state) {
  (void)state;
  sensim_pose ab = make_pose(1.0, -2.0, 0.5, 0.4, -0.2, 1.3);
  sensim_pose bc = make_pose(-0.3, 0.7, 2.0, -1.9, 0.6, 0.1);
  sensim_pose ac = sensim_pose_compose(ab, bc);
  const sensim_vec3 vs[] = {{0, 0, 0}, {1, 2, 3}, {-4.5, 0.25, 7}};
  for (size_t i = 0; i < 3; i++) {
    /* C to A directly equals C to B then B to A. */
    assert_vec_near(sensim_pose_apply(ac, vs[i]), sensim_pose_apply(ab, sensim_pose_apply(bc, vs[i])), 1e-12);
    /* Out and back through the inverse gives the point back. */
    sensim_vec3 there = sensim_pose_apply(ac, vs[i]);
    assert_vec_near(sensim_pose_apply(pose_inverse(ac), there), vs[i], 1e-12);
  }
  /* Composing with the inverse gives the identity. */
  sensim_pose id = sensim_pose_compose(ab, pose_inverse(ab));
  assert_vec_near(id.pos, v3(0, 0, 0), 1e-14);
  assert_same_rotation(id.rot, q_make(1, 0, 0, 0), 1e-14);
  /* The identity is neutral on both sides. */
  sensim_pose l = sensim_pose_compose(sensim_pose_identity(), ab);
  sensim_pose r = sensim_pose_compose(ab, sensim_pose_identity());
  assert_vec_near(l.pos, ab.pos, 1e-15);
  assert_vec_near(r.pos, ab.pos, 1e-15);
  assert_same_rotation(l.rot, ab.rot, 1e-15);
  assert_same_rotation(r.rot, ab.rot, 1e-15);
  /* A pure translation then a pure rotation: p = R t + 0 for the point 0. */
  sensim_pose rot_only = {{0, 0, 0}, sensim_quat_from_axis_angle(v3(0, 0, 1), 0.5 * PI)};
  sensim_pose trans_only = {{1, 0, 0}, {1, 0, 0, 0}};
  assert_vec_near(sensim_pose_compose(rot_only, trans_only).pos, v3(0, 1, 0), 1e-15);
  assert_vec_near(sensim_pose_compose(trans_only, rot_only).pos, v3(1, 0, 0), 1e-15);
}

static void test_pose_compose_is_associative(void **state) {
  (void)state;
  sensim_pose a = make_pose(1, 2, 3, 0.1, 0.2, 0.3);
  sensim_pose b = make_pose(-2, 0.5, 1, -1.4, 0.9, -2.2);
  sensim_pose c = make_pose(0.3, -0.7, 4, 2.7, -1.1, 0.4);
  sensim_pose l = sensim_pose_compose(sensim_pose_compose(a, b), c);
  sensim_pose r = sensim_pose_compose(a, sensim_pose_compose(b, c));
  assert_vec_near(l.pos, r.pos, 1e-12);
  assert_same_rotation(l.rot, r.rot, 1e-14);
}

/* A rotation is an isometry: |q v| = |v| and angles between vectors are
 * kept, for random unit quaternions and vectors. */
static void test_quat_rotate_preserves_length_and_dot(void **state) {
  (void)state;
  sensim_rng r;
  sensim_rng_init(&r, 42, 0, 0, 0);
  for (int i = 0; i < 1000; i++) {
    sensim_quat q = q_normalize(q_make(sensim_rng_normal(&r), sensim_rng_normal(&r), sensim_rng_normal(&r),
                                       sensim_rng_normal(&r)));
    sensim_vec3 a = v3(10 * sensim_rng_normal(&r), 10 * sensim_rng_normal(&r), 10 * sensim_rng_normal(&r));
    sensim_vec3 b = v3(sensim_rng_normal(&r), sensim_rng_normal(&r), sensim_rng_normal(&r));
    sensim_vec3 qa = sensim_quat_rotate(q, a), qb = sensim_quat_rotate(q, b);
    assert_near(v3_norm(qa), v3_norm(a), 1e-12 * (1 + v3_norm(a)));
    assert_near(v3_dot(qa, qb), v3_dot(a, b), 1e-12 * (1 + v3_norm(a) * v3_norm(b)));
    /* Handedness is kept too: (qa x qb) = q (a x b). */
    assert_vec_near(v3_cross(qa, qb), sensim_quat_rotate(q, v3_cross(a, b)), 1e-11 * (1 + v3_norm(a) * v3_norm(b)));
  }
}

int sensim_test_math(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_slerp_matches_rotation_by_fraction_of_angle),
      cmocka_unit_test(test_slerp_near_parallel_branch_matches_closed_form),
      cmocka_unit_test(test_slerp_near_parallel_branch_error_within_series_bound),
      cmocka_unit_test(test_slerp_antipodal_input_takes_shorter_arc),
      cmocka_unit_test(test_ypr_equals_composed_axis_rotations),
      cmocka_unit_test(test_ypr_matches_hand_written_rotation_matrix),
      cmocka_unit_test(test_axis_angle_normalises_axis_and_zero_axis_gives_identity),
      cmocka_unit_test(test_pose_compose_apply_round_trip),
      cmocka_unit_test(test_pose_compose_is_associative),
      cmocka_unit_test(test_quat_rotate_preserves_length_and_dot),
  };
  return cmocka_run_group_tests_name("math", tests, NULL, NULL);
}
