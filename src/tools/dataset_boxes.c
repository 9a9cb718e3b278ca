/* tools/dataset_boxes.c: tight object boxes from a camera's label plane
 * and their YOLO text lines (sensim_tools/dataset.h).
 *
 * The label plane holds, per pixel, the class and instance id of the
 * nearest surface the pixel's ray hit, so it is already occlusion-aware: a
 * box is the extent of what is visible of an object. Objects with fewer
 * visible pixels than a floor are dropped, as a labelling guideline drops
 * objects too small or too hidden to recognise. */
#include <stdlib.h>
#include <string.h>
#include "tools/tools_internal.h"

/* Index of class c in the list, or -1. */
static int class_index(const uint16_t *classes, size_t n, uint16_t c) {
  for (size_t i = 0; i < n; i++)
    if (classes[i] == c) return (int)i;
  return -1;
}

sensim_status sensim_label_boxes(const sensim_label *labels, uint32_t width, uint32_t height,
                                 const uint16_t *classes, size_t nclasses, size_t min_pixels,
                                 sensim_label_box **out, size_t *n) {
  if (!out || !n) return sensim_error_set(SENSIM_EINVAL, "sensim_label_boxes: NULL output");
  *out = NULL;
  *n = 0;
  if (!labels || width == 0 || height == 0)
    return sensim_error_set(SENSIM_EINVAL, "sensim_label_boxes: no label plane (%ux%u)", width, height);
  if (nclasses && !classes) return sensim_error_set(SENSIM_EINVAL, "sensim_label_boxes: NULL class list");
  sensim_label_box *boxes = NULL;
  size_t cap = 0, count = 0, last = 0;
  for (uint32_t y = 0; y < height; y++) {
    const sensim_label *row = labels + (size_t)y * width;
    for (uint32_t x = 0; x < width; x++) {
      uint32_t id = row[x].instance_id;
      if (id == 0) continue;
      /* Runs of one object are the common case: try the last box first. */
      size_t k = count;
      if (count && boxes[last].instance_id == id) {
        k = last;
      } else {
        for (size_t i = 0; i < count; i++)
          if (boxes[i].instance_id == id) {
            k = i;
            break;
          }
      }
      if (k == count) {
        if (sensim_tools__grow((void **)&boxes, &cap, count + 1, sizeof *boxes)) {
          free(boxes);
          return SENSIM_ENOMEM;
        }
        boxes[count] = (sensim_label_box){id, row[x].class_id, class_index(classes, nclasses, row[x].class_id),
                                          x, y, x, y, 0};
        count++;
      }
      sensim_label_box *b = &boxes[k];
      if (x < b->x0) b->x0 = x;
      if (x > b->x1) b->x1 = x;
      if (y > b->y1) b->y1 = y; /* rows arrive in order: y0 is the first */
      b->pixels++;
      last = k;
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < count; i++)
    if (boxes[i].yolo_class >= 0 && boxes[i].pixels >= min_pixels && boxes[i].pixels > 0) boxes[kept++] = boxes[i];
  if (kept == 0) {
    free(boxes);
    boxes = NULL;
  }
  *out = boxes;
  *n = kept;
  return SENSIM_OK;
}

sensim_status sensim_label_boxes_write_yolo(FILE *fp, const sensim_label_box *boxes, size_t n, uint32_t width,
                                            uint32_t height) {
  if (!fp || (n && !boxes) || width == 0 || height == 0)
    return sensim_error_set(SENSIM_EINVAL, "sensim_label_boxes_write_yolo: bad arguments");
  for (size_t i = 0; i < n; i++) {
    const sensim_label_box *b = &boxes[i];
    /* Pixel i covers [i, i + 1): the box spans [x0, x1 + 1). */
    double cx = 0.5 * ((double)b->x0 + (double)b->x1 + 1.0) / width;
    double cy = 0.5 * ((double)b->y0 + (double)b->y1 + 1.0) / height;
    double w = ((double)b->x1 - (double)b->x0 + 1.0) / width;
    double h = ((double)b->y1 - (double)b->y0 + 1.0) / height;
    if (fprintf(fp, "%d %.6f %.6f %.6f %.6f\n", b->yolo_class, cx, cy, w, h) < 0)
      return sensim_error_set(SENSIM_EIO, "writing YOLO labels failed");
  }
  return SENSIM_OK;
}
