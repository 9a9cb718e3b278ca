/* tests/radar/facet_tests.c: single bounces by physical optics over facets
 * (radar_facets.c) and the antenna pattern (radar_antenna.c): Gordon's
 * closed form against quadrature, a plate's RCS 4 pi A^2 / lambda^2 at
 * any far-field range with the ARS408-21-far preset's sparse rays, its
 * sinc pattern off normal, its near-field power against an independent
 * PO sum, R^-4, a small target at long range at the radar equation's SNR,
 * a car-sized box whose power never rises with range, a dihedral's
 * 8 pi a^2 b^2 / lambda^2, and the two-way gain across the field. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "radar/radar_groups.h"
#include "sensors/radar_internal.h"
#include "sensors/radar_trig.h"
#include "sensim/rng.h"

#define C0 299792458.0
#define DEG (M_PI / 180.0)

/* I = int exp(j w . r) dA over the triangle by the midpoint rule on an
 * n x n barycentric grid (independent of Gordon's edge sum). */
static void quad_triangle(const sensim_vec3 v[3], sensim_vec3 w, int n, double *re, double *im) {
  sensim_vec3 e1 = {v[1].x - v[0].x, v[1].y - v[0].y, v[1].z - v[0].z};
  sensim_vec3 e2 = {v[2].x - v[0].x, v[2].y - v[0].y, v[2].z - v[0].z};
  sensim_vec3 cr = {e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x};
  double area = 0.5 * sqrt(cr.x * cr.x + cr.y * cr.y + cr.z * cr.z), dA = area / ((double)n * n);
  *re = *im = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n - i; j++)
      for (int up = 0; up < 2; up++) {
        if (!up && j == n - i - 1) continue;
        double a = (i + (up ? 1.0 / 3.0 : 2.0 / 3.0)) / n, b = (j + (up ? 1.0 / 3.0 : 2.0 / 3.0)) / n;
        sensim_vec3 r = {v[0].x + a * e1.x + b * e2.x, v[0].y + a * e1.y + b * e2.y, v[0].z + a * e1.z + b * e2.z};
        double ph = w.x * r.x + w.y * r.y + w.z * r.z;
        *re += dA * cos(ph);
        *im += dA * sin(ph);
      }
}

static void test_radar_po_triangle_matches_quadrature(void **state) {
  (void)state;
  const sensim_vec3 v[3] = {{-0.02, -0.01, 0.0}, {0.03, -0.012, 0.0}, {-0.01, 0.022, 0.0}};
  const sensim_vec3 ws[] = {{0, 0, 5}, {1e-4, 0, 0}, {300, 0, 7}, {-800, 1200, 0}, {2000, 900, -40}};
  for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) {
    double re, im, qr, qi;
    sensim__radar_po_triangle(v, ws[i], &re, &im);
    sensim_vec3 wt = {ws[i].x, ws[i].y, 0.0}; /* the in-plane part */
    quad_triangle(v, wt, 2000, &qr, &qi);
    print_message("w = (%g, %g, %g): Gordon %.4e %+.4e j, quadrature %.4e %+.4e j\n", ws[i].x, ws[i].y, ws[i].z, re,
                  im, qr, qi);
    /* the centroid rule's error: of order (w h)^2 / 24 of the area
     * (8.1e-4 m^2), h = 2.5e-5 m: below 1e-7 m^2 */
    assert_true(hypot(re - qr, im - qi) < 2e-7);
  }
}

/* ARS408-21-far without noise: 0.2 deg rays, 1.6 deg azimuth cells. */
static sensim_radar_params far_params(void) {
  sensim_radar_params p;
  SENSIM_OK_OR_FAIL(sensim_radar_preset("ARS408-21-far", &p));
  p.sigma_range = p.sigma_azimuth = p.sigma_elevation = p.sigma_velocity = 0.0;
  return p;
}

/* Sum of the detections' powers (W) of one capture, their count in *n,
 * the strongest's SNR (dB) in *snr. */
static double capture_power(const sensim_radar_params *rp, sensim_world *w, size_t *n, double *snr) {
  sensim_sensor *s = radar_test_sensor(w, rp);
  sensim_radar_detection d[64];
  size_t k = radar_capture(w, s, d, 64);
  double p = 0.0, best = -1e300;
  for (size_t i = 0; i < k && i < 64; i++) {
    p += pow(10.0, d[i].power / 10.0) * 1e-3;
    if (d[i].snr > best) best = d[i].snr;
  }
  if (n) *n = k;
  if (snr) *snr = best;
  return p;
}

/* A metal plate of side `side` at range R, square-on (yaw about Z). */
static double plate_power(const sensim_radar_params *rp, double side, double R, double yaw, size_t *n,
                          double *snr) {
  sensim_world *w = test_world(0, 3);
  radar_plate_material(w, side, (sensim_vec3){R, 0.0, 0.0}, yaw, 1.0f, 0.0f);
  double p = capture_power(rp, w, n, snr);
  sensim_world_destroy(w);
  return p;
}

static double K_of(const sensim_radar_params *p) {
  const double lambda = C0 / p->frequency, g = pow(10.0, p->antenna_gain / 10.0);
  return p->tx_power * g * g * lambda * lambda / (pow(4.0 * M_PI, 3) * pow(10.0, p->losses / 10.0));
}

/* The case: a 0.2 m plate (31.7 dBsm) was missed at 60 and 80 m
 * by the preset's rays. Now at every range from its far field (2 D^2 /
 * lambda = 41 m over its diagonal) to 240 m: one detection, RCS within
 * 1 dB of 4 pi A^2 / lambda^2, SNR within 1 dB of the radar equation's,
 * so power falls as R^-4. */
static void test_radar_small_plate_rcs_at_any_range(void **state) {
  (void)state;
  const sensim_radar_params rp = far_params();
  const double lambda = C0 / rp.frequency, A = 0.04, sigma = 4.0 * M_PI * A * A / (lambda * lambda);
  const double N = SENSIM__BOLTZMANN * SENSIM__T0 * pow(10.0, rp.noise_figure / 10.0) / rp.cpi;
  const double ranges[] = {45.0, 60.0, 80.0, 113.0, 160.0, 240.0};
  for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
    size_t n = 0;
    double snr = 0.0;
    const double P = plate_power(&rp, 0.2, ranges[i], 0.0, &n, &snr);
    const double rcs = 10.0 * log10(P * pow(ranges[i], 4) / K_of(&rp));
    const double snr_eq = 10.0 * log10(K_of(&rp) * sigma / pow(ranges[i], 4) / N);
    print_message("0.2 m plate at %5.0f m: %zu detection(s), RCS %.2f dBsm (PO %.2f), SNR %.2f dB (radar eq. %.2f)\n",
                  ranges[i], n, rcs, 10.0 * log10(sigma), snr, snr_eq);
    assert_int_equal(n, 1);
    assert_true(fabs(rcs - 10.0 * log10(sigma)) < 1.0);
    assert_true(fabs(snr - snr_eq) < 1.0);
  }
}

/* Yawed by theta about its vertical axis, a plate of side a has
 * sigma = 4 pi A^2 / lambda^2 cos^2(theta) sinc^2(k a sin(theta))
 * (Knott, Shaeffer, Tuley, "Radar Cross Section", 2nd ed., eq. 5.37):
 * first null at sin(theta) = lambda / (2 a), 0.56 deg for a = 0.2 m, the
 * first side lobe -13.3 dB at k a sin(theta) = 4.493. At 150 m (far
 * field), a threshold low enough to see the null's depth. */
static void test_radar_plate_sinc_pattern_off_normal(void **state) {
  (void)state;
  sensim_radar_params rp = far_params();
  rp.snr_threshold = -40.0;
  const double a = 0.2, R = 150.0, lambda = C0 / rp.frequency, k = 2.0 * M_PI / lambda;
  const double p0 = plate_power(&rp, a, R, 0.0, NULL, NULL);
  const double null = asin(lambda / (2.0 * a)), lobe = asin(4.4934 / (k * a)), half = asin(1.0 / (k * a));
  const double pn = plate_power(&rp, a, R, null, NULL, NULL);
  const double pl = plate_power(&rp, a, R, lobe, NULL, NULL);
  const double ph = plate_power(&rp, a, R, half, NULL, NULL);
  const double s_half = sin(1.0) / 1.0, s_lobe = sin(4.4934) / 4.4934;
  print_message("plate pattern: null %.3f deg %.1f dB, half %.2f dB (theory %.2f), lobe %.2f dB (theory %.2f)\n",
                null / DEG, 10.0 * log10(pn / p0), 10.0 * log10(ph / p0),
                10.0 * log10(s_half * s_half * cos(half) * cos(half)), 10.0 * log10(pl / p0),
                10.0 * log10(s_lobe * s_lobe * cos(lobe) * cos(lobe)));
  assert_true(10.0 * log10(pn / p0) < -25.0);
  assert_true(fabs(10.0 * log10(ph / p0) - 10.0 * log10(s_half * s_half)) < 0.3);
  assert_true(fabs(10.0 * log10(pl / p0) - 10.0 * log10(s_lobe * s_lobe)) < 0.5);
}

/* An independent near-field PO sum over the plate x = R, |y|, |z| <= a/2
 * seen from the origin: Sum cos(theta) dA exp(-j 2 k r) / r^2 on an n x n
 * grid (exact spherical phase). Returns the received power K (4 pi /
 * lambda^2) |Sum|^2 for the azimuth cells' split: the cells of
 * `az_res` each summed coherently, their powers added. */
static double po_near_power(const sensim_radar_params *rp, double a, double R, int n) {
  const double lambda = C0 / rp->frequency, k = 2.0 * M_PI / lambda, h = a / n;
  double re[64] = {0}, im[64] = {0};
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      const double y = -0.5 * a + (i + 0.5) * h, z = -0.5 * a + (j + 0.5) * h;
      const double r = sqrt(R * R + y * y + z * z), c = R / r, amp = c * h * h / (r * r);
      const int cell = 32 + (int)floor(atan2(y, R) / rp->azimuth_resolution + 0.5);
      re[cell] += amp * cos(-2.0 * k * r);
      im[cell] += amp * sin(-2.0 * k * r);
    }
  double p = 0.0;
  for (int c = 0; c < 64; c++) p += re[c] * re[c] + im[c] * im[c];
  return K_of(rp) * 4.0 * M_PI / (lambda * lambda) * p;
}

/* The 0.5 m plate: 27.8 dBsm at 10 m and power rising from 20 to
 * 40 m with the rays. Now its power at 10, 20, 40 and 80 m follows the PO
 * integral with the exact spherical phase within 0.5 dB (Fresnel number
 * a^2 / (lambda R) = 1.6 at 10 m: deep in the near field). That integral
 * itself rises by 2.8 dB from 20 to 40 m: at 20 m the plate holds about
 * one Fresnel zone pair, whose halves cancel (the near-field null of an
 * aperture; Balanis, "Antenna Theory", 3rd ed., sec. 12.5), so the
 * issue's rise there is physics, not sampling. */
static void test_radar_large_plate_near_field_follows_po(void **state) {
  (void)state;
  sensim_radar_params rp = far_params();
  rp.beam_width_az = rp.beam_width_el = 0.0; /* the PO sum below has no antenna pattern */
  const double ranges[] = {10.0, 20.0, 40.0, 80.0};
  for (size_t i = 0; i < 4; i++) {
    const double P = plate_power(&rp, 0.5, ranges[i], 0.0, NULL, NULL);
    const double Q = po_near_power(&rp, 0.5, ranges[i], 1500);
    print_message("0.5 m plate at %2.0f m: %.2f dBm, PO sum %.2f dBm\n", ranges[i], 10 * log10(P / 1e-3),
                  10 * log10(Q / 1e-3));
    assert_true(fabs(10.0 * log10(P / Q)) < 0.5);
  }
}

/* A box of half sizes (hx, hy, hz) centred at c, yawed about Z. */
static void box_body(sensim_world *w, sensim_vec3 c, double hx, double hy, double hz, double yaw, float spec,
                     float diff) {
  const float X = (float)hx, Y = (float)hy, Z = (float)hz;
  const float v[] = {-X, -Y, -Z, X, -Y, -Z, X, Y, -Z, -X, Y, -Z, -X, -Y, Z, X, -Y, Z, X, Y, Z, -X, Y, Z};
  const uint32_t ix[] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                         2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
  sensim_material m;
  sensim_material_init(&m);
  m.radar_specular = spec;
  m.radar_diffuse = diff;
  sensim_mesh_desc d = test_mesh_desc(v, 8, ix, 12, &m);
  sensim_mesh *mesh = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &mesh));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh;
  bp.is_static = 1;
  bp.pose.pos = c;
  bp.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, yaw);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
}

/* The car-sized box (4 x 2 x 1.5 m, mostly diffuse) rose 13 dB
 * from 80 to 113 m with the rays. Now, seen end-on and at 30 and 60 deg
 * of yaw, its total received power never rises with range by more than
 * 1 dB over 20 ... 160 m (a factor sqrt(2) per step). */
static void test_radar_car_sized_box_power_never_rises_with_range(void **state) {
  (void)state;
  const sensim_radar_params rp = far_params();
  const double ranges[] = {20.0, 28.3, 40.0, 56.6, 80.0, 113.1, 160.0};
  const double yaws[] = {0.0, 30.0 * DEG, 60.0 * DEG};
  for (size_t y = 0; y < 3; y++) {
    double prev = INFINITY;
    char line[256];
    int o = snprintf(line, sizeof line, "box at yaw %2.0f deg:", yaws[y] / DEG);
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
      sensim_world *w = test_world(0, 3);
      box_body(w, (sensim_vec3){ranges[i] + 2.0, 0.0, 0.0}, 2.0, 1.0, 0.75, yaws[y], 0.1f, 0.3f);
      size_t n = 0;
      const double P = capture_power(&rp, w, &n, NULL);
      sensim_world_destroy(w);
      o += snprintf(line + o, sizeof line - (size_t)o, " %.1f", 10.0 * log10(P / 1e-3));
      assert_true(n >= 1);
      assert_true(10.0 * log10(P / prev) <= 1.0);
      prev = P;
    }
    print_message("%s dBm\n", line);
  }
}

/* A metal dihedral of two a x b plates at 90 deg, its seam vertical, seen
 * along its bisector: the double bounce gives 8 pi a^2 b^2 / lambda^2
 * (Knott et al., table 5.1; a the seam's length, b each plate's width),
 * through the ray tubes (0.015 deg rays). */
static void test_radar_dihedral_rcs(void **state) {
  (void)state;
  const double a = 0.1, b = 0.1, R = 20.0;
  const float A = (float)a, B = (float)b;
  /* plates in the planes x = 0 and y = 0 of the corner frame, seam along z */
  const float v[] = {0, 0, 0, 0, B, 0, 0, B, A, 0, 0, A, 0, 0, 0, B, 0, 0, B, 0, A, 0, 0, A};
  const uint32_t ix[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
  sensim_world *w = test_world(0, 3);
  sensim_material m;
  sensim_material_init(&m);
  m.radar_specular = 1.0f;
  m.radar_diffuse = 0.0f;
  sensim_mesh_desc d = test_mesh_desc(v, 8, ix, 4, &m);
  sensim_mesh *mesh = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &mesh));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh;
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){R, 0.0, -0.5 * a};
  /* the bisector (1, 1, 0) / sqrt 2 turned onto -X: yaw 135 deg */
  bp.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, 135.0 * DEG);
  sensim_body *body = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &body));
  sensim_radar_params rp = radar_test_params();
  const double P = capture_power(&rp, w, NULL, NULL);
  sensim_world_destroy(w);
  const double lambda = C0 / rp.frequency, sigma = 8.0 * M_PI * a * a * b * b / (lambda * lambda);
  const double rcs = 10.0 * log10(P * pow(R, 4) / K_of(&rp));
  print_message("dihedral %g x %g m at %g m: RCS %.2f dBsm (8 pi a^2 b^2 / lambda^2 = %.2f)\n", a, b, R, rcs,
                10.0 * log10(sigma));
  assert_true(fabs(rcs - 10.0 * log10(sigma)) < 1.0);
}

/* The two-way gain across the field: a small plate turned to face the
 * radar at azimuth theta_3dB / 2 returns a quarter (-6.02 dB) of its power
 * on boresight, at 2 X3 theta / theta_3dB = 1 (sinc's first null) nothing;
 * a uniform pattern (beam width 0) returns the same at every azimuth.
 * Also the pattern's values themselves. */
static void test_radar_antenna_pattern_two_way(void **state) {
  (void)state;
  sensim_radar_params rp = far_params();
  rp.hfov = 60.0 * DEG;
  rp.beam_width_az = 20.0 * DEG;
  rp.snr_threshold = -40.0;
  assert_near(sensim__radar_gain(&rp, 10.0 * DEG, 0.0), 0.5, 1e-6);
  assert_near(sensim__radar_gain(&rp, -10.0 * DEG, 0.0), 0.5, 1e-6);
  assert_near(sensim__radar_gain(&rp, 0.0, 0.5 * rp.beam_width_el), 0.5, 1e-6);
  const double null = rp.beam_width_az / (2.0 * 0.4429464706894523);
  assert_true(sensim__radar_gain(&rp, null, 0.0) < 1e-12);
  /* first side lobe of sinc^2: -13.26 dB near x = 1.4303 */
  assert_near(10.0 * log10(sensim__radar_gain(&rp, 1.4303 * null, 0.0)), -13.26, 0.01);
  const double R = 60.0, ang[2] = {0.0, 10.0 * DEG};
  double P[2];
  for (int uniform = 0; uniform < 2; uniform++) {
    if (uniform) rp.beam_width_az = rp.beam_width_el = 0.0;
    for (int i = 0; i < 2; i++) {
      sensim_world *w = test_world(0, 3);
      radar_plate_material(w, 0.2, (sensim_vec3){R * cos(ang[i]), R * sin(ang[i]), 0.0}, ang[i], 1.0f, 0.0f);
      P[i] = capture_power(&rp, w, NULL, NULL);
      sensim_world_destroy(w);
    }
    print_message("%s pattern: plate at 10 deg %.3f dB of boresight\n", uniform ? "uniform" : "sinc^2",
                  10.0 * log10(P[1] / P[0]));
    assert_near(10.0 * log10(P[1] / P[0]), uniform ? 0.0 : -6.0206, 0.05);
  }
}


/* A prism whose plan is the superellipse |x/a|^4 + |y/b|^4 = 1 (n points)
 * from z0 to z1 in its frame, at c, yawed about Z: a car's rounded plan. */
static void superellipse_prism(sensim_world *w, sensim_vec3 c, double a, double b, double z0, double z1, double yaw,
                               int n, float spec, float diff) {
  float *v = malloc((size_t)(2 * n + 2) * 3 * sizeof *v);
  uint32_t *ix = malloc((size_t)(4 * n) * 3 * sizeof *ix);
  assert_non_null(v);
  assert_non_null(ix);
  for (int i = 0; i < n; i++) {
    const double t = 2.0 * M_PI * i / n, ct = cos(t), st = sin(t);
    const double x = a * copysign(sqrt(fabs(ct)), ct), y = b * copysign(sqrt(fabs(st)), st);
    for (int k = 0; k < 2; k++) {
      v[3 * (2 * i + k) + 0] = (float)x;
      v[3 * (2 * i + k) + 1] = (float)y;
      v[3 * (2 * i + k) + 2] = (float)(k ? z1 : z0);
    }
  }
  const uint32_t bot = (uint32_t)(2 * n), top = bot + 1;
  v[3 * bot] = v[3 * bot + 1] = v[3 * top] = v[3 * top + 1] = 0.0f;
  v[3 * bot + 2] = (float)z0;
  v[3 * top + 2] = (float)z1;
  size_t t = 0;
  for (int i = 0; i < n; i++) {
    const uint32_t a0 = (uint32_t)(2 * i), a1 = a0 + 1, b0 = (uint32_t)(2 * ((i + 1) % n)), b1 = b0 + 1;
    const uint32_t tri[4][3] = {{a0, b0, b1}, {a0, b1, a1}, {bot, b0, a0}, {top, a1, b1}};
    for (int k = 0; k < 4; k++, t++) /* two side triangles, one of each cap */
      for (int j = 0; j < 3; j++) ix[3 * t + (size_t)j] = tri[k][j];
  }
  sensim_material m;
  sensim_material_init(&m);
  m.radar_specular = spec;
  m.radar_diffuse = diff;
  sensim_mesh_desc d = test_mesh_desc(v, (size_t)(2 * n + 2), ix, (size_t)(4 * n), &m);
  sensim_mesh *mesh = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &mesh));
  free(v);
  free(ix);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh;
  bp.is_static = 1;
  bp.pose.pos = c;
  bp.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, yaw);
  sensim_body *body = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &body));
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* A car's RCS by aspect, every 5 deg, on a turntable 20 m in front of the
 * ARS408-21-far preset (at the car's mid height), for two car shapes of
 * painted metal (radar_specular 0.9, radar_diffuse 0.05): the bench
 * town's boxes (a 4.5 x 1.8 x 0.7 m body from 0.3 m up, a 2.3 x 1.6 x
 * 0.5 m cabin on it) and the same sizes with a rounded plan (superellipse
 * prisms, 360 facets around). Published: a passenger car measured in the
 * open at 60 GHz, 20-100 m: 13-18 dBsm (horizontal polarisation;
 * Ishizaka, Hashimoto, Higashi, "Reflection characteristics measurement
 * from a truck and a passenger car at 60 GHz frequency band", IEICE
 * Trans. Electron. E81-C(6):948-952, 1998). Held: both shapes flash at
 * broadside, the boxes 10 dB over their median, the rounded car 5 dB;
 * the boxes' median lies far below the measured range (flat faces echo
 * only near their normals), the rounded car's within 13-18 dBsm +- 6 dB
 * (measured 18.2). The printed tables are docs/radar.md's. */
static void test_radar_car_rcs_by_aspect(void **state) {
  (void)state;
  sensim_radar_params rp = far_params();
  rp.snr_threshold = -20.0;
  const double R = 20.0;
  enum { NA = 72 };
  for (int rounded = 0; rounded < 2; rounded++) {
    double rcs[NA], sorted[NA];
    for (int k = 0; k < NA; k++) {
      const double yaw = k * 5.0 * DEG;
      sensim_world *w = test_world(0, 3);
      if (rounded) {
        superellipse_prism(w, (sensim_vec3){R, 0.0, -0.9}, 2.25, 0.9, 0.3, 1.0, yaw, 360, 0.9f, 0.05f);
        superellipse_prism(w, (sensim_vec3){R, 0.0, -0.9}, 1.15, 0.8, 1.0, 1.5, yaw, 360, 0.9f, 0.05f);
      } else {
        box_body(w, (sensim_vec3){R, 0.0, 0.65 - 0.9}, 2.25, 0.9, 0.35, yaw, 0.9f, 0.05f);
        box_body(w, (sensim_vec3){R, 0.0, 1.25 - 0.9}, 1.15, 0.8, 0.25, yaw, 0.9f, 0.05f);
      }
      const double P = capture_power(&rp, w, NULL, NULL);
      sensim_world_destroy(w);
      rcs[k] = sorted[k] = 10.0 * log10(P * pow(R, 4) / K_of(&rp));
    }
    qsort(sorted, NA, sizeof sorted[0], cmp_double);
    const double med = 0.5 * (sorted[NA / 2 - 1] + sorted[NA / 2]), p10 = sorted[NA / 10],
                 p90 = sorted[NA - 1 - NA / 10];
    double front = 0.0, rear = 0.0;
    for (int k = -2; k <= 2; k++) {
      front += rcs[(k + NA) % NA] / 5.0;
      rear += rcs[36 + k] / 5.0;
    }
    const double side = fmax(rcs[18], rcs[54]);
    print_message("%s car RCS by aspect (dBsm, every 5 deg from the front):", rounded ? "rounded" : "box");
    for (int k = 0; k < NA; k++) print_message("%s%.1f", k % 12 ? " " : "\n  ", rcs[k]);
    print_message("\n  median %.1f, 10 %% %.1f, 90 %% %.1f; front (+-10 deg) %.1f, rear %.1f, broadside %.1f\n", med,
                  p10, p90, front, rear, side);
    assert_true(side > med + (rounded ? 5.0 : 10.0));
    if (rounded)
      assert_true(med > 13.0 - 6.0 && med < 18.0 + 6.0);
    else
      assert_true(med < 13.0 - 6.0);
  }
}

static void test_radar_sincos_matches_libm(void **state) {
  (void)state;
  /* Against glibc's sin and cos (correctly rounded in practice): 200 000
   * uniform arguments each in |x| < 4 (the PO vertex phases of small
   * facets), < 2000 (large ones) and < 1e6 (2 k R to 250 m at 300 GHz is
   * 3e6: libm beyond 1e6), plus the quadrant boundaries. Cody and Waite's
   * reduction keeps the error a few units in the last place of the result
   * whatever |x| (q P1 and q P2 are exact, P3 leaves 1e-37 q): 4e-16. */
  const double bound[3] = {4.0, 2000.0, 1e6};
  for (int b = 0; b < 3; b++) {
    sensim_rng r;
    sensim_rng_init(&r, 1, 0x7219, (uint64_t)b, 0);
    double worst = 0.0;
    for (int i = 0; i < 200000; i++) {
      const double x = bound[b] * (2.0 * sensim_rng_uniform(&r) - 1.0);
      double s, c;
      sensim__radar_sincos(x, &s, &c);
      const double tol = 4e-16;
      const double err = fmax(fabs(s - sin(x)), fabs(c - cos(x)));
      worst = fmax(worst, err);
      if (!(err <= tol)) fail_msg("sincos(%.17g): %.17g %.17g, libm %.17g %.17g", x, s, c, sin(x), cos(x));
    }
    print_message("sincos for |x| < %g: largest difference from libm %.2e\n", bound[b], worst);
  }
  for (int k = -8; k <= 8; k++) {
    const double x = k * (0.25 * M_PI);
    double s, c;
    sensim__radar_sincos(x, &s, &c);
    assert_near(s, sin(x), 4e-16);
    assert_near(c, cos(x), 4e-16);
  }
  double s, c;
  sensim__radar_sincos(5e6, &s, &c); /* beyond the reduction's range: libm */
  assert_true(s == sin(5e6) && c == cos(5e6));
}

int sensim_test_radar_facets(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_radar_po_triangle_matches_quadrature),
      cmocka_unit_test(test_radar_sincos_matches_libm),
      cmocka_unit_test(test_radar_small_plate_rcs_at_any_range),
      cmocka_unit_test(test_radar_plate_sinc_pattern_off_normal),
      cmocka_unit_test(test_radar_large_plate_near_field_follows_po),
      cmocka_unit_test(test_radar_car_sized_box_power_never_rises_with_range),
      cmocka_unit_test(test_radar_dihedral_rcs),
      cmocka_unit_test(test_radar_antenna_pattern_two_way),
      cmocka_unit_test(test_radar_car_rcs_by_aspect),
  };
  return cmocka_run_group_tests_name("radar_facets", tests, NULL, NULL);
}
