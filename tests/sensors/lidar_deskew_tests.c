/* tests/sensors/lidar_deskew_tests.c: the "deskew" filter on hand-made
 * frames. Each point moves by the pose interpolated at its firing time, a
 * static sensor's cloud is left as it is (also through a chain), and a
 * frame without a usable trajectory or bad parameters are refused. */
#include <math.h>
#include <string.h>
#include "filters/chain.h"
#include "support/testutil.h"
#include "sensors/lidar_fixtures.h"

/* ---- deskew on hand-made frames ----------------------------------------- */

static sensim_pose pose_xyzyaw(double x, double y, double z, double yaw) {
  sensim_pose p = {{x, y, z}, sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, yaw)};
  return p;
}

/* p in frame b expressed in frame a, both given in the world. */
static sensim_vec3 rebase(sensim_pose a, sensim_pose b, sensim_vec3 p) {
  sensim_vec3 w = sensim_pose_apply(b, p);
  sensim_vec3 d = {w.x - a.pos.x, w.y - a.pos.y, w.z - a.pos.z};
  sensim_quat ai = {a.rot.w, -a.rot.x, -a.rot.y, -a.rot.z};
  return sensim_quat_rotate(ai, d);
}

static sensim_frame points_frame(sensim_point *pts, size_t n, sensim_pose *traj, uint32_t ntraj, double window) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_POINTS;
  f.data = pts;
  f.count = n;
  f.width = (uint32_t)n;
  f.height = 1;
  f.t_capture = 1.0;
  f.window = window;
  f.trajectory = traj;
  f.ntraj = ntraj;
  if (ntraj) f.pose = traj[ntraj - 1];
  return f;
}

/* Poses at -0.1, -0.05, 0 s: turning and translating. A point fired at
 * time t is mapped by T(t_c)^-1 T(t), with T(t) interpolated linearly in
 * position and by slerp in rotation (computed here with the public slerp). */
static void test_deskew_interpolates_pose_at_firing_time(void **state) {
  (void)state;
  sensim_pose traj[3] = {pose_xyzyaw(0, 0, 0, 0), pose_xyzyaw(1, 0.5, 0, 0.2), pose_xyzyaw(2, 0, 0.2, 0.5)};
  traj[2].rot = sensim_pose_compose(traj[2], (sensim_pose){{0, 0, 0}, sensim_quat_from_ypr(0, 0.1, -0.05)}).rot;
  const double toff[5] = {-0.075, -0.02, 0.0, -0.1, -0.3};
  sensim_point pts[6];
  memset(pts, 0, sizeof pts);
  for (int i = 0; i < 5; i++) {
    pts[i].x = 3.0f + i;
    pts[i].y = -1.0f + 0.5f * i;
    pts[i].z = 0.25f * i;
    pts[i].time_offset = (float)toff[i];
  }
  pts[5].x = NAN, pts[5].y = NAN, pts[5].z = NAN, pts[5].time_offset = -0.05f; /* missing point */
  sensim_point orig[6];
  memcpy(orig, pts, sizeof pts);
  sensim_frame f = points_frame(pts, 6, traj, 3, 0.1);
  SENSIM_OK_OR_FAIL(run_deskew(&f));
  for (int i = 0; i < 5; i++) {
    double t = toff[i] < -0.1 ? -0.1 : toff[i]; /* before the window: its start */
    double u = (t + 0.1) / 0.05;
    int k = u >= 2 ? 1 : (int)u;
    double s = u - k;
    sensim_pose at;
    at.pos.x = traj[k].pos.x + s * (traj[k + 1].pos.x - traj[k].pos.x);
    at.pos.y = traj[k].pos.y + s * (traj[k + 1].pos.y - traj[k].pos.y);
    at.pos.z = traj[k].pos.z + s * (traj[k + 1].pos.z - traj[k].pos.z);
    at.rot = sensim_quat_slerp(traj[k].rot, traj[k + 1].rot, s);
    sensim_vec3 want = rebase(traj[2], at, (sensim_vec3){orig[i].x, orig[i].y, orig[i].z});
    assert_near(pts[i].x, want.x, 2e-6 * 10);
    assert_near(pts[i].y, want.y, 2e-6 * 10);
    assert_near(pts[i].z, want.z, 2e-6 * 10);
    assert_near(pts[i].time_offset, orig[i].time_offset, 0);
    assert_int_equal(pts[i].ring, orig[i].ring);
  }
  /* A point fired at the capture is already in its frame. */
  assert_near(pts[2].x, orig[2].x, 1e-5);
  assert_true(isnan(pts[5].x) && isnan(pts[5].y) && isnan(pts[5].z));
}

static void test_deskew_leaves_static_sensor_cloud_unchanged(void **state) {
  (void)state;
  sensim_pose traj[5];
  for (int i = 0; i < 5; i++) traj[i] = pose_xyzyaw(3, 4, 1, 0.7);
  sensim_point pts[50], orig[50];
  for (int i = 0; i < 50; i++) {
    memset(&pts[i], 0, sizeof pts[i]);
    pts[i].x = (float)(10 * cos(i * 0.4));
    pts[i].y = (float)(10 * sin(i * 0.4));
    pts[i].z = (float)(0.1 * i - 2);
    pts[i].time_offset = (float)(-0.1 * i / 49.0);
    pts[i].ring = (uint16_t)(i % 16);
  }
  memcpy(orig, pts, sizeof pts);
  sensim_frame f = points_frame(pts, 50, traj, 5, 0.1);
  SENSIM_OK_OR_FAIL(run_deskew(&f));
  for (int i = 0; i < 50; i++) {
    assert_near(pts[i].x, orig[i].x, 1e-5);
    assert_near(pts[i].y, orig[i].y, 1e-5);
    assert_near(pts[i].z, orig[i].z, 1e-5);
  }
  /* One pose (a sensor that cannot move): untouched, bit for bit. */
  memcpy(pts, orig, sizeof pts);
  f = points_frame(pts, 50, traj, 1, 0.1);
  SENSIM_OK_OR_FAIL(run_deskew(&f));
  assert_memory_equal(pts, orig, sizeof pts);
}

/* End to end: the cloud of a lidar on a body held still (a trajectory of
 * equal poses) is the same with and without "deskew" in its chain. */
static void test_deskew_in_chain_keeps_static_lidar_cloud(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 4);
  sensim_shape sh = {SENSIM_SHAPE_BOX, {2, 20, 4}, 0};
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, NULL, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){6, 0, 0};
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_lidar_params lp;
  SENSIM_OK_OR_FAIL(sensim_lidar_preset("VLP-16", &lp));
  sensim_body_params cp;
  sensim_body_params_init(&cp);
  sensim_body *carrier = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &cp, &carrier));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = carrier;
  sp.mount = (sensim_pose){{0.2, 0, 0.5}, sensim_quat_from_ypr(0.3, 0.05, 0)};
  sensim_sensor *a = NULL, *d = NULL;
  sp.name = "plain";
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &a));
  sp.name = "deskewed";
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &d));
  /* deskew takes points, not beams: refused, chain unchanged. */
  assert_int_equal(sensim_sensor_add_filter(d, "deskew", NULL), SENSIM_ETYPE);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(a, "points", NULL));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(d, "points", NULL));
  assert_int_equal(sensim_sensor_add_filter(d, "deskew", "{\"to\": 0}"), SENSIM_EINVAL);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(d, "deskew", NULL));
  for (int i = 0; i <= 20; i++) {
    sensim_body_state st = test_state_xyzyaw(-1, 0.5, 0.6, 0.2);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(carrier, i * 0.01, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, i * 0.01));
  }
  for (int k = 0; k < 3; k++) {
    const sensim_frame *fa = NULL, *fd = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(a, &fa));
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(d, &fd));
    assert_non_null(fa);
    assert_non_null(fd);
    assert_true(fa->count > 1000);
    assert_int_equal(fa->count, fd->count);
    if (k > 0) assert_true(fd->ntraj >= 2); /* frame 0's window starts before the first state */
    const sensim_point *pa = fa->data, *pd = fd->data;
    for (size_t i = 0; i < fa->count; i++) {
      assert_near(pd[i].x, pa[i].x, 1e-5);
      assert_near(pd[i].y, pa[i].y, 1e-5);
      assert_near(pd[i].z, pa[i].z, 1e-5);
    }
  }
  sensim_world_destroy(w);
}

static void test_deskew_without_trajectory_is_etype(void **state) {
  (void)state;
  sensim_point pts[2];
  memset(pts, 0, sizeof pts);
  pts[0].x = 1.0f;
  pts[1].time_offset = -0.05f;
  sensim_point orig[2];
  memcpy(orig, pts, sizeof pts);
  sensim_frame f = points_frame(pts, 2, NULL, 0, 0.1);
  assert_int_equal(run_deskew(&f), SENSIM_ETYPE);
  assert_non_null(strstr(sensim_last_error(), "deskew needs the lidar's trajectory"));
  assert_memory_equal(pts, orig, sizeof pts);
  /* A trajectory with a NaN pose: refused, points untouched. */
  sensim_pose traj[2] = {pose_xyzyaw(0, 0, 0, 0), pose_xyzyaw(NAN, 0, 0, 0)};
  f = points_frame(pts, 2, traj, 2, 0.1);
  assert_int_equal(run_deskew(&f), SENSIM_EINVAL);
  assert_memory_equal(pts, orig, sizeof pts);
  /* Unknown parameters are refused at creation. */
  const sensim_builtin_filter *d = sensim__filter_find("deskew");
  cJSON *params = cJSON_Parse("{\"window\": 1}");
  void *user = NULL;
  assert_int_equal(d->create(params, &user), SENSIM_EINVAL);
  cJSON_Delete(params);
}

int sensim_test_lidar_deskew(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_deskew_interpolates_pose_at_firing_time),
      cmocka_unit_test(test_deskew_leaves_static_sensor_cloud_unchanged),
      cmocka_unit_test(test_deskew_in_chain_keeps_static_lidar_cloud),
      cmocka_unit_test(test_deskew_without_trajectory_is_etype),
  };
  return cmocka_run_group_tests_name("lidar_deskew", tests, NULL, NULL);
}
