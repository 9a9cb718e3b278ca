/* core/payload_labels.c: per-pixel class and instance ids (sensim_label).
 * As a picture each pixel is its class id on 16 bits, the segmentation
 * mask most training pipelines read; the instance id has no place in a
 * grey image and is dropped there. */
#include "core/payload.h"

static void labels_to_gray16(const void *src, size_t n, uint16_t *dst) {
  const sensim_label *l = src;
  for (size_t i = 0; i < n; i++) dst[i] = l[i].class_id;
}

const sensim__payload_desc sensim__payload_labels = {
    .type = SENSIM_PAYLOAD_LABELS,
    .name = "labels",
    .elem_size = sizeof(sensim_label),
    .shape = SENSIM__SHAPE_IMAGE,
    .channels = 1,
    .sample = SENSIM_SAMPLE_STRUCT,
    .to_gray16 = labels_to_gray16,
    .default_output = "png",
};
