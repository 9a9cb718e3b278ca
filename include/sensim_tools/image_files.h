/* sensim_tools/image_files.h: folders of PNG images and writing a
 * sensim_image (sensim/io.h) back to PNG, for the tools that read and
 * write image datasets. */
#ifndef SENSIM_TOOLS_IMAGE_FILES_H
#define SENSIM_TOOLS_IMAGE_FILES_H

#include "sensim_tools/export.h"

#include <stddef.h>
#include <sensim/io.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- (tools/image_files.c) ------------------------------------------------- */

/* Every *.png (any case) in `dir`, as "dir/name", sorted by name (strcmp).
 * *paths is an array of *count malloc'd strings (free with
 * sensim_free_paths); an empty folder gives 0 files. SENSIM_ENOTFOUND for
 * a missing folder. */
SENSIM_TOOLS_API sensim_status sensim_list_pngs(const char *dir, char ***paths, size_t *count);
SENSIM_TOOLS_API void sensim_free_paths(char **paths, size_t count);
/* Write an image as an 8- or 16-bit PNG (grey or RGB): each value clamped
 * to [0, 1] and rounded, q = floor(v (2^bits - 1) + 0.5) (NaN gives 0). */
SENSIM_TOOLS_API sensim_status sensim_image_write_png(const char *path, const sensim_image *img, int bits);

#ifdef __cplusplus
}
#endif
#endif
