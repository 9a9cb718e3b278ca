/* sensim/eval.h: sim-to-real metrics. */
#ifndef SENSIM_EVAL_H
#define SENSIM_EVAL_H

#include <stddef.h>
#include "sensim/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Overlapping Allan deviation (IEEE Std 952-1997, Annex C) of a rate signal
 * y sampled every tau0 seconds, at averaging times m * tau0 for each m in
 * `ms` (each 1 <= m <= (n - 1) / 2). adev receives one value per m. */
sensim_status sensim_allan_deviation(const double *y, size_t n, double tau0,
                                     const size_t *ms, size_t nm, double *adev);

#ifdef __cplusplus
}
#endif
#endif
