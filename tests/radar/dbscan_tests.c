/* tests/radar/dbscan_tests.c: DBSCAN (filters/radar_dbscan.h): two blobs
 * and noise, per-axis eps, the border-point rule and the numbering, an
 * independent implementation on random points, and bad input. */
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "radar/radar_groups.h"
#include "filters/radar_dbscan.h"
#include "sensim/rng.h"

static void test_dbscan_two_blobs_and_noise(void **state) {
  (void)state;
  /* Blob B (5 x 5 grid, spacing 0.3, around (10, 10)) and blob A (around
   * (0, 0)) interleaved by index, noise points far from both and from each
   * other; a noise point first, then a point of B: B is cluster 0. */
  enum { NB = 25 };
  double pts[2 * (2 * NB + 4)];
  int expect[2 * NB + 4];
  size_t n = 0;
  const double noise[4][2] = {{5, -5}, {20, 0}, {-7, 7}, {5, 5}};
  pts[2 * n] = noise[0][0], pts[2 * n + 1] = noise[0][1], expect[n++] = -1;
  for (int i = 0; i < NB; i++) {
    double gx = 0.3 * (i % 5), gy = 0.3 * (i / 5);
    pts[2 * n] = 10 + gx, pts[2 * n + 1] = 10 + gy, expect[n++] = 0;
    pts[2 * n] = gx, pts[2 * n + 1] = gy, expect[n++] = 1;
  }
  for (int j = 1; j < 4; j++) pts[2 * n] = noise[j][0], pts[2 * n + 1] = noise[j][1], expect[n++] = -1;
  int label[2 * NB + 4];
  sensim_status st = SENSIM_EINVAL;
  const double eps[2] = {0.5, 0.5};
  assert_int_equal(sensim__dbscan(pts, n, 2, eps, 4, label, &st), 2);
  assert_int_equal(st, SENSIM_OK);
  for (size_t i = 0; i < n; i++) assert_int_equal(label[i], expect[i]);
  /* min_pts 1: every point is core, each noise point its own cluster. */
  assert_int_equal(sensim__dbscan(pts, n, 2, eps, 1, label, &st), 6);
  assert_int_equal(label[0], 0);
  assert_int_equal(label[1], 1);
  assert_int_equal(label[2], 2);
  /* min_pts above a blob's size: all noise. */
  assert_int_equal(sensim__dbscan(pts, n, 2, eps, 26, label, &st), 0);
  for (size_t i = 0; i < n; i++) assert_int_equal(label[i], -1);
  assert_int_equal(sensim__dbscan(pts, 0, 2, eps, 4, NULL, &st), 0);
  assert_int_equal(st, SENSIM_OK);
}

static void test_dbscan_eps_is_per_axis(void **state) {
  (void)state;
  /* Ten points 2 m apart in range at one velocity, and ten more 0.3 m/s
   * away: with eps (2.5 m, 0.2 m/s) two lines; with eps (2.5, 0.4) one;
   * with (1.5, 0.2) none (min_pts 2: no point has a neighbour). */
  double pts[20 * 2];
  for (int i = 0; i < 20; i++) pts[2 * i] = 2.0 * (i % 10), pts[2 * i + 1] = i < 10 ? 0.0 : 0.3;
  int label[20];
  assert_int_equal(sensim__dbscan(pts, 20, 2, (const double[]){2.5, 0.2}, 2, label, NULL), 2);
  for (int i = 0; i < 20; i++) assert_int_equal(label[i], i < 10 ? 0 : 1);
  assert_int_equal(sensim__dbscan(pts, 20, 2, (const double[]){2.5, 0.4}, 2, label, NULL), 1);
  assert_int_equal(sensim__dbscan(pts, 20, 2, (const double[]){1.5, 0.2}, 2, label, NULL), 0);
  /* The metric is the scaled sphere, not the box: (2, 0.3) scaled by
   * (2.5, 0.4) is 0.8^2 + 0.75^2 = 1.2 > 1, so diagonal points do not link,
   * while (2, 0) (0.64) and (0, 0.3) (0.56) do. */
  double two[4] = {0, 0, 2.0, 0.3};
  assert_int_equal(sensim__dbscan(two, 2, 2, (const double[]){2.5, 0.4}, 2, label, NULL), 0);
}

static void test_dbscan_border_points(void **state) {
  (void)state;
  /* 1-D, eps 1, min_pts 4 (the point itself counted):
   *   A = {1.0, 1.5, 1.8, 2.2}: 1.5, 1.8, 2.2 are core (4 neighbours); 1.0
   *       has 3 (1.0, 1.5, 1.8): a border point of A.
   *   B = {3.9, 4.2, 4.5, 5.0}: 3.9 (3.0, 3.9, 4.2, 4.5), 4.2, 4.5 core;
   *       5.0 border.
   *   3.0: neighbours 2.2 (core of A), 3.0, 3.9 (core of B): 3, a border
   *       point of both; it joins the lowest-numbered, B (cluster 0: its
   *       first core point, index 1, comes before A's, index 6).
   *   8.0: noise.
   * 3.0 comes first (index 0) and 1.0 before A's cores, so both are
   * first found to be noise and then taken in by their cluster. */
  const double x[] = {3.0, 3.9, 4.2, 4.5, 5.0, 1.0, 1.5, 1.8, 2.2, 8.0};
  const int expect[] = {0, 0, 0, 0, 0, 1, 1, 1, 1, -1};
  int label[10];
  const double eps = 1.0;
  assert_int_equal(sensim__dbscan(x, 10, 1, &eps, 4, label, NULL), 2);
  for (int i = 0; i < 10; i++) assert_int_equal(label[i], expect[i]);
  /* A before B by index: A is cluster 0 and the shared border joins A. */
  const double y[] = {3.0, 1.0, 1.5, 1.8, 2.2, 3.9, 4.2, 4.5, 5.0, 8.0};
  const int expect_y[] = {0, 0, 0, 0, 0, 1, 1, 1, 1, -1};
  assert_int_equal(sensim__dbscan(y, 10, 1, &eps, 4, label, NULL), 2);
  for (int i = 0; i < 10; i++) assert_int_equal(label[i], expect_y[i]);
}

static int near3(const double *p, int i, int j, double eps) {
  double dx = p[3 * i] - p[3 * j], dy = p[3 * i + 1] - p[3 * j + 1], dz = p[3 * i + 2] - p[3 * j + 2];
  return dx * dx + dy * dy + dz * dz <= eps * eps;
}

/* DBSCAN by its definitions, independently of the library's expansion:
 * core points by count; clusters the connected components of core points
 * (union-find), numbered by their lowest core index; each border point to
 * the lowest-numbered cluster among its core neighbours. */
static int dbscan_reference(const double *p, int n, double eps, int min_pts, int *label) {
  int *core = calloc((size_t)n, sizeof *core), *parent = malloc((size_t)n * sizeof *parent);
  int *number = malloc((size_t)n * sizeof *number);
  assert_true(core && parent && number);
  for (int i = 0; i < n; i++) {
    int c = 0;
    for (int j = 0; j < n; j++) c += near3(p, i, j, eps);
    core[i] = c >= min_pts;
    parent[i] = i;
    number[i] = -1;
  }
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (core[i] && core[j] && near3(p, i, j, eps)) {
        int a = i, b = j;
        while (parent[a] != a) a = parent[a];
        while (parent[b] != b) b = parent[b];
        if (a != b) parent[a > b ? a : b] = a < b ? a : b; /* the root is the lowest index */
      }
  int k = 0;
  for (int i = 0; i < n; i++) {
    label[i] = -1;
    if (!core[i]) continue;
    int r = i;
    while (parent[r] != r) r = parent[r];
    if (number[r] < 0) number[r] = k++;
    label[i] = number[r];
  }
  for (int i = 0; i < n; i++) {
    if (core[i]) continue;
    for (int j = 0; j < n; j++)
      if (core[j] && near3(p, i, j, eps) && (label[i] < 0 || label[j] < label[i])) label[i] = label[j];
  }
  free(core);
  free(parent);
  free(number);
  return k;
}

static void test_dbscan_matches_its_definition_on_random_points(void **state) {
  (void)state;
  /* 600 points in 3-D: 8 Gaussian blobs (sigma 1) in a 40 m cube and a
   * uniform background; eps 1.2 per axis, min_pts 5. The scaled metric
   * with equal eps is the Euclidean one the reference uses. */
  enum { N = 600 };
  double *p = malloc(3 * N * sizeof *p);
  int *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
  assert_true(p && a && b);
  for (int trial = 0; trial < 3; trial++) {
    sensim_rng r;
    sensim_rng_init(&r, 7, 30, (uint64_t)trial, 0);
    double centre[8][3];
    for (int c = 0; c < 8; c++)
      for (int j = 0; j < 3; j++) centre[c][j] = 40.0 * sensim_rng_uniform(&r);
    for (int i = 0; i < N; i++)
      for (int j = 0; j < 3; j++)
        p[3 * i + j] = i % 4 == 3 ? 40.0 * sensim_rng_uniform(&r) : centre[i % 8][j] + sensim_rng_normal(&r);
    const double eps[3] = {1.2, 1.2, 1.2};
    sensim_status st;
    int k = sensim__dbscan(p, N, 3, eps, 5, a, &st);
    int k_ref = dbscan_reference(p, N, 1.2, 5, b);
    print_message("trial %d: %d clusters (reference %d)\n", trial, k, k_ref);
    assert_int_equal(k, k_ref);
    assert_true(k >= 2);
    for (int i = 0; i < N; i++) assert_int_equal(a[i], b[i]);
  }
  free(p);
  free(a);
  free(b);
}

static void test_dbscan_bad_input_is_refused(void **state) {
  (void)state;
  double pts[6] = {0, 0, 1, 1, 2, 2};
  int label[3] = {7, 7, 7};
  sensim_status st = SENSIM_OK;
  const double eps[2] = {1, 1};
#define REFUSED(call, name)                                          \
  do {                                                               \
    st = SENSIM_OK;                                                  \
    assert_int_equal(call, -1);                                      \
    assert_int_equal(st, SENSIM_EINVAL);                             \
    assert_non_null(strstr(sensim_last_error(), name));              \
    assert_int_equal(label[0], 7);                                   \
  } while (0)
  REFUSED(sensim__dbscan(pts, 3, 0, eps, 2, label, &st), "dim");
  REFUSED(sensim__dbscan(pts, 3, 2, (const double[]){1, 0}, 2, label, &st), "eps[1]");
  REFUSED(sensim__dbscan(pts, 3, 2, (const double[]){-1, 1}, 2, label, &st), "eps[0]");
  REFUSED(sensim__dbscan(pts, 3, 2, (const double[]){NAN, 1}, 2, label, &st), "eps[0]");
  REFUSED(sensim__dbscan(pts, 3, 2, (const double[]){1, INFINITY}, 2, label, &st), "eps[1]");
  REFUSED(sensim__dbscan(pts, 3, 2, NULL, 2, label, &st), "eps");
  REFUSED(sensim__dbscan(pts, 3, 2, eps, 0, label, &st), "min_pts");
  REFUSED(sensim__dbscan(NULL, 3, 2, eps, 2, label, &st), "pts");
  pts[3] = NAN;
  REFUSED(sensim__dbscan(pts, 3, 2, eps, 2, label, &st), "point 1");
  pts[3] = 1;
  /* A NULL status is allowed; the good call then works. */
  assert_int_equal(sensim__dbscan(pts, 3, 2, eps, 0, label, NULL), -1);
  assert_int_equal(sensim__dbscan(pts, 3, 2, (const double[]){1.5, 1.5}, 2, label, &st), 1);
  assert_int_equal(st, SENSIM_OK);
  assert_int_equal(label[0], 0);
  assert_int_equal(label[2], 0);
#undef REFUSED
}

int sensim_test_radar_dbscan(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dbscan_two_blobs_and_noise),
      cmocka_unit_test(test_dbscan_eps_is_per_axis),
      cmocka_unit_test(test_dbscan_border_points),
      cmocka_unit_test(test_dbscan_matches_its_definition_on_random_points),
      cmocka_unit_test(test_dbscan_bad_input_is_refused),
  };
  return cmocka_run_group_tests_name("radar_dbscan", tests, NULL, NULL);
}
