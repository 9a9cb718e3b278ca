/* core/status.c: status text and the per-thread last error. */
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"

/* Per thread, so worker threads reporting failures never race the host. */
static _Thread_local char last_error[512];

const char *sensim_status_str(sensim_status status) {
  switch (status) {
    case SENSIM_OK: return "ok";
    case SENSIM_EINVAL: return "invalid argument";
    case SENSIM_ENOMEM: return "out of memory";
    case SENSIM_ENOTFOUND: return "not found";
    /* Not "input/output error": that is strerror(EIO), a cause of its own;
     * the message (sensim_last_error) names the failing call's real one. */
    case SENSIM_EIO: return "file access failed";
    case SENSIM_EPARSE: return "malformed input";
    case SENSIM_ETYPE: return "payload type mismatch";
    case SENSIM_ESTATE: return "invalid in the current state";
    case SENSIM_EBACKEND: return "backend failure";
  }
  return "unknown status";
}

const char *sensim_last_error(void) { return last_error; }

/* Formatted into a copy first: an argument may be sensim_last_error()
 * itself ("%s", sensim_last_error()), and vsnprintf's source and
 * destination must not overlap (C11 7.21.6.12). */
static void vset(const char *fmt, va_list ap) {
  char msg[sizeof last_error];
  if (fmt)
    vsnprintf(msg, sizeof msg, fmt, ap);
  else
    msg[0] = '\0';
  memcpy(last_error, msg, sizeof msg);
}

static void vprefix(const char *fmt, va_list ap) {
  char prefix[256], old[sizeof last_error];
  if (fmt)
    vsnprintf(prefix, sizeof prefix, fmt, ap);
  else
    prefix[0] = '\0';
  memcpy(old, last_error, sizeof old);
  /* Truncation of an over-long message is acceptable; build it piecewise so
   * the compiler need not prove it fits. */
  size_t n = strlen(prefix);
  if (n > sizeof last_error - 3) n = sizeof last_error - 3;
  memcpy(last_error, prefix, n);
  last_error[n] = ':';
  last_error[n + 1] = ' ';
  size_t room = sizeof last_error - n - 3;
  size_t m = strnlen(old, room);
  memcpy(last_error + n + 2, old, m);
  last_error[n + 2 + m] = '\0';
}

sensim_status sensim__fail(sensim_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vset(fmt, ap);
  va_end(ap);
  return status;
}

void sensim__error_context(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprefix(fmt, ap);
  va_end(ap);
}

/* The same two for code outside the library (status.h). */
sensim_status sensim_error_set(sensim_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vset(fmt, ap);
  va_end(ap);
  return status;
}

void sensim_error_prefix(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprefix(fmt, ap);
  va_end(ap);
}

char *sensim__strdup(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (!d) {
    sensim__fail(SENSIM_ENOMEM, "out of memory copying a %zu-byte string", n);
    return NULL;
  }
  memcpy(d, s, n);
  return d;
}

sensim_status sensim__grow(void **array, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return SENSIM_OK;
  size_t ncap = *cap ? *cap : 8;
  while (ncap < need) ncap *= 2;
  if (ncap > SIZE_MAX / size) return sensim__fail(SENSIM_ENOMEM, "array of %zu elements too large", need);
  void *p = realloc(*array, ncap * size);
  if (!p) return sensim__fail(SENSIM_ENOMEM, "out of memory growing an array to %zu elements", ncap);
  *array = p;
  *cap = ncap;
  return SENSIM_OK;
}

sensim_status sensim__check_pose(const sensim_pose *p, const char *what) {
  if (!p) return sensim__fail(SENSIM_EINVAL, "%s: pose is NULL", what);
  if (!sensim__finite3(p->pos))
    return sensim__fail(SENSIM_EINVAL, "%s: position (%g, %g, %g) is not finite", what, p->pos.x,
                        p->pos.y, p->pos.z);
  const sensim_quat q = p->rot;
  if (!(isfinite(q.w) && isfinite(q.x) && isfinite(q.y) && isfinite(q.z)))
    return sensim__fail(SENSIM_EINVAL, "%s: quaternion is not finite", what);
  double n = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  if (fabs(n - 1.0) > 1e-6)
    return sensim__fail(SENSIM_EINVAL, "%s: quaternion norm %.9g is not 1 (to 1e-6)", what, n);
  return SENSIM_OK;
}
