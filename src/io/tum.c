/* io/tum.c: poses in the TUM RGB-D benchmark's trajectory format (Sturm et
 * al., "A Benchmark for the Evaluation of RGB-D SLAM Systems", IROS 2012):
 * one line per pose, "timestamp tx ty tz qx qy qz qw", separated by
 * spaces, lines starting with '#' being comments. Trajectory tools (evo,
 * the benchmark's own scripts) read it, so a folder of frames carries its
 * ground truth in a form they compare against.
 *
 * Each number is the shortest text that reads back to the same double
 * (at most 17 significant digits), so the poses lose nothing: a time of
 * 1e5 s keeps its microseconds, a position its nanometres. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "core/internal.h"
#include "core/payload.h"
#include "io/scenario_internal.h"
#include "sensim/record.h"

int sensim__tum_line(char *buf, size_t size, const sensim_frame *f) {
  const double v[8] = {f->t_capture,    f->pose.pos.x,   f->pose.pos.y,   f->pose.pos.z,
                       f->pose.rot.x,   f->pose.rot.y,   f->pose.rot.z,   f->pose.rot.w};
  size_t n = 0;
  for (int i = 0; i < 8; i++) {
    char t[40];
    sensim_shortest_double(t, sizeof t, v[i]);
    int w = snprintf(buf + n, size - n, "%s%c", t, i < 7 ? ' ' : '\n');
    if (w < 0 || (size_t)w >= size - n) return -1;
    n += (size_t)w;
  }
  return (int)n;
}

sensim_status sensim_tum_append(const char *path, const sensim_frame *frame) {
  if (!path || !*path || !frame)
    return sensim__fail(SENSIM_EINVAL, "sensim_tum_append: NULL or empty argument");
  char line[SENSIM__TUM_LINE_MAX];
  int n = sensim__tum_line(line, sizeof line, frame);
  if (n < 0) return sensim__fail(SENSIM_EINVAL, "sensim_tum_append: pose does not fit a line");
  FILE *fp = fopen(path, "a");
  if (!fp) return sensim__fail(SENSIM_EIO, "cannot open '%s' for appending: %s", path, strerror(errno));
  /* One line or none: a failed write is cut back to where the file ended,
   * so a full disk never leaves half a pose that readers would take for a
   * whole one. */
  long end = ftell(fp);
  int ok = fwrite(line, 1, (size_t)n, fp) == (size_t)n;
  ok = fflush(fp) == 0 && ok;
  int err = ok ? 0 : errno;
  if (!ok && end >= 0 && ftruncate(fileno(fp), (off_t)end) != 0) {
    /* Best effort: the write's error is the one reported. */
  }
  if (fclose(fp) != 0 && ok) {
    ok = 0;
    err = errno;
  }
  if (!ok) return sensim__fail(SENSIM_EIO, "cannot append to '%s': %s", path, strerror(err));
  return SENSIM_OK;
}
