/* core/payload.c: the public questions about payload types, and the
 * derived facts the writers share, all answered from the payload table
 * (core/payload_table.c) rather than by a switch per question. */
#include <string.h>
#include "core/internal.h"
#include "core/payload.h"

const char *sensim_payload_name(sensim_payload type) {
  const sensim__payload_desc *d = sensim__payload_desc_of(type);
  return d ? d->name : "unknown";
}

size_t sensim_payload_elem_size(sensim_payload type) {
  const sensim__payload_desc *d = sensim__payload_desc_of(type);
  return d ? d->elem_size : 0;
}

int sensim_payload_is_image(sensim_payload type) {
  const sensim__payload_desc *d = sensim__payload_desc_of(type);
  return d && d->shape == SENSIM__SHAPE_IMAGE;
}

int sensim_payload_channels(sensim_payload type) {
  const sensim__payload_desc *d = sensim__payload_desc_of(type);
  return d ? d->channels : 0;
}

sensim_sample sensim_payload_sample(sensim_payload type) {
  const sensim__payload_desc *d = sensim__payload_desc_of(type);
  return d ? d->sample : SENSIM_SAMPLE_NONE;
}

sensim_status sensim_payload_from_name(const char *name, sensim_payload *out) {
  if (!name || !out) return sensim__fail(SENSIM_EINVAL, "sensim_payload_from_name: NULL argument");
  for (int t = SENSIM_PAYLOAD_NONE; t <= SENSIM_PAYLOAD_ANY; t++) {
    const sensim__payload_desc *d = sensim__payload_desc_of((sensim_payload)t);
    if (d && strcmp(d->name, name) == 0) {
      *out = (sensim_payload)t;
      return SENSIM_OK;
    }
  }
  char list[400] = "";
  size_t used = 0;
  for (int t = SENSIM_PAYLOAD_NONE; t <= SENSIM_PAYLOAD_ANY && used + 1 < sizeof list; t++) {
    int w = snprintf(list + used, sizeof list - used, "%s%s", t ? ", " : "",
                     sensim_payload_name((sensim_payload)t));
    if (w < 0) break;
    used += (size_t)w;
  }
  const char *names[SENSIM_PAYLOAD_ANY + 2];
  for (int t = SENSIM_PAYLOAD_NONE; t <= SENSIM_PAYLOAD_ANY; t++)
    names[t - SENSIM_PAYLOAD_NONE] = sensim_payload_name((sensim_payload)t);
  names[SENSIM_PAYLOAD_ANY - SENSIM_PAYLOAD_NONE + 1] = NULL;
  char hint[96];
  return sensim__fail(SENSIM_ENOTFOUND, "unknown payload '%.64s'%s (known: %s)", name,
                      sensim__did_you_mean(hint, sizeof hint, name, names), list);
}

int sensim__payload_file_bits(const sensim__payload_desc *d, int *channels) {
  if (!d || d->shape != SENSIM__SHAPE_IMAGE) return 0;
  if (d->to_gray16) {
    *channels = 1;
    return 16;
  }
  if (d->channels < 1 || d->channels > 4) return 0;
  *channels = d->channels;
  if (d->sample == SENSIM_SAMPLE_U8) return 8;
  if (d->sample == SENSIM_SAMPLE_U16) return 16;
  return 0;
}

int sensim__payload_takes_output(const sensim__payload_desc *d, const char *format) {
  if (!format) return 0;
  if (strcmp(format, "none") == 0) return 1;
  if (!d) return 0;
  int channels;
  if (strcmp(format, "png") == 0) return sensim__payload_file_bits(d, &channels) != 0 || d->picture;
  if (strcmp(format, "csv") == 0) return d->csv_header != NULL && d->csv_rows != NULL;
  for (const char *const *f = d->formats; f && *f; f++)
    if (strcmp(*f, format) == 0) return 1;
  return 0;
}
