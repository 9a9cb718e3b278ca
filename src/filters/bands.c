/* filters/bands.c: filter work in bands on the world's workers
 * (filters/bands.h). */
#include "filters/bands.h"

static _Thread_local const sensim_fork *current;

const sensim_fork *sensim__filter_fork(void) { return current; }

const sensim_fork *sensim__filter_fork_swap(const sensim_fork *f) {
  const sensim_fork *old = current;
  current = f;
  return old;
}

#define MAX_BANDS 64 /* the rule's 4 (threads + 1) for up to 15 workers; more add nothing here */

typedef struct items_band {
  sensim_band b;
  sensim_items_fn fn;
  void *arg;
} items_band;

static void run_band(void *p) {
  items_band *band = p;
  band->fn(band->arg, band->b.lo, band->b.hi);
}

void sensim__filter_bands(size_t n, size_t grain, sensim_items_fn fn, void *arg) {
  const sensim_fork *f = current;
  size_t nb = f ? sensim__fork_band_count(*f, n, 1) : 1;
  if (grain > 1 && nb > n / grain) nb = n / grain;
  if (nb > MAX_BANDS) nb = MAX_BANDS;
  if (nb <= 1) {
    fn(arg, 0, n);
    return;
  }
  items_band bands[MAX_BANDS];
  for (size_t i = 0; i < nb; i++) bands[i].fn = fn, bands[i].arg = arg;
  /* fn cannot fail, so neither can the bands. */
  (void)sensim__fork_run_bands(*f, n, bands, nb, sizeof bands[0], run_band);
}
