/* Optics: each lens model's forward projection against an independent
 * transcription of its formula and hand-computed values, the per-pixel
 * inverse reprojecting to its pixel, the FOV model keeping the pinhole's
 * horizontal field, vignetting and lateral chromatic aberration against
 * closed forms, and bad input. */
#include <math.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "sensors/optics.h"

static sensim_camera_params base(uint32_t w, uint32_t h) {
  sensim_camera_params p;
  memset(&p, 0, sizeof p);
  p.width = w;
  p.height = h;
  p.hfov = M_PI / 2;
  p.lens = SENSIM_LENS_PINHOLE;
  p.samples = 1;
  return p;
}

static sensim_camera_params bc_realistic(void) {
  sensim_camera_params p = base(1280, 720);
  p.lens = SENSIM_LENS_BROWN_CONRADY;
  p.fx = p.fy = 700;
  p.cx = 639.5;
  p.cy = 359.5;
  const double d[5] = {-0.28, 0.07, 1e-4, -2e-4, 0};
  memcpy(p.dist, d, sizeof d);
  return p;
}

static sensim_camera_params kb_realistic(void) {
  sensim_camera_params p = base(1280, 800);
  p.lens = SENSIM_LENS_KANNALA_BRANDT;
  p.fx = p.fy = 400;
  p.cx = 639.5;
  p.cy = 399.5;
  const double d[5] = {0.05, -0.01, 0.002, -0.0005, 0};
  memcpy(p.dist, d, sizeof d);
  return p;
}

static sensim_camera_params fov_wide(void) {
  sensim_camera_params p = base(1280, 720);
  p.lens = SENSIM_LENS_FOV;
  p.hfov = 2 * 0.704; /* the literature's example w */
  return p;
}

/* Sensor frame (X forward, Y left, Z up) from optical (x right, y down, z forward). */
static sensim_vec3 from_optical(double x, double y, double z) { return (sensim_vec3){z, -x, -y}; }

/* ---- independent transcriptions of the models (camera.h, OpenCV) ---- */

static void ref_brown_conrady(const sensim_camera_params *p, sensim_vec3 P, double *u, double *v) {
  double x = -P.y / P.x, y = -P.z / P.x; /* x' = x_opt / z_opt */
  double k1 = p->dist[0], k2 = p->dist[1], p1 = p->dist[2], p2 = p->dist[3], k3 = p->dist[4];
  double r2 = x * x + y * y;
  double radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2;
  double xpp = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x);
  double ypp = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y;
  *u = p->fx * xpp + p->cx;
  *v = p->fy * ypp + p->cy;
}

static void ref_kannala_brandt(const sensim_camera_params *p, sensim_vec3 P, double *u, double *v) {
  double a = -P.y / P.x, b = -P.z / P.x, r = sqrt(a * a + b * b);
  double th = atan(r), t2 = th * th;
  double thd = th * (1 + p->dist[0] * t2 + p->dist[1] * pow(t2, 2) + p->dist[2] * pow(t2, 3) + p->dist[3] * pow(t2, 4));
  *u = p->fx * (thd / r) * a + p->cx;
  *v = p->fy * (thd / r) * b + p->cy;
}

/* The issue's FOV model, pixel to ray: pinhole image point (x1, y1) r2 / (r1 s)
 * of a pinhole camera with the same hfov, optical direction (xp tan w, yp tan w, 1). */
static sensim_vec3 ref_fov_ray(const sensim_camera_params *p, double u, double v) {
  double W = p->width, H = p->height, cx = (W - 1) / 2, cy = (H - 1) / 2, w = p->hfov / 2;
  double x1 = (u - cx) / (W / 2), y1 = (v - cy) / (W / 2), r1 = sqrt(x1 * x1 + y1 * y1);
  double r2 = tan(r1 * tan(w)) / tan(w), s = tan(tan(w)) / tan(w);
  double xp = x1 * r2 / (r1 * s), yp = y1 * r2 / (r1 * s);
  return from_optical(xp * tan(w), yp * tan(w), 1.0);
}

static double angle_between(sensim_vec3 a, sensim_vec3 b) {
  double c = (a.x * b.x + a.y * b.y + a.z * b.z) /
             (sqrt(a.x * a.x + a.y * a.y + a.z * a.z) * sqrt(b.x * b.x + b.y * b.y + b.z * b.z));
  return acos(fmin(1.0, c));
}

/* ---- forward projection ---- */

static void test_optics_pinhole_projection_matches_closed_form(void **state) {
  (void)state;
  sensim_camera_params p = base(640, 480);
  p.hfov = 70 * M_PI / 180;
  double fx = 320 / tan(35 * M_PI / 180), cx = 319.5, cy = 239.5, u, v;
  const sensim_vec3 pts[] = {{5, 0, 0}, {4, 1, -0.5}, {2, -1.3, 0.7}, {10, 3, 2}};
  for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
    SENSIM_OK_OR_FAIL(sensim_camera_project(&p, pts[i], &u, &v));
    assert_near(u, fx * (-pts[i].y / pts[i].x) + cx, 1e-9);
    assert_near(v, fx * (-pts[i].z / pts[i].x) + cy, 1e-9);
  }
  /* Set directly, as a calibration gives them. */
  p.fx = 500, p.fy = 510, p.cx = 300, p.cy = 250;
  SENSIM_OK_OR_FAIL(sensim_camera_project(&p, (sensim_vec3){2, 0.4, -0.6}, &u, &v));
  assert_near(u, 500 * (-0.2) + 300, 1e-9);
  assert_near(v, 510 * 0.3 + 250, 1e-9);
}

static void test_optics_brown_conrady_matches_opencv_formula(void **state) {
  (void)state;
  sensim_camera_params p = base(640, 480);
  p.lens = SENSIM_LENS_BROWN_CONRADY;
  p.fx = p.fy = 500, p.cx = 320, p.cy = 240;
  const double d[5] = {-0.2, 0.05, 0.001, -0.002, 0.01};
  memcpy(p.dist, d, sizeof d);
  double u, v, ru, rv;
  /* Optical (0.5, 0.3, 2): x' = 0.25, y' = 0.15, r^2 = 0.085, r^4 = 0.007225,
   * r^6 = 0.000614125; radial = 1 - 0.2*0.085 + 0.05*0.007225 + 0.01*0.000614125
   * = 0.98336739125; x'' = 0.25*radial + 2*0.001*0.25*0.15 - 0.002*(0.085 + 0.125)
   * = 0.2458418478125 + 0.000075 - 0.00042 = 0.2454968478125 -> u = 500 x'' + 320
   * = 442.74842390625; y'' = 0.15*radial + 0.001*(0.085 + 0.045) - 2*0.002*0.25*0.15
   * = 0.1475051086875 + 0.00013 - 0.00015 = 0.1474851086875 -> v = 313.74255434375. */
  SENSIM_OK_OR_FAIL(sensim_camera_project(&p, from_optical(0.5, 0.3, 2), &u, &v));
  assert_near(u, 442.74842390625, 1e-9);
  assert_near(v, 313.74255434375, 1e-9);
  const sensim_vec3 pts[] = {{3, 0.2, 0.1}, {1, -0.6, 0.4}, {2, 0.9, -0.5}, {5, -0.1, -1.2}};
  for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
    SENSIM_OK_OR_FAIL(sensim_camera_project(&p, pts[i], &u, &v));
    ref_brown_conrady(&p, pts[i], &ru, &rv);
    assert_near(u, ru, 1e-9);
    assert_near(v, rv, 1e-9);
  }
}

static void test_optics_kannala_brandt_matches_opencv_fisheye_formula(void **state) {
  (void)state;
  sensim_camera_params p = kb_realistic();
  p.cx = 640, p.cy = 400;
  double u, v, ru, rv;
  /* Optical (1, 0.5, 1): a = 1, b = 0.5, r = sqrt(1.25) = 1.118033989,
   * theta = atan(r) = 0.8410686706, theta^2 = 0.7073965086, theta^4 = 0.5004098204,
   * theta^6 = 0.3539881598, theta^8 = 0.2504099883; 1 + 0.05*0.7073965086
   * - 0.01*0.5004098204 + 0.002*0.3539881598 - 0.0005*0.2504099883 = 1.0309484986;
   * theta_d = 0.8670984831; theta_d / r = 0.7755564606;
   * u = 400 * 0.7755564606 * 1 + 640 = 950.2225842, v = 400 * 0.7755564606 * 0.5 + 400
   * = 555.1112921. */
  SENSIM_OK_OR_FAIL(sensim_camera_project(&p, from_optical(1, 0.5, 1), &u, &v));
  assert_near(u, 950.2225842, 1e-6);
  assert_near(v, 555.1112921, 1e-6);
  const sensim_vec3 pts[] = {{3, 0.2, 0.1}, {1, -2.6, 0.4}, {0.2, 0.9, -0.5}, {5, -0.1, -1.2}};
  for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
    SENSIM_OK_OR_FAIL(sensim_camera_project(&p, pts[i], &u, &v));
    ref_kannala_brandt(&p, pts[i], &ru, &rv);
    assert_near(u, ru, 1e-9);
    assert_near(v, rv, 1e-9);
  }
  /* On the axis (r = 0) the image is the principal point. */
  SENSIM_OK_OR_FAIL(sensim_camera_project(&p, (sensim_vec3){2, 0, 0}, &u, &v));
  assert_near(u, 640, 1e-12);
  assert_near(v, 400, 1e-12);
}

static void test_optics_fov_projection_inverts_the_issue_formula(void **state) {
  (void)state;
  sensim_camera_params p = fov_wide();
  double u, v;
  /* Pixel (959.5, 359.5): x1 = 320 / 640 = 0.5, y1 = 0; tan w = tan(0.704) = 0.8491493315,
   * r1 tan w = 0.4245746658, tan of it = 0.4520707949, r2 = 0.4520707949 / 0.8491493315
   * = 0.5323807935; s = tan(0.8491493315) / 0.8491493315 = 1.1363816362 / 0.8491493315
   * = 1.3382588834; pinhole point xp = 0.5 * 0.5323807935 / (0.5 * 1.3382588834)
   * = 0.3978159982, so the ray is 0.3978159982 * 0.8491493315 = 0.3378051889 to the right
   * of the axis per unit forward: angle atan(0.3378051889) = 0.3257698107 rad. */
  SENSIM_OK_OR_FAIL(sensim_camera_project(&p, from_optical(0.3378051889, 0, 1), &u, &v));
  assert_near(u, 959.5, 1e-7);
  assert_near(v, 359.5, 1e-9);
  sensim_vec3 d;
  SENSIM_OK_OR_FAIL(sensim_camera_pixel_ray(&p, 959.5, 359.5, &d));
  assert_near(atan2(-d.y, d.x), 0.3257698107, 1e-9);
  /* Elsewhere: the ray the issue's formula gives projects back to its pixel. */
  const double px[][2] = {{0, 0}, {1279, 719}, {100.25, 600.5}, {900, 30}, {639.5, 10}};
  for (size_t i = 0; i < sizeof px / sizeof px[0]; i++) {
    SENSIM_OK_OR_FAIL(sensim_camera_project(&p, ref_fov_ray(&p, px[i][0], px[i][1]), &u, &v));
    assert_near(u, px[i][0], 1e-9);
    assert_near(v, px[i][1], 1e-9);
  }
}

/* ---- inverse ---- */

/* Reproject sensim__optics_ray's ray of (u, v) and check it against the
 * direct inverse; where the table has no ray the direct inverse has none. */
static void check_ray(const sensim_optics *o, const sensim_camera_params *p, double u, double v, double *worst,
                      int *imaged) {
  sensim_vec3 d, dd;
  if (!sensim__optics_ray(o, u, v, 1, &d)) {
    assert_int_equal(sensim_camera_pixel_ray(p, u, v, &dd), SENSIM_EINVAL);
    return;
  }
  double pu, pv;
  SENSIM_OK_OR_FAIL(sensim_camera_project(p, d, &pu, &pv));
  *worst = fmax(*worst, hypot(pu - u, pv - v));
  ++*imaged;
  SENSIM_OK_OR_FAIL(sensim_camera_pixel_ray(p, u, v, &dd));
  assert_true(angle_between(d, dd) < 1e-6);
}

/* Worst reprojection error (px) over pixel centres (every `step`-th row and
 * column, and the whole border) and n random sub-pixel points. */
static double round_trip(const sensim_camera_params *p, uint32_t step, int n) {
  sensim_optics *o = NULL;
  SENSIM_OK_OR_FAIL(sensim__optics_create(p, &o));
  const uint32_t W = p->width, H = p->height;
  double worst = 0;
  int imaged = 0;
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++)
      if (x % step == 0 || y % step == 0 || x + 1 == W || y + 1 == H) check_ray(o, p, x, y, &worst, &imaged);
  srand(7);
  for (int k = 0; k < n; k++) {
    double u = -0.5 + W * (rand() / (RAND_MAX + 1.0)), v = -0.5 + H * (rand() / (RAND_MAX + 1.0));
    check_ray(o, p, u, v, &worst, &imaged);
  }
  assert_true(imaged > n / 2);
  sensim__optics_destroy(o);
  return worst;
}

static void test_optics_pixel_rays_reproject_within_1e3_px(void **state) {
  (void)state;
  sensim_camera_params p = base(1280, 720);
  assert_true(round_trip(&p, 7, 20000) < 1e-3);
  p = fov_wide();
  assert_true(round_trip(&p, 7, 20000) < 1e-3);
  p = bc_realistic();
  assert_true(round_trip(&p, 7, 20000) < 1e-3);
  p = kb_realistic();
  assert_true(round_trip(&p, 7, 20000) < 1e-3);
  /* Strong tangential terms: the 2-D grid is refined until it meets its tolerance. */
  p = bc_realistic();
  p.dist[0] = 0.3, p.dist[1] = 0.1, p.dist[2] = 0.02, p.dist[3] = -0.02, p.dist[4] = 0.05;
  assert_true(round_trip(&p, 23, 5000) < 1e-3);
  /* A corner close to the fold of the radial map: g'(r) = 1 - 1.2 r^2 + 0.75 r^4
   * - 0.14 r^6 vanishes at r = 1.867, where g = 1.085, and the corner lies at
   * distorted radius 1.049 (undistorted 1.71); the inverse bends there faster
   * than a grid follows. */
  p = bc_realistic();
  p.dist[0] = -0.4, p.dist[1] = 0.15, p.dist[2] = 0.003, p.dist[3] = -0.002, p.dist[4] = -0.02;
  assert_true(round_trip(&p, 29, 5000) < 1e-3);
}

static void test_optics_kannala_brandt_sees_nothing_beyond_90_degrees(void **state) {
  (void)state;
  sensim_camera_params p = kb_realistic();
  sensim_optics *o = NULL;
  SENSIM_OK_OR_FAIL(sensim__optics_create(&p, &o));
  /* theta_d(pi/2) = (pi/2)(1 + 0.05 (pi/2)^2 - 0.01 (pi/2)^4 + 0.002 (pi/2)^6
   * - 0.0005 (pi/2)^8) = 1.6873 rad, i.e. 675 px from the principal point at fx = 400:
   * the corner (754.7 px away) lies beyond the field, a point 600 px to the right inside it. */
  sensim_vec3 d;
  assert_int_equal(sensim__optics_ray(o, 0, 0, 1, &d), 0);
  assert_int_equal(sensim_camera_pixel_ray(&p, 0, 0, &d), SENSIM_EINVAL);
  assert_int_equal(sensim__optics_ray(o, 639.5 + 600, 399.5, 1, &d), 1);
  assert_true(d.x > 0);
  /* A point behind the camera cannot be imaged by OpenCV's theta = atan(r). */
  double u, v;
  assert_int_equal(sensim_camera_project(&p, (sensim_vec3){-1, 0.2, 0}, &u, &v), SENSIM_EINVAL);
  sensim__optics_destroy(o);
}

static void test_optics_pixel_ray_is_unit(void **state) {
  (void)state;
  sensim_camera_params ps[] = {base(640, 480), fov_wide(), bc_realistic(), kb_realistic()};
  for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
    sensim_vec3 d;
    SENSIM_OK_OR_FAIL(sensim_camera_pixel_ray(&ps[i], 10.3, 200.7, &d));
    assert_near(d.x * d.x + d.y * d.y + d.z * d.z, 1.0, 1e-12);
  }
}

static void test_optics_fov_keeps_the_pinhole_horizontal_field(void **state) {
  (void)state;
  const double hfovs[] = {0.5, 2 * 0.704, 1.8};
  for (size_t i = 0; i < sizeof hfovs / sizeof hfovs[0]; i++) {
    sensim_camera_params ph = base(1280, 720), fv = base(1280, 720);
    ph.hfov = fv.hfov = hfovs[i];
    fv.lens = SENSIM_LENS_FOV;
    sensim_optics *oh = NULL, *of = NULL;
    SENSIM_OK_OR_FAIL(sensim__optics_create(&ph, &oh));
    SENSIM_OK_OR_FAIL(sensim__optics_create(&fv, &of));
    const double edge[2] = {-0.5, 1279.5};
    for (int e = 0; e < 2; e++) {
      sensim_vec3 a, b;
      assert_true(sensim__optics_ray(oh, edge[e], 359.5, 1, &a));
      assert_true(sensim__optics_ray(of, edge[e], 359.5, 1, &b));
      double ah = atan2(fabs(a.y), a.x), af = atan2(fabs(b.y), b.x);
      assert_near(ah, hfovs[i] / 2, 1e-9);
      assert_near(af, hfovs[i] / 2, 1e-6);
      SENSIM_OK_OR_FAIL(sensim_camera_pixel_ray(&fv, edge[e], 359.5, &b));
      assert_near(atan2(fabs(b.y), b.x), hfovs[i] / 2, 1e-12);
    }
    /* Inside the image the FOV model bends rays: not a pinhole. */
    sensim_vec3 a, b;
    assert_true(sensim__optics_ray(oh, 959.5, 359.5, 1, &a));
    assert_true(sensim__optics_ray(of, 959.5, 359.5, 1, &b));
    assert_true(angle_between(a, b) > 1e-3);
    sensim__optics_destroy(oh);
    sensim__optics_destroy(of);
  }
}

/* ---- vignetting and chromatic aberration ---- */

static void test_optics_vignetting_is_cos4_times_polynomial(void **state) {
  (void)state;
  sensim_camera_params p = base(640, 480); /* fx = 320 / tan(45 deg) = 320 */
  p.vignetting = 1;
  p.vignetting_poly[0] = -0.1;
  p.vignetting_poly[1] = 0.02;
  sensim_optics *o = NULL;
  SENSIM_OK_OR_FAIL(sensim__optics_create(&p, &o));
  /* Corner (-0.5, -0.5): xn = -320/320 = -1, yn = -240/320 = -0.75,
   * cos^2 = 1 / (1 + 1 + 0.5625) = 1 / 2.5625, cos^4 = 1 / 6.56640625; it lies a
   * half diagonal from the centre, r = 1: 1 - 0.1 + 0.02 = 0.92. */
  assert_near(sensim__optics_vignetting(o, -0.5, -0.5), 0.92 / 6.56640625, 1e-6);
  assert_near(sensim__optics_vignetting(o, 319.5, 239.5), 1.0, 1e-7);
  /* Half way to the right edge: cos^4 = 1 / (1 + 0.25)^2, r = 160 / 400 = 0.4. */
  double q = 0.16;
  assert_near(sensim__optics_vignetting(o, 479.5, 239.5), (1 - 0.1 * q + 0.02 * q * q) / 1.5625, 1e-6);
  sensim__optics_destroy(o);
  p.vignetting = 0;
  p.vignetting_poly[0] = p.vignetting_poly[1] = 0;
  SENSIM_OK_OR_FAIL(sensim__optics_create(&p, &o));
  assert_near(sensim__optics_vignetting(o, -0.5, -0.5), 1.0, 0);
  sensim__optics_destroy(o);
}

static void test_optics_chromatic_aberration_scales_channel_images(void **state) {
  (void)state;
  const double s[3] = {1.004, 0, 0.995}; /* green 0: none */
  sensim_camera_params ps[] = {base(640, 480), bc_realistic(), kb_realistic()};
  for (size_t m = 0; m < sizeof ps / sizeof ps[0]; m++) {
    sensim_camera_params p = ps[m];
    sensim_optics *o = NULL;
    SENSIM_OK_OR_FAIL(sensim__optics_create(&p, &o));
    assert_false(sensim__optics_has_ca(o));
    sensim__optics_destroy(o);
    memcpy(p.lateral_ca, s, sizeof s);
    SENSIM_OK_OR_FAIL(sensim__optics_create(&p, &o));
    assert_true(sensim__optics_has_ca(o));
    double cx = p.fx ? p.cx : (p.width - 1) / 2.0, cy = p.fx ? p.cy : (p.height - 1) / 2.0;
    const double px[][2] = {{200, 150}, {400.25, 100.5}, {300, 470}};
    for (size_t i = 0; i < 3; i++) {
      double u = px[i][0], v = px[i][1];
      for (int c = 0; c < 3; c++) {
        double sc = s[c] ? s[c] : 1.0, pu, pv;
        sensim_vec3 d;
        assert_true(sensim__optics_ray(o, u, v, c, &d));
        /* The channel's ray at (u, v) is the base ray at the pixel scaled by 1/s_c:
         * a point imaged there by the base model appears s_c times farther out. */
        SENSIM_OK_OR_FAIL(sensim_camera_project(&p, d, &pu, &pv));
        assert_near(pu, cx + (u - cx) / sc, 1e-3);
        assert_near(pv, cy + (v - cy) / sc, 1e-3);
      }
      sensim_vec3 r, b;
      assert_true(sensim__optics_ray(o, u, v, 0, &r));
      assert_true(sensim__optics_ray(o, u, v, 2, &b));
      assert_true(angle_between(r, b) > 1e-5);
    }
    sensim__optics_destroy(o);
  }
}

/* ---- bad input ---- */

static void expect_einval(const sensim_camera_params *p, const char *what) {
  sensim_optics *o = NULL;
  sensim_status rc = sensim__optics_create(p, &o);
  if (rc != SENSIM_EINVAL) fail_msg("%s: create gave %d, expected SENSIM_EINVAL", what, rc);
  assert_null(o);
  assert_true(strlen(sensim_last_error()) > 0);
}

static void test_optics_bad_parameters_are_rejected(void **state) {
  (void)state;
  const sensim_camera_params ok = bc_realistic();
  sensim_camera_params p;
  double u, v;
  sensim_vec3 d;
#define BAD(field_assignments, what)                                                              \
  do {                                                                                           \
    p = ok;                                                                                      \
    field_assignments;                                                                           \
    expect_einval(&p, what);                                                                     \
    assert_int_equal(sensim_camera_project(&p, (sensim_vec3){2, 0.1, 0.1}, &u, &v), SENSIM_EINVAL); \
    assert_int_equal(sensim_camera_pixel_ray(&p, 10, 10, &d), SENSIM_EINVAL);                    \
  } while (0)
  BAD(p.width = 0, "width 0");
  BAD(p.height = 0, "height 0");
  BAD(p.hfov = 0, "hfov 0");
  BAD(p.hfov = M_PI, "hfov pi");
  BAD(p.hfov = NAN, "hfov NaN");
  BAD(p.fx = -700, "fx negative");
  BAD(p.fx = NAN, "fx NaN");
  BAD(p.fx = INFINITY, "fx inf");
  BAD(p.fy = 0, "fy 0 with fx set");
  BAD(p.fy = -1, "fy negative");
  BAD(p.cx = NAN, "cx NaN");
  BAD(p.cy = INFINITY, "cy inf");
  BAD(p.dist[1] = NAN, "dist NaN");
  BAD(p.lens = (sensim_lens_model)7, "unknown lens");
  BAD(p.lens = (sensim_lens_model)-1, "negative lens enum");
  BAD(p.lateral_ca[0] = -1, "lateral_ca negative");
  BAD(p.lateral_ca[2] = NAN, "lateral_ca NaN");
  BAD(p.lateral_ca[1] = 3, "lateral_ca out of range");
  BAD(p.vignetting_poly[2] = INFINITY, "vignetting_poly inf");
  /* 1 - 1.5 r^2 is negative at the corners (r = 1). */
  BAD(p.vignetting_poly[0] = -1.5, "illumination <= 0");
  /* Wider than the FOV model allows: r1 tan w >= pi/2 at the corners. */
  BAD((p = base(1280, 720), p.lens = SENSIM_LENS_FOV, p.hfov = 1.9), "FOV beyond its domain");
  /* Barrel distortion folding over inside a wide image: g'(r) = 1 - 4.5 r^2 = 0 at
   * r = 0.471, while the corner of a 1280x720 image with hfov 2.2 rad lies at
   * r = 1.147 tan(1.1) = 2.25. */
  BAD((p = base(1280, 720), p.lens = SENSIM_LENS_BROWN_CONRADY, p.hfov = 2.2, p.dist[0] = -1.5), "BC fold");
  /* A fisheye whose theta_d(theta) turns back (k1 = -0.3: at theta = 1.054, where
   * theta_d = 0.703, i.e. 281 px) inside a 754 px image radius. */
  BAD((p = kb_realistic(), p.dist[0] = -0.3, p.dist[1] = p.dist[2] = p.dist[3] = 0), "KB fold");
#undef BAD
  /* Tangential terms strong enough to fold the 2-D map, which no radial check sees. */
  p = ok;
  p.dist[2] = 2.0;
  expect_einval(&p, "2-D fold");
  assert_non_null(strstr(sensim_last_error(), "not invertible"));
  p = base(1280, 720);
  p.lens = SENSIM_LENS_BROWN_CONRADY;
  p.hfov = 2.2;
  p.dist[0] = -1.5;
  expect_einval(&p, "BC fold");
  assert_non_null(strstr(sensim_last_error(), "not invertible"));
  /* Still usable after the failures. */
  p = ok;
  sensim_optics *o = NULL;
  SENSIM_OK_OR_FAIL(sensim__optics_create(&p, &o));
  sensim__optics_destroy(o);
  /* Points and pixels the lens cannot handle, and NULL arguments. */
  assert_int_equal(sensim_camera_project(&ok, (sensim_vec3){-1, 0, 0}, &u, &v), SENSIM_EINVAL);
  assert_int_equal(sensim_camera_project(&ok, (sensim_vec3){0, 1, 0}, &u, &v), SENSIM_EINVAL);
  assert_int_equal(sensim_camera_project(&ok, (sensim_vec3){NAN, 0, 0}, &u, &v), SENSIM_EINVAL);
  assert_int_equal(sensim_camera_project(NULL, (sensim_vec3){1, 0, 0}, &u, &v), SENSIM_EINVAL);
  assert_int_equal(sensim_camera_project(&ok, (sensim_vec3){1, 0, 0}, NULL, &v), SENSIM_EINVAL);
  assert_int_equal(sensim_camera_pixel_ray(&ok, NAN, 3, &d), SENSIM_EINVAL);
  assert_int_equal(sensim_camera_pixel_ray(&ok, 3, 3, NULL), SENSIM_EINVAL);
  assert_int_equal(sensim__optics_create(NULL, &o), SENSIM_EINVAL);
  /* Beyond the fold radius of a barrel lens the polynomial is not a lens. */
  p = ok;
  p.dist[0] = -0.5, p.dist[1] = p.dist[2] = p.dist[3] = 0; /* fold at r = 1/sqrt(1.5) = 0.816 */
  p.fx = p.fy = 2000;                                       /* so the image (r <= 0.37) stays inside it */
  SENSIM_OK_OR_FAIL(sensim__optics_create(&p, &o));
  sensim__optics_destroy(o);
  SENSIM_OK_OR_FAIL(sensim_camera_project(&p, from_optical(0.8, 0, 1), &u, &v));
  assert_int_equal(sensim_camera_project(&p, from_optical(0.83, 0, 1), &u, &v), SENSIM_EINVAL);
}

/* A principal point far outside the image is refused before any table is
 * built (a fuzzed camera with cy = 1.2e64 and k1 = -5 took 10 s to be
 * refused), one image size out is accepted, and a lens steep enough that
 * no table of 2^20 nodes can invert it, over every radius of an image
 * whose principal point lies one image height below it, is refused in
 * well under a second of CPU time. */
static void test_optics_far_principal_point_and_steep_lens_are_refused_quickly(void **state) {
  (void)state;
  sensim_camera_params p = base(64, 48);
  p.lens = SENSIM_LENS_BROWN_CONRADY;
  p.fx = p.fy = 50, p.cx = 32, p.cy = 1.2e64;
  p.dist[0] = -5, p.dist[1] = 20;
  expect_einval(&p, "cy 1.2e64");
  assert_non_null(strstr(sensim_last_error(), "principal point"));
  p.cy = -49;
  expect_einval(&p, "cy one image height and a pixel above");
  assert_non_null(strstr(sensim_last_error(), "principal point"));
  p.dist[0] = p.dist[1] = 0;
  sensim_optics *o = NULL;
  for (int i = 0; i < 4; i++) {
    p.cx = i & 1 ? -64.0 : 128.0, p.cy = i & 2 ? -48.0 : 96.0;
    SENSIM_OK_OR_FAIL(sensim__optics_create(&p, &o));
    sensim__optics_destroy(o);
  }
  p.dist[0] = -5, p.dist[1] = 20, p.fx = p.fy = 0.3, p.cx = 32, p.cy = 96;
  clock_t c0 = clock();
  expect_einval(&p, "steep lens");
  double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
#if defined(__SANITIZE_ADDRESS__)
  const double limit = 3.0; /* ASan slows the solves about threefold */
#else
  const double limit = 1.0;
#endif
  if (!(cpu < limit)) fail_msg("refusing the steep lens took %.2f s of CPU time (limit %.1f s)", cpu, limit);
}

int sensim_test_optics(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_optics_pinhole_projection_matches_closed_form),
      cmocka_unit_test(test_optics_brown_conrady_matches_opencv_formula),
      cmocka_unit_test(test_optics_kannala_brandt_matches_opencv_fisheye_formula),
      cmocka_unit_test(test_optics_fov_projection_inverts_the_issue_formula),
      cmocka_unit_test(test_optics_pixel_rays_reproject_within_1e3_px),
      cmocka_unit_test(test_optics_kannala_brandt_sees_nothing_beyond_90_degrees),
      cmocka_unit_test(test_optics_pixel_ray_is_unit),
      cmocka_unit_test(test_optics_fov_keeps_the_pinhole_horizontal_field),
      cmocka_unit_test(test_optics_vignetting_is_cos4_times_polynomial),
      cmocka_unit_test(test_optics_chromatic_aberration_scales_channel_images),
      cmocka_unit_test(test_optics_bad_parameters_are_rejected),
      cmocka_unit_test(test_optics_far_principal_point_and_steep_lens_are_refused_quickly),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
