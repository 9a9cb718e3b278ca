/* sensors/lidar_packet.c: the beams of one traced packet of eight
 * one-sub-ray channels, written straight from the packet (the common case:
 * datasheet lidars trace one ray per beam).
 *
 * Three passes over the lanes: the reflectance lookups; then the lidar
 * equation, the detection test, the quantiser and the beam's angles and
 * time on all eight lanes at once; then the stores. The middle pass has an
 * AVX2 version (four doubles per instruction) chosen at run time; it makes
 * the same IEEE operations in the same order as the plain one (no FMA), so
 * both give the same beams, and both are measure()'s arithmetic in
 * sensors/lidar_columns.c, so one sub-ray gives the beams the multi-sub-ray
 * path gives. One hit is one return in every mode, if detected. */
#include <math.h>
#include <stdint.h>
#include "core/cpu.h"
#include "core/internal.h"
#include "sensors/lidar_internal.h"

/* What the middle pass makes of each lane. */
typedef struct lanes {
  double az[8];     /* column azimuth + channel offset after wrap_pi's first turn, rad */
  float range[8];   /* m, 0 if not detected */
  float inten[8];   /* quantised, 0 if not detected */
  float elev[8];    /* rad */
  float toff[8];    /* firing time - window length, s */
} lanes;

/* What every lane of the packet shares. */
typedef struct shared {
  double w, pmin, qmax, inv_qmax, azj, win;
  const double *az_off, *elev, *tf; /* from lane 0's channel (and firing) on */
} shared;

/* wrap_pi's first turn, without a branch (the same operations as the first
 * step of each of its loops); an angle still outside (-pi, pi] after it
 * (more than a turn off) goes on through wrap_pi in the store pass. */
static inline double wrap_once(double a) {
  a = a > M_PI ? a - 2.0 * M_PI : a;
  return a <= -M_PI ? a + 2.0 * M_PI : a;
}

static void middle(const sensim_rt_packet8 *pk, const float nx[8], const float ny[8], const float nz[8],
                   const double rho[8], const double atm[8], const int32_t ok[8], const shared *g, lanes *o) {
  for (int e = 0; e < 8; e++) {
    double cosi = fabs(nx[e] * pk->dir_x[e] + ny[e] * pk->dir_y[e] + nz[e] * pk->dir_z[e]);
    cosi = cosi > 1.0 ? 1.0 : cosi;
    const double rr = pk->tfar[e], num = g->w * rho[e] * cosi * atm[e];
    /* Detected if the received power num / R^2 reaches the threshold. */
    const int det = ok[e] && (float)(num / (rr * rr)) >= g->pmin;
    o->range[e] = det ? pk->tfar[e] : 0.0f;
    o->inten[e] = det ? sensim__lidar_quantise((float)(rho[e] * cosi), g->qmax, g->inv_qmax) : 0.0f;
    o->az[e] = wrap_once(g->azj + g->az_off[e]);
    o->elev[e] = (float)g->elev[e];
    o->toff[e] = (float)(g->tf[e] - g->win);
  }
}

#if defined(SENSIM_HAVE_AVX2_PATHS)
/* middle() on lanes h .. h + 3 in doubles; cosf and tfar are those lanes'
 * float values. */
__attribute__((target("avx2"))) static inline void middle4(int h, __m128 cosf, __m128 tfar, __m128 det_ok,
                                                           const double rho[8], const double atm[8], const shared *g,
                                                           lanes *o) {
  const __m256d one = _mm256_set1_pd(1.0), big = _mm256_set1_pd(4503599627370496.0); /* 2^52: sensim__round_units */
  __m256d cosi = _mm256_cvtps_pd(cosf);
  cosi = _mm256_blendv_pd(cosi, one, _mm256_cmp_pd(cosi, one, _CMP_GT_OQ));
  const __m256d r = _mm256_loadu_pd(rho + h), rr = _mm256_cvtps_pd(tfar);
  const __m256d num = _mm256_mul_pd(_mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(g->w), r), cosi), _mm256_loadu_pd(atm + h));
  const __m128 p = _mm256_cvtpd_ps(_mm256_div_pd(num, _mm256_mul_pd(rr, rr)));
  const __m256d pd = _mm256_cvtps_pd(p);
  const __m256d ge = _mm256_cmp_pd(pd, _mm256_set1_pd(g->pmin), _CMP_GE_OQ);
  /* The four lanes' 64-bit masks narrowed to 32 bits, and with ok. */
  const __m128 ge4 = _mm_castsi128_ps(_mm256_castsi256_si128(
      _mm256_permutevar8x32_epi32(_mm256_castpd_si256(ge), _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7))));
  const __m128 d = _mm_and_ps(ge4, det_ok);
  _mm_storeu_ps(o->range + h, _mm_and_ps(d, tfar));
  const __m128 i0 = _mm256_cvtpd_ps(_mm256_mul_pd(r, cosi));
  __m256d iq = _mm256_cvtps_pd(i0);
  iq = _mm256_blendv_pd(iq, one, _mm256_cmp_pd(iq, one, _CMP_GT_OQ));
  const __m256d qd = _mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(iq, _mm256_set1_pd(g->qmax)), big), big);
  _mm_storeu_ps(o->inten + h, _mm_and_ps(d, _mm256_cvtpd_ps(_mm256_mul_pd(qd, _mm256_set1_pd(g->inv_qmax)))));
  const __m256d pi = _mm256_set1_pd(M_PI), twopi = _mm256_set1_pd(2.0 * M_PI);
  __m256d a = _mm256_add_pd(_mm256_set1_pd(g->azj), _mm256_loadu_pd(g->az_off + h));
  a = _mm256_blendv_pd(a, _mm256_sub_pd(a, twopi), _mm256_cmp_pd(a, pi, _CMP_GT_OQ));
  a = _mm256_blendv_pd(a, _mm256_add_pd(a, twopi), _mm256_cmp_pd(a, _mm256_sub_pd(_mm256_setzero_pd(), pi), _CMP_LE_OQ));
  _mm256_storeu_pd(o->az + h, a);
  _mm_storeu_ps(o->elev + h, _mm256_cvtpd_ps(_mm256_loadu_pd(g->elev + h)));
  _mm_storeu_ps(o->toff + h, _mm256_cvtpd_ps(_mm256_sub_pd(_mm256_loadu_pd(g->tf + h), _mm256_set1_pd(g->win))));
}

__attribute__((target("avx2"))) static void middle8(const sensim_rt_packet8 *pk, const float nx[8], const float ny[8],
                                                    const float nz[8], const double rho[8], const double atm[8],
                                                    const int32_t ok[8], const shared *g, lanes *o) {
  const __m256 d = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(nx), _mm256_load_ps(pk->dir_x)),
                                               _mm256_mul_ps(_mm256_loadu_ps(ny), _mm256_load_ps(pk->dir_y))),
                                 _mm256_mul_ps(_mm256_loadu_ps(nz), _mm256_load_ps(pk->dir_z)));
  const __m256 cosf = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), d); /* fabs */
  const __m256 tfar = _mm256_load_ps(pk->tfar);
  const __m256 okm = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)ok));
  middle4(0, _mm256_castps256_ps128(cosf), _mm256_castps256_ps128(tfar), _mm256_castps256_ps128(okm), rho, atm, g, o);
  middle4(4, _mm256_extractf128_ps(cosf, 1), _mm256_extractf128_ps(tfar, 1), _mm256_extractf128_ps(okm, 1), rho, atm, g,
          o);
}
#endif

void sensim__lidar_packet_beams(const sensim_lidar_scan *sc, const sensim_rt_packet8 *pk, int n, const float nx[8],
                                const float ny[8], const float nz[8], sensim_beam *ob, double azj, const double *tf,
                                int c0) {
  const sensim_lidar *l = sc->l;
  const int R = l->nret;
  const double minr = l->p.min_range;
  double rho[8], atm[8];
  int32_t ok[8]; /* all ones where the lane hit something at or beyond the minimum range */
  for (int e = 0; e < 8; e++) {
    rho[e] = 0.0;
    atm[e] = 1.0;
    ok[e] = e < n && pk->body[e] != ~0u && pk->tfar[e] >= minr ? -1 : 0;
    if (!ok[e]) continue;
    const sensim_lidar_refl *br = &sc->refl[pk->body[e]];
    rho[e] = br->tri ? br->tri[pk->prim[e]] : br->rho;
    if (l->beta > 0) atm[e] = exp(-2.0 * l->beta * pk->tfar[e]);
  }
  const shared g = {l->fp.w[0], l->p_min, sc->qmax, sc->inv_qmax, azj, sc->win, l->az_off + c0, l->elev + c0, tf};
  lanes o;
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (sensim__cpu_has_avx2()) middle8(pk, nx, ny, nz, rho, atm, ok, &g, &o);
  else
#endif
    middle(pk, nx, ny, nz, rho, atm, ok, &g, &o);
  for (int e = 0; e < n; e++) {
    const int c = c0 + e;
    const double a = o.az[e] > -M_PI && o.az[e] <= M_PI ? o.az[e] : sensim__wrap_pi(o.az[e]);
    /* Built whole and stored at once; a missing return is range 0. */
    sensim_beam v = {o.range[e], o.inten[e], (float)a, o.elev[e], o.toff[e], l->ring[c], 0, 0};
    ob[(size_t)e * R] = v;
    for (int r = 1; r < R; r++) { /* one sub-ray, one hit: dual mode's second return is missing */
      v.range = v.intensity = 0.0f;
      v.return_index = (uint8_t)r;
      ob[(size_t)e * R + r] = v;
    }
  }
}
