/* core/internal.h: helpers every module uses: error reporting, allocation,
 * argument checks. Not installed. */
#ifndef SENSIM_CORE_INTERNAL_H
#define SENSIM_CORE_INTERNAL_H

#include <math.h>

/* Strict C11 hides M_PI; glibc gives it only with _DEFAULT_SOURCE. */
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stddef.h>
#include "sensim/status.h"
#include "sensim/types.h"
#include "sensim/world.h" /* SENSIM_COORD_MAX, SENSIM_TIME_MAX */

#if defined(__GNUC__)
#define SENSIM__PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SENSIM__PRINTF(a, b)
#endif

/* Record a message for sensim_last_error() and return `status`, so a
 * failure reads: return sensim__fail(SENSIM_EINVAL, "rate %g must be > 0", r); */
sensim_status sensim__fail(sensim_status status, const char *fmt, ...) SENSIM__PRINTF(2, 3);

/* Prefix the current thread's last error with "context: ". */
void sensim__error_context(const char *fmt, ...) SENSIM__PRINTF(1, 2);

/* strdup that reports ENOMEM through sensim__fail; NULL in, NULL out. */
char *sensim__strdup(const char *s);

/* Grow *array to hold at least `need` elements of `size` bytes; *cap is
 * updated. Returns SENSIM_ENOMEM (with message) and leaves *array alone on
 * failure. */
sensim_status sensim__grow(void **array, size_t *cap, size_t need, size_t size);

static inline int sensim__finite3(sensim_vec3 v) {
  return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

/* "Did you mean" (core/suggest.c). The optimal string alignment
 * (restricted Damerau-Levenshtein) distance between a and b, ASCII case
 * ignored; (size_t)-1 for words over 128 characters. */
size_t sensim__edit_distance(const char *a, const char *b);
/* The name of NULL-terminated `known` nearest to `word` when it is near
 * (at most max(2, strlen(word) / 3) edits and fewer than strlen(word));
 * the first of equally near ones; NULL when none is near or word is
 * itself known. */
const char *sensim__suggest(const char *word, const char *const *known);
/* "; did you mean 'NAME'?" for sensim__suggest's answer, or "", in buf
 * (truncated to size); returns buf, for a "%s" of an error message. */
const char *sensim__did_you_mean(char *buf, size_t size, const char *word,
                                 const char *const *known);

/* A pose whose numbers are finite and whose quaternion is unit to 1e-6. */
sensim_status sensim__check_pose(const sensim_pose *p, const char *what);

/* ---- input limits (core/limits.c; the limits are world.h's) ----
 * Each fails with SENSIM_EINVAL and a message that starts with `what` and
 * names the value, the limit and the unit. */

/* p finite with max(|x|, |y|, |z|) + margin <= SENSIM_COORD_MAX, m; margin is
 * what reaches further from p (a mesh's radius about its body), or 0.
 * sensim__coord_fail words the failure (core/limits.c). */
sensim_status sensim__coord_fail(sensim_vec3 p, double margin, const char *what);
static inline sensim_status sensim__check_coord(sensim_vec3 p, double margin, const char *what) {
  /* Inline, as pushes and advances run it every step; NaN fails the test. */
  if (fabs(p.x) + margin <= SENSIM_COORD_MAX && fabs(p.y) + margin <= SENSIM_COORD_MAX &&
      fabs(p.z) + margin <= SENSIM_COORD_MAX)
    return SENSIM_OK;
  return sensim__coord_fail(p, margin, what);
}
/* A motion that starts at |coordinate| `pos` (m) with speed |v| (m/s) and
 * acceleration |a| (m/s^2) stays within SENSIM_COORD_MAX over
 * max(horizon, 1 s): pos + |v| T + |a| T^2 / 2 <= the limit. */
sensim_status sensim__check_reach(double pos, double speed, double accel, double horizon, const char *what);
/* t finite with |t| <= SENSIM_TIME_MAX, s; `what` names it ("advance time").
 * sensim__time_fail words the failure (core/limits.c). */
sensim_status sensim__time_fail(double t, const char *what);
static inline sensim_status sensim__check_time(double t, const char *what) {
  return fabs(t) <= SENSIM_TIME_MAX ? SENSIM_OK : sensim__time_fail(t, what);
}
/* One object needing `bytes` of memory fits in this machine's physical
 * memory (and in 2^47 bytes): refused before allocating, since Linux may
 * grant more than it has and kill the process when the pages are used. */
sensim_status sensim__check_bytes(double bytes, const char *what);
/* The bound sensim__check_bytes applies, bytes. */
double sensim__memory_limit(void);

#include "sensim/frame.h"
/* The colour (0 R, 1 G, 2 B) of each pixel of a 2 x 2 mosaic cell, indexed
 * (x & 1) + 2 (y & 1); SENSIM_CFA_NONE gives all 1. NULL for an invalid
 * layout. */
const int *sensim__cfa_cell(sensim_cfa cfa);

/* Free a frame's buffers (the frame struct itself is the caller's). */
void sensim__frame_release(sensim_frame *frame);
/* sensim_frame_alloc without zeroing the buffer, for a producer that writes
 * every element (a lidar scan: 1.7 to 3 MB a capture, whose zeroing was a
 * pass over memory of its own). */
sensim_status sensim__frame_alloc_unset(sensim_frame *frame, sensim_payload type, uint32_t width, uint32_t height);
/* A buffer for a frame (a plane, a trajectory, a payload a filter builds
 * itself) of at least `bytes`, zeroed when `zero`: from the sensor's frame
 * pool inside a capture's generator or chain, else malloc/calloc; always a
 * malloc block (core/frame_pool.h). NULL when out of memory. */
void *sensim__frame_buffer(size_t bytes, int zero);
/* Give back a frame buffer that was replaced (a filter's old payload):
 * into the sensor's frame pool inside a capture, else free(). NULL is a
 * no-op. Calling free() instead is always correct, but the pool loses the
 * block and the next frame allocates it again. */
void sensim__frame_buffer_free(void *block);
/* Give back a frame's depth, label and normal planes (sensim__frame_buffer_free)
 * and leave it without them: what a change of image size or layout does. */
void sensim__frame_drop_planes(sensim_frame *frame);
#endif
