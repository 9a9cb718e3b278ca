/* core/limits.c: the magnitudes sensim accepts where values enter it:
 * world coordinates, simulation times and the memory one object needs.
 * The limits themselves and their derivation are public (world.h,
 * SENSIM_COORD_MAX and SENSIM_TIME_MAX); this file holds the checks that
 * every module calls, so that each is written, and worded, once. */
#include <math.h>
#include <stdint.h>
#include <unistd.h>
#include "core/internal.h"
#include "sensim/world.h"

/* Largest |component| of v (NaN if one is NaN). */
static double max_abs3(sensim_vec3 v) {
  if (isnan(v.x) || isnan(v.y) || isnan(v.z)) return NAN;
  return fmax(fabs(v.x), fmax(fabs(v.y), fabs(v.z)));
}

sensim_status sensim__coord_fail(sensim_vec3 p, double margin, const char *what) {
  if (!sensim__finite3(p))
    return sensim__fail(SENSIM_EINVAL, "%s: position (%g, %g, %g) m is not finite", what, p.x, p.y, p.z);
  double m = max_abs3(p);
  if (!(m + margin <= SENSIM_COORD_MAX)) {
    if (margin > 0)
      return sensim__fail(SENSIM_EINVAL,
                          "%s: position (%g, %g, %g) m plus %g m about it reaches %g m, beyond the world "
                          "coordinate limit of %.0f m (SENSIM_COORD_MAX)",
                          what, p.x, p.y, p.z, margin, m + margin, SENSIM_COORD_MAX);
    return sensim__fail(SENSIM_EINVAL,
                        "%s: position (%g, %g, %g) m is beyond the world coordinate limit of %.0f m "
                        "(SENSIM_COORD_MAX)",
                        what, p.x, p.y, p.z, SENSIM_COORD_MAX);
  }
  return SENSIM_OK;
}

sensim_status sensim__check_reach(double pos, double speed, double accel, double horizon, const char *what) {
  double T = horizon > 1.0 ? horizon : 1.0;
  if (!(isfinite(speed) && isfinite(accel)))
    return sensim__fail(SENSIM_EINVAL, "%s: speed %g m/s or acceleration %g m/s^2 is not finite", what, speed, accel);
  double by_v = pos + speed * T, by_a = by_v + 0.5 * accel * T * T;
  if (!(by_v <= SENSIM_COORD_MAX))
    return sensim__fail(SENSIM_EINVAL,
                        "%s: speed %g m/s carries the body from %g m to %g m within %g s, beyond the world "
                        "coordinate limit of %.0f m (SENSIM_COORD_MAX)",
                        what, speed, pos, by_v, T, SENSIM_COORD_MAX);
  if (!(by_a <= SENSIM_COORD_MAX))
    return sensim__fail(SENSIM_EINVAL,
                        "%s: acceleration %g m/s^2 carries the body from %g m to %g m within %g s, beyond the "
                        "world coordinate limit of %.0f m (SENSIM_COORD_MAX)",
                        what, accel, pos, by_a, T, SENSIM_COORD_MAX);
  return SENSIM_OK;
}

sensim_status sensim__time_fail(double t, const char *what) {
  if (!isfinite(t)) return sensim__fail(SENSIM_EINVAL, "%s %g s is not finite", what, t);
  if (!(fabs(t) <= SENSIM_TIME_MAX))
    return sensim__fail(SENSIM_EINVAL,
                        "%s %g s is beyond the simulation time limit of %.0f s (SENSIM_TIME_MAX, 2^32 s)", what, t,
                        SENSIM_TIME_MAX);
  return SENSIM_OK;
}

/* What one allocation may ask for: the machine's physical memory, and never
 * more than 2^47 bytes, the user address space of x86-64 Linux (and of
 * 48-bit AArch64 with 4 KiB pages), so that a size that cannot exist is
 * refused the same way on every machine. An allocation larger than RAM may
 * succeed under Linux's overcommit and then get the process killed when its
 * pages are touched: refusing it is the only clean answer. */
double sensim__memory_limit(void) {
  double lim = 140737488355328.0; /* 2^47 */
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && size > 0 && (double)pages * (double)size < lim) lim = (double)pages * (double)size;
  return lim;
}

sensim_status sensim__check_bytes(double bytes, const char *what) {
  double lim = sensim__memory_limit();
  if (!(bytes <= lim) || !(bytes <= (double)(SIZE_MAX / 2)))
    return sensim__fail(SENSIM_EINVAL, "%s needs %.3g bytes, more than this machine's %.3g bytes of memory", what,
                        bytes, lim);
  return SENSIM_OK;
}
