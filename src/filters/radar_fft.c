/* filters/radar_fft.c: "radar_fft", radar_cube -> radar_rd.
 *
 * The range-Doppler processing of an FMCW radar (TI SWRA553 sec. 3-4;
 * Richards, "Fundamentals of Radar Signal Processing", 2nd ed., 2014,
 * sec. 4.6 and 17.3): per channel, the windowed FFT of each chirp's N
 * samples puts a target's beat frequency f_b = 2 S R / c in range bin
 * f_b N / f_s, that is R = bin x c f_s / (2 S N); then the windowed FFT of
 * each range bin over the C chirps of that channel puts its slow-time
 * frequency 2 v / lambda in Doppler bin 2 v C tx T_c / lambda, shifted so
 * bin C/2 (integer division) is 0 m/s: v = (d - C/2) lambda / (2 C tx T_c).
 * The FFTs are unnormalised: a tone of amplitude A on a bin peaks at
 * A sum(w_range) sum(w_doppler) (frame.fmcw.gain), white noise of power
 * s^2 per sample becomes s^2 sum(w_range^2) sum(w_doppler^2) per cell
 * (frame.fmcw.noise_power), so the SNR grows by the coherent gain N C
 * less the windows' processing losses (Harris 1978, table 1).
 *
 * Parameter (JSON): "window": "rect", "hann", "hamming" or "blackman"
 * [the cube's frame.fmcw.window, the radar's `window`]. */
#include <gsl/gsl_fft_complex_float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/chain.h"
#include "core/fmcw.h"
#include "filters/radar_fft.h"

/* n window samples into w; returns their sum, *sq their squares' sum. */
static double fill_window(sensim_fmcw_window kind, size_t n, float *w, double *sq) {
  double s = 0.0, s2 = 0.0;
  for (size_t i = 0; i < n; i++) {
    const double v = sensim__fmcw_window(kind, i, n);
    w[i] = (float)v;
    s += v;
    s2 += v * v;
  }
  *sq = s2;
  return s;
}

sensim_status sensim__radar_fft(sensim_frame *frame, sensim_fmcw_window kind) {
  if (!frame || frame->type != SENSIM_PAYLOAD_RADAR_CUBE)
    return sensim__fail(SENSIM_ETYPE, "radar_fft: takes a radar_cube frame, got %s",
                        frame ? sensim_payload_name(frame->type) : "NULL");
  const sensim_fmcw_info *f = &frame->fmcw;
  const size_t N = f->samples, C = f->chirps, M = (size_t)f->tx * f->rx;
  if (N == 0 || C == 0 || M == 0 || N * C * M != frame->count || (unsigned)kind > SENSIM_FMCW_BLACKMAN)
    return sensim__fail(SENSIM_EINVAL, "radar_fft: the frame's fmcw header (%zu samples x %zu chirps x %zu "
                        "channels, window %d) does not describe its %zu samples",
                        N, C, M, (int)kind, frame->count);
  float *out = sensim__frame_buffer(N * C * M * 2 * sizeof(float), 0);
  float *wr = malloc(N * sizeof *wr), *wd = malloc(C * sizeof *wd);
  float *col = malloc(2 * C * sizeof *col);
  gsl_fft_complex_wavetable_float *wtr = gsl_fft_complex_wavetable_float_alloc(N);
  gsl_fft_complex_wavetable_float *wtd = gsl_fft_complex_wavetable_float_alloc(C);
  gsl_fft_complex_workspace_float *wsr = gsl_fft_complex_workspace_float_alloc(N);
  gsl_fft_complex_workspace_float *wsd = gsl_fft_complex_workspace_float_alloc(C);
  sensim_status rc = SENSIM_OK;
  if (!out || !wr || !wd || !col || !wtr || !wtd || !wsr || !wsd) {
    rc = sensim__fail(SENSIM_ENOMEM, "radar_fft: out of memory for %zu x %zu x %zu samples", C, M, N);
    goto done;
  }
  double sqr, sqd;
  const double gr = fill_window(kind, N, wr, &sqr), gd = fill_window(kind, C, wd, &sqd);
  const float *in = frame->data;
  /* Range: cube row (c, m) -> out[m][c][*]. */
  for (size_t c = 0; c < C; c++)
    for (size_t m = 0; m < M; m++) {
      const float *src = in + 2 * N * (c * M + m);
      float *dst = out + 2 * N * (m * C + c);
      for (size_t i = 0; i < N; i++) {
        dst[2 * i] = src[2 * i] * wr[i];
        dst[2 * i + 1] = src[2 * i + 1] * wr[i];
      }
      if (N > 1) gsl_fft_complex_float_forward(dst, 1, N, wtr, wsr);
    }
  /* Doppler: each range bin's chirps, fftshifted in place. */
  const size_t half = C / 2;
  for (size_t m = 0; m < M && C > 1; m++)
    for (size_t r = 0; r < N; r++) {
      float *base = out + 2 * (m * C * N + r);
      for (size_t c = 0; c < C; c++) {
        col[2 * c] = base[2 * c * N] * wd[c];
        col[2 * c + 1] = base[2 * c * N + 1] * wd[c];
      }
      gsl_fft_complex_float_forward(col, 1, C, wtd, wsd);
      for (size_t d = 0; d < C; d++) {
        const size_t q = (d + C - half) % C;
        base[2 * d * N] = col[2 * q];
        base[2 * d * N + 1] = col[2 * q + 1];
      }
    }
  if (C == 1)
    for (size_t i = 0; i < N * M; i++) {
      out[2 * i] *= wd[0];
      out[2 * i + 1] *= wd[0];
    }
  sensim__frame_buffer_free(frame->data);
  frame->data = out;
  out = NULL;
  frame->type = SENSIM_PAYLOAD_RADAR_RD;
  frame->fmcw.window = (uint32_t)kind;
  frame->fmcw.gain = gr * gd;
  frame->fmcw.noise_power *= sqr * sqd;
done:
  sensim__frame_buffer_free(out);
  free(wr);
  free(wd);
  free(col);
  if (wtr) gsl_fft_complex_wavetable_float_free(wtr);
  if (wtd) gsl_fft_complex_wavetable_float_free(wtd);
  if (wsr) gsl_fft_complex_workspace_float_free(wsr);
  if (wsd) gsl_fft_complex_workspace_float_free(wsd);
  return rc;
}

typedef struct radar_fft {
  int window; /* sensim_fmcw_window, or -1: the frame's */
} radar_fft;

static sensim_status radar_fft_create(const cJSON *params, void **user) {
  static const char *const known[] = {"window", NULL};
  sensim_status st = sensim__param_only(params, "radar_fft", known);
  if (st) return st;
  radar_fft *F = malloc(sizeof *F);
  if (!F) return sensim__fail(SENSIM_ENOMEM, "radar_fft: out of memory");
  F->window = -1;
  const cJSON *w = params ? cJSON_GetObjectItemCaseSensitive(params, "window") : NULL;
  if (w) {
    for (int i = 0; cJSON_IsString(w) && sensim__fmcw_window_names[i]; i++)
      if (strcmp(w->valuestring, sensim__fmcw_window_names[i]) == 0) F->window = i;
    if (F->window < 0) {
      free(F);
      return sensim__fail(SENSIM_EINVAL, "radar_fft: window must be \"rect\", \"hann\", \"hamming\" or "
                                         "\"blackman\"");
    }
  }
  *user = F;
  return SENSIM_OK;
}

static sensim_status radar_fft_apply(void *user, sensim_frame *frame, sensim_filter_ctx *ctx) {
  (void)ctx;
  const radar_fft *F = user;
  return sensim__radar_fft(frame, F->window >= 0 ? (sensim_fmcw_window)F->window
                                                 : (sensim_fmcw_window)frame->fmcw.window);
}

const sensim_builtin_filter sensim__filter_radar_fft = {
    .def = {.name = "radar_fft",
            .in = SENSIM_PAYLOAD_RADAR_CUBE,
            .out = SENSIM_PAYLOAD_RADAR_RD,
            .init = NULL,
            .apply = radar_fft_apply,
            .destroy = free},
    .create = radar_fft_create,
    .accepts = NULL};
