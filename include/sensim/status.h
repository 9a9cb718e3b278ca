/* sensim/status.h: status codes and error text.
 *
 * Every sensim function that can fail returns a sensim_status: SENSIM_OK (0)
 * on success, a negative code on failure. On failure the object it was given
 * is unchanged, and a message saying what was wrong is readable with
 * sensim_last_error() on the same thread until the next failing call. */
#ifndef SENSIM_STATUS_H
#define SENSIM_STATUS_H

#include "sensim/export.h"

/* Lets GCC and Clang check the arguments of a printf-like function. */
#if defined(__GNUC__)
#define SENSIM_PRINTF_FORMAT(fmt, first) __attribute__((format(printf, fmt, first)))
#else
#define SENSIM_PRINTF_FORMAT(fmt, first)
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sensim_status {
  SENSIM_OK = 0,
  SENSIM_EINVAL = -1,    /* an argument is out of its domain (NaN, zero size, ...) */
  SENSIM_ENOMEM = -2,    /* an allocation failed */
  SENSIM_ENOTFOUND = -3, /* unknown name, or a file that does not exist */
  SENSIM_EIO = -4,       /* reading or writing a file failed */
  SENSIM_EPARSE = -5,    /* a file or text is malformed */
  SENSIM_ETYPE = -6,     /* payload types do not match (filter chains) */
  SENSIM_ESTATE = -7,    /* the call is not valid now (time going back, ...) */
  SENSIM_EBACKEND = -8   /* Embree, Assimp or the OS failed */
} sensim_status;

/* Short fixed text for a status code ("invalid argument"); never NULL. */
SENSIM_API const char *sensim_status_str(sensim_status status);

/* The message of the last failing call on this thread ("" if none). The
 * pointer is valid until the next sensim call on this thread. */
SENSIM_API const char *sensim_last_error(void);

/* For code built on sensim (a user filter's apply(), a tools library, a
 * host's own wrappers), so that its failures read like sensim's own: set
 * this thread's last error to the printf-formatted message (truncated to
 * 511 bytes) and return `status`:
 *   return sensim_error_set(SENSIM_EINVAL, "gain %g must be >= 0", g);
 * A NULL fmt leaves an empty message. */
SENSIM_API sensim_status sensim_error_set(sensim_status status, const char *fmt, ...)
    SENSIM_PRINTF_FORMAT(2, 3);

/* Prefix this thread's last error with the formatted text and ": ", to say
 * where a failure reported by a deeper call happened ("sensor 'cam': ...").
 * The message keeps its first 511 bytes. */
SENSIM_API void sensim_error_prefix(const char *fmt, ...) SENSIM_PRINTF_FORMAT(1, 2);

/* For "did you mean" messages about an unknown name: the name of `names`
 * (NULL-terminated) nearest to `word` by edit distance (adjacent
 * transpositions count one edit, ASCII case is ignored), when it is at
 * most max(2, strlen(word) / 3) edits and fewer than strlen(word) away;
 * the first of equally near ones. NULL when none is that near, when
 * `word` is itself in `names`, or for NULL arguments. The pointer is one
 * of `names`' (borrowed). The library's own messages use it for scenario
 * keys and values and filter names and parameters. */
SENSIM_API const char *sensim_suggest(const char *word, const char *const *names);

#ifdef __cplusplus
}
#endif
#endif
