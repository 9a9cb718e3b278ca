/* sensim/status.h: status codes and error text.
 *
 * Every sensim function that can fail returns a sensim_status: SENSIM_OK (0)
 * on success, a negative code on failure. On failure the object it was given
 * is unchanged, and a message saying what was wrong is readable with
 * sensim_last_error() on the same thread until the next failing call. */
#ifndef SENSIM_STATUS_H
#define SENSIM_STATUS_H

#include "sensim/export.h"

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

#ifdef __cplusplus
}
#endif
#endif
