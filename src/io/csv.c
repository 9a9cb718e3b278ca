/* io/csv.c: frames as comma-separated text (RFC 4180 layout with LF line
 * ends: one header line, then records; every field is a number, so nothing
 * needs quoting).
 *
 * The layouts belong to the payloads: each descriptor of the payload table
 * (core/payload_<name>.c) that has a CSV header and row writer can be
 * written here, and its file documents the columns and units. This file
 * owns what every layout shares: the header goes first, a frame is checked
 * against the file's type, and the file appears under its name only when
 * closed in full. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/payload.h"
#include "io/scenario_internal.h"

struct sensim_csv {
  sensim__afile file;
  const sensim__payload_desc *desc;
};

/* "gnss, imu, ..." for the message of a payload without a layout. */
static void csv_payload_list(char *list, size_t size) {
  size_t used = 0;
  list[0] = '\0';
  for (int t = SENSIM_PAYLOAD_NONE; t <= SENSIM_PAYLOAD_ANY && used + 1 < size; t++) {
    const sensim__payload_desc *d = sensim__payload_desc_of((sensim_payload)t);
    if (!d || !d->csv_header) continue;
    int w = snprintf(list + used, size - used, "%s%s", used ? ", " : "", d->name);
    if (w < 0) break;
    used += (size_t)w;
  }
}

sensim_status sensim_csv_open(const char *path, sensim_payload type, sensim_csv **out) {
  if (!out) return sensim__fail(SENSIM_EINVAL, "sensim_csv_open: NULL out");
  *out = NULL;
  if (!path) return sensim__fail(SENSIM_EINVAL, "sensim_csv_open: NULL path");
  const sensim__payload_desc *d = sensim__payload_desc_of(type);
  if (!d || !d->csv_header || !d->csv_rows) {
    char list[256];
    csv_payload_list(list, sizeof list);
    return sensim__fail(SENSIM_ETYPE, "CSV '%s': no CSV layout for %s frames (%s)", path,
                        sensim_payload_name(type), list);
  }
  sensim_csv *c = calloc(1, sizeof *c);
  if (!c) return sensim__fail(SENSIM_ENOMEM, "CSV '%s': out of memory", path);
  sensim_status st = sensim__afile_open(path, &c->file);
  if (st != SENSIM_OK) {
    free(c);
    return st;
  }
  c->desc = d;
  fputs(d->csv_header, c->file.fp);
  *out = c;
  return SENSIM_OK;
}

sensim_status sensim_csv_append(sensim_csv *csv, const sensim_frame *frame) {
  if (!csv || !frame) return sensim__fail(SENSIM_EINVAL, "sensim_csv_append: NULL argument");
  const sensim__payload_desc *d = csv->desc;
  if (frame->type != d->type)
    return sensim__fail(SENSIM_ETYPE, "CSV '%s' holds %s frames, not %s", csv->file.path, d->name,
                        sensim_payload_name(frame->type));
  if ((d->single && frame->count != 1) || (frame->count > 0 && !frame->data))
    return sensim__fail(SENSIM_EINVAL, "CSV '%s': %s frame with %zu elements%s", csv->file.path,
                        d->name, frame->count, frame->data ? "" : " and no data");
  d->csv_rows(csv->file.fp, frame);
  if (ferror(csv->file.fp)) { /* the stream kept the failed write's errno (ENOSPC on a full disk) */
    int e = sensim__afile_errno(&csv->file);
    return sensim__fail(SENSIM_EIO, "CSV '%s': write failed: %s", csv->file.path, e ? strerror(e) : "write error");
  }
  return SENSIM_OK;
}

sensim_status sensim_csv_close(sensim_csv *csv) {
  if (!csv) return SENSIM_OK;
  sensim_status st = sensim__afile_commit(&csv->file);
  free(csv);
  return st;
}

void sensim__csv_abort(sensim_csv *csv) {
  if (!csv) return;
  sensim__afile_abort(&csv->file);
  free(csv);
}
