/* sensim_tools/contact_sheet.h: a camera's frames at a glance: a grid of
 * a folder's PNG images, each scaled into its cell and captioned with its
 * index and file name, written as one PNG.
 *
 * Geometry (px), with cols and rows of the grid, cell_w x cell_h each
 * image's box, and PAD, CAPTION_H, TITLE_H the SENSIM_CONTACT_ values
 * below: frame k of the sheet has its box at
 *   x = PAD + (k % cols) (cell_w + PAD)
 *   y = TITLE_H + (k / cols) (cell_h + CAPTION_H + PAD)
 * its caption under the box; the image is scaled by
 * s = min(cell_w / width, cell_h / height), keeping its aspect, and centred
 * in the box (grey shows around it). The sheet is
 *   PAD + cols (cell_w + PAD) wide and
 *   TITLE_H + rows (cell_h + CAPTION_H + PAD) tall. */
#ifndef SENSIM_TOOLS_CONTACT_SHEET_H
#define SENSIM_TOOLS_CONTACT_SHEET_H

#include "sensim_tools/export.h"

#include <stddef.h>
#include <sensim/status.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SENSIM_CONTACT_PAD 8        /* px around and between cells */
#define SENSIM_CONTACT_CAPTION_H 18 /* px under each box for its caption */
#define SENSIM_CONTACT_TITLE_H 30   /* px above the grid for the title */

typedef struct sensim_contact_sheet_params {
  int cols;          /* columns, 1..256; 0: ceil(sqrt(frames)) [0] */
  size_t max_frames; /* at most this many frames, spread evenly over the folder's
                        files in name order (first and last included); 0: all [64] */
  int cell_width;    /* px, width of each image's box, 16..2048 [240]; its height
                        follows the first image's aspect (8 .. 4 x width px) */
  const char *title; /* text above the grid, borrowed for the call; NULL: the folder */
} sensim_contact_sheet_params;

typedef struct sensim_contact_sheet_info {
  int width, height;   /* px of the sheet */
  int cols, rows;      /* of the grid */
  int cell_w, cell_h;  /* px of each image's box */
  size_t frames;       /* images on the sheet */
  size_t files;        /* PNG files in the folder */
} sensim_contact_sheet_info;

SENSIM_TOOLS_API void sensim_contact_sheet_params_init(sensim_contact_sheet_params *p);

/* A contact sheet of the *.png files of `dir` (sensim_list_pngs: sorted
 * by name), written to `path` as PNG (all or nothing). Frame k of the sheet
 * is file round(k (n - 1) / (m - 1)) of the n files when m < n frames are
 * shown, file k otherwise; its caption is "#<file index> <file name>",
 * shortened with "..." to fit. 16-bit and grey files are shown as 8-bit
 * RGB. `info` (may be NULL) receives the geometry above on success.
 * SENSIM_ENOTFOUND for a missing folder, SENSIM_EINVAL for bad parameters,
 * a folder with no PNG file or a sheet larger than 16384 px a side (fewer
 * frames or columns, or narrower cells, make it fit), errors of
 * sensim_read_png for an unreadable file, SENSIM_EIO when the sheet
 * cannot be written. */
SENSIM_TOOLS_API sensim_status sensim_contact_sheet_write_png(const char *dir,
                                                              const sensim_contact_sheet_params *p,
                                                              const char *path,
                                                              sensim_contact_sheet_info *info);

#ifdef __cplusplus
}
#endif
#endif
