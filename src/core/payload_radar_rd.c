/* core/payload_radar_rd.c: the radar's range-Doppler map per channel
 * (SENSIM_PAYLOAD_RADAR_RD): sensim_complex32 [channel][doppler][range],
 * width = range bins, height = channels x Doppler bins, Doppler
 * fftshifted, read with frame.fmcw (frame.h, docs/radar.md "Raw FMCW").
 * No CSV; written as NumPy .npy (complex64, shape (channels, doppler,
 * range), io/npy.c), or as a picture:
 *
 * Picture. The channel-summed power in dB as a range (x, left to right)
 * by Doppler (y, the fastest receding bin on top) heat map, 60 dB below
 * the peak to the peak, through a viridis-like colour map: linear
 * between matplotlib's viridis at 0, 1/4, 1/2, 3/4 and 1 (van der Walt
 * and Smith, "A better default colormap for Matplotlib", SciPy 2015),
 * perceptually ordered and readable in grey. */
#include <math.h>
#include <stdlib.h>
#include "core/fmcw.h"
#include "core/internal.h"
#include "core/payload.h"

#define RD_SPAN_DB 60.0

static void viridis(double t, uint8_t *rgba) {
  static const uint8_t knots[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  t = t > 1 ? 1 : t >= 0 ? t : 0; /* NaN -> 0 */
  const double x = 4.0 * t;
  int i = (int)x;
  if (i > 3) i = 3;
  const double fr = x - i;
  for (int c = 0; c < 3; c++) rgba[c] = (uint8_t)lround(knots[i][c] + fr * (knots[i + 1][c] - knots[i][c]));
  rgba[3] = 255;
}

static sensim_status rd_picture(const sensim_frame *f, sensim_frame *rgba) {
  const size_t N = f->fmcw.samples, C = f->fmcw.chirps, M = (size_t)f->fmcw.tx * f->fmcw.rx;
  if (!f->data || N == 0 || C == 0 || N * C * M != f->count)
    return sensim__fail(SENSIM_EINVAL, "radar_rd picture: the frame's fmcw header does not describe its %zu samples",
                        f->count);
  float *pw = malloc(N * C * sizeof *pw);
  if (!pw) return sensim__fail(SENSIM_ENOMEM, "radar_rd picture: out of memory");
  sensim__rd_power(f, pw);
  float top = 0.0f;
  for (size_t i = 0; i < N * C; i++) top = pw[i] > top ? pw[i] : top;
  sensim_status st = sensim_frame_alloc(rgba, SENSIM_PAYLOAD_RGBA8, (uint32_t)N, (uint32_t)C);
  if (st == SENSIM_OK) {
    const double ref = 10.0 * log10(top > 0 ? top : 1e-30);
    uint8_t *px = rgba->data;
    for (size_t y = 0; y < C; y++)
      for (size_t r = 0; r < N; r++) {
        const double p = pw[(C - 1 - y) * N + r], db = 10.0 * log10(p > 0 ? p : 1e-30) - ref;
        viridis(1.0 + db / RD_SPAN_DB, px + 4 * (y * N + r));
      }
  }
  free(pw);
  return st;
}

const sensim__payload_desc sensim__payload_radar_rd = {
    .type = SENSIM_PAYLOAD_RADAR_RD,
    .name = "radar_rd",
    .elem_size = sizeof(sensim_complex32),
    .shape = SENSIM__SHAPE_RECORDS,
    .channels = 1,
    .sample = SENSIM_SAMPLE_STRUCT,
    .formats = (const char *const[]){"npy", NULL},
    .picture = rd_picture,
    .default_output = "npy",
};
