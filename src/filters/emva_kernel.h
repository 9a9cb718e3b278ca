/* filters/emva_kernel.h: the per-value arithmetic of "noise_emva1288"
 * (filters/noise_models.c documents the model and its keying), with an
 * AVX2 path for eight values at a time that gives the same bits. */
#ifndef SENSIM_FILTERS_EMVA_KERNEL_H
#define SENSIM_FILTERS_EMVA_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include "sensim/rng.h"

typedef struct sensim_emva_kernel {
  const sensim_rng *stream; /* the filter's stream; value j draws block j */
  double prnu, dsnu;        /* pattern scales: relative, e- */
  double read_noise;        /* e- rms */
  double full_well;         /* e- */
  double mu_d;              /* mean dark charge of this frame, e- */
  double sure_sat;          /* mean beyond which the count saturates with certainty */
  int shot_noise;           /* 0: the count is the mean */
} sensim_emva_kernel;

#define SENSIM_EMVA_CHUNK 64 /* most values per call of sensim__emva_values */

/* Replace v[i] (mean charge, e-) by the noisy charge of the value whose
 * block is blocks[i], i < n <= SENSIM_EMVA_CHUNK; pa, pb are its PRNU and
 * DSNU pattern values (N(0, 1); NULL: no pattern). */
void sensim__emva_values(const sensim_emva_kernel *k, const uint32_t *blocks, size_t n, const float *pa,
                         const float *pb, float *v);

#endif
