/* core/fork.c: bands of one capture's work on the world's pool. */
#include <stdio.h>
#include <stdlib.h>
#include "core/fork.h"
#include "core/internal.h"

int sensim__fork_threads(sensim_fork f) { return f.pool ? sensim__pool_threads(f.pool) : 0; }

size_t sensim__fork_band_count(sensim_fork f, size_t n, int split) {
  int threads = sensim__fork_threads(f);
  size_t nb = split && threads > 0 ? 4 * ((size_t)threads + 1) : 1;
  return nb < n ? nb : (n ? n : 1);
}

void sensim__band_fail(sensim_band *b, sensim_status rc) {
  b->rc = rc;
  snprintf(b->error, sizeof b->error, "%s", sensim_last_error());
}

sensim_status sensim__fork_run_bands(sensim_fork f, size_t n, void *bands, size_t nb, size_t stride,
                                     void (*fn)(void *band)) {
  /* The usual band counts, 4 (threads + 1), fit on the stack: a capture
   * forks every frame, and allocates nothing here in steady state. */
  void *local[64];
  void **args = nb <= 64 ? local : malloc(nb * sizeof *args);
  if (!args) return sensim__fail(SENSIM_ENOMEM, "out of memory for %zu bands", nb);
  unsigned char *base = bands;
  for (size_t i = 0; i < nb; i++) {
    sensim_band *b = (sensim_band *)(base + i * stride);
    b->lo = n * i / nb;
    b->hi = n * (i + 1) / nb;
    b->rc = SENSIM_OK;
    b->error[0] = '\0';
    args[i] = b;
  }
  if (f.pool) sensim__pool_run_all(f.pool, fn, args, nb);
  else
    for (size_t i = 0; i < nb; i++) fn(args[i]);
  if (args != local) free(args);
  for (size_t i = 0; i < nb; i++) {
    const sensim_band *b = (const sensim_band *)(base + i * stride);
    if (b->rc) return sensim__fail(b->rc, "%s", b->error);
  }
  return SENSIM_OK;
}
