/* tests/support/pixels.c: see pixels.h. */
#include "support/pixels.h"
#include <math.h>
#include <stdlib.h>
#include "support/testutil.h"

void test_pixel(const sensim_image *im, int x, int y, uint8_t rgb[3]) {
  if (x < 0 || y < 0 || (uint32_t)x >= im->width || (uint32_t)y >= im->height)
    fail_msg("pixel (%d, %d) outside the %u x %u image", x, y, im->width, im->height);
  const float *p = im->data + ((size_t)y * im->width + (size_t)x) * (size_t)im->channels;
  for (int k = 0; k < 3; k++) rgb[k] = (uint8_t)lroundf(p[im->channels == 3 ? k : 0] * 255.0f);
}

int test_rgb_diff(const uint8_t a[3], const uint8_t b[3]) {
  int d = 0;
  for (int k = 0; k < 3; k++) {
    int e = abs((int)a[k] - (int)b[k]);
    if (e > d) d = e;
  }
  return d;
}

static double decode(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }

static double f_lab(double t) {
  const double e = 216.0 / 24389.0, k = 24389.0 / 27.0;
  return t > e ? cbrt(t) : (k * t + 16.0) / 116.0;
}

void test_srgb_to_lab(const uint8_t rgb[3], double lab[3]) {
  double r = decode(rgb[0] / 255.0), g = decode(rgb[1] / 255.0), b = decode(rgb[2] / 255.0);
  double X = 0.4124 * r + 0.3576 * g + 0.1805 * b;
  double Y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  double Z = 0.0193 * r + 0.1192 * g + 0.9505 * b;
  double fx = f_lab(X / 0.9505), fy = f_lab(Y / 1.0), fz = f_lab(Z / 1.0890);
  lab[0] = 116.0 * fy - 16.0;
  lab[1] = 500.0 * (fx - fy);
  lab[2] = 200.0 * (fy - fz);
}

double test_delta_e(const uint8_t a[3], const uint8_t b[3]) {
  double la[3], lb[3];
  test_srgb_to_lab(a, la);
  test_srgb_to_lab(b, lb);
  return sqrt((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1]) +
              (la[2] - lb[2]) * (la[2] - lb[2]));
}

void test_box_mean(const sensim_image *im, int x0, int y0, int x1, int y1, double mean[3]) {
  double s[3] = {0, 0, 0};
  long n = 0;
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++, n++) {
      uint8_t p[3];
      test_pixel(im, x, y, p);
      for (int k = 0; k < 3; k++) s[k] += p[k];
    }
  if (n == 0) fail_msg("empty box (%d, %d) .. (%d, %d)", x0, y0, x1, y1);
  for (int k = 0; k < 3; k++) mean[k] = s[k] / (double)n;
}
