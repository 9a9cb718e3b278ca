/* core/frame_release.c: the public release of a caller-owned frame
 * (frame.h). Frames the library delivers are released by the library
 * (core/frame.c); this is the same release for frames a host builds itself
 * to run a standalone filter chain on. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"

void sensim_frame_release(sensim_frame *frame) {
  if (frame) sensim__frame_release(frame);
}

/* malloc'd copy of n bytes of src (NULL for a NULL src); *fail set when
 * the allocation fails. */
static void *dup_bytes(const void *src, size_t n, int *fail) {
  if (!src) return NULL;
  void *p = malloc(n ? n : 1);
  if (!p) {
    *fail = 1;
    return NULL;
  }
  if (n) memcpy(p, src, n);
  return p;
}

sensim_status sensim_frame_copy(const sensim_frame *src, sensim_frame *dst) {
  if (!src || !dst) return sensim__fail(SENSIM_EINVAL, "sensim_frame_copy: NULL argument");
  size_t elem = sensim_payload_elem_size(src->type);
  size_t pixels = (size_t)src->width * src->height;
  if (src->data && elem && src->count > SIZE_MAX / elem)
    return sensim__fail(SENSIM_EINVAL, "sensim_frame_copy: %zu elements overflow", src->count);
  if (pixels > SIZE_MAX / (3 * sizeof(float)))
    return sensim__fail(SENSIM_EINVAL, "sensim_frame_copy: %u x %u planes overflow", src->width,
                        src->height);
  sensim_frame f = *src;
  int fail = 0;
  f.data = dup_bytes(src->data, src->count * elem, &fail);
  f.depth = dup_bytes(src->depth, pixels * sizeof(float), &fail);
  f.labels = dup_bytes(src->labels, pixels * sizeof(sensim_label), &fail);
  f.normals = dup_bytes(src->normals, pixels * 3 * sizeof(float), &fail);
  f.trajectory = dup_bytes(src->trajectory, (size_t)src->ntraj * sizeof(sensim_pose), &fail);
  if (fail) {
    sensim__frame_release(&f);
    return sensim__fail(SENSIM_ENOMEM, "sensim_frame_copy: out of memory");
  }
  *dst = f;
  return SENSIM_OK;
}
