/* filters/radar_cfar.h: constant-false-alarm-rate detection on a radar's
 * range-Doppler power map: cell averaging (CA) and ordered statistic (OS).
 * Pure functions (no frame, no state); the radar's processing filters call
 * them. Formulas and sources: docs/radar.md, "CFAR and DBSCAN". Not installed. */
#ifndef SENSIM_FILTERS_RADAR_CFAR_H
#define SENSIM_FILTERS_RADAR_CFAR_H

#include <stddef.h>
#include <stdint.h>
#include "sensim/status.h"

typedef enum sensim__cfar_kind {
  SENSIM__CFAR_CA = 0, /* threshold on the mean of the training cells */
  SENSIM__CFAR_OS = 1  /* threshold on the k-th smallest training cell */
} sensim__cfar_kind;

typedef struct sensim__cfar_params {
  sensim__cfar_kind kind;
  int guard_range, guard_doppler; /* guard cells on each side of the cell under test, >= 0 */
  int train_range, train_doppler; /* training cells on each side beyond the guard, >= 0, not both 0 */
  double pfa;                     /* design false-alarm probability per cell, (0, 1) */
  int os_rank;                    /* OS-CFAR: k-th smallest of the N training cells, 1..N; 0: round(3N/4) */
} sensim__cfar_params;

/* The training cells of a cell away from the range edges: the window of
 * (2 (guard + train) + 1) cells per axis less its guard block of
 * (2 guard + 1) per axis (which holds the cell under test); 0 for negative
 * or overflowing sizes. */
long long sensim__cfar_train_count(const sensim__cfar_params *p);

/* SENSIM_OK, or SENSIM_EINVAL with a message naming the field: a kind
 * other than CA or OS; a negative guard or training size; no training
 * cells; pfa not in (0, 1) (NaN included); os_rank outside 0..N; a map
 * size below 1; a window (2 (guard + train) + 1 cells) larger than the map
 * on either axis. */
sensim_status sensim__cfar_check(const sensim__cfar_params *p, int n_doppler, int n_range);

/* Threshold factor alpha on the training statistic for n_train training
 * cells such that the false-alarm probability on exponentially distributed
 * (square-law detected, Rayleigh-envelope) noise is p->pfa:
 *   CA: alpha = N (pfa^(-1/N) - 1), applied to the MEAN of the N cells;
 *   OS: the alpha that solves pfa = prod_{i=0}^{k-1} (N - i) / (N - i + alpha)
 *       (Rohling 1983), applied to the k-th smallest cell, k = p->os_rank
 *       (0: round(3N/4), at least 1).
 * NAN for n_train < 1, a pfa outside (0, 1), an unknown kind or k > N. */
double sensim__cfar_alpha(const sensim__cfar_params *p, int n_train);

/* power: square-law map, row-major [n_doppler][n_range] (index
 * d * n_range + r), finite and >= 0. The Doppler axis wraps (circular); the
 * range axis does not: near the range edges only the training cells inside
 * the map are used, N' of them, with alpha for N' (OS: rank
 * max(1, round(k N' / N))). hit[d * n_range + r] = 1 when
 * power > alpha * statistic, else 0; *n_hits (if not NULL) = the number of
 * ones. SENSIM_EINVAL (sensim__cfar_check's, or a NULL pointer, or a
 * negative or non-finite power, naming its cell) leaves hit and *n_hits
 * untouched; SENSIM_ENOMEM likewise. Cost: CA O(cells x window side),
 * OS O(cells x N). Working memory from sensim__frame_buffer (the capture's
 * frame pool inside a capture). */
sensim_status sensim__cfar_detect(const float *power, int n_doppler, int n_range, const sensim__cfar_params *p,
                                  uint8_t *hit, size_t *n_hits);

#endif
