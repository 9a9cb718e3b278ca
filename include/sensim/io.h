/* sensim/io.h: writers for delivered frames.
 *
 * Each writer takes a frame as sensim_sensor_poll() gives it and writes one
 * file; the frame is only read. Errors: SENSIM_ETYPE for a payload the format
 * cannot hold, SENSIM_EIO when the file cannot be written. */
#ifndef SENSIM_IO_H
#define SENSIM_IO_H

#include "sensim/export.h"

#include <stdio.h>
#include "sensim/frame.h"
#include "sensim/scenario.h"
#include "sensim/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PNG through libpng: rgba8 -> 8-bit RGBA, gray8 -> 8-bit grey, gray16 ->
 * 16-bit grey, rgb16 -> 16-bit RGB, raw16 -> 16-bit grey of the mosaic's
 * digital numbers (the CFA layout is not recorded), depth_f32 -> 16-bit grey
 * in millimetres (clamped to 65.535 m), labels -> 16-bit grey of the class
 * id, radar_rd -> 8-bit RGBA heat map of the channel-summed power, range
 * left to right, Doppler with the fastest receding bin on top, the 60 dB
 * below the peak through a viridis-like map (docs/radar.md). Float images
 * (rgb_f32, raw_f32, gray_f32) are not PNG payloads (SENSIM_ETYPE):
 * convert them with a filter first. */
SENSIM_API sensim_status sensim_write_png(const char *path, const sensim_frame *frame);

/* NumPy .npy (format 1.0) of a radar's raw FMCW frame: complex64 of shape
 * (chirps, channels, samples) for radar_cube, (channels, doppler, range)
 * for radar_rd (frame.h); numpy.load reads it. SENSIM_ETYPE for another
 * payload, SENSIM_EINVAL when frame.fmcw does not match the data,
 * SENSIM_EIO when the file cannot be written (nothing is left under
 * `path` then). */
SENSIM_API sensim_status sensim_write_npy(const char *path, const sensim_frame *frame);

/* Point Cloud Library PCD v0.7 of a points frame, fields
 * x y z intensity ring time return label instance (float, float, float,
 * float, uint16, float, uint8, uint32, uint32; label is the point's
 * class_id, widened as pcl::PointXYZL holds it), binary or ascii. */
SENSIM_API sensim_status sensim_write_pcd(const char *path, const sensim_frame *frame, int binary);

/* CSV: a header line naming the columns, then the frames' rows: one row
 * per frame for gnss, imu, mag and detection frames, one row per point for
 * points frames. Every number reads back to the exact value written.
 * sensim_csv_open gives SENSIM_ETYPE for a payload without a CSV layout,
 * sensim_csv_append SENSIM_ETYPE for a frame of another type than the
 * file's. The file appears under `path` only when closed. */
typedef struct sensim_csv sensim_csv;
SENSIM_API sensim_status sensim_csv_open(const char *path, sensim_payload type, sensim_csv **out);
SENSIM_API sensim_status sensim_csv_append(sensim_csv *csv, const sensim_frame *frame);
/* Flush and close; returns SENSIM_EIO if any write failed. NULL is a no-op. */
SENSIM_API sensim_status sensim_csv_close(sensim_csv *csv);

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
SENSIM_API sensim_status sensim_read_png(const char *path, sensim_image *out);
SENSIM_API void sensim_image_free(sensim_image *img);

/* Load a texture from a PNG (8 or 16 bits, grey or colour, with or without
 * alpha): its values are taken as sRGB-encoded and decoded to linear light
 * (IEC 61966-2-1) where a material uses it as colour, read as they are
 * where it uses it as data (sensim_texture_create_rgba, world.h); alpha is
 * kept (1 where the file has none). */
SENSIM_API sensim_status sensim_texture_load_png(sensim_world *world, const char *path, sensim_texture **out);

/* Radiance RGBE (.hdr) images, linear RGB floats (io/hdr.c): read
 * "#?RADIANCE"/"#?RGBE" files of FORMAT=32-bit_rle_rgbe in the "-Y h +X w"
 * orientation, flat or run-length encoded, into out (channels 3; free with
 * sensim_image_free). SENSIM_ENOTFOUND for a missing file, SENSIM_EPARSE
 * naming the file and the fault for a wrong header, another orientation,
 * a size of 0 or beyond 65536, truncated or corrupt scanlines. */
SENSIM_API sensim_status sensim_read_hdr(const char *path, sensim_image *out);
/* Write width x height x 3 linear RGB floats (row 0 on top, each finite and
 * >= 0, else SENSIM_EINVAL) as a run-length encoded RGBE file. */
SENSIM_API sensim_status sensim_write_hdr(const char *path, uint32_t width, uint32_t height, const float *rgb);
/* Load a high-dynamic-range texture (sensim_texture_create_hdr) from a
 * .hdr file: an environment map (environment.h). */
SENSIM_API sensim_status sensim_texture_load_hdr(sensim_world *world, const char *path, sensim_texture **out);

/* Create every missing folder of `path` (like mkdir -p). */
SENSIM_API sensim_status sensim_mkdirs(const char *path);

/* v as the shortest text of 15, 16 or 17 significant digits ("%.*g")
 * that reads back (strtod) to the very same double, into buf (32 bytes
 * hold any): how sensim's CSV, TUM and manifest files print numbers, so
 * that files compare bit for bit and values survive a trip through text.
 * NaN prints as printf does ("nan" or "-nan"). Returns buf. */
SENSIM_API char *sensim_shortest_double(char *buf, size_t size, double v);

/* The whole text file at `path` into *out (malloc'd, NUL-terminated;
 * free() it), as scenario files are read. SENSIM_ENOTFOUND for a missing
 * file, SENSIM_EIO for another open or read error, SENSIM_EPARSE for a
 * NUL byte (not a text file), SENSIM_ENOMEM past 1 GiB; messages start
 * with `what` and the path ("scenario 'x.json': ..."; `what` NULL:
 * "file"). *out is written only on success. */
SENSIM_API sensim_status sensim_read_text_file(const char *path, const char *what, char **out);

/* ---- all-or-nothing files (io/atomic_file.c) -----------------------------
 * How every sensim writer writes: into a temporary file next to the target,
 * renamed over it only when every byte was written, so a failed write never
 * leaves a truncated file under the final name (rename is atomic within a
 * file system, POSIX.1-2008 rename()). For programs built on sensim that
 * write their own files with the same guarantee. */
typedef struct sensim_atomic_file sensim_atomic_file;

/* Start writing `path` (its folder must exist: SENSIM_EIO otherwise, and
 * SENSIM_EINVAL for NULL or ""). The temporary file is created in the
 * target's folder with a name unique across threads and processes,
 * "<path>.tmp-<pid>-<n>". Temporary files of that form in the folder whose
 * process no longer exists (a writer that crashed or was killed) are
 * removed first; those of live processes never are. The last folder swept
 * is remembered, so writing many files into one folder reads it once. */
SENSIM_API sensim_status sensim_atomic_file_open(const char *path, sensim_atomic_file **out);
/* The stream to write to (owned by the file: do not fclose it). */
SENSIM_API FILE *sensim_atomic_file_stream(sensim_atomic_file *af);
/* Close the stream and rename the temporary file over `path`; on any
 * write, close or rename error the temporary file is removed and
 * SENSIM_EIO returned with the reason. Frees `af` either way. */
SENSIM_API sensim_status sensim_atomic_file_commit(sensim_atomic_file *af);
/* Close and remove the temporary file, leaving `path` as it was; frees
 * `af`. NULL is a no-op. */
SENSIM_API void sensim_atomic_file_abort(sensim_atomic_file *af);

/* ---- statistics of image files ------------------------------------------ */

/* Per-channel (R, G, B) mean and standard deviation of the stored values
 * (as sensim_read_png gives them, [0, 1], not linearised) over every pixel
 * of the n PNG files; a grey file counts as equal R, G and B. The standard
 * deviation is the population one (divided by the pixel count). Files may
 * differ in size. Errors as sensim_read_png, SENSIM_EINVAL for n == 0 or a
 * NULL path; mean and std are written only on success. The scenario
 * loader's "reference_images" key of the "white_balance" and
 * "match_stats" filters calls this (docs/scenario.md). */
SENSIM_API sensim_status sensim_image_stats_pngs(const char *const *paths, size_t n, double mean[3],
                                      double std[3]);

/* The same for one weighted channel sum w[0] R + w[1] G + w[2] B (for
 * example Rec. 709 luminance, w = {0.2126, 0.7152, 0.0722}). */
SENSIM_API sensim_status sensim_image_stats_pngs_weighted(const char *const *paths, size_t n,
                                               const double w[3], double *mean, double *std);

/* ---- PLY ------------------------------------------------------------------ */

/* PLY (binary_little_endian 1.0 or ascii 1.0) of a points frame: element
 * vertex with properties x y z intensity (float), ring (ushort), time
 * (float), return (uchar), label (uint: class_id) and instance (uint:
 * instance_id), as Open3D and PCL read them. An organised frame
 * (height > 1) is written whole, NaN points included, its grid recorded as
 * "obj_info num_cols W" / "num_rows H" (PCL's convention). Errors as the
 * other writers: SENSIM_ETYPE for another payload, SENSIM_EIO when the file
 * cannot be written (nothing is left under `path` then). */
SENSIM_API sensim_status sensim_write_ply(const char *path, const sensim_frame *frame, int binary);

#ifdef __cplusplus
}
#endif
#endif
