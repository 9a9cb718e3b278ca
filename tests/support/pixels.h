/* tests/support/pixels.h: reading pictures back for tests of the tools
 * that draw them (plots, previews, contact sheets), and colour science
 * computed here independently of the library under test. */
#ifndef SENSIM_TESTS_SUPPORT_PIXELS_H
#define SENSIM_TESTS_SUPPORT_PIXELS_H

#include <stdint.h>
#include "sensim/sensim.h"

/* Pixel (x, y) of an image read with sensim_read_png, as 8-bit codes (a
 * grey image gives three equal ones). Fails the test outside the image. */
void test_pixel(const sensim_image *im, int x, int y, uint8_t rgb[3]);
/* Largest per-channel difference of two 8-bit colours. */
int test_rgb_diff(const uint8_t a[3], const uint8_t b[3]);
/* CIE 1976 L*a*b* of an 8-bit sRGB colour: the sRGB decoding and matrix of
 * IEC 61966-2-1:1999 (D65 white), then CIE 15:2004 eq. 8.1-8.3. */
void test_srgb_to_lab(const uint8_t rgb[3], double lab[3]);
/* Euclidean distance in L*a*b* (Delta E*ab, CIE 1976). */
double test_delta_e(const uint8_t a[3], const uint8_t b[3]);
/* Mean 8-bit code of each channel over the box [x0, x1) x [y0, y1). */
void test_box_mean(const sensim_image *im, int x0, int y0, int x1, int y1, double mean[3]);

#endif
