/* tests/radar/cfar_tests.c: CA- and OS-CFAR (filters/radar_cfar.h): the
 * threshold factors against values worked by hand, the false-alarm rate on
 * exponential noise inside its confidence interval (whole maps and maps all
 * edge), a strong target with its spill masked by the guard cells, the
 * range edges and the Doppler wrap, and bad input. */
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "radar/radar_groups.h"
#include "filters/radar_cfar.h"
#include "sensim/rng.h"

/* The design false-alarm probability for threshold factor alpha, written
 * out independently of the library: CA (1 + alpha / N)^-N, OS
 * prod_{i<k} (N - i) / (N - i + alpha) (Rohling 1983). */
static double design_pfa(sensim__cfar_kind kind, int n, int k, double alpha) {
  if (kind == SENSIM__CFAR_CA) return pow(1.0 + alpha / n, -n);
  double p = 1.0;
  for (int i = 0; i < k; i++) p *= (double)(n - i) / (n - i + alpha);
  return p;
}

/* alpha by plain bisection on design_pfa (decreasing in alpha). */
static double bisect_alpha(sensim__cfar_kind kind, int n, int k, double pfa) {
  double lo = 0.0, hi = 1e6;
  for (int it = 0; it < 200; it++) {
    double mid = 0.5 * (lo + hi);
    if (design_pfa(kind, n, k, mid) > pfa)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

static sensim__cfar_params params(sensim__cfar_kind kind, int gr, int gd, int tr, int td, double pfa) {
  sensim__cfar_params p = {kind, gr, gd, tr, td, pfa, 0};
  return p;
}

static void test_cfar_alpha_against_hand_worked_values(void **state) {
  (void)state;
  /* CA, N = 16, pfa 1e-4: alpha = 16 (10^(4/16) - 1) = 16 x 0.77827941
   * = 12.4524706. */
  sensim__cfar_params p = params(SENSIM__CFAR_CA, 0, 0, 8, 0, 1e-4);
  assert_near(sensim__cfar_alpha(&p, 16), 12.452470560622765, 1e-12);
  assert_near(design_pfa(SENSIM__CFAR_CA, 16, 0, sensim__cfar_alpha(&p, 16)), 1e-4, 1e-15);
  /* OS, N = 16, k = 12, pfa 1e-4: prod_{i=0}^{11} (16 - i) / (16 - i + a)
   * = 1e-4 by bisection: a = 11.0801944 (200 halvings of [0, 1e6]). */
  p.kind = SENSIM__CFAR_OS;
  p.os_rank = 12;
  double a_os = sensim__cfar_alpha(&p, 16);
  assert_near(a_os, bisect_alpha(SENSIM__CFAR_OS, 16, 12, 1e-4), 1e-9);
  assert_near(a_os, 11.0801944, 1e-6);
  /* os_rank 0 takes round(3N/4) = 12 for N = 16. */
  p.os_rank = 0;
  assert_near(sensim__cfar_alpha(&p, 16), a_os, 1e-12);
  /* k = 1 is the minimum of N exponentials, Exp(N): pfa = N / (N + a),
   * a = N (1/pfa - 1). */
  p.os_rank = 1;
  assert_near(sensim__cfar_alpha(&p, 16), 16.0 * (1e4 - 1.0), 1e-6);
  /* Large N: CA tends to ln(1/pfa) (known noise), OS stays finite. */
  p.kind = SENSIM__CFAR_CA;
  assert_near(sensim__cfar_alpha(&p, 1000000), log(1e4), 1e-4);
  /* Refusals: no cells, a rank beyond N, a bad pfa. */
  assert_true(isnan(sensim__cfar_alpha(&p, 0)));
  p.kind = SENSIM__CFAR_OS;
  p.os_rank = 17;
  assert_true(isnan(sensim__cfar_alpha(&p, 16)));
  p.os_rank = 0;
  p.pfa = 1.0;
  assert_true(isnan(sensim__cfar_alpha(&p, 16)));
}

/* n_maps maps of exponential noise (mean 1: -ln(1 - u)), each from its own
 * counter-based stream; returns the hits over all maps. */
static size_t noise_hits(const sensim__cfar_params *p, int nd, int nr, int n_maps, uint32_t stream) {
  size_t cells = (size_t)nd * nr, total = 0;
  float *map = malloc(cells * sizeof *map);
  uint8_t *hit = malloc(cells);
  assert_non_null(map);
  assert_non_null(hit);
  for (int m = 0; m < n_maps; m++) {
    sensim_rng r;
    sensim_rng_init(&r, 2026, stream, (uint64_t)m, 0);
    for (size_t i = 0; i < cells; i++) map[i] = (float)-log1p(-sensim_rng_uniform(&r));
    size_t n = 0;
    assert_int_equal(sensim__cfar_detect(map, nd, nr, p, hit, &n), SENSIM_OK);
    size_t again = 0;
    for (size_t i = 0; i < cells; i++) again += hit[i];
    assert_int_equal(again, n);
    total += n;
  }
  free(map);
  free(hit);
  return total;
}

/* Check `hits` out of nd x nr x n_maps cells against the design pfa. The
 * hits are Bernoulli(pfa), but neighbouring cells share training cells,
 * which correlates them: Var(count) = M pfa (1 - pfa) (1 + c). Two cells
 * whose statistics were one and the same would hit together with
 * probability E[p(T)^2], p(T) = exp(-alpha T / mu) their common conditional
 * pfa, which is design_pfa at 2 alpha; partial sharing gives less, and
 * fewer cells (n_min, the fewest any cell of the map has) more. At most
 * min(4 h + 1, 2 n - 1) - 1 cells per axis (h the window's half width)
 * overlap a cell's window, so c <= pairs x (E[p^2] - pfa^2) / (pfa (1 -
 * pfa)). The test allows 4 standard deviations of that (two-sided 6e-5). */
static void assert_rate(const sensim__cfar_params *p, size_t hits, int nd, int nr, int n_maps, int n_min,
                        const char *what) {
  const int n = (int)sensim__cfar_train_count(p), k = p->os_rank ? p->os_rank : (int)floor(0.75 * n + 0.5);
  sensim__cfar_params q = *p;
  q.os_rank = (int)fmax(1.0, floor((double)k * n_min / n + 0.5));
  const double alpha = sensim__cfar_alpha(&q, n_min), pfa = p->pfa;
  const double pairs = fmin(4.0 * (p->guard_range + p->train_range) + 1, 2.0 * nr - 1) *
                           fmin(4.0 * (p->guard_doppler + p->train_doppler) + 1, 2.0 * nd - 1) -
                       1;
  const double c = pairs * (design_pfa(p->kind, n_min, q.os_rank, 2 * alpha) - pfa * pfa) / (pfa * (1 - pfa));
  const double cells = (double)nd * nr * n_maps, expect = cells * pfa, sd = sqrt(cells * pfa * (1 - pfa) * (1 + c));
  print_message("%s: %zu false alarms in %.0f cells, expected %.1f +- %.1f (1 sd, c = %.3f)\n", what, hits, cells,
                expect, sd, c);
  assert_true(fabs((double)hits - expect) <= 4.0 * sd);
}

static void test_cfar_false_alarm_rate_on_noise_matches_pfa(void **state) {
  (void)state;
  /* 8 maps of 256 x 256 at pfa 1e-3: 524 288 cells, 524 false alarms
   * expected, binomial sd 22.9, widened by c <= 0.46 for CA (the bound
   * taken with the edges' N' = 66). The range edges are in every map. */
  sensim__cfar_params ca = params(SENSIM__CFAR_CA, 1, 1, 6, 3, 1e-3);
  assert_rate(&ca, noise_hits(&ca, 256, 256, 8, 1), 256, 256, 8, 66, "CA 256 x 256");
  /* OS over the same window (N = 126, k = round(3N/4) = 95), 6 maps. */
  sensim__cfar_params os = ca;
  os.kind = SENSIM__CFAR_OS;
  assert_rate(&os, noise_hits(&os, 256, 256, 6, 2), 256, 256, 6, 66, "OS 256 x 256");
  /* A lower rank (k = 60 of 126) has its own alpha and the same rate. */
  os.os_rank = 60;
  assert_rate(&os, noise_hits(&os, 256, 256, 6, 3), 256, 256, 6, 66, "OS k=60 256 x 256");
}

static void test_cfar_edge_cells_keep_the_design_rate(void **state) {
  (void)state;
  /* A map exactly one window wide (15 range cells): every column but the
   * middle one lacks training cells beyond a range edge (N' = 66 .. 117
   * of 126). Counting the missing cells as zeros (the sum of 66 cells
   * over 126 about halves the threshold: pfa near 0.1 there) would show.
   * 64 maps x 3840 cells at pfa 1e-2: 2458 expected. */
  sensim__cfar_params ca = params(SENSIM__CFAR_CA, 1, 1, 6, 3, 1e-2);
  assert_rate(&ca, noise_hits(&ca, 256, 15, 64, 4), 256, 15, 64, 66, "CA, all edges");
  sensim__cfar_params os = ca;
  os.kind = SENSIM__CFAR_OS;
  assert_rate(&os, noise_hits(&os, 256, 15, 64, 5), 256, 15, 64, 66, "OS, all edges");
}

/* A flat map of 1 with a target of `peak` at (d, r) and `spill` in the 8
 * cells around it; the hits in out. */
static size_t target_hits(const sensim__cfar_params *p, int nd, int nr, int d, int r, float peak, float spill,
                          uint8_t *out) {
  float *map = malloc((size_t)nd * nr * sizeof *map);
  assert_non_null(map);
  for (int i = 0; i < nd * nr; i++) map[i] = 1.0f;
  for (int j = -1; j <= 1; j++)
    for (int c = -1; c <= 1; c++)
      if (r + c >= 0 && r + c < nr) map[((d + j + nd) % nd) * nr + r + c] = (j || c) ? spill : peak;
  size_t n = 0;
  assert_int_equal(sensim__cfar_detect(map, nd, nr, p, out, &n), SENSIM_OK);
  free(map);
  return n;
}

static void test_cfar_target_detected_with_its_spill_in_the_guard(void **state) {
  (void)state;
  enum { ND = 64, NR = 128 };
  uint8_t hit[ND * NR];
  /* Guard 1: the spill (100 in the 8 cells around a 50 peak) lies in the
   * peak's guard block; its training mean is 1, alpha(126, 1e-3) = 7.10:
   * detected. The spill cells see 3 spill cells among their training
   * cells (mean (300 + 123) / 126 = 3.4, threshold 24 < 100): detected.
   * Nothing else is (1 < 7.1). */
  sensim__cfar_params ca = params(SENSIM__CFAR_CA, 1, 1, 6, 3, 1e-3);
  assert_int_equal(target_hits(&ca, ND, NR, 20, 60, 50.0f, 100.0f, hit), 9);
  for (int j = -1; j <= 1; j++)
    for (int c = -1; c <= 1; c++) assert_int_equal(hit[(20 + j) * NR + 60 + c], 1);
  /* Without guard cells the spill trains the peak's threshold: the mean of
   * its 90 cells is (800 + 82) / 90 = 9.8, alpha(90) = 7.18, threshold 70
   * > 50: the peak is masked. */
  sensim__cfar_params ca0 = params(SENSIM__CFAR_CA, 0, 0, 6, 3, 1e-3);
  target_hits(&ca0, ND, NR, 20, 60, 50.0f, 100.0f, hit);
  assert_int_equal(hit[20 * NR + 60], 0);
  /* OS ranks the training cells instead: 8 high cells of 90 do not move
   * the 68th smallest (1), so OS finds the peak without guard cells:
   * alpha_OS(90, k 68) is below 50. */
  sensim__cfar_params os0 = ca0;
  os0.kind = SENSIM__CFAR_OS;
  assert_true(sensim__cfar_alpha(&os0, 90) < 50.0);
  target_hits(&os0, ND, NR, 20, 60, 50.0f, 100.0f, hit);
  assert_int_equal(hit[20 * NR + 60], 1);
}

static void test_cfar_range_edges_and_doppler_wrap(void **state) {
  (void)state;
  enum { ND = 32, NR = 40 };
  uint8_t hit[ND * NR];
  float map[ND * NR];
  sensim__cfar_params ca = params(SENSIM__CFAR_CA, 1, 1, 6, 3, 1e-3);
  for (int k = 0; k < 2; k++) {
    /* A 20 at range 0 and at the last range cell, flat 1 around:
     * detected with the training cells on one side only. */
    for (int i = 0; i < ND * NR; i++) map[i] = 1.0f;
    map[5 * NR + 0] = 20.0f;
    map[9 * NR + NR - 1] = 20.0f;
    size_t n = 0;
    assert_int_equal(sensim__cfar_detect(map, ND, NR, &ca, hit, &n), SENSIM_OK);
    assert_int_equal(n, 2);
    assert_int_equal(hit[5 * NR], 1);
    assert_int_equal(hit[9 * NR + NR - 1], 1);
    /* A 1e4 five range cells in (a training cell at this edge, N' = 72)
     * masks the one at range 0. */
    map[5 * NR + 5] = 1e4f;
    assert_int_equal(sensim__cfar_detect(map, ND, NR, &ca, hit, &n), SENSIM_OK);
    assert_int_equal(hit[5 * NR], 0);
    /* Doppler wraps: a 1e4 at Doppler ND - 3, range 20 is a training cell
     * of Doppler 0 (3 rows away through the edge) and masks a 20 there;
     * at Doppler 16 the same 20 is found. */
    for (int i = 0; i < ND * NR; i++) map[i] = 1.0f;
    map[0 * NR + 20] = 20.0f;
    map[16 * NR + 20] = 20.0f;
    map[(ND - 3) * NR + 20] = 1e4f;
    assert_int_equal(sensim__cfar_detect(map, ND, NR, &ca, hit, &n), SENSIM_OK);
    assert_int_equal(hit[0 * NR + 20], 0);
    assert_int_equal(hit[16 * NR + 20], 1);
    assert_int_equal(hit[(ND - 3) * NR + 20], 1);
    ca.kind = SENSIM__CFAR_OS;
    ca.os_rank = 126; /* the largest: one big training cell sets the threshold */
  }
}

static void test_cfar_bad_input_is_refused(void **state) {
  (void)state;
  enum { ND = 16, NR = 32 };
  float map[ND * NR];
  uint8_t hit[ND * NR];
  for (int i = 0; i < ND * NR; i++) map[i] = 1.0f;
  memset(hit, 7, sizeof hit);
  size_t n = 99;
  sensim__cfar_params good = params(SENSIM__CFAR_CA, 1, 1, 4, 2, 1e-3), p;
  assert_int_equal(sensim__cfar_check(&good, ND, NR), SENSIM_OK);
#define REFUSED(field_edit, name)                                                     \
  do {                                                                                \
    p = good;                                                                         \
    field_edit;                                                                       \
    assert_int_equal(sensim__cfar_detect(map, ND, NR, &p, hit, &n), SENSIM_EINVAL);   \
    assert_non_null(strstr(sensim_last_error(), name));                               \
    assert_int_equal(n, 99);                                                          \
    assert_int_equal(hit[0], 7);                                                      \
  } while (0)
  /* Window 2 (1 + 16) + 1 = 35 range cells > 32. */
  REFUSED(p.train_range = 16, "window");
  /* Doppler window 2 (1 + 7) + 1 = 17 > 16. */
  REFUSED(p.train_doppler = 7, "window");
  REFUSED(p.pfa = 0.0, "pfa");
  REFUSED(p.pfa = 1.0, "pfa");
  REFUSED(p.pfa = NAN, "pfa");
  REFUSED(p.guard_range = -1, "guard_range");
  REFUSED(p.guard_doppler = -2, "guard_doppler");
  REFUSED(p.train_range = -1, "train_range");
  REFUSED((p.train_range = 0, p.train_doppler = 0), "train_range and train_doppler");
  REFUSED(p.kind = (sensim__cfar_kind)7, "kind");
  /* N = 11 x 7 - 3 x 3 = 68. */
  REFUSED((p.kind = SENSIM__CFAR_OS, p.os_rank = 69), "os_rank");
  REFUSED((p.kind = SENSIM__CFAR_OS, p.os_rank = -1), "os_rank");
  p = good;
  p.kind = SENSIM__CFAR_OS;
  p.os_rank = 68;
  assert_int_equal(sensim__cfar_check(&p, ND, NR), SENSIM_OK);
  /* A NaN, an infinity or a negative power names its cell. */
  map[3 * NR + 4] = NAN;
  REFUSED((void)0, "Doppler 3, range 4");
  map[3 * NR + 4] = INFINITY;
  REFUSED((void)0, "not finite");
  map[3 * NR + 4] = -1.0f;
  REFUSED((void)0, ">= 0");
  map[3 * NR + 4] = 1.0f;
  assert_int_equal(sensim__cfar_detect(NULL, ND, NR, &good, hit, &n), SENSIM_EINVAL);
  assert_int_equal(sensim__cfar_detect(map, ND, NR, &good, NULL, &n), SENSIM_EINVAL);
  assert_int_equal(sensim__cfar_detect(map, ND, NR, NULL, hit, &n), SENSIM_EINVAL);
  assert_int_equal(sensim__cfar_detect(map, 0, NR, &good, hit, &n), SENSIM_EINVAL);
  assert_int_equal(n, 99);
  /* The good map still works: flat, no hits. */
  assert_int_equal(sensim__cfar_detect(map, ND, NR, &good, hit, &n), SENSIM_OK);
  assert_int_equal(n, 0);
  assert_int_equal(hit[0], 0);
#undef REFUSED
}

int sensim_test_radar_cfar(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cfar_alpha_against_hand_worked_values),
      cmocka_unit_test(test_cfar_false_alarm_rate_on_noise_matches_pfa),
      cmocka_unit_test(test_cfar_edge_cells_keep_the_design_rate),
      cmocka_unit_test(test_cfar_target_detected_with_its_spill_in_the_guard),
      cmocka_unit_test(test_cfar_range_edges_and_doppler_wrap),
      cmocka_unit_test(test_cfar_bad_input_is_refused),
  };
  return cmocka_run_group_tests_name("radar_cfar", tests, NULL, NULL);
}
