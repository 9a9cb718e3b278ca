/* sensim_tools/dataset.h: labelled image datasets for object detectors,
 * one per camera-stage ablation variant (docs/judge.md).
 *
 * Each image comes with its boxes in the YOLO text format (one line
 * "class cx cy w h" per object, normalised to the image size) computed
 * from the camera's label plane, and a content key (the camera's pose and
 * time) that groups images of similar content into batches. */
#ifndef SENSIM_TOOLS_DATASET_H
#define SENSIM_TOOLS_DATASET_H

#include "sensim_tools/export.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sensim/frame.h>
#include <sensim/status.h>
#include "sensim_tools/ablate.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- boxes from a label plane (tools/dataset_boxes.c) ------------------- */

/* One object's tight box in pixel indices: the pixels [x0, x1] x [y0, y1]
 * (inclusive) hold every visible pixel of it. */
typedef struct sensim_label_box {
  uint32_t instance_id; /* the body's instance id */
  uint16_t class_id;    /* the body's scenario class id */
  int yolo_class;       /* index of class_id in the class list, from 0 */
  uint32_t x0, y0;      /* first column and row, pixels */
  uint32_t x1, y1;      /* last column and row, pixels (inclusive) */
  size_t pixels;        /* visible pixels of the object */
} sensim_label_box;

/* The boxes of a width x height label plane: one per instance id whose
 * class is in classes[0..nclasses) and that has at least min_pixels
 * visible pixels. Occlusion is in the plane itself (each pixel holds the
 * nearest surface), so a box bounds what the camera sees of the object,
 * not its whole outline. Boxes come in order of first appearance (row
 * major). *out is malloc'd (NULL when there are none; free it), *n its
 * length. SENSIM_EINVAL for a NULL plane or zero size, SENSIM_ENOMEM. */
SENSIM_TOOLS_API sensim_status sensim_label_boxes(const sensim_label *labels, uint32_t width, uint32_t height,
                                                  const uint16_t *classes, size_t nclasses, size_t min_pixels,
                                                  sensim_label_box **out, size_t *n);

/* Write boxes as YOLO lines "class cx cy w h" (normalised by the image's
 * width and height, pixel i covering [i, i + 1)), one per box, to fp. */
SENSIM_TOOLS_API sensim_status sensim_label_boxes_write_yolo(FILE *fp, const sensim_label_box *boxes, size_t n,
                                                             uint32_t width, uint32_t height);

/* ---- a dataset per variant (tools/dataset_run.c) ------------------------ */

typedef struct sensim_dataset_options {
  int threads;          /* worker threads; < 0: as the file says */
  size_t frames;        /* images per variant; 0: the file's duration */
  const char *camera;   /* camera sensor's name; NULL: the file's first camera */
  size_t min_pixels;    /* fewest visible pixels of a labelled object [20] */
  const uint16_t *classes; /* scenario class ids, in YOLO class order; NULL: every
                              class_id > 0 of the file's bodies, ascending */
  size_t nclasses;
  const sensim_ablation *variants; /* which variants; NULL: every one of the ablation table */
  size_t nvariants;
  FILE *log;            /* per variant, what changed and how many boxes; may be NULL */
} sensim_dataset_options;

/* Defaults: threads -1, frames 0, first camera, min_pixels 20, every class
 * and variant, no log. */
SENSIM_TOOLS_API void sensim_dataset_options_init(sensim_dataset_options *o);

/* Render the scenario once per ablation variant (sensim_ablation_edit:
 * the list is the ablation table's, so a variant added there is a
 * dataset here) and write under out_dir:
 *   classes.txt                    YOLO class i's name per line ("class_<id>"
 *                                  or the mesh name of the first body with it)
 *   <variant>/images/frame_%06d.png  the camera's delivered image, numbered
 *                                  by capture index (the same name is the
 *                                  same capture time in every variant)
 *   <variant>/labels/frame_%06d.txt  its YOLO boxes (may be empty)
 *   <variant>/content.csv          one row per image: image, frame,
 *                                  t_capture, the camera's x y z (m) and
 *                                  roll pitch yaw (deg) in the world, seed,
 *                                  objects per class: the content key
 * out_dir must be missing or empty (SENSIM_ESTATE otherwise), so nothing is
 * overwritten. The camera's chain must end in a PNG payload and keep the
 * label plane (a "downsample" drops it): SENSIM_ETYPE naming the camera.
 * The error of a failing variant names it. */
SENSIM_TOOLS_API sensim_status sensim_dataset_run(const char *scenario_path, const char *out_dir,
                                                  const sensim_dataset_options *opt);

#ifdef __cplusplus
}
#endif
#endif
