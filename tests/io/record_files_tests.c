/* tests/io/record_files_tests.c: the files beside a recording, read back
 * here with a parser of their own grammar (tests/record_files/ reads them
 * with PyYAML, yaml-cpp and OpenCV):
 *   camera_info.yaml  K, D, R, P against include/sensim/camera.h's
 *                     definitions, the form every reader takes, refusals;
 *   poses.txt         TUM lines that read back to the very doubles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sensim/record.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/record_files"

static int setup(void **state) {
  (void)state;
  test_remove_tree(TMP);
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

/* The matrix `key` of a camera_info YAML text: "key:\n  rows: R\n  cols:
 * C\n  data: [a, b, ...]\n" with rows x cols reals, each with a '.', into
 * m. Fails the test when the text is not so. */
static void read_matrix(const char *text, const char *key, int rows, int cols, double *m) {
  char head[128];
  snprintf(head, sizeof head, "\n%s:\n  rows: %d\n  cols: %d\n  data: [", key, rows, cols);
  const char *p = strstr(text, head);
  if (!p) fail_msg("no '%s' matrix of %dx%d in:\n%s", key, rows, cols, text);
  p += strlen(head);
  for (int i = 0; i < rows * cols; i++) {
    char *end;
    m[i] = strtod(p, &end);
    if (end == p) fail_msg("%s: element %d does not parse", key, i);
    if (!memchr(p, '.', (size_t)(end - p))) fail_msg("%s: element %d '%.*s' has no '.'", key, i, (int)(end - p), p);
    p = end;
    const char *sep = i + 1 < rows * cols ? ", " : "]\n";
    if (strncmp(p, sep, strlen(sep)) != 0) fail_msg("%s: after element %d: '%.10s'", key, i, p);
    p += strlen(sep);
  }
}

static char *write_and_read(const char *name, const char *camera, const sensim_camera_params *cp) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", TMP, name);
  SENSIM_OK_OR_FAIL(sensim_write_camera_info_yaml(path, camera, cp));
  test_assert_no_temp_files(TMP);
  return test_slurp(path, NULL);
}

static void assert_model(const char *text, const char *model) {
  char line[64];
  snprintf(line, sizeof line, "\ndistortion_model: %s\n", model);
  if (!strstr(text, line)) fail_msg("no '%s' in:\n%s", line + 1, text);
}

static void test_camera_info_pinhole_from_hfov_has_camera_h_intrinsics(void **state) {
  (void)state;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 640;
  cp.height = 480;
  cp.hfov = 1.2;
  cp.fx = 0;
  cp.fy = 999; /* ignored with fx == 0, as in camera.h */
  cp.cx = cp.cy = 7;
  cp.dist[0] = 0.3; /* a pinhole has no distortion */
  char *t = write_and_read("pinhole.yaml", "front", &cp);
  assert_true(strncmp(t, "%YAML 1.0\n---\nimage_width: 640\nimage_height: 480\ncamera_name: \"front\"\n", 68) == 0);
  double f = 320.0 / tan(0.6), K[9], D[5], R[9], P[12];
  read_matrix(t, "camera_matrix", 3, 3, K);
  const double Kx[9] = {f, 0, 319.5, 0, f, 239.5, 0, 0, 1};
  for (int i = 0; i < 9; i++) assert_true(K[i] == Kx[i]); /* bit for bit: shortest round-trip digits */
  assert_model(t, "plumb_bob");
  read_matrix(t, "distortion_coefficients", 1, 5, D);
  for (int i = 0; i < 5; i++) assert_true(D[i] == 0);
  read_matrix(t, "rectification_matrix", 3, 3, R);
  for (int i = 0; i < 9; i++) assert_true(R[i] == (i % 4 == 0));
  read_matrix(t, "projection_matrix", 3, 4, P);
  const double Px[12] = {f, 0, 319.5, 0, 0, f, 239.5, 0, 0, 0, 1, 0};
  for (int i = 0; i < 12; i++) assert_true(P[i] == Px[i]);
  free(t);
}

static void test_camera_info_brown_conrady_is_plumb_bob_with_given_intrinsics(void **state) {
  (void)state;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 320;
  cp.height = 240;
  cp.lens = SENSIM_LENS_BROWN_CONRADY;
  cp.fx = 150.25, cp.fy = 151.5, cp.cx = 160.125, cp.cy = 118.75;
  const double d[5] = {-0.25, 0.06, 0.0005, -0.0003, 1e-7};
  memcpy(cp.dist, d, sizeof d);
  char *t = write_and_read("bc.yaml", "cam", &cp);
  double K[9], D[5];
  read_matrix(t, "camera_matrix", 3, 3, K);
  const double Kx[9] = {150.25, 0, 160.125, 0, 151.5, 118.75, 0, 0, 1};
  for (int i = 0; i < 9; i++) assert_true(K[i] == Kx[i]);
  assert_model(t, "plumb_bob");
  read_matrix(t, "distortion_coefficients", 1, 5, D);
  for (int i = 0; i < 5; i++) assert_true(D[i] == d[i]);
  assert_non_null(strstr(t, "1.0e-07")); /* an exponent keeps a '.' for PyYAML */
  free(t);
}

static void test_camera_info_kannala_brandt_is_equidistant_with_four(void **state) {
  (void)state;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.lens = SENSIM_LENS_KANNALA_BRANDT;
  cp.fx = 300, cp.fy = 300, cp.cx = 319.5, cp.cy = 239.5;
  const double d[5] = {0.01, -0.002, 0.0003, -4e-5, 99 /* not a KB coefficient */};
  memcpy(cp.dist, d, sizeof d);
  char *t = write_and_read("kb.yaml", "fisheye", &cp);
  double D[4];
  assert_model(t, "equidistant");
  read_matrix(t, "distortion_coefficients", 1, 4, D);
  for (int i = 0; i < 4; i++) assert_true(D[i] == d[i]);
  free(t);
}

static void test_camera_info_rational_is_rational_polynomial_with_eight(void **state) {
  (void)state;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.lens = SENSIM_LENS_RATIONAL;
  cp.fx = 300, cp.fy = 300, cp.cx = 319.5, cp.cy = 239.5;
  const double d[8] = {0.25, 0.02, 4e-4, -6e-4, 0.001, 0.6, 0.05, 0.002};
  memcpy(cp.dist, d, sizeof d);
  char *t = write_and_read("rational.yaml", "wide", &cp);
  double D[8];
  assert_model(t, "rational_polynomial");
  read_matrix(t, "distortion_coefficients", 1, 8, D);
  for (int i = 0; i < 8; i++) assert_true(D[i] == d[i]);
  free(t);
  /* No ROS distortion model is the division model: written exactly with
   * sensim's name, lambda its one coefficient. */
  cp.lens = SENSIM_LENS_DIVISION;
  cp.dist[0] = -0.2;
  t = write_and_read("division.yaml", "div", &cp);
  assert_model(t, "division");
  read_matrix(t, "distortion_coefficients", 1, 1, D);
  assert_true(D[0] == -0.2);
  free(t);
}

static void test_camera_info_name_is_quoted_with_escapes(void **state) {
  (void)state;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  char *t = write_and_read("name.yaml", "a \"b\": c\\d #e", &cp);
  assert_non_null(strstr(t, "\ncamera_name: \"a \\\"b\\\": c\\\\d #e\"\n"));
  free(t);
}

static void test_camera_info_refusals_leave_no_file(void **state) {
  (void)state;
  char path[512];
  snprintf(path, sizeof path, "%s/refused.yaml", TMP);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.lens = SENSIM_LENS_PINHOLE;
  assert_int_equal(sensim_write_camera_info_fit_yaml(path, "c", &cp, NULL, NULL), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "nothing to fit"));
  sensim_camera_params_init(&cp);
  cp.width = 0;
  assert_int_equal(sensim_write_camera_info_yaml(path, "c", &cp), SENSIM_EINVAL);
  sensim_camera_params_init(&cp);
  cp.fx = 100; /* fy left 0 */
  assert_int_equal(sensim_write_camera_info_yaml(path, "c", &cp), SENSIM_EINVAL);
  sensim_camera_params_init(&cp);
  cp.hfov = M_PI;
  assert_int_equal(sensim_write_camera_info_yaml(path, "c", &cp), SENSIM_EINVAL);
  sensim_camera_params_init(&cp);
  cp.lens = SENSIM_LENS_BROWN_CONRADY;
  cp.dist[2] = NAN;
  assert_int_equal(sensim_write_camera_info_yaml(path, "c", &cp), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "dist[2]"));
  sensim_camera_params_init(&cp);
  assert_int_equal(sensim_write_camera_info_yaml(path, "two\nlines", &cp), SENSIM_EINVAL);
  assert_int_equal(sensim_write_camera_info_yaml(path, "", &cp), SENSIM_EINVAL);
  assert_int_equal(sensim_write_camera_info_yaml(path, NULL, &cp), SENSIM_EINVAL);
  assert_int_equal(sensim_write_camera_info_yaml(path, "c", NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_write_camera_info_yaml(NULL, "c", &cp), SENSIM_EINVAL);
  assert_false(test_file_exists(path));
  assert_int_equal(sensim_write_camera_info_yaml(TMP "/missing/x.yaml", "c", &cp), SENSIM_EIO);
  test_assert_no_temp_files(TMP);
}

/* ---- TUM ----------------------------------------------------------------- */

static sensim_frame pose_frame(double t, double x, double y, double z, sensim_quat q) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.t_capture = t;
  f.pose.pos.x = x, f.pose.pos.y = y, f.pose.pos.z = z;
  f.pose.rot = q;
  return f;
}

static void test_tum_lines_read_back_to_the_same_doubles(void **state) {
  (void)state;
  const char *path = TMP "/poses.txt";
  remove(path);
  double c = cos(0.35), s = sin(0.35);
  sensim_frame f[3] = {
      pose_frame(0, 0, 0, 0, (sensim_quat){1, 0, 0, 0}),
      pose_frame(0.1, 1.0 / 3, -2e-9, 12345.678901234567, (sensim_quat){c, 0, 0, s}),
      pose_frame(1e5 + 1e-6, -0.0, 1e300, 5e-324, (sensim_quat){0.5, -0.5, 0.5, -0.5}),
  };
  for (int i = 0; i < 3; i++) SENSIM_OK_OR_FAIL(sensim_tum_append(path, &f[i]));
  char *t = test_slurp(path, NULL);
  char *p = t;
  for (int i = 0; i < 3; i++) {
    const double want[8] = {f[i].t_capture, f[i].pose.pos.x, f[i].pose.pos.y, f[i].pose.pos.z,
                            f[i].pose.rot.x, f[i].pose.rot.y, f[i].pose.rot.z, f[i].pose.rot.w};
    for (int k = 0; k < 8; k++) {
      char *end;
      double v = strtod(p, &end);
      assert_true(end > p);
      assert_memory_equal(&v, &want[k], sizeof v); /* bits, so -0.0 stays -0.0 */
      assert_int_equal(*end, k < 7 ? ' ' : '\n');
      p = end + 1;
    }
  }
  assert_int_equal(*p, '\0');
  assert_non_null(strstr(t, "\n0.1 ")); /* the shortest digits, not 0.10000000000000001 */
  free(t);
}

static void test_tum_refusals(void **state) {
  (void)state;
  sensim_frame f = pose_frame(1, 2, 3, 4, (sensim_quat){1, 0, 0, 0});
  assert_int_equal(sensim_tum_append(NULL, &f), SENSIM_EINVAL);
  assert_int_equal(sensim_tum_append(TMP "/p.txt", NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_tum_append(TMP "/missing/p.txt", &f), SENSIM_EIO);
  assert_non_null(strstr(sensim_last_error(), "missing/p.txt"));
}

int sensim_test_record_files(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_camera_info_pinhole_from_hfov_has_camera_h_intrinsics),
      cmocka_unit_test(test_camera_info_brown_conrady_is_plumb_bob_with_given_intrinsics),
      cmocka_unit_test(test_camera_info_rational_is_rational_polynomial_with_eight),
      cmocka_unit_test(test_camera_info_kannala_brandt_is_equidistant_with_four),
      cmocka_unit_test(test_camera_info_name_is_quoted_with_escapes),
      cmocka_unit_test(test_camera_info_refusals_leave_no_file),
      cmocka_unit_test(test_tum_lines_read_back_to_the_same_doubles),
      cmocka_unit_test(test_tum_refusals),
  };
  return cmocka_run_group_tests_name("record_files", tests, setup, NULL);
}
