/* core/frame.c: frame buffers, sized by the payload table (core/payload.c). */
#include <stdint.h>
#include <stdlib.h>
#include "core/frame_pool.h"
#include "core/internal.h"
#include "sensim/frame.h"

/* sensim_frame_alloc, zeroed or not. Inside a capture's generator or
 * chain the buffers come from, and the replaced ones go back to, the
 * sensor's frame pool (core/frame_pool.h); elsewhere they are plain
 * malloc blocks, as pooled ones are too. */
static sensim_status frame_alloc(sensim_frame *frame, sensim_payload type, uint32_t width, uint32_t height, int zero) {
  if (!frame) return sensim__fail(SENSIM_EINVAL, "frame is NULL");
  size_t es = sensim_payload_elem_size(type);
  if (es == 0) return sensim__fail(SENSIM_EINVAL, "payload '%s' holds no data", sensim_payload_name(type));
  size_t count = (size_t)width * height;
  if (count > SIZE_MAX / es - 1)
    return sensim__fail(SENSIM_ENOMEM, "%zu %s elements do not fit in memory", count, sensim_payload_name(type));
  /* calloc(0) may return NULL; an empty point cloud is legitimate, so keep
   * one element of slack. */
  size_t n = count ? count : 1;
  void *data = sensim__frame_buffer(n * es, zero);
  if (!data) return sensim__fail(SENSIM_ENOMEM, "out of memory for %zu %s elements", count,
                                 sensim_payload_name(type));
  sensim__frame_buffer_free(frame->data);
  frame->data = data;
  if (width != frame->width || height != frame->height) {
    /* The camera's planes are width x height: they cannot follow a new size. */
    sensim__frame_drop_planes(frame);
  }
  frame->type = type;
  frame->width = width;
  frame->height = height;
  frame->count = count;
  return SENSIM_OK;
}

sensim_status sensim_frame_alloc(sensim_frame *frame, sensim_payload type, uint32_t width,
                                 uint32_t height) {
  return frame_alloc(frame, type, width, height, 1);
}

sensim_status sensim__frame_alloc_unset(sensim_frame *frame, sensim_payload type, uint32_t width, uint32_t height) {
  return frame_alloc(frame, type, width, height, 0);
}

void sensim__frame_drop_planes(sensim_frame *frame) {
  sensim__frame_buffer_free(frame->depth);
  sensim__frame_buffer_free(frame->labels);
  sensim__frame_buffer_free(frame->normals);
  frame->depth = NULL;
  frame->labels = NULL;
  frame->normals = NULL;
}

void sensim__frame_release(sensim_frame *frame) {
  free(frame->data);
  free(frame->depth);
  free(frame->labels);
  free(frame->normals);
  free(frame->trajectory);
  frame->trajectory = NULL;
  frame->ntraj = 0;
  frame->data = NULL;
  frame->depth = NULL;
  frame->labels = NULL;
  frame->normals = NULL;
  frame->count = 0;
}

const char *sensim_image_unit_name(sensim_image_unit unit) {
  switch (unit) {
    case SENSIM_UNIT_RADIANCE: return "radiance";
    case SENSIM_UNIT_ELECTRONS: return "electrons";
    case SENSIM_UNIT_SIGNAL: return "signal";
  }
  return "an unknown unit";
}

/* Colour (0 R, 1 G, 2 B) of cell (x & 1) + 2 (y & 1) of each layout, read
 * left to right, top to bottom as frame.h names them. */
static const int cfa_cells[5][4] = {
    {1, 1, 1, 1}, /* NONE: a uniform "green" for callers that treat it as mono */
    {0, 1, 1, 2}, /* RGGB */
    {2, 1, 1, 0}, /* BGGR */
    {1, 0, 2, 1}, /* GRBG */
    {1, 2, 0, 1}, /* GBRG */
};

const int *sensim__cfa_cell(sensim_cfa cfa) {
  return (unsigned)cfa <= (unsigned)SENSIM_CFA_GBRG ? cfa_cells[cfa] : NULL;
}
