/* filters/conv.c: linear 2-D convolution by FFT (filters/conv.h).
 *
 * The plane is zero-padded to nx >= W + R by ny >= H + R, which is enough
 * for no value to wrap around onto another inside the plane (a wrapped
 * offset differs from a true one by nx, more than W - 1 + R). Transforms
 * are GSL's mixed-radix complex FFTs, rows then columns; the sizes are
 * rounded up to products of 2, 3 and 5, where those are fastest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fft_complex.h>
#include "core/internal.h"
#include "filters/conv.h"

/* n >= m whose only prime factors are 2, 3 and 5. */
static size_t smooth_size(size_t m) {
  for (size_t n = m;; n++) {
    size_t r = n;
    while (r % 2 == 0) r /= 2;
    while (r % 3 == 0) r /= 3;
    while (r % 5 == 0) r /= 5;
    if (r == 1) return n;
  }
}

/* 2-D transform of the nx x ny packed complex array d, forward or inverse
 * (normalised). The arguments are valid by construction, so GSL's
 * process-wide error handler (which aborts, and is not ours to swap from a
 * worker thread: src/tools/spectral.c) is never reached; the return codes
 * are still checked. */
static int fft2(const sensim_conv *c, double *d, int forward) {
  int rc = 0;
  for (size_t y = 0; y < c->ny && !rc; y++)
    rc = forward ? gsl_fft_complex_forward(d + 2 * y * c->nx, 1, c->nx, c->wx, c->sx)
                 : gsl_fft_complex_inverse(d + 2 * y * c->nx, 1, c->nx, c->wx, c->sx);
  for (size_t x = 0; x < c->nx && !rc; x++)
    rc = forward ? gsl_fft_complex_forward(d + 2 * x, c->nx, c->ny, c->wy, c->sy)
                 : gsl_fft_complex_inverse(d + 2 * x, c->nx, c->ny, c->wy, c->sy);
  return rc;
}

void sensim__conv_free(sensim_conv *c) {
  if (!c) return;
  free(c->kspec);
  free(c->buf);
  if (c->wx) gsl_fft_complex_wavetable_free(c->wx);
  if (c->wy) gsl_fft_complex_wavetable_free(c->wy);
  if (c->sx) gsl_fft_complex_workspace_free(c->sx);
  if (c->sy) gsl_fft_complex_workspace_free(c->sy);
  memset(c, 0, sizeof *c);
}

sensim_status sensim__conv_setup(sensim_conv *c, size_t W, size_t H, int R, int same_kernel,
                                 void (*make_kernel)(void *arg, double *k), void *arg) {
  if (c->kspec && same_kernel && c->W == W && c->H == H && c->R == R) return SENSIM_OK;
  sensim__conv_free(c);
  const size_t nx = smooth_size(W + (size_t)R), ny = smooth_size(H + (size_t)R), w = 2 * (size_t)R + 1;
  sensim_status st = sensim__check_bytes(2.0 * 16 * (double)nx * ny, "a convolution's transforms");
  if (st) return st;
  c->nx = nx, c->ny = ny, c->W = W, c->H = H, c->R = R;
  c->kspec = calloc(2 * nx * ny, sizeof *c->kspec);
  c->buf = malloc(2 * nx * ny * sizeof *c->buf);
  c->wx = gsl_fft_complex_wavetable_alloc(nx);
  c->wy = gsl_fft_complex_wavetable_alloc(ny);
  c->sx = gsl_fft_complex_workspace_alloc(nx);
  c->sy = gsl_fft_complex_workspace_alloc(ny);
  double *k = malloc(w * w * sizeof *k);
  if (!c->kspec || !c->buf || !c->wx || !c->wy || !c->sx || !c->sy || !k) {
    free(k);
    sensim__conv_free(c);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for %zux%zu convolution transforms", nx, ny);
  }
  make_kernel(arg, k);
  /* Centred at index (0, 0), negative offsets wrapped. */
  for (size_t j = 0; j < w; j++)
    for (size_t i = 0; i < w; i++) c->kspec[2 * (((j + ny - R) % ny) * nx + (i + nx - R) % nx)] = k[j * w + i];
  free(k);
  if (fft2(c, c->kspec, 1)) {
    sensim__conv_free(c);
    return sensim__fail(SENSIM_EBACKEND, "GSL FFT of a convolution kernel failed");
  }
  return SENSIM_OK;
}

sensim_status sensim__conv_plane(sensim_conv *c, const float *src, size_t step, double *dst) {
  const size_t W = c->W, H = c->H, nx = c->nx, ny = c->ny;
  double *d = c->buf;
  memset(d, 0, 2 * nx * ny * sizeof *d);
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++) {
      double v = src[step * (y * W + x)];
      d[2 * (y * nx + x)] = isfinite(v) ? v : 0;
    }
  if (fft2(c, d, 1)) return sensim__fail(SENSIM_EBACKEND, "GSL FFT failed");
  for (size_t i = 0; i < nx * ny; i++) {
    const double ar = d[2 * i], ai = d[2 * i + 1], br = c->kspec[2 * i], bi = c->kspec[2 * i + 1];
    d[2 * i] = ar * br - ai * bi;
    d[2 * i + 1] = ar * bi + ai * br;
  }
  if (fft2(c, d, 0)) return sensim__fail(SENSIM_EBACKEND, "GSL FFT failed");
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++) dst[y * W + x] = d[2 * (y * nx + x)];
  return SENSIM_OK;
}
