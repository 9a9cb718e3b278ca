/* tools/noise_calib_io.c: the noise calibration of tools/noise_calib.c fed
 * from files (a folder of PNG frames) and from a scenario's own sensor
 * (sensim_tools/noise_calib.h), the latter stepped by hand through the
 * public scenario API (sensim_scenario_step_to).
 * Frames are accumulated as they arrive (Welford's update, "Note on a
 * method for calculating corrected sums of squares and products",
 * Technometrics 4(3), 1962), so memory is two doubles per value whatever
 * the number of frames. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/tools_internal.h"

typedef struct stack_acc {
  size_t nvalues;
  size_t nframes;
  double *mean, *m2;
} stack_acc;

static sensim_status acc_init(stack_acc *a, size_t nvalues) {
  a->nvalues = nvalues;
  a->nframes = 0;
  a->mean = calloc(nvalues, sizeof *a->mean);
  a->m2 = calloc(nvalues, sizeof *a->m2);
  if (a->mean && a->m2) return SENSIM_OK;
  free(a->mean);
  free(a->m2);
  a->mean = a->m2 = NULL;
  return sensim_error_set(SENSIM_ENOMEM, "noise calibration: out of memory for %zu values", nvalues);
}

static void acc_free(stack_acc *a) {
  free(a->mean);
  free(a->m2);
  a->mean = a->m2 = NULL;
}

static sensim_status acc_add(stack_acc *a, const float *x) {
  for (size_t i = 0; i < a->nvalues; i++)
    if (!isfinite(x[i]))
      return sensim_error_set(SENSIM_EINVAL, "noise calibration: frame %zu value %zu is %g",
                          a->nframes, i, (double)x[i]);
  a->nframes++;
  double inv = 1.0 / (double)a->nframes;
  for (size_t i = 0; i < a->nvalues; i++) {
    double d = x[i] - a->mean[i];
    a->mean[i] += d * inv;
    a->m2[i] += d * (x[i] - a->mean[i]);
  }
  return SENSIM_OK;
}

/* Turn M2 into the unbiased variance in place and fit. */
static sensim_status acc_fit(stack_acc *a, size_t nbins, double quant_var, sensim_noise_fit *out) {
  for (size_t i = 0; i < a->nvalues; i++) a->m2[i] /= (double)(a->nframes - 1);
  sensim_status st =
      sensim_noise_calib_fit_moments(a->mean, a->m2, a->nvalues, a->nframes, nbins, out);
  if (st == SENSIM_OK) out->quant_var = quant_var;
  return st;
}

/* LSB^2 / 12 of a uniform quantiser with 2^bits - 1 steps over [0, 1]
 * (Widrow & Kollar, "Quantization Noise", Cambridge 2008, ch. 4). */
static double quant_var_bits(int bits) {
  double lsb = 1.0 / (double)((1u << bits) - 1u);
  return lsb * lsb / 12.0;
}

sensim_status sensim_noise_calib_pngs(const char *dir, size_t nbins, sensim_noise_fit *out) {
  if (!dir || !out) return sensim_error_set(SENSIM_EINVAL, "sensim_noise_calib_pngs: NULL argument");
  if (nbins != 0 && (nbins < 2 || nbins > SENSIM_NOISE_CALIB_MAX_BINS))
    return sensim_error_set(SENSIM_EINVAL, "noise calibration: bins %zu must be in 2 .. %d", nbins,
                        SENSIM_NOISE_CALIB_MAX_BINS);
  char **files = NULL;
  size_t n = 0;
  sensim_status st = sensim_list_pngs(dir, &files, &n);
  if (st != SENSIM_OK) {
    sensim_error_prefix("noise calibration");
    return st;
  }
  if (n < 2) {
    sensim_free_paths(files, n);
    return sensim_error_set(SENSIM_EINVAL, "noise calibration: folder '%s' holds %zu PNG file%s; "
                                       "need at least 2 frames", dir, n, n == 1 ? "" : "s");
  }
  stack_acc acc = {0, 0, NULL, NULL};
  sensim_image first = {0, 0, 0, NULL};
  int min_bits = 16;
  for (size_t k = 0; k < n && st == SENSIM_OK; k++) {
    sensim_image img;
    if ((st = sensim_read_png(files[k], &img)) != SENSIM_OK) break;
    if (k == 0) {
      first = img;
      first.data = NULL;
      st = acc_init(&acc, (size_t)img.width * img.height * (size_t)img.channels);
    } else if (img.width != first.width || img.height != first.height ||
               img.channels != first.channels) {
      st = sensim_error_set(SENSIM_EINVAL,
                        "noise calibration: '%s' is %u x %u with %d channel%s, but '%s' is %u x "
                        "%u with %d", files[k], img.width, img.height, img.channels,
                        img.channels == 1 ? "" : "s", files[0], first.width, first.height,
                        first.channels);
    }
    if (st == SENSIM_OK) st = acc_add(&acc, img.data);
    sensim_image_free(&img);
    int bits = sensim_tools__png_bits(files[k], NULL);
    if (bits > 0 && bits < min_bits) min_bits = bits;
  }
  if (st == SENSIM_OK) st = acc_fit(&acc, nbins, quant_var_bits(min_bits), out);
  acc_free(&acc);
  sensim_free_paths(files, n);
  return st;
}

/* ---- a scenario's own frames ---------------------------------------------- */

/* Values per pixel-count `count` of a payload the calibration takes, with
 * the scale to [0, 1] and the sample bits of integer payloads; 0 values
 * for the others. */
static size_t payload_values(sensim_payload type, size_t count, double *scale, int *bits) {
  *scale = 1.0;
  *bits = 0;
  switch (type) {
  case SENSIM_PAYLOAD_RGB_F32:
    return 3 * count;
  case SENSIM_PAYLOAD_GRAY_F32:
  case SENSIM_PAYLOAD_RAW_F32:
    return count;
  case SENSIM_PAYLOAD_RGBA8:
    *scale = 1.0 / 255.0, *bits = 8;
    return 3 * count;
  case SENSIM_PAYLOAD_GRAY8:
    *scale = 1.0 / 255.0, *bits = 8;
    return count;
  case SENSIM_PAYLOAD_GRAY16:
  case SENSIM_PAYLOAD_RAW16:
    *scale = 1.0 / 65535.0, *bits = 16;
    return count;
  case SENSIM_PAYLOAD_RGB16:
    *scale = 1.0 / 65535.0, *bits = 16;
    return 3 * count;
  default:
    return 0;
  }
}

static void frame_to_float(const sensim_frame *f, double scale, float *dst) {
  size_t n = f->count;
  switch (f->type) {
  case SENSIM_PAYLOAD_RGB_F32:
    memcpy(dst, f->data, 3 * n * sizeof *dst);
    break;
  case SENSIM_PAYLOAD_GRAY_F32:
  case SENSIM_PAYLOAD_RAW_F32:
    memcpy(dst, f->data, n * sizeof *dst);
    break;
  case SENSIM_PAYLOAD_RGBA8: {
    const uint8_t *p = f->data;
    for (size_t i = 0; i < n; i++)
      for (int c = 0; c < 3; c++) dst[3 * i + c] = (float)(p[4 * i + c] * scale);
    break;
  }
  case SENSIM_PAYLOAD_GRAY8: {
    const uint8_t *p = f->data;
    for (size_t i = 0; i < n; i++) dst[i] = (float)(p[i] * scale);
    break;
  }
  case SENSIM_PAYLOAD_GRAY16:
  case SENSIM_PAYLOAD_RAW16:
  case SENSIM_PAYLOAD_RGB16: {
    const uint16_t *p = f->data;
    size_t m = f->type == SENSIM_PAYLOAD_RGB16 ? 3 * n : n;
    for (size_t i = 0; i < m; i++) dst[i] = (float)(p[i] * scale);
    break;
  }
  default:
    break;
  }
}

static sensim_status check_static(const sensim_scenario *scn) {
  size_t n = sensim_scenario_body_count(scn);
  for (size_t i = 0; i < n; i++) {
    sensim_scenario_body_info b;
    sensim_status st = sensim_scenario_body_get(scn, i, &b);
    if (st != SENSIM_OK) return st;
    if (b.has_motion)
      return sensim_error_set(SENSIM_EINVAL,
                              "noise calibration: bodies[%zu] '%s' has a motion; the method needs a "
                              "static scene and sensor", i, b.name);
  }
  return SENSIM_OK;
}

/* Take every delivered frame of every sensor of the world; the target's go
 * into acc until it holds `want` frames. */
static sensim_status drain(sensim_world *w, const sensim_sensor *target, sensim_payload type, stack_acc *acc,
                           float *buf, size_t want) {
  size_t ns = sensim_world_sensor_count(w);
  for (size_t i = 0; i < ns; i++) {
    sensim_sensor *s = sensim_world_sensor(w, i);
    for (;;) {
      const sensim_frame *f = NULL;
      sensim_status st = sensim_sensor_poll(s, &f);
      if (st != SENSIM_OK) {
        sensim_error_prefix("sensor '%s'", sensim_sensor_name(s));
        return st;
      }
      if (!f) break;
      if (s != target || acc->nframes >= want) continue;
      double scale;
      int bits;
      if (f->type != type || payload_values(f->type, f->count, &scale, &bits) != acc->nvalues)
        return sensim_error_set(SENSIM_ESTATE, "noise calibration: sensor '%s' changed its frame "
                                           "size", sensim_sensor_name(s));
      frame_to_float(f, scale, buf);
      if ((st = acc_add(acc, buf)) != SENSIM_OK) return st;
    }
  }
  return SENSIM_OK;
}

sensim_status sensim_noise_calib_scenario(sensim_scenario *scn, const char *sensor,
                                          size_t nframes, size_t nbins, sensim_noise_fit *out) {
  if (!scn || !sensor || !out)
    return sensim_error_set(SENSIM_EINVAL, "sensim_noise_calib_scenario: NULL argument");
  if (nframes < 2 || nframes > 1000000)
    return sensim_error_set(SENSIM_EINVAL, "noise calibration: frames %zu must be in 2 .. 1000000",
                        nframes);
  if (nbins != 0 && (nbins < 2 || nbins > SENSIM_NOISE_CALIB_MAX_BINS))
    return sensim_error_set(SENSIM_EINVAL, "noise calibration: bins %zu must be in 2 .. %d", nbins,
                        SENSIM_NOISE_CALIB_MAX_BINS);
  sensim_world *w = sensim_scenario_world(scn);
  /* A world's clock starts at -inf; any step or run has moved it. */
  if (sensim_world_time(w) > -INFINITY)
    return sensim_error_set(SENSIM_ESTATE, "noise calibration: the scenario has already run (its "
                                       "world's clock cannot go back); load it again");
  sensim_sensor *target = sensim_world_sensor_by_name(w, sensor);
  if (!target)
    return sensim_error_set(SENSIM_ENOTFOUND, "noise calibration: the scenario has no sensor '%s'",
                        sensor);
  sensim_status st = check_static(scn);
  if (st != SENSIM_OK) return st;
  sensim_payload type = sensim_sensor_output_type(target);
  double scale;
  int bits;
  if (payload_values(type, 1, &scale, &bits) == 0)
    return sensim_error_set(SENSIM_ETYPE, "noise calibration: sensor '%s' gives %s frames; need an "
                                      "image (rgb_f32, gray_f32, raw_f32, rgba8, gray8, gray16, "
                                      "rgb16, raw16)", sensor, sensim_payload_name(type));

  const sensim_sensor_params *sp = sensim_sensor_params_get(target);
  double step = sensim_scenario_step(scn);
  /* The last frame is due at phase + (N - 1) / rate + lag; a few steps of
   * slack cover rounding of the step grid. */
  double t_last = sp->phase + (double)(nframes - 1) / sp->rate + sp->lag + 4 * step;
  stack_acc acc = {0, 0, NULL, NULL};
  float *buf = NULL;
  for (uint64_t k = 0; st == SENSIM_OK && acc.nframes < nframes; k++) {
    double t = (double)k * step;
    if (t > t_last) {
      st = sensim_error_set(SENSIM_ESTATE, "noise calibration: sensor '%s' delivered %zu of %zu "
                                       "frames by t = %g s", sensor, acc.nframes, nframes, t);
      break;
    }
    st = sensim_scenario_step_to(scn, t);
    if (st != SENSIM_OK) {
      sensim_error_prefix("noise calibration at t = %.6f s", t);
      break;
    }
    if (!acc.mean) {
      /* The first delivered frame sizes the accumulator. */
      const sensim_frame *f = NULL;
      if ((st = sensim_sensor_poll(target, &f)) != SENSIM_OK) break;
      if (!f) {
        st = drain(w, target, type, &acc, buf, nframes);
        continue;
      }
      size_t nv = payload_values(f->type, f->count, &scale, &bits);
      if ((st = acc_init(&acc, nv)) != SENSIM_OK) break;
      if (!(buf = malloc(nv * sizeof *buf))) {
        st = sensim_error_set(SENSIM_ENOMEM, "noise calibration: out of memory");
        break;
      }
      frame_to_float(f, scale, buf);
      if ((st = acc_add(&acc, buf)) != SENSIM_OK) break;
    }
    st = drain(w, target, type, &acc, buf, nframes);
  }
  free(buf);
  if (st == SENSIM_OK) st = acc_fit(&acc, nbins, bits ? quant_var_bits(bits) : 0.0, out);
  acc_free(&acc);
  return st;
}
