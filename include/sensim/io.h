/* sensim/io.h: writers for delivered frames.
 *
 * Each writer takes a frame as sensim_sensor_poll() gives it and writes one
 * file; the frame is only read. Errors: SENSIM_ETYPE for a payload the format
 * cannot hold, SENSIM_EIO when the file cannot be written. */
#ifndef SENSIM_IO_H
#define SENSIM_IO_H

#include <stdio.h>
#include "sensim/frame.h"
#include "sensim/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PNG through libpng: rgba8 -> 8-bit RGBA, gray8 -> 8-bit grey, gray16 ->
 * 16-bit grey, depth_f32 -> 16-bit grey in millimetres (clamped to 65.535 m),
 * labels -> 16-bit grey of the class id. */
sensim_status sensim_write_png(const char *path, const sensim_frame *frame);

/* Point Cloud Library PCD v0.7 of a points frame, fields
 * x y z intensity ring time return (float, float, float, float, uint16,
 * float, uint8), binary or ascii. */
sensim_status sensim_write_pcd(const char *path, const sensim_frame *frame, int binary);

/* CSV: a header line, then one line per frame. Works for gnss and imu
 * frames (one row each) and points frames (one row per point). */
typedef struct sensim_csv sensim_csv;
sensim_status sensim_csv_open(const char *path, sensim_payload type, sensim_csv **out);
sensim_status sensim_csv_append(sensim_csv *csv, const sensim_frame *frame);
/* Flush and close; returns SENSIM_EIO if any write failed. NULL is a no-op. */
sensim_status sensim_csv_close(sensim_csv *csv);

/* A decoded image: 8- or 16-bit PNG samples scaled to [0, 1] as stored
 * (sRGB-encoded files are not linearised). Grey files have 1 channel, colour
 * files 3 (alpha is dropped). */
typedef struct sensim_image {
  uint32_t width, height;
  int channels;  /* 1 or 3 */
  float *data;   /* width x height x channels, row 0 on top, owned */
} sensim_image;

/* Read a PNG with libpng. SENSIM_ENOTFOUND for a missing file,
 * SENSIM_EPARSE for a file that is not a PNG. On failure *out is zeroed. */
sensim_status sensim_read_png(const char *path, sensim_image *out);
void sensim_image_free(sensim_image *img);

/* Load a texture from a PNG: 8-bit sRGB values are linearised (IEC
 * 61966-2-1), 16-bit and grey files likewise; alpha is dropped. */
sensim_status sensim_texture_load_png(sensim_world *world, const char *path, sensim_texture **out);

/* Create every missing folder of `path` (like mkdir -p). */
sensim_status sensim_mkdirs(const char *path);

#ifdef __cplusplus
}
#endif
#endif
