/* io/scenario_warnings.c: what the loader accepts but warns about: a
 * scenario that loads and runs, yet probably does not do what was meant.
 *
 * - A camera or lidar whose chain ends in a payload no output format
 *   writes (radiance floats, lidar beams) and that names no output: the
 *   sensor's frames are computed and dropped, which costs the most of any
 *   sensor and is never the point unless it is said so ("output":
 *   {"format": "none"}, which silences this).
 * - A lidar range image written as PNG by a lidar that reaches farther
 *   than the PNG holds: depth_f32 becomes millimetres on 16 bits
 *   (core/payload_depth_f32.c), so 65.535 m is the largest range a pixel
 *   keeps and every farther return is written as 65535. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "io/scenario_internal.h"

/* The farthest range a depth_f32 PNG pixel holds, m (65535 mm). */
#define PNG_RANGE_MAX 65.535

sensim_status sensim__scenario_warn(sensim_scenario *scn, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  char *copy = sensim__strdup(msg);
  if (!copy) return SENSIM_ENOMEM;
  sensim_status st = sensim__grow((void **)&scn->warnings, &scn->cwarnings, scn->nwarnings + 1,
                                  sizeof *scn->warnings);
  if (st != SENSIM_OK) {
    free(copy);
    return st;
  }
  scn->warnings[scn->nwarnings++] = copy;
  return SENSIM_OK;
}

void sensim__scenario_warnings_free(sensim_scenario *scn) {
  for (size_t i = 0; i < scn->nwarnings; i++) free(scn->warnings[i]);
  free(scn->warnings);
  scn->warnings = NULL;
  scn->nwarnings = scn->cwarnings = 0;
}

/* The filter that would make frames of `p` writable, for the message. */
static const char *encoder_for(sensim_payload p) {
  switch (p) {
  case SENSIM_PAYLOAD_RGB_F32: return "\"srgb8\", or \"tone\" then \"quantize\"";
  case SENSIM_PAYLOAD_RAW_F32: return "\"raw16\"";
  case SENSIM_PAYLOAD_GRAY_F32: return "\"quantize_gray\"";
  case SENSIM_PAYLOAD_BEAMS: return "\"points\" (or \"organized\", \"range_image\", \"birdseye\")";
  default: return "a filter that encodes it";
  }
}

sensim_status sensim__scenario_check_output(sensim_scenario *scn, const char *path,
                                            const char *type, const sensim__scn_sensor *ss,
                                            int output_given, double max_range) {
  int imaging = strcmp(type, "camera") == 0 || strcmp(type, "lidar") == 0;
  sensim_payload p = sensim_sensor_output_type(ss->sensor);
  const char *name = sensim_sensor_name(ss->sensor);
  if (imaging && ss->format == SENSIM__OUT_NONE && !output_given)
    return sensim__scenario_warn(
        scn, "%s '%s': its %s frames end in %s, which no output format writes, so nothing is "
             "written for it; end its filters with %s, or give \"output\": {\"format\": \"none\"} "
             "if that is meant",
        path, name, type, sensim_payload_name(p), encoder_for(p));
  if (strcmp(type, "lidar") == 0 && p == SENSIM_PAYLOAD_DEPTH_F32 &&
      ss->format == SENSIM__OUT_PNG && max_range > PNG_RANGE_MAX)
    return sensim__scenario_warn(
        scn, "%s '%s': its range image PNGs hold ranges up to %.3f m (millimetres on 16 bits) but "
             "its max_range is %g m: farther returns are written as 65535, clamped; set max_range "
             "to %.3f or less to drop them instead",
        path, name, PNG_RANGE_MAX, max_range, PNG_RANGE_MAX);
  return SENSIM_OK;
}

size_t sensim_scenario_warning_count(const sensim_scenario *scn) {
  return scn ? scn->nwarnings : 0;
}

const char *sensim_scenario_warning_get(const sensim_scenario *scn, size_t i) {
  return scn && i < scn->nwarnings ? scn->warnings[i] : NULL;
}
