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
#endif
