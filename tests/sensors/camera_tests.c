/* Camera: pinhole geometry against closed forms, motion blur against
 * speed x exposure, labels and depth planes, bad input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"

static const sensim_frame *capture_once(sensim_world *w, sensim_sensor *s, double t) {
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  return f;
}

static void test_camera_sphere_covers_pinhole_predicted_radius(void **state) {
  (void)state;
  const double R = 1.0, D = 6.0;
  sensim_world *w = test_black_world(0, 0.0f);
  sensim_material mat;
  sensim_material_init(&mat);
  sensim_mesh *m = NULL;
  sensim_shape sh = {SENSIM_SHAPE_SPHERE, {R, 0, 0}, 256};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &mat, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  bp.is_static = 1;
  bp.instance_id = 77;
  bp.class_id = 5;
  bp.pose.pos = (sensim_vec3){D, 0, 0};
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 400;
  cp.height = 300;
  cp.hfov = 60.0 * M_PI / 180.0;
  cp.samples = 1;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "labels", NULL));
  const sensim_frame *f = capture_once(w, cam, 0.0);
  assert_int_equal(f->type, SENSIM_PAYLOAD_LABELS);
  const sensim_label *lab = f->data;
  /* The silhouette of a sphere seen along its axis is a cone of half-angle
   * asin(R / D); a pinhole maps it to a circle of radius fx tan(asin(R/D)). */
  double fx = 0.5 * cp.width / tan(0.5 * cp.hfov);
  double r_pred = fx * tan(asin(R / D));
  size_t count = 0;
  double su = 0, sv = 0;
  for (uint32_t y = 0; y < f->height; y++)
    for (uint32_t x = 0; x < f->width; x++)
      if (lab[(size_t)y * f->width + x].instance_id == 77) {
        assert_int_equal(lab[(size_t)y * f->width + x].class_id, 5);
        count++;
        su += x;
        sv += y;
      }
  double r_meas = sqrt(count / M_PI);
  /* Pixel quantisation of a disc's area is O(perimeter) pixels with zero
   * mean; the tessellated sphere (256 segments) is 0.01% smaller. 0.5 px is
   * about 8 standard deviations of the quantisation error at r ~ 80 px. */
  assert_near(r_meas, r_pred, 0.5);
  /* Centred on the principal point ((W - 1) / 2, (H - 1) / 2) in OpenCV's
   * pixel coordinates (pixel centres at integers). */
  assert_near(su / count, 199.5, 0.2);
  assert_near(sv / count, 149.5, 0.2);
  sensim_world_destroy(w);
}

static void test_camera_project_matches_rendered_point(void **state) {
  (void)state;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  double u, v;
  /* 45 deg left of the axis lands on the image's left edge (u = -0.5 in
   * OpenCV's convention) for hfov 90. */
  SENSIM_OK_OR_FAIL(sensim_camera_project(&cp, (sensim_vec3){1, 1, 0}, &u, &v));
  assert_near(u, -0.5, 1e-9);
  assert_near(v, (cp.height - 1) / 2.0, 1e-9);
  SENSIM_OK_OR_FAIL(sensim_camera_project(&cp, (sensim_vec3){2, 0, -1}, &u, &v));
  assert_near(u, (cp.width - 1) / 2.0, 1e-9);
  assert_near(v, (cp.height - 1) / 2.0 + 0.5 * 320.0, 1e-9); /* fx = 320 for 640 px, 90 deg */
  assert_int_equal(sensim_camera_project(&cp, (sensim_vec3){-1, 0, 0}, &u, &v), SENSIM_EINVAL);
}

/* A wall moving sideways at v during the exposure T smears its edge over
 * fx v T / D pixels, with a linear ramp (uniform exposure). */
static void test_camera_motion_blur_widens_edge_by_speed_times_exposure(void **state) {
  (void)state;
  const double D = 5.0, v = 2.0, T = 0.05;
  /* Ambient light only, so the wall looks the same from every angle. */
  sensim_world *w = test_black_world(2, 1.0f);
  sensim_material mat;
  sensim_material_init(&mat);
  sensim_mesh *m = NULL;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {0.1, 20, 20}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &mat, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  sensim_body *wall = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &wall));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 10;
  sp.phase = 0.1;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 640;
  cp.height = 8;
  cp.samples = 256;
  cp.exposure_time = T;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  const sensim_frame *f = NULL;
  for (int i = 0; i <= 105; i++) {
    double t = i * 0.001;
    /* The wall's +Y edge is at y = e(t) = v (t - 0.075): it crosses the
     * optical axis at mid-exposure. */
    sensim_body_state s = test_state_xyzyaw(D + 0.05, v * (t - 0.075) - 10.0, 0, 0);
    s.flags = SENSIM_STATE_VELOCITY;
    s.lin_vel.y = v;
    SENSIM_OK_OR_FAIL(sensim_body_push_state(wall, t, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
    if (f) break; /* valid until the next poll */
  }
  assert_non_null(f);
  const float *rgb = f->data;
  const double fx = 320.0;
  const double width_pred = fx * v * T / D; /* 6.4 px */
  const double hi = 0.5 / M_PI;           /* albedo / pi x the ambient irradiance, 1 */
  /* Across row 4: 0 left of the smear, hi right of it, a linear ramp between. */
  double sum = 0;
  int ramp = 0;
  for (uint32_t x = 0; x < f->width; x++) {
    double val = rgb[3 * (4 * (size_t)f->width + x)] / hi;
    sum += val;
    if (val > 0.02 && val < 0.98) ramp++;
  }
  /* The integral of the profile places the edge at its mid-exposure
   * position (the image centre), and the ramp spans width_pred pixels (+-1
   * for the partial pixels at each end). */
  double edge = f->width - sum; /* columns of background = edge column */
  assert_near(edge, 320.0, 0.25);
  assert_true(fabs(ramp - width_pred) <= 1.5);
  sensim_world_destroy(w);
}

static void test_camera_depth_plane_is_distance_along_axis(void **state) {
  (void)state;
  sensim_world *w = test_black_world(0, 0.0f);
  sensim_material mat;
  sensim_material_init(&mat);
  sensim_mesh *m = NULL;
  sensim_shape sh = {SENSIM_SHAPE_PLANE, {100, 100, 0}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &mat, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  bp.is_static = 1;
  /* A wall facing the camera at x = 4: plane normal +Z turned to -X. */
  bp.pose.pos = (sensim_vec3){4, 0, 0};
  bp.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, -M_PI / 2);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 32;
  cp.height = 24;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "depth", NULL));
  const sensim_frame *f = capture_once(w, cam, 0.0);
  assert_int_equal(f->type, SENSIM_PAYLOAD_DEPTH_F32);
  const float *d = f->data;
  for (size_t i = 0; i < f->count; i++) assert_near(d[i], 4.0, 1e-5);
  sensim_world_destroy(w);
}

static void test_camera_shadow_darkens_occluded_floor(void **state) {
  (void)state;
  sensim_world *w = test_black_world(0, 0.0f);
  sensim_material mat;
  sensim_material_init(&mat);
  sensim_mesh *pl = NULL, *bx = NULL;
  sensim_shape s1 = {SENSIM_SHAPE_PLANE, {100, 100, 0}, 0};
  sensim_shape s2 = {SENSIM_SHAPE_BOX, {10, 10, 0.1}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &s1, &mat, &pl));
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &s2, &mat, &bx));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = pl;
  bp.is_static = 1;
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  /* A roof high above the camera shades the floor straight below it. */
  bp.mesh = bx;
  bp.pose.pos = (sensim_vec3){0, 0, 20};
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_light l;
  sensim_light_init(&l); /* straight down, shadows on */
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.mount.pos = (sensim_vec3){-10, 0, 2};
  sp.mount.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, 0.3); /* pitched down */
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 1;
  cp.height = 1;
  cp.hfov = 1e-4; /* one pixel: its rays stay within 0.05 mrad of the axis */
  cp.samples = 1;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  const sensim_frame *f = capture_once(w, cam, 0.0);
  const float *rgb = f->data;
  /* Centre ray hits the floor at x = -10 + 2 / tan(0.3) = -3.5: in shadow. */
  assert_near(rgb[0], 0.0, 1e-6);
  sensim_world_destroy(w);
  /* Same scene without the roof: lit, about albedo / pi (Lambert at
   * cos = 1; the GGX model's Fresnel and highlight move it by a few percent,
   * checked exactly in camera_render_tests.c). */
  w = test_black_world(0, 0.0f);
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &s1, &mat, &pl));
  bp.mesh = pl;
  bp.pose.pos = (sensim_vec3){0, 0, 0};
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  f = capture_once(w, cam, 0.0);
  rgb = f->data;
  assert_near(rgb[0], 0.5 / M_PI, 0.03 * 0.5 / M_PI);
  sensim_world_destroy(w);
}

static void test_camera_rejects_bad_params(void **state) {
  (void)state;
  sensim_world *w = test_black_world(0, 0.0f);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_sensor *cam = NULL;
  sensim_camera_params_init(&cp);
  cp.width = 0;
  assert_int_equal(sensim_camera_create(w, &sp, &cp, &cam), SENSIM_EINVAL);
  sensim_camera_params_init(&cp);
  cp.hfov = M_PI;
  assert_int_equal(sensim_camera_create(w, &sp, &cp, &cam), SENSIM_EINVAL);
  sensim_camera_params_init(&cp);
  cp.hfov = NAN;
  assert_int_equal(sensim_camera_create(w, &sp, &cp, &cam), SENSIM_EINVAL);
  sensim_camera_params_init(&cp);
  cp.samples = 0;
  assert_int_equal(sensim_camera_create(w, &sp, &cp, &cam), SENSIM_EINVAL);
  assert_int_equal(sensim_camera_create(w, &sp, NULL, &cam), SENSIM_EINVAL);
  assert_int_equal(sensim_world_sensor_count(w), 0);
  sensim_camera_params_init(&cp);
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  sensim_world_destroy(w);
}

int sensim_test_camera(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_camera_sphere_covers_pinhole_predicted_radius),
      cmocka_unit_test(test_camera_project_matches_rendered_point),
      cmocka_unit_test(test_camera_motion_blur_widens_edge_by_speed_times_exposure),
      cmocka_unit_test(test_camera_depth_plane_is_distance_along_axis),
      cmocka_unit_test(test_camera_shadow_darkens_occluded_floor),
      cmocka_unit_test(test_camera_rejects_bad_params),
  };
  return cmocka_run_group_tests_name("camera", tests, NULL, NULL);
}
