/* sensim_tools/preview.h: pictures of a camera's depth and label images
 * for a person to look at, written as PNG: depth through the viridis
 * colour map with a colour bar in metres, labels with a distinct colour
 * per id and a legend (sensim_tools/colormap.h for the colours).
 *
 * Layout, for tests and for cropping: the image sits at the top left of
 * the picture at its own size, pixel (x, y) of the input at pixel (x, y)
 * of the picture; a panel SENSIM_PREVIEW_PANEL_W px wide to its right
 * holds the colour bar or the legend. The picture is (width +
 * SENSIM_PREVIEW_PANEL_W) x max(height, SENSIM_PREVIEW_MIN_H) px, white
 * where the image does not reach. */
#ifndef SENSIM_TOOLS_PREVIEW_H
#define SENSIM_TOOLS_PREVIEW_H

#include "sensim_tools/export.h"

#include <stdint.h>
#include <sensim/frame.h>
#include <sensim/status.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SENSIM_PREVIEW_PANEL_W 180 /* px, right of the image */
#define SENSIM_PREVIEW_MIN_H 240   /* px, least picture height (room for the panel) */

typedef struct sensim_depth_preview_params {
  double min_range; /* m: depth shown with the map's first colour [0] */
  double max_range; /* m: depth shown with its last colour, > min_range [80];
                       deeper pixels take the last colour too */
} sensim_depth_preview_params;

SENSIM_TOOLS_API void sensim_depth_preview_params_init(sensim_depth_preview_params *p);

/* Depth preview of a width x height depth image in metres (row 0 on top;
 * borrowed for the call): pixel colour sensim_colormap_viridis(t) with
 * t = (d - min_range) / (max_range - min_range) clamped to [0, 1] (the map
 * tabulated at 1024 steps, so within one 8-bit code of it), black where
 * d <= 0 or NaN (nothing hit). The panel holds the colour bar with ticks
 * in metres and a black "no return" key. A camera's depth plane
 * (frame.depth) or a depth_f32 frame's data fit as they are.
 * SENSIM_EINVAL for NULL pointers, a zero size, a picture wider or taller
 * than 16384 px or a bad range; SENSIM_EIO when the file cannot be
 * written (all or nothing). */
SENSIM_TOOLS_API sensim_status sensim_depth_preview_write_png(const float *depth, uint32_t width,
                                                              uint32_t height,
                                                              const sensim_depth_preview_params *p,
                                                              const char *path);

/* The same from a depth PNG as sensim writes one (16-bit grey, millimetres:
 * core/payload_depth_f32.c; 0 = nothing hit). SENSIM_ENOTFOUND or
 * SENSIM_EPARSE as sensim_read_png; SENSIM_EINVAL for a file that is not
 * 16-bit grey. */
SENSIM_TOOLS_API sensim_status sensim_depth_preview_png(const char *in_path,
                                                        const sensim_depth_preview_params *p,
                                                        const char *out_path);

typedef enum sensim_label_field {
  SENSIM_LABEL_CLASS = 0,   /* colour by class_id */
  SENSIM_LABEL_INSTANCE = 1 /* colour by instance_id */
} sensim_label_field;

/* Label preview of a width x height label image (borrowed): each pixel
 * the colour sensim_label_color gives its class or instance id (black for
 * 0). The legend lists the ids present, most pixels first, each with its
 * colour and share of the image, as many as fit ("+ N more" after them).
 * Errors as sensim_depth_preview_write_png. */
SENSIM_TOOLS_API sensim_status sensim_label_preview_write_png(const sensim_label *labels,
                                                              uint32_t width, uint32_t height,
                                                              sensim_label_field field,
                                                              const char *path);

/* The same from a label PNG as sensim writes one: 16-bit grey, each pixel
 * a class id (core/payload_labels.c); 8-bit grey masks are read the same
 * way. Errors as sensim_depth_preview_png (SENSIM_EINVAL for a colour
 * file). */
SENSIM_TOOLS_API sensim_status sensim_label_preview_png(const char *in_path, const char *out_path);

#ifdef __cplusplus
}
#endif
#endif
