/* sensim_tools/birdseye.h: a readable figure of the lidar "birdseye"
 * filter's top-down image (docs/lidar.md): the image at its own size with
 * metric axes and tick labels (x forward up, y left to the left, metres in
 * the sensor frame), faint grid lines at the ticks, a scale bar, the
 * vehicle's footprint at its place with an arrow along its heading (+x),
 * and a colour bar of the quantity the filter coloured by, with its unit,
 * drawn with the filter's own ramp. Written as PNG.
 *
 * The figure's parameters repeat the filter's ("range", "color", "z_min",
 * "z_max"): the image does not carry them. */
#ifndef SENSIM_TOOLS_BIRDSEYE_H
#define SENSIM_TOOLS_BIRDSEYE_H

#include "sensim_tools/export.h"

#include <stdint.h>
#include <sensim/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sensim_birdseye_color {
  SENSIM_BIRDSEYE_INTENSITY = 0, /* "intensity": reflectance x |cos incidence|, 0..1 */
  SENSIM_BIRDSEYE_HEIGHT = 1,    /* "height": z in the sensor frame, m, z_min..z_max */
  SENSIM_BIRDSEYE_RING = 2       /* "ring": ring index over the scan's rings */
} sensim_birdseye_color;

typedef struct sensim_birdseye_figure_params {
  double range;                 /* m, the filter's "range": sensor to image edge [50] */
  sensim_birdseye_color color;  /* the filter's "color" [intensity] */
  double z_min, z_max;          /* m, its "z_min", "z_max" (height) [-2, 2] */
  int rings;                    /* ring colouring: largest ring + 1 of the scan [16] */
  double vehicle_length;        /* m, footprint along x (forward) [4.5]; 0: arrow only */
  double vehicle_width;         /* m, footprint along y [1.8] */
  double vehicle_x, vehicle_y;  /* m, footprint centre in the sensor frame [0, 0] */
  const char *title;            /* above the figure, borrowed for the call; NULL: none */
} sensim_birdseye_figure_params;

typedef struct sensim_birdseye_figure_info {
  int width, height;        /* px of the figure */
  int image_x, image_y;     /* top-left corner of the scan image, drawn 1:1 */
  int bar_x, bar_y;         /* top-left of the colour bar (its top is the ramp's t = 1) */
  int bar_w, bar_h;         /* its size, px; row r shows t = 1 - (r + 0.5) / bar_h */
  double tick_step;         /* m between axis ticks (ticks at multiples of it) */
  double scale_bar;         /* m, length of the scale bar */
} sensim_birdseye_figure_info;

SENSIM_TOOLS_API void sensim_birdseye_figure_params_init(sensim_birdseye_figure_params *p);

/* The figure of a size x size RGBA8 bird's-eye image (borrowed; row 0 on
 * top, as the filter makes it: pixel (u, v) covers x in
 * [R - (v + 1) s, R - v s), y in [R - (u + 1) s, R - u s), s = 2 R / size).
 * `info` (may be NULL) receives the geometry on success. SENSIM_EINVAL for
 * NULL pointers, a size of 0 or over 8192, range <= 0, z_max <= z_min for
 * height, rings < 1 for ring, negative vehicle sizes; SENSIM_EIO when the
 * file cannot be written (all or nothing). */
SENSIM_TOOLS_API sensim_status sensim_birdseye_figure_write_png(
    const uint8_t *rgba, uint32_t size, const sensim_birdseye_figure_params *p, const char *path,
    sensim_birdseye_figure_info *info);

/* The same from a PNG the filter's frame was written to (8-bit RGB or
 * RGBA, square). Errors of sensim_read_png, SENSIM_EINVAL for a grey,
 * 16-bit or non-square file. */
SENSIM_TOOLS_API sensim_status sensim_birdseye_figure_png(const char *in_path,
                                                          const sensim_birdseye_figure_params *p,
                                                          const char *out_path,
                                                          sensim_birdseye_figure_info *info);

#ifdef __cplusplus
}
#endif
#endif
