/* tests/radar/fmcw_tests.c: the raw FMCW chain (docs/radar.md, "Raw
 * FMCW"): echoes -> ADC cube (sensors/radar_adc.c) -> range-Doppler map
 * ("radar_fft") -> peak, bins and angle (filters/radar_peak.c), checked
 * against the closed forms of the beat signal; thermal noise against its
 * chi-square interval; the peak's SNR against the radar equation times the
 * processing gain; the .npy file read back; bad chirps refused. */
#include <gsl/gsl_cdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "core/fmcw.h"
#include "filters/radar_cfar.h"
#include "filters/radar_fft.h"
#include "filters/radar_peak.h"
#include "radar/radar_groups.h"
#include "sensors/radar_internal.h"

/* A capture context holding only what the synthesis reads. */
static sensim_capture_ctx synth_ctx(const sensim__radar *R, uint64_t frame) {
  sensim_capture_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.impl = R;
  ctx.key.seed = 42;
  ctx.key.sensor = 3;
  ctx.key.frame = frame;
  return ctx;
}

/* A point echo of received power p_w (W) from (range, vel, az). */
static sensim__radar_echo point_echo(const sensim__radar *R, double range, double vel, double az, double p_w) {
  sensim__radar_echo e;
  memset(&e, 0, sizeof e);
  e.range = range;
  e.vel = vel;
  e.az = az;
  /* coherent power K 4 pi |a|^2 / lambda^2 = p_w (radar_detect.c) */
  e.re = sqrt(p_w / (R->K * 4.0 * M_PI / (R->lambda * R->lambda)));
  e.w = p_w;
  return e;
}

static sensim_radar_params fmcw_params(void) {
  sensim_radar_params p;
  sensim_radar_params_init(&p);
  p.output = SENSIM_RADAR_RANGE_DOPPLER;
  p.chirps = 64;
  p.samples = 128;
  p.sample_rate = 5e6; /* S = B f_s / N: range bin c / 2B = 1.79 m, 229 m */
  p.max_range = 200.0;
  return p;
}

/* The echoes' range-Doppler frame (caller releases it). */
static sensim_frame rd_of(const sensim__radar *R, const sensim__radar_echo *e, size_t n, uint64_t frame) {
  sensim_capture_ctx ctx = synth_ctx(R, frame);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim__radar_adc(&ctx, e, n, &f));
  assert_int_equal(f.type, SENSIM_PAYLOAD_RADAR_CUBE);
  SENSIM_OK_OR_FAIL(sensim__radar_fft(&f, (sensim_fmcw_window)f.fmcw.window));
  assert_int_equal(f.type, SENSIM_PAYLOAD_RADAR_RD);
  return f;
}

/* The range whose beat, Doppler included, falls on range bin `bin` for a
 * target at radial velocity `vel`: f_b = 2 S R / c + 2 v / lambda. */
static double range_on_bin(const sensim_radar_params *p, const sensim_fmcw_info *info, double bin, double vel) {
  const double lambda = 299792458.0 / p->frequency;
  return (bin * p->sample_rate / (double)info->samples - 2.0 * vel / lambda) * 299792458.0 /
         (2.0 * info->chirp_slope);
}

static void argmax(const float *pw, size_t n, size_t *at) {
  *at = 0;
  for (size_t i = 1; i < n; i++)
    if (pw[i] > pw[*at]) *at = i;
}

static void test_point_target_peaks_at_its_range_doppler_bins_and_azimuth(void **state) {
  (void)state;
  sensim_radar_params p = fmcw_params();
  SENSIM_OK_OR_FAIL(sensim_radar_params_check(&p));
  sensim__radar R;
  sensim__radar_init(&R, &p);
  sensim_fmcw_info info;
  sensim__radar_fmcw_info(&p, &info);
  /* Off-bin on purpose: 0.37 of a range bin and 0.29 of a Doppler bin. */
  const double range = (31.0 + 0.37) * info.range_bin, vel = (5.0 + 0.29) * info.velocity_bin;
  const double az = 12.0 * M_PI / 180.0;
  sensim__radar_echo e = point_echo(&R, range, vel, az, 1e-12);
  sensim_frame f = rd_of(&R, &e, 1, 0);
  const int N = (int)info.samples, C = (int)info.chirps;
  float *pw = malloc((size_t)N * C * sizeof *pw);
  sensim__rd_power(&f, pw);
  size_t at;
  argmax(pw, (size_t)N * C, &at);
  const int d = (int)(at / N), r = (int)(at % N);
  double fd, fr;
  sensim__rd_refine(pw, C, N, d, r, &fd, &fr);
  /* Beat frequency 2 S R / c + 2 v / lambda in bins of f_s / N. */
  const double lambda = 299792458.0 / p.frequency;
  const double want_r = (2.0 * info.chirp_slope * range / 299792458.0 + 2.0 * vel / lambda) * N / p.sample_rate;
  const double want_d = vel / info.velocity_bin + C / 2;
  print_message("point target: range bin %.3f (want %.3f), Doppler bin %.3f (want %.3f)\n", r + fr, want_r,
                d + fd, want_d);
  assert_true(fabs(r + fr - want_r) < 0.1);
  assert_true(fabs(d + fd - want_d) < 0.1);
  const double u = sensim__rd_angle(&f, d, r, (d + fd - C / 2) * info.velocity_bin, 256);
  print_message("point target: azimuth %.3f deg (want %.3f)\n", asin(u) * 180.0 / M_PI, az * 180.0 / M_PI);
  assert_true(fabs(asin(u) - az) < 0.5 * M_PI / 180.0);
  free(pw);
  sensim_frame_release(&f);
}

/* Mean |s|^2 of an empty scene's cube: 2 n mean / sigma^2 is chi-square
 * with 2 n degrees of freedom (n complex samples, I and Q independent). */
static void test_empty_scene_noise_power_is_k_t0_f_fs_within_chi_square(void **state) {
  (void)state;
  sensim_radar_params p = fmcw_params();
  sensim__radar R;
  sensim__radar_init(&R, &p);
  sensim_capture_ctx ctx = synth_ctx(&R, 7);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim__radar_adc(&ctx, NULL, 0, &f));
  const double want = 1.380649e-23 * 290.0 * pow(10.0, p.noise_figure / 10.0) * p.sample_rate;
  assert_true(fabs(f.fmcw.noise_power - want) < 1e-12 * want);
  const float *x = f.data;
  double sum = 0.0, sum_i = 0.0;
  for (size_t i = 0; i < f.count; i++) {
    sum += (double)x[2 * i] * x[2 * i] + (double)x[2 * i + 1] * x[2 * i + 1];
    sum_i += (double)x[2 * i] * x[2 * i];
  }
  const double dof = 2.0 * (double)f.count, chi = 2.0 * sum / want;
  print_message("empty scene: mean |s|^2 / (k T0 F f_s) = %.5f over %zu samples\n", sum / f.count / want, f.count);
  assert_true(chi > gsl_cdf_chisq_Pinv(0.0005, dof) && chi < gsl_cdf_chisq_Qinv(0.0005, dof));
  /* Half of it in I: chi-square with n degrees of freedom. */
  const double chi_i = 2.0 * sum_i / want;
  assert_true(chi_i > gsl_cdf_chisq_Pinv(0.0005, dof / 2) && chi_i < gsl_cdf_chisq_Qinv(0.0005, dof / 2));
  sensim_frame_release(&f);
}

/* Radar equation SNR per sample P / (k T0 F f_s), times the coherent gain
 * N C M of the range, Doppler and angle sums, less each window's
 * processing loss n sum(w^2) / sum(w)^2 (Harris 1978, table 1). */
static void test_peak_snr_is_radar_equation_times_processing_gain(void **state) {
  (void)state;
  sensim_radar_params p = fmcw_params();
  sensim__radar R;
  sensim__radar_init(&R, &p);
  sensim_fmcw_info info;
  sensim__radar_fmcw_info(&p, &info);
  const size_t N = info.samples, C = info.chirps, M = (size_t)info.tx * info.rx;
  const double noise = info.noise_power, P = noise * 0.01; /* -20 dB per sample */
  /* On bins: range bin 40 (beat 40 f_s / N, Doppler included), Doppler
   * bin C/2 + 3, broadside. */
  const double vel = 3.0 * info.velocity_bin;
  const double range = range_on_bin(&p, &info, 40.0, vel);
  sensim__radar_echo e = point_echo(&R, range, vel, 0.0, P);
  double loss = 1.0;
  const size_t lens[2] = {N, C};
  for (int k = 0; k < 2; k++) {
    double s = 0, s2 = 0;
    for (size_t i = 0; i < lens[k]; i++) {
      const double w = sensim__fmcw_window(SENSIM_FMCW_HANN, i, lens[k]);
      s += w;
      s2 += w * w;
    }
    loss *= lens[k] * s2 / (s * s);
  }
  const double want_db = 10.0 * log10(P / noise * (double)(N * C * M) / loss);
  /* Mean over frames of the peak's coherent channel sum over the mean
   * noise of the same sum elsewhere. */
  double sig = 0.0, nse = 0.0;
  size_t nn = 0;
  const int frames = 4;
  for (int k = 0; k < frames; k++) {
    sensim_frame f = rd_of(&R, &e, 1, (uint64_t)k);
    const float *x = f.data;
    for (size_t d = 0; d < C; d++)
      for (size_t r = 0; r < N; r++) {
        double re = 0, im = 0;
        for (size_t m = 0; m < M; m++) {
          re += x[2 * (m * N * C + d * N + r)];
          im += x[2 * (m * N * C + d * N + r) + 1];
        }
        if (d == C / 2 + 3 && r == 40)
          sig += re * re + im * im;
        else if (labs((long)r - 40) > 4) {
          nse += re * re + im * im;
          nn++;
        }
      }
    sensim_frame_release(&f);
  }
  const double got_db = 10.0 * log10((sig / frames) / (nse / nn));
  print_message("peak SNR %.2f dB, radar equation x processing gain %.2f dB\n", got_db, want_db);
  assert_true(fabs(got_db - want_db) < 1.0);
  /* The map's own noise figure agrees: M channels of noise_power. */
  sensim_frame f = rd_of(&R, NULL, 0, 99);
  assert_true(fabs(10.0 * log10((nse / nn) / (M * f.fmcw.noise_power))) < 0.1);
  sensim_frame_release(&f);
}

/* The world's radar in range_doppler mode: a moving metal plate's peak
 * sits at its range and radial velocity. */
static void test_world_radar_gives_range_doppler_of_a_moving_plate(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 3);
  sensim_radar_params p = fmcw_params();
  p.hfov = p.vfov = 6.0 * M_PI / 180.0;
  p.ray_spacing = 0.05 * M_PI / 180.0;
  const sensim_vec3 vel = {-2.0, 0, 0}; /* within +-C/2 velocity bins: 3.3 m/s */
  radar_plate(w, 0.5, (sensim_vec3){30.0, 0, 0}, &vel);
  sensim_sensor *s = radar_test_sensor(w, &p);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  assert_int_equal(f->type, SENSIM_PAYLOAD_RADAR_RD);
  const int N = (int)f->fmcw.samples, C = (int)f->fmcw.chirps;
  float *pw = malloc((size_t)N * C * sizeof *pw);
  sensim__rd_power(f, pw);
  size_t at;
  argmax(pw, (size_t)N * C, &at);
  double fd, fr;
  sensim__rd_refine(pw, C, N, (int)(at / N), (int)(at % N), &fd, &fr);
  const double r = ((double)(at % N) + fr) * f->fmcw.range_bin;
  const double v = ((double)(at / N) + fd - C / 2) * f->fmcw.velocity_bin;
  print_message("moving plate: %.3f m (30), %.3f m/s (-2)\n", r, v);
  assert_true(fabs(r - 30.0) < 0.3 * f->fmcw.range_bin);
  assert_true(fabs(v - (-2.0)) < 0.3 * f->fmcw.velocity_bin);
  free(pw);
  sensim_world_destroy(w);
}

/* Two radars on one static plate on a range bin at broadside: the RD
 * peak's channel sum over (gain M)^2 is the received power the
 * detections radar reports (same echoes, radar equation). */
static void test_world_rd_peak_is_the_detections_received_power(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 3);
  sensim_radar_params p = fmcw_params();
  p.hfov = p.vfov = 6.0 * M_PI / 180.0;
  p.ray_spacing = 0.05 * M_PI / 180.0;
  sensim_fmcw_info info;
  sensim__radar_fmcw_info(&p, &info);
  radar_plate(w, 0.3, (sensim_vec3){17.0 * info.range_bin, 0, 0}, NULL);
  sensim_sensor *rd = radar_test_sensor(w, &p);
  p.output = SENSIM_RADAR_DETECTIONS;
  sensim_sensor *det = radar_test_sensor(w, &p);
  sensim_radar_detection d[4];
  assert_int_equal(radar_capture(w, det, d, 4), 1);
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(rd, &f));
  assert_non_null(f);
  const size_t N = f->fmcw.samples, C = f->fmcw.chirps, M = (size_t)f->fmcw.tx * f->fmcw.rx;
  const float *x = f->data;
  double re = 0, im = 0;
  for (size_t m = 0; m < M; m++) {
    const float *s = x + 2 * (m * N * C + (C / 2) * N + 17);
    re += s[0];
    im += s[1];
  }
  const double g = f->fmcw.gain * (double)M, got = 10.0 * log10((re * re + im * im) / (g * g) / 1e-3);
  print_message("plate at %.2f m: RD peak %.2f dBm, detection %.2f dBm\n", 17.0 * info.range_bin, got, d[0].power);
  assert_true(fabs(got - d[0].power) < 0.5);
  sensim_world_destroy(w);
}

/* The cube's chunks run on the world's workers: the same bits with 0 and
 * 2 worker threads. */
static void test_cube_is_the_same_bits_for_any_thread_count(void **state) {
  (void)state;
  sensim_frame got[2];
  for (int k = 0; k < 2; k++) {
    sensim_world *w = test_world(2 * k, 11);
    sensim_radar_params p = fmcw_params();
    p.output = SENSIM_RADAR_ADC;
    p.hfov = p.vfov = 6.0 * M_PI / 180.0;
    p.ray_spacing = 0.05 * M_PI / 180.0;
    const sensim_vec3 vel = {-1.0, 0, 0};
    radar_plate(w, 0.5, (sensim_vec3){30.0, 0, 0}, &vel);
    radar_plate_facing(w, 0.3, (sensim_vec3){50.0, 2.0, 0}, (sensim_vec3){0.5, 0, 0});
    sensim_sensor *s = radar_test_sensor(w, &p);
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
    assert_non_null(f);
    SENSIM_OK_OR_FAIL(sensim_frame_copy(f, &got[k]));
    sensim_world_destroy(w);
  }
  assert_int_equal(got[0].count, got[1].count);
  assert_memory_equal(got[0].data, got[1].data, got[0].count * sizeof(sensim_complex32));
  sensim_frame_release(&got[0]);
  sensim_frame_release(&got[1]);
}

/* Parse a .npy 1.0 header by hand and compare the data. */
static void test_npy_of_a_cube_reads_back(void **state) {
  (void)state;
  sensim_radar_params p = fmcw_params();
  p.chirps = 4;
  p.samples = 16;
  p.sample_rate = 1e6;
  p.max_range = 20.0;
  sensim__radar R;
  sensim__radar_init(&R, &p);
  sensim_capture_ctx ctx = synth_ctx(&R, 1);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim__radar_adc(&ctx, NULL, 0, &f));
  char path[512];
  snprintf(path, sizeof path, "%s/cube.npy", SENSIM_TEST_TMP);
  SENSIM_OK_OR_FAIL(sensim_mkdirs(SENSIM_TEST_TMP));
  SENSIM_OK_OR_FAIL(sensim_write_npy(path, &f));
  FILE *fp = fopen(path, "rb");
  assert_non_null(fp);
  unsigned char pre[10];
  assert_int_equal(fread(pre, 1, 10, fp), 10);
  assert_memory_equal(pre, "\x93NUMPY\x01\x00", 8);
  const size_t hlen = pre[8] | (size_t)pre[9] << 8;
  assert_int_equal((10 + hlen) % 64, 0);
  char head[512] = {0};
  assert_int_equal(fread(head, 1, hlen, fp), hlen);
  assert_int_equal(head[hlen - 1], '\n');
  assert_non_null(strstr(head, "'descr': '<c8'"));
  assert_non_null(strstr(head, "'fortran_order': False"));
  assert_non_null(strstr(head, "'shape': (4, 8, 16)"));
  float *data = malloc(f.count * 8);
  assert_int_equal(fread(data, 8, f.count, fp), f.count);
  assert_memory_equal(data, f.data, f.count * 8);
  assert_int_equal(fgetc(fp), EOF);
  fclose(fp);
  free(data);
  /* Other payloads are refused, nothing written. */
  sensim_frame g;
  memset(&g, 0, sizeof g);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&g, SENSIM_PAYLOAD_GRAY8, 2, 2));
  assert_int_equal(sensim_write_npy(path, &g), SENSIM_ETYPE);
  sensim_frame_release(&g);
  sensim_frame_release(&f);
}

/* The heat map: N x C pixels, the target's cell (range r left to right,
 * Doppler d with the top row the last bin) the top of the colour map
 * (viridis' yellow 253, 231, 37), a cell of noise 60 dB down darker. */
static void test_rd_png_is_a_heat_map_with_the_peak_in_yellow(void **state) {
  (void)state;
  sensim_radar_params p = fmcw_params();
  sensim__radar R;
  sensim__radar_init(&R, &p);
  sensim_fmcw_info info;
  sensim__radar_fmcw_info(&p, &info);
  const double vel = 7.0 * info.velocity_bin;
  const double range = range_on_bin(&p, &info, 20.0, vel);
  sensim__radar_echo e = point_echo(&R, range, vel, 0.0, 1e-12);
  sensim_frame f = rd_of(&R, &e, 1, 5);
  char path[512];
  snprintf(path, sizeof path, "%s/rd.png", SENSIM_TEST_TMP);
  SENSIM_OK_OR_FAIL(sensim_mkdirs(SENSIM_TEST_TMP));
  SENSIM_OK_OR_FAIL(sensim_write_png(path, &f));
  sensim_image img;
  SENSIM_OK_OR_FAIL(sensim_read_png(path, &img));
  assert_int_equal(img.width, info.samples);
  assert_int_equal(img.height, info.chirps);
  const size_t y = info.chirps - 1 - (info.chirps / 2 + 7), x = 20;
  const float *px = img.data + 3 * (y * img.width + x);
  assert_true(fabs(px[0] * 255 - 253) < 1 && fabs(px[1] * 255 - 231) < 1 && fabs(px[2] * 255 - 37) < 1);
  const float *far = img.data + 3 * (y * img.width + x + 30);
  assert_true(far[1] < px[1]);
  sensim_image_free(&img);
  sensim_frame_release(&f);
}

/* adc -> "radar_fft" -> "radar_cfar" on two plates facing the radar at
 * different range, velocity and azimuth: two detections, each at its
 * plate's range, radial velocity and azimuth. */
static void test_chain_adc_fft_cfar_gives_two_targets_where_they_are(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 5);
  sensim_radar_params p = fmcw_params();
  p.output = SENSIM_RADAR_ADC;
  p.hfov = 24.0 * M_PI / 180.0;
  p.vfov = 6.0 * M_PI / 180.0;
  p.ray_spacing = 0.1 * M_PI / 180.0;
  const sensim_vec3 ca = {25.0, 3.0, 0.0}, cb = {45.0, -4.0, 0.0};
  const sensim_vec3 va = {-2.5, 0, 0}, vb = {1.5, 0, 0};
  radar_plate_facing(w, 0.4, ca, va);
  radar_plate_facing(w, 0.4, cb, vb);
  sensim_sensor *s = radar_test_sensor(w, &p);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "radar_fft", NULL));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "radar_cfar", "{\"pfa\": 1e-6}"));
  sensim_radar_detection d[8];
  const size_t n = radar_capture(w, s, d, 8);
  sensim_fmcw_info info;
  sensim__radar_fmcw_info(&p, &info);
  const sensim_vec3 c[2] = {ca, cb}, v[2] = {va, vb};
  for (size_t i = 0; i < n && i < 8; i++)
    print_message("detection %zu: %.3f m, %.3f m/s, %.3f deg, %.1f dBm, SNR %.1f dB, RCS %.1f dBsm, %u cells\n", i,
                  d[i].range, d[i].radial_velocity, d[i].azimuth * 180 / M_PI, d[i].power, d[i].snr, d[i].rcs,
                  (unsigned)d[i].cells);
  assert_int_equal(n, 2);
  for (int i = 0; i < 2; i++) {
    const double R = sqrt(c[i].x * c[i].x + c[i].y * c[i].y), vr = (v[i].x * c[i].x + v[i].y * c[i].y) / R;
    const double az = atan2(c[i].y, c[i].x);
    print_message("plate %d: %.3f m, %.3f m/s, %.3f deg\n", i, R, vr, az * 180 / M_PI);
    assert_true(fabs(d[i].range - R) < 0.25 * info.range_bin);
    assert_true(fabs(d[i].radial_velocity - vr) < 0.25 * info.velocity_bin);
    assert_true(fabs(d[i].azimuth - az) < 1.0 * M_PI / 180.0);
  }
  sensim_world_destroy(w);
}

/* CA-CFAR on the maps of an empty scene (one channel, no window: the
 * cells are independent exponentials, what the threshold assumes): the
 * false alarms match the design pfa. Neighbouring decisions share training
 * cells, so the binomial variance is widened by 3 (radar_cfar's own tests
 * bound the factor at 1.46-2.7 for such windows); 4 of those sigmas. */
static void test_cfar_false_alarms_on_synthesised_noise_match_pfa(void **state) {
  (void)state;
  sensim_radar_params p = fmcw_params();
  p.tx = p.rx = 1;
  p.window = SENSIM_FMCW_RECT;
  sensim__radar R;
  sensim__radar_init(&R, &p);
  const sensim__cfar_params cp = {SENSIM__CFAR_CA, 1, 1, 6, 3, 1e-2, 0};
  const int frames = 16, N = p.samples, C = p.chirps;
  float *pw = malloc((size_t)N * C * sizeof *pw);
  uint8_t *hit = malloc((size_t)N * C);
  size_t total = 0;
  for (int k = 0; k < frames; k++) {
    sensim_frame f = rd_of(&R, NULL, 0, 100 + (uint64_t)k);
    sensim__rd_power(&f, pw);
    size_t n = 0;
    SENSIM_OK_OR_FAIL(sensim__cfar_detect(pw, C, N, &cp, hit, &n));
    total += n;
    sensim_frame_release(&f);
  }
  const double want = cp.pfa * frames * N * C, sd = sqrt(3.0 * want * (1.0 - cp.pfa));
  print_message("CA-CFAR on noise: %zu false alarms in %d maps, %.1f expected\n", total, frames, want);
  assert_true(fabs((double)total - want) < 4.0 * sd);
  free(pw);
  free(hit);
}

/* A CFAR window wider than the map is refused by name when the map comes,
 * and the frame is left as it was. */
static void test_cfar_window_larger_than_the_map_is_refused(void **state) {
  (void)state;
  sensim_radar_params p = fmcw_params();
  sensim__radar R;
  sensim__radar_init(&R, &p);
  sensim_frame f = rd_of(&R, NULL, 0, 2);
  sensim_filter_chain *c = NULL;
  SENSIM_OK_OR_FAIL(sensim_filter_chain_create(SENSIM_PAYLOAD_RADAR_RD, &c));
  SENSIM_OK_OR_FAIL(sensim_filter_chain_add(c, "radar_cfar", "{\"train_range\": 100}"));
  assert_int_equal(sensim_filter_chain_run(c, &f, 1, 0), SENSIM_EINVAL);
  if (!strstr(sensim_last_error(), "larger")) fail_msg("message: %s", sensim_last_error());
  assert_int_equal(f.type, SENSIM_PAYLOAD_RADAR_RD);
  sensim_filter_chain_destroy(c);
  /* Bad parameters at set-up. */
  SENSIM_OK_OR_FAIL(sensim_filter_chain_create(SENSIM_PAYLOAD_RADAR_RD, &c));
  assert_int_equal(sensim_filter_chain_add(c, "radar_cfar", "{\"pfa\": 2}"), SENSIM_EINVAL);
  assert_int_equal(sensim_filter_chain_add(c, "radar_cfar", "{\"kind\": \"go\"}"), SENSIM_EINVAL);
  assert_int_equal(sensim_filter_chain_add(c, "radar_fft", NULL), SENSIM_ETYPE);
  sensim_filter_chain_destroy(c);
  sensim_frame_release(&f);
}

static void expect_einval(const sensim_radar_params *p, const char *words) {
  assert_int_equal(sensim_radar_params_check(p), SENSIM_EINVAL);
  if (!strstr(sensim_last_error(), words)) fail_msg("message '%s' lacks '%s'", sensim_last_error(), words);
}

static void test_bad_chirps_are_refused_with_their_cause(void **state) {
  (void)state;
  sensim_radar_params p = fmcw_params();
  p.sample_rate = 2e6; /* S = B f_s / N = 1.3e12 Hz/s: beat of 200 m 1.7 MHz, fine */
  SENSIM_OK_OR_FAIL(sensim_radar_params_check(&p));
  p.chirp_slope = 4e12; /* beat of 200 m: 5.3 MHz > 2 MHz */
  expect_einval(&p, "aliases");
  p = fmcw_params();
  p.rx = 0;
  expect_einval(&p, "rx = 0");
  p = fmcw_params();
  p.chirp_interval = 1e-6; /* shorter than 128 samples at 5 MHz */
  expect_einval(&p, "shorter than the sampled ramp");
  /* A detections radar keeps any range: the chirp binds raw output only. */
  p = fmcw_params();
  p.output = SENSIM_RADAR_DETECTIONS;
  p.chirp_slope = 4e12;
  SENSIM_OK_OR_FAIL(sensim_radar_params_check(&p));
  /* The filter refuses a frame whose header does not fit its data. */
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_RADAR_CUBE, 8, 2));
  assert_int_equal(sensim__radar_fft(&f, SENSIM_FMCW_HANN), SENSIM_EINVAL);
  assert_int_equal(f.type, SENSIM_PAYLOAD_RADAR_CUBE);
  sensim_frame_release(&f);
}

int sensim_test_radar_fmcw(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_point_target_peaks_at_its_range_doppler_bins_and_azimuth),
      cmocka_unit_test(test_empty_scene_noise_power_is_k_t0_f_fs_within_chi_square),
      cmocka_unit_test(test_peak_snr_is_radar_equation_times_processing_gain),
      cmocka_unit_test(test_world_radar_gives_range_doppler_of_a_moving_plate),
      cmocka_unit_test(test_world_rd_peak_is_the_detections_received_power),
      cmocka_unit_test(test_cube_is_the_same_bits_for_any_thread_count),
      cmocka_unit_test(test_npy_of_a_cube_reads_back),
      cmocka_unit_test(test_rd_png_is_a_heat_map_with_the_peak_in_yellow),
      cmocka_unit_test(test_chain_adc_fft_cfar_gives_two_targets_where_they_are),
      cmocka_unit_test(test_cfar_false_alarms_on_synthesised_noise_match_pfa),
      cmocka_unit_test(test_cfar_window_larger_than_the_map_is_refused),
      cmocka_unit_test(test_bad_chirps_are_refused_with_their_cause),
  };
  return cmocka_run_group_tests_name("radar_fmcw", tests, NULL, NULL);
}
