/* tests/tools/noise_calib_tests.c: the mean-image noise calibration
 * (sensim_tools/noise_calib.h) from float stacks, from PNG folders and from
 * a scenario's own camera.
 *
 * Tolerances: for N frames, the unbiased sample variance of a value with
 * noise variance s^2 has variance 2 s^4 / (N - 1) (Gaussian noise), so the
 * Cramer-Rao covariance of (a, b) in var = a I + b over all values is the
 * inverse of sum_i w_i [I_i^2, I_i; I_i, 1] with w_i = (N - 1) / (2 s_i^4).
 * Estimates must fall within 5 of those standard deviations of the truth
 * (a false failure about 1 in 1.7 million per check). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sensim_tools/noise_calib.h>
#include "filters/chain.h"
#include "support/testutil.h"

int sensim_test_noise_calib(void);

#define TMP SENSIM_TEST_TMP "/noise_calib"
#define K_SIGMA 5.0

static int setup(void **state) {
  (void)state;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

/* A static scene: nvalues intensities on a ramp over [lo, hi], and N
 * frames of it with Gaussian noise of variance a I + b (sensim_rng, one
 * stream per frame). */
typedef struct stack {
  size_t n, nframes;
  double *truth;
  float **frames;
} stack;

static stack make_stack(size_t n, size_t nframes, double lo, double hi, double a, double b,
                        uint64_t seed) {
  stack s = {n, nframes, malloc(n * sizeof(double)), malloc(nframes * sizeof(float *))};
  for (size_t i = 0; i < n; i++) s.truth[i] = lo + (hi - lo) * (double)i / (double)(n - 1);
  for (size_t k = 0; k < nframes; k++) {
    s.frames[k] = malloc(n * sizeof(float));
    sensim_rng r;
    sensim_rng_init(&r, seed, 7, k, 0);
    for (size_t i = 0; i < n; i++)
      s.frames[k][i] = (float)(s.truth[i] + sqrt(a * s.truth[i] + b) * sensim_rng_normal(&r));
  }
  return s;
}

static void free_stack(stack *s) {
  for (size_t k = 0; k < s->nframes; k++) free(s->frames[k]);
  free(s->frames);
  free(s->truth);
}

/* Cramer-Rao standard deviations of a and b (see the top of the file). */
static void expected_std(const stack *s, double a, double b, double *sa, double *sb) {
  double S = 0, Sx = 0, Sxx = 0;
  for (size_t i = 0; i < s->n; i++) {
    double v = a * s->truth[i] + b;
    double w = (double)(s->nframes - 1) / (2 * v * v);
    S += w, Sx += w * s->truth[i], Sxx += w * s->truth[i] * s->truth[i];
  }
  double det = S * Sxx - Sx * Sx;
  *sa = sqrt(S / det);
  *sb = sqrt(Sxx / det);
}

/* Known (s1, s2) come back within 5 standard deviations derived from N and
 * the value count; the reported standard errors agree with those; the fit
 * is good (chi^2 per degree of freedom within 5 sd of its chi^2 law). */
static void test_noise_calib_recovers_known_s1_s2(void **state) {
  (void)state;
  static const double cases[][2] = {{0.02, 0.01}, {0.05, 0.002}, {0.0, 0.01}, {0.03, 0.0}};
  for (size_t c = 0; c < 4; c++) {
    double s1 = cases[c][0], s2 = cases[c][1], a = s1 * s1, b = s2 * s2;
    stack s = make_stack(20000, 16, 0.05, 0.95, a, b, 100 + c);
    sensim_noise_fit f;
    SENSIM_OK_OR_FAIL(sensim_noise_calib_fit((const float *const *)s.frames, s.nframes, s.n, 32, &f));
    double sa, sb;
    expected_std(&s, a, b, &sa, &sb);
    assert_near(f.a, a, K_SIGMA * sa);
    assert_near(f.b, b, K_SIGMA * sb);
    assert_true(f.a_std > 0.8 * sa && f.a_std < 1.25 * sa);
    assert_true(f.b_std > 0.8 * sb && f.b_std < 1.25 * sb);
    /* s1 = sqrt(a) (clamped at 0), likewise s2. */
    assert_near(f.s1, f.a > 0 ? sqrt(f.a) : 0, 0);
    assert_near(f.s2, f.b > 0 ? sqrt(f.b) : 0, 0);
    assert_int_equal(f.clamped, (f.a < 0 ? 1 : 0) | (f.b < 0 ? 2 : 0));
    assert_int_equal(f.nbins_used, 32);
    assert_int_equal(f.nframes, 16);
    assert_int_equal(f.nvalues, 20000);
    assert_true(f.nrejected <= 3);
    assert_near(f.quant_var, 0, 0);
    double dof = (double)f.nbins_used - 2;
    assert_near(f.chi2_dof, 1.0, K_SIGMA * sqrt(2.0 / dof));
    size_t total = 0;
    for (size_t j = 0; j < f.nbins_used; j++) {
      total += f.bins[j].count;
      if (j) assert_true(f.bins[j].mean > f.bins[j - 1].mean);
      assert_near(f.bins[j].var_model, f.a * f.bins[j].mean + f.b, 1e-15);
    }
    assert_int_equal(total + f.nrejected, 20000);
    free_stack(&s);
  }
}

/* The estimate is consistent: four times the values halve the error
 * bound, and the estimate stays inside it (a wrong weighting or a biased
 * variance would drift out as the data grow). */
static void test_noise_calib_tightens_with_more_data(void **state) {
  (void)state;
  double a = 0.02 * 0.02, b = 0.01 * 0.01;
  for (size_t n = 5000; n <= 80000; n *= 4) {
    stack s = make_stack(n, 32, 0.1, 0.9, a, b, 7 + n);
    sensim_noise_fit f;
    SENSIM_OK_OR_FAIL(sensim_noise_calib_fit((const float *const *)s.frames, s.nframes, n, 0, &f));
    double sa, sb;
    expected_std(&s, a, b, &sa, &sb);
    assert_near(f.a, a, K_SIGMA * sa);
    assert_near(f.b, b, K_SIGMA * sb);
    assert_int_equal(f.nbins_used, 32); /* 0 bins: the default 32 */
    free_stack(&s);
  }
}

/* Moments exactly on a line give that line exactly, chi^2 0; moments on a
 * falling line clamp s1 and say so; a negative intercept clamps s2. */
static void test_noise_calib_exact_line_and_clamping(void **state) {
  (void)state;
  enum { N = 1000 };
  double mean[N], var[N];
  for (int i = 0; i < N; i++) {
    mean[i] = 0.1 + 0.8 * i / (N - 1.0);
    var[i] = 3e-4 * mean[i] + 2e-5;
  }
  sensim_noise_fit f;
  SENSIM_OK_OR_FAIL(sensim_noise_calib_fit_moments(mean, var, N, 8, 16, &f));
  assert_near(f.a, 3e-4, 1e-15);
  assert_near(f.b, 2e-5, 1e-16);
  assert_near(f.chi2, 0, 1e-12);
  assert_int_equal(f.clamped, 0);
  assert_int_equal(f.nrejected, 0);

  for (int i = 0; i < N; i++) var[i] = 1e-4 - 5e-5 * mean[i];
  SENSIM_OK_OR_FAIL(sensim_noise_calib_fit_moments(mean, var, N, 8, 16, &f));
  assert_near(f.a, -5e-5, 1e-15);
  assert_int_equal(f.clamped, 1);
  assert_near(f.s1, 0, 0);
  assert_near(f.s2, 1e-2, 1e-12);

  for (int i = 0; i < N; i++) var[i] = 1e-4 * mean[i] - 5e-6;
  SENSIM_OK_OR_FAIL(sensim_noise_calib_fit_moments(mean, var, N, 8, 16, &f));
  assert_int_equal(f.clamped, 2);
  assert_near(f.s2, 0, 0);
  assert_near(f.s1, 1e-2, 1e-12);

  /* No noise at all: a = b = 0, nothing clamped, no NaN. */
  for (int i = 0; i < N; i++) var[i] = 0;
  SENSIM_OK_OR_FAIL(sensim_noise_calib_fit_moments(mean, var, N, 8, 16, &f));
  assert_near(f.a, 0, 0);
  assert_near(f.b, 0, 0);
  assert_near(f.a_std, 0, 0);
  assert_false(isnan(f.chi2_dof));
}

/* Values whose variance is not noise (a flickering 2% of the scene, as an
 * edge under changing anti-aliasing) are left out, and the fit stays within
 * its bounds; the flickering values would otherwise add 0.01 to their
 * bins' variance, hundreds of standard deviations. */
static void test_noise_calib_leaves_out_flickering_values(void **state) {
  (void)state;
  double a = 0.02 * 0.02, b = 0.01 * 0.01;
  stack s = make_stack(20000, 16, 0.1, 0.9, a, b, 42);
  size_t flicker = 0;
  for (size_t i = 0; i < s.n; i += 50, flicker++)
    for (size_t k = 0; k < s.nframes; k++) s.frames[k][i] += (k % 2 ? 0.1f : -0.1f);
  sensim_noise_fit f;
  SENSIM_OK_OR_FAIL(sensim_noise_calib_fit((const float *const *)s.frames, s.nframes, s.n, 32, &f));
  double sa, sb;
  expected_std(&s, a, b, &sa, &sb);
  assert_true(f.nrejected >= flicker && f.nrejected <= flicker + 3);
  assert_near(f.a, a, K_SIGMA * sa);
  assert_near(f.b, b, K_SIGMA * sb);
  free_stack(&s);
}

static void test_noise_calib_bad_input_is_einval_and_out_untouched(void **state) {
  (void)state;
  stack s = make_stack(100, 4, 0.1, 0.9, 1e-4, 1e-4, 1);
  const float *const *fr = (const float *const *)s.frames;
  sensim_noise_fit f;
  memset(&f, 0x5A, sizeof f);
  sensim_noise_fit before = f;
  assert_int_equal(sensim_noise_calib_fit(fr, 1, 100, 16, &f), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "at least 2 frames"));
  assert_int_equal(sensim_noise_calib_fit(fr, 4, 1, 16, &f), SENSIM_EINVAL);
  assert_int_equal(sensim_noise_calib_fit(fr, 4, 100, 1, &f), SENSIM_EINVAL);
  assert_int_equal(sensim_noise_calib_fit(fr, 4, 100, SENSIM_NOISE_CALIB_MAX_BINS + 1, &f),
                   SENSIM_EINVAL);
  assert_int_equal(sensim_noise_calib_fit(NULL, 4, 100, 16, &f), SENSIM_EINVAL);
  assert_int_equal(sensim_noise_calib_fit(fr, 4, 100, 16, NULL), SENSIM_EINVAL);
  const float *with_null[2] = {s.frames[0], NULL};
  assert_int_equal(sensim_noise_calib_fit(with_null, 2, 100, 16, &f), SENSIM_EINVAL);
  float keep = s.frames[2][17];
  s.frames[2][17] = NAN;
  assert_int_equal(sensim_noise_calib_fit(fr, 4, 100, 16, &f), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "frame 2 value 17"));
  s.frames[2][17] = keep;
  /* A flat scene has one intensity: nothing to fit a slope to. */
  float flat0[50], flat1[50];
  for (int i = 0; i < 50; i++) flat0[i] = 0.5f, flat1[i] = 0.5f;
  const float *flat[2] = {flat0, flat1};
  assert_int_equal(sensim_noise_calib_fit(flat, 2, 50, 16, &f), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "range of intensities"));
  double mean[3] = {0.1, 0.2, 0.3}, var[3] = {1e-4, -1e-4, 1e-4};
  assert_int_equal(sensim_noise_calib_fit_moments(mean, var, 3, 4, 4, &f), SENSIM_EINVAL);
  assert_memory_equal(&f, &before, sizeof f);
  /* Still usable. */
  SENSIM_OK_OR_FAIL(sensim_noise_calib_fit(fr, 4, 100, 4, &f));
  free_stack(&s);
}

/* ---- from PNG folders ---------------------------------------------------- */

static void remove_tree(const char *path) {
  DIR *d = opendir(path);
  if (!d) {
    unlink(path);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
    remove_tree(sub);
  }
  closedir(d);
  rmdir(path);
}

static const char *fresh_dir(const char *name) {
  static char buf[512];
  snprintf(buf, sizeof buf, "%s/%s", TMP, name);
  remove_tree(buf);
  if (sensim_mkdirs(buf) != SENSIM_OK) fail_msg("cannot create %s", buf);
  return buf;
}

/* Write the stack as w x h grey PNGs (8 or 16 bit, rounded to the nearest
 * code) named frame_<k>.png. */
static void write_stack_pngs(const char *dir, const stack *s, uint32_t w, uint32_t h, int bits) {
  double full = bits == 8 ? 255.0 : 65535.0;
  for (size_t k = 0; k < s->nframes; k++) {
    sensim_frame f;
    memset(&f, 0, sizeof f);
    f.type = bits == 8 ? SENSIM_PAYLOAD_GRAY8 : SENSIM_PAYLOAD_GRAY16;
    f.width = w;
    f.height = h;
    f.count = (size_t)w * h;
    uint8_t *p8 = malloc(f.count);
    uint16_t *p16 = malloc(f.count * 2);
    for (size_t i = 0; i < f.count; i++) {
      double c = floor(s->frames[k][i] * full + 0.5);
      c = c < 0 ? 0 : c > full ? full : c;
      p8[i] = (uint8_t)c;
      p16[i] = (uint16_t)c;
    }
    f.data = bits == 8 ? (void *)p8 : (void *)p16;
    char path[600];
    snprintf(path, sizeof path, "%s/frame_%03zu.png", dir, k);
    SENSIM_OK_OR_FAIL(sensim_write_png(path, &f));
    free(p8);
    free(p16);
  }
}

/* Through 16-bit and 8-bit PNG files: the fit sees b + LSB^2 / 12
 * (uniform quantisation noise; Widrow & Kollar, "Quantization Noise",
 * 2008: exact to far below these tolerances for Gaussian noise of an LSB or
 * more, here 1.4 LSB at 8 bits), reports that term, and is otherwise
 * unchanged. The scene is dark enough (I from 0.03) that b is known to
 * about 1e-7, so the 8-bit term (1.3e-6) is over 12 standard deviations:
 * leaving it out would fail. */
static void test_noise_calib_pngs_accounts_for_quantisation(void **state) {
  (void)state;
  enum { W = 320, H = 240 };
  double s1 = 0.015, s2 = 0.005, a = s1 * s1, b = s2 * s2;
  stack s = make_stack(W * H, 32, 0.03, 0.5, a, b, 77);
  double sa, sb;
  expected_std(&s, a, b, &sa, &sb);
  for (int bits = 8; bits <= 16; bits += 8) {
    const char *dir = fresh_dir(bits == 8 ? "png8" : "png16");
    write_stack_pngs(dir, &s, W, H, bits);
    /* Files that are not *.png are ignored. */
    char other[600];
    snprintf(other, sizeof other, "%s/notes.txt", dir);
    FILE *fp = fopen(other, "w");
    assert_non_null(fp);
    fputs("not a frame\n", fp);
    fclose(fp);
    sensim_noise_fit f;
    SENSIM_OK_OR_FAIL(sensim_noise_calib_pngs(dir, 32, &f));
    double lsb = 1.0 / (bits == 8 ? 255.0 : 65535.0);
    assert_near(f.quant_var, lsb * lsb / 12, 1e-20);
    assert_int_equal(f.nframes, 32);
    assert_int_equal(f.nvalues, W * H);
    assert_near(f.a, a, K_SIGMA * sa);
    assert_near(f.b, b + f.quant_var, K_SIGMA * sb);
    if (bits == 8) assert_true(fabs(f.b - b) > K_SIGMA * sb);
  }
  free_stack(&s);
}

static void test_noise_calib_pngs_bad_folders(void **state) {
  (void)state;
  sensim_noise_fit f;
  memset(&f, 0, sizeof f);
  assert_int_equal(sensim_noise_calib_pngs(TMP "/no_such_folder", 0, &f), SENSIM_ENOTFOUND);
  const char *dir = fresh_dir("empty");
  assert_int_equal(sensim_noise_calib_pngs(dir, 0, &f), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "0 PNG files"));

  stack s = make_stack(64 * 48, 3, 0.1, 0.9, 1e-4, 1e-4, 5);
  stack one = s;
  one.nframes = 1;
  dir = fresh_dir("one");
  write_stack_pngs(dir, &one, 64, 48, 8);
  assert_int_equal(sensim_noise_calib_pngs(dir, 0, &f), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "at least 2"));

  /* Sizes that differ: the message names the odd file. */
  dir = fresh_dir("mixed");
  write_stack_pngs(dir, &s, 64, 48, 8);
  char path[600];
  snprintf(path, sizeof path, "%s/frame_001.png", dir);
  sensim_frame fr;
  memset(&fr, 0, sizeof fr);
  uint8_t px[32 * 48];
  memset(px, 100, sizeof px);
  fr.type = SENSIM_PAYLOAD_GRAY8, fr.width = 32, fr.height = 48, fr.count = 32 * 48, fr.data = px;
  SENSIM_OK_OR_FAIL(sensim_write_png(path, &fr));
  assert_int_equal(sensim_noise_calib_pngs(dir, 0, &f), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "frame_001.png"));

  /* A file named .png that is not one. */
  dir = fresh_dir("fake");
  write_stack_pngs(dir, &s, 64, 48, 8);
  snprintf(path, sizeof path, "%s/frame_002.png", dir);
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  fputs("text\n", fp);
  fclose(fp);
  assert_int_equal(sensim_noise_calib_pngs(dir, 0, &f), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "frame_002.png"));
  assert_int_equal(sensim_noise_calib_pngs(NULL, 0, &f), SENSIM_EINVAL);
  assert_int_equal(sensim_noise_calib_pngs(dir, 1, &f), SENSIM_EINVAL);
  free_stack(&s);
}

/* ---- a scenario's own camera ---------------------------------------------- */

/* A camera looking straight down at a large plane lit by a point light
 * above it: radiance varies smoothly over a wide range with no edges, and
 * 16 stratified samples per pixel keep the frame-to-frame change of the
 * jittered samples far below the noise. CHAIN is the filter list. */
#define CALIB_SCENE(CHAIN)                                                                     \
  "{\"world\": {\"seed\": 11, \"threads\": 0},"                                                \
  " \"duration\": 1, \"step\": 0.01,"                                                          \
  " \"meshes\": [{\"name\": \"floor\", \"shape\": {\"kind\": \"plane\", \"size\": [40, 40, 1]},"  \
  "   \"material\": {\"base_color\": [0.8, 0.8, 0.8]}}],"                                      \
  " \"lights\": [{\"kind\": \"point\", \"position\": [0.5, 0, 1.5], \"intensity\": 4}],"       \
  " \"bodies\": [{\"name\": \"floor\", \"mesh\": \"floor\"}],"                                 \
  " \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"rate\": 20,"                      \
  "   \"mount\": {\"position\": [0, 0, 2], \"rpy\": [0, 1.5707963267948966, 0]},"              \
  "   \"width\": 40, \"height\": 30, \"samples\": 16, \"filters\": [" CHAIN "]}]}"

static void calibrate_scene(const char *json, size_t nframes, sensim_noise_fit *f) {
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  SENSIM_OK_OR_FAIL(sensim_noise_calib_scenario(scn, "cam", nframes, 24, f));
  sensim_scenario_destroy(scn);
}

/* "image_noise" (additive white Gaussian, sigma 0.03): s1 = 0, s2 = sigma. */
static void test_noise_calib_scenario_image_noise_gives_s2_sigma(void **state) {
  (void)state;
  sensim_noise_fit f;
  calibrate_scene(CALIB_SCENE("{\"name\": \"image_noise\", \"params\": {\"sigma\": 0.03}}"), 24,
                  &f);
  assert_int_equal(f.nframes, 24);
  assert_int_equal(f.nvalues, 40 * 30 * 3);
  assert_true(f.nbins_used >= 12); /* the scene spans a range of radiance */
  assert_near(f.a, 0, K_SIGMA * f.a_std);
  assert_near(f.b, 0.03 * 0.03, K_SIGMA * f.b_std);
  assert_true(f.b_std < 0.05 * 0.03 * 0.03);
}

/* "noise_intensity" (s1 = 0.1, s2 = 0.02 in radiance units) comes back, if
 * the filter is built in. */
static void test_noise_calib_scenario_noise_intensity_round_trips(void **state) {
  (void)state;
  if (!sensim__filter_find("noise_intensity")) {
    print_message("note: no \"noise_intensity\" filter in this build; skipped\n");
    skip();
  }
  sensim_noise_fit f;
  calibrate_scene(CALIB_SCENE("{\"name\": \"noise_intensity\", \"params\": {\"s1\": 0.1, "
                              "\"s2\": 0.02}}"),
                  24, &f);
  assert_near(f.a, 0.01, K_SIGMA * f.a_std);
  assert_near(f.b, 0.0004, K_SIGMA * f.b_std);
  assert_true(f.a_std < 0.1 * 0.01);
  assert_near(f.s1, 0.1, K_SIGMA * f.a_std / (2 * 0.1));
}

static void test_noise_calib_scenario_bad_requests(void **state) {
  (void)state;
  sensim_noise_fit f;
  sensim_scenario *scn = NULL;
  const char *json = CALIB_SCENE("{\"name\": \"image_noise\"}");
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  assert_int_equal(sensim_noise_calib_scenario(scn, "nope", 4, 0, &f), SENSIM_ENOTFOUND);
  assert_int_equal(sensim_noise_calib_scenario(scn, "cam", 1, 0, &f), SENSIM_EINVAL);
  assert_int_equal(sensim_noise_calib_scenario(scn, "cam", 4, 1, &f), SENSIM_EINVAL);
  assert_int_equal(sensim_noise_calib_scenario(NULL, "cam", 4, 0, &f), SENSIM_EINVAL);
  /* Those left the scenario unrun: it still calibrates, once. */
  SENSIM_OK_OR_FAIL(sensim_noise_calib_scenario(scn, "cam", 2, 0, &f));
  assert_int_equal(sensim_noise_calib_scenario(scn, "cam", 2, 0, &f), SENSIM_ESTATE);
  sensim_scenario_destroy(scn);

  /* Depth frames are not an image to calibrate on. */
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(CALIB_SCENE("{\"name\": \"depth\"}"), NULL, &scn));
  assert_int_equal(sensim_noise_calib_scenario(scn, "cam", 2, 0, &f), SENSIM_ETYPE);
  sensim_scenario_destroy(scn);

  /* A moving body makes the scene non-static. */
  const char *moving =
      "{\"duration\": 1, \"world\": {\"threads\": 0},"
      " \"bodies\": [{\"name\": \"rig\", \"motion\": {\"type\": \"line\", \"velocity\": [1, 0, 0]}}],"
      " \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"body\": \"rig\", \"width\": 8,"
      "   \"height\": 6, \"samples\": 1}]}";
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(moving, NULL, &scn));
  assert_int_equal(sensim_noise_calib_scenario(scn, "cam", 2, 0, &f), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "'rig' has a motion"));
  sensim_scenario_destroy(scn);
}

int sensim_test_noise_calib(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_noise_calib_recovers_known_s1_s2),
      cmocka_unit_test(test_noise_calib_tightens_with_more_data),
      cmocka_unit_test(test_noise_calib_exact_line_and_clamping),
      cmocka_unit_test(test_noise_calib_leaves_out_flickering_values),
      cmocka_unit_test(test_noise_calib_bad_input_is_einval_and_out_untouched),
      cmocka_unit_test(test_noise_calib_pngs_accounts_for_quantisation),
      cmocka_unit_test(test_noise_calib_pngs_bad_folders),
      cmocka_unit_test(test_noise_calib_scenario_image_noise_gives_s2_sigma),
      cmocka_unit_test(test_noise_calib_scenario_noise_intensity_round_trips),
      cmocka_unit_test(test_noise_calib_scenario_bad_requests),
  };
  return cmocka_run_group_tests_name("noise_calib", tests, setup, NULL);
}
