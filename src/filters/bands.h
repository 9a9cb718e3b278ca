/* filters/bands.h: run a filter's per-row (or per-value) work in bands on
 * the world's workers while its chain runs inside a capture.
 *
 * sensim__chain_run_forked makes the capture's fork current for the
 * calling thread while the chain runs (saved and restored, so a chain run
 * nested in a pool wait is safe); sensim__filter_bands then splits
 * [0, n) with the fork's banding rule (core/fork.h). Every item belongs to
 * exactly one band and fn must compute each item from its own inputs
 * only, so the output is the same bits for any thread count. Outside a
 * capture (standalone chains, tests, benches) there is no current fork
 * and fn runs once over [0, n) on the calling thread. Reductions (sums
 * over a frame) must not use this: their rounding would depend on the
 * band count. */
#ifndef SENSIM_FILTERS_BANDS_H
#define SENSIM_FILTERS_BANDS_H

#include <stddef.h>
#include "core/fork.h"

typedef void (*sensim_items_fn)(void *arg, size_t lo, size_t hi);

/* The fork current on this thread (NULL: none); set/restore for
 * filters/chain.c. */
const sensim_fork *sensim__filter_fork(void);
const sensim_fork *sensim__filter_fork_swap(const sensim_fork *f);

/* fn(arg, lo, hi) over bands covering [0, n) exactly once; returns when all
 * are done. Items smaller than `grain` are not worth a band of their own:
 * at most n / grain bands. */
void sensim__filter_bands(size_t n, size_t grain, sensim_items_fn fn, void *arg);

#endif
