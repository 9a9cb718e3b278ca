/* core/rng_gsl.h: a gsl_rng drawing from a sensim_rng stream, so every GSL
 * distribution (gsl_ran_*) is available with sensim's determinism. */
#ifndef SENSIM_CORE_RNG_GSL_H
#define SENSIM_CORE_RNG_GSL_H

#include <gsl/gsl_rng.h>
#include "sensim/rng.h"

/* A new gsl_rng continuing `stream` (copied); free with gsl_rng_free. NULL
 * when out of memory. */
gsl_rng *sensim__rng_gsl_alloc(const sensim_rng *stream);

#endif
