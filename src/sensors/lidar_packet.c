/* sensors/lidar_packet.c: the per-packet kernels of a one-sub-ray scan
 * (the common case: datasheet lidars trace one ray per beam): the
 * packet's eight directions before Embree, and its beams after, written
 * straight from the packet.
 *
 * The beams take three passes over the lanes: the reflectance lookups
 * (body by body: one entry read per distinct body, its per-triangle values
 * gathered); then the lidar equation, the detection test, the quantiser
 * and the beam's angles and time on all eight lanes at once; then the
 * stores, the beams built as rows by a register transpose. Each pass has
 * an AVX2 version chosen at run time that makes the same IEEE operations
 * in the same order as the plain one (no FMA), so both give the same
 * beams, and both are measure()'s arithmetic in sensors/lidar_columns.c,
 * so one sub-ray gives the beams the multi-sub-ray path gives. One hit is
 * one return in every mode, if detected. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
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
  uint32_t cls[8];  /* class id of the body hit (0: none), as the beam's class_id | pad2 << 16 word */
  uint32_t inst[8]; /* instance id of the body hit, 0: none */
} lanes;

/* What every lane of the packet shares. */
typedef struct shared {
  double w, pmin, qmax, inv_qmax, azj, win;
  const double *az_off, *elev, *tf; /* from lane 0's channel (and firing) on */
} shared;

/* The lookups pass: ok[e] all ones where lane e (of n) hit something at
 * or beyond the minimum range, and rho[e] its reflectance there and
 * o->cls[e], o->inst[e] its body's ids (0 where not ok). */
static void lookups(const sensim_lidar_refl *refl, const sensim_rt_packet8 *pk, int n, double minr, double rho[8],
                    int32_t ok[8], lanes *o) {
  for (int e = 0; e < 8; e++) {
    rho[e] = 0.0;
    o->cls[e] = o->inst[e] = 0;
    ok[e] = e < n && pk->body[e] != ~0u && pk->tfar[e] >= minr ? -1 : 0;
    if (!ok[e]) continue;
    const sensim_lidar_refl *br = &refl[pk->body[e]];
    rho[e] = br->tri ? br->tri[pk->prim[e]] : br->rho;
    o->cls[e] = br->class_id;
    o->inst[e] = br->instance_id;
  }
}

/* After either lookups pass: lanes on a body holding placements take
 * their placement's ids and varied reflectance. */
static void placements(const sensim_lidar_refl *refl, const sensim_rt_packet8 *pk, int n, const int32_t ok[8],
                       double rho[8], lanes *o) {
  for (int e = 0; e < n; e++)
    if (ok[e] && refl[pk->body[e]].group)
      rho[e] = sensim__lidar_placement(&refl[pk->body[e]], pk->geom[e], rho[e], &o->cls[e], &o->inst[e]);
}

#if defined(SENSIM_HAVE_AVX2_PATHS)
/* lookups() body by body, as a coherent packet hits few: each body's
 * entry is read once, its lanes' per-triangle values gathered. */
__attribute__((target("avx2"))) static void lookups8(const sensim_lidar_refl *refl, const sensim_rt_packet8 *pk, int n,
                                                     double minr, double rho[8], int32_t ok[8], lanes *o) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i body = _mm256_load_si256((const __m256i *)pk->body), prim = _mm256_load_si256((const __m256i *)pk->prim);
  const __m256 tfar = _mm256_load_ps(pk->tfar);
  const __m256d mr = _mm256_set1_pd(minr);
  /* tfar >= minr compared in double, as the plain pass compares */
  const __m256d f0 = _mm256_cmp_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(tfar)), mr, _CMP_GE_OQ),
                f1 = _mm256_cmp_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(tfar, 1)), mr, _CMP_GE_OQ);
  const int far = _mm256_movemask_pd(f0) | _mm256_movemask_pd(f1) << 4;
  const __m256i hit = _mm256_andnot_si256(_mm256_cmpeq_epi32(body, _mm256_set1_epi32(-1)),
                                          _mm256_cmpgt_epi32(_mm256_set1_epi32(n), lane));
  int left = _mm256_movemask_ps(_mm256_castsi256_ps(hit)) & far;
  const __m256i okv = _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(left),
                                                                            _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128)),
                                                           _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128)),
                                        _mm256_set1_epi32(-1));
  _mm256_storeu_si256((__m256i *)ok, okv);
  __m256 r = _mm256_setzero_ps(); /* float reflectances; a material's double is kept apart */
  __m256d m0 = _mm256_setzero_pd(), m1 = _mm256_setzero_pd();
  __m256 cls = _mm256_setzero_ps(), inst = _mm256_setzero_ps(); /* the ids' bits */
  int from_material = 0;
  while (left) {
    const unsigned b = pk->body[__builtin_ctz((unsigned)left)];
    const __m256 mine = _mm256_and_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(body, _mm256_set1_epi32((int)b))),
                                      _mm256_castsi256_ps(okv));
    left &= ~_mm256_movemask_ps(mine);
    const sensim_lidar_refl *br = &refl[b];
    cls = _mm256_blendv_ps(cls, _mm256_castsi256_ps(_mm256_set1_epi32((int)br->class_id)), mine);
    inst = _mm256_blendv_ps(inst, _mm256_castsi256_ps(_mm256_set1_epi32((int)br->instance_id)), mine);
    if (br->tri) {
      r = _mm256_mask_i32gather_ps(r, br->tri, prim, mine, 4);
    } else {
      const __m256d v = _mm256_set1_pd(br->rho);
      m0 = _mm256_blendv_pd(m0, v, _mm256_castps_pd(_mm256_castsi256_ps(_mm256_cvtepi32_epi64(
                                       _mm_castps_si128(_mm256_castps256_ps128(mine))))));
      m1 = _mm256_blendv_pd(m1, v, _mm256_castps_pd(_mm256_castsi256_ps(_mm256_cvtepi32_epi64(
                                       _mm_castps_si128(_mm256_extractf128_ps(mine, 1))))));
      from_material |= _mm256_movemask_ps(mine);
    }
  }
  _mm256_storeu_ps((float *)o->cls, cls);
  _mm256_storeu_ps((float *)o->inst, inst);
  /* per-triangle lanes: the float widened; material lanes: the double */
  const __m256d t0 = _mm256_cvtps_pd(_mm256_castps256_ps128(r)), t1 = _mm256_cvtps_pd(_mm256_extractf128_ps(r, 1));
  const __m256i sel = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(from_material),
                                                          _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128)),
                                         _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128));
  _mm256_storeu_pd(rho, _mm256_blendv_pd(t0, m0, _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(sel)))));
  _mm256_storeu_pd(rho + 4,
                   _mm256_blendv_pd(t1, m1, _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_extractf128_si256(sel, 1)))));
}
#endif

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

/* The store pass on eight lanes: the beams of lanes 0 .. n-1 built as
 * rows from the lanes' columns (an 8 x 8 transpose of 32-bit words) and
 * stored 32 bytes each; the same bytes as the plain loop below, whose
 * azimuth wrap it takes over for any lane more than a turn off. Returns 0
 * (nothing stored) if some lane is: the plain loop then does them all. */
_Static_assert(offsetof(sensim_beam, time_offset) == 16 && offsetof(sensim_beam, ring) == 20 &&
                   offsetof(sensim_beam, return_index) == 22 && offsetof(sensim_beam, pad) == 23 &&
                   offsetof(sensim_beam, class_id) == 24 && offsetof(sensim_beam, pad2) == 26 &&
                   offsetof(sensim_beam, instance_id) == 28 && sizeof(sensim_beam) == 32,
               "a beam is four floats, then time_offset, the word ring | return_index << 16 | pad << 24, "
               "the word class_id | pad2 << 16 and instance_id");
__attribute__((target("avx2"))) static int store8(const lanes *o, const uint16_t *ring, int n, int R, sensim_beam *ob) {
  const __m256d pi = _mm256_set1_pd(M_PI), mpi = _mm256_set1_pd(-M_PI);
  const __m256d a0 = _mm256_loadu_pd(o->az), a1 = _mm256_loadu_pd(o->az + 4);
  const __m256d in0 = _mm256_and_pd(_mm256_cmp_pd(a0, mpi, _CMP_GT_OQ), _mm256_cmp_pd(a0, pi, _CMP_LE_OQ));
  const __m256d in1 = _mm256_and_pd(_mm256_cmp_pd(a1, mpi, _CMP_GT_OQ), _mm256_cmp_pd(a1, pi, _CMP_LE_OQ));
  const int live = (1 << n) - 1;
  if (((_mm256_movemask_pd(in0) | _mm256_movemask_pd(in1) << 4) & live) != live) return 0;
  const __m256 A = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(a0)), _mm256_cvtpd_ps(a1), 1);
  const __m256 Rg = _mm256_loadu_ps(o->range), I = _mm256_loadu_ps(o->inten), E = _mm256_loadu_ps(o->elev),
               T = _mm256_loadu_ps(o->toff);
  /* ring | return_index << 16 | pad << 24, little-endian as the struct lays them out */
  const __m256 W = _mm256_castsi256_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)ring)));
  /* the ids where the lane has a return (range > 0), 0 elsewhere */
  const __m256 has = _mm256_cmp_ps(Rg, _mm256_setzero_ps(), _CMP_GT_OQ);
  const __m256 C = _mm256_and_ps(has, _mm256_loadu_ps((const float *)o->cls)),
               N = _mm256_and_ps(has, _mm256_loadu_ps((const float *)o->inst));
  const __m256 t0 = _mm256_unpacklo_ps(Rg, I), t1 = _mm256_unpackhi_ps(Rg, I), t2 = _mm256_unpacklo_ps(A, E),
               t3 = _mm256_unpackhi_ps(A, E), t4 = _mm256_unpacklo_ps(T, W), t5 = _mm256_unpackhi_ps(T, W),
               t6 = _mm256_unpacklo_ps(C, N), t7 = _mm256_unpackhi_ps(C, N);
  /* b[k] holds the first 16 bytes of beams k | k + 4, h[k] their last 16 */
  const __m256 b[4] = {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xEE), _mm256_shuffle_ps(t1, t3, 0x44),
                       _mm256_shuffle_ps(t1, t3, 0xEE)};
  const __m256 h[4] = {_mm256_shuffle_ps(t4, t6, 0x44), _mm256_shuffle_ps(t4, t6, 0xEE), _mm256_shuffle_ps(t5, t7, 0x44),
                       _mm256_shuffle_ps(t5, t7, 0xEE)};
  __m256 row[8];
  for (int k = 0; k < 4; k++) {
    row[k] = _mm256_permute2f128_ps(b[k], h[k], 0x20);
    row[k + 4] = _mm256_permute2f128_ps(b[k], h[k], 0x31);
  }
  if (n == 8 && R == 1) { /* the common whole packet: rows stored straight to the frame */
    for (int k = 0; k < 8; k++) _mm256_storeu_ps((float *)(ob + k), row[k]);
    return 1;
  }
  for (int e = 0; e < n; e++) {
    sensim_beam *d = ob + (size_t)e * R;
    _mm256_storeu_ps((float *)d, row[e]);
    for (int r = 1; r < R; r++) { /* dual mode's second return: missing, its own index */
      sensim_beam v = d[0];
      v.range = v.intensity = 0.0f;
      v.return_index = (uint8_t)r;
      v.class_id = 0;
      v.instance_id = 0;
      d[r] = v;
    }
  }
  return 1;
}
#endif

/* Two-way atmospheric transmission exp(-2 beta R) of each hit lane, 1
 * elsewhere or in clear air. */
static void fog(double beta, const sensim_rt_packet8 *pk, const int32_t ok[8], double atm[8]) {
  for (int e = 0; e < 8; e++) atm[e] = beta > 0 && ok[e] ? exp(-2.0 * beta * pk->tfar[e]) : 1.0;
}

void sensim__lidar_packet_beams(const sensim_lidar_scan *sc, const sensim_rt_packet8 *pk, int n, const float nx[8],
                                const float ny[8], const float nz[8], sensim_beam *ob, double azj, const double *tf,
                                int c0) {
  const sensim_lidar *l = sc->l;
  const int R = l->nret;
  const double minr = l->p.min_range;
  double rho[8], atm[8];
  int32_t ok[8]; /* all ones where the lane hit something at or beyond the minimum range */
#if defined(SENSIM_HAVE_AVX2_PATHS)
  const int avx2 = sensim__cpu_has_avx2();
#else
  const int avx2 = 0;
#endif
  const shared g = {l->fp.w[0], l->p_min, sc->qmax, sc->inv_qmax, azj, sc->win, l->az_off + c0, l->elev + c0, tf};
  lanes o;
  if (avx2) {
#if defined(SENSIM_HAVE_AVX2_PATHS)
    lookups8(sc->refl, pk, n, minr, rho, ok, &o);
    if (sc->groups) placements(sc->refl, pk, n, ok, rho, &o);
    fog(sc->beta, pk, ok, atm);
    middle8(pk, nx, ny, nz, rho, atm, ok, &g, &o);
    if (store8(&o, l->ring + c0, n, R, ob)) return;
#endif
  } else {
    lookups(sc->refl, pk, n, minr, rho, ok, &o);
    if (sc->groups) placements(sc->refl, pk, n, ok, rho, &o);
    fog(sc->beta, pk, ok, atm);
    middle(pk, nx, ny, nz, rho, atm, ok, &g, &o);
  }
  for (int e = 0; e < n; e++) {
    const int c = c0 + e;
    const double a = o.az[e] > -M_PI && o.az[e] <= M_PI ? o.az[e] : sensim__wrap_pi(o.az[e]);
    /* Built whole and stored at once; a missing return is range 0 and
     * ids 0. */
    const int has = o.range[e] > 0.0f;
    sensim_beam v = {o.range[e], o.inten[e], (float)a, o.elev[e], o.toff[e], l->ring[c], 0, 0,
                     (uint16_t)(has ? o.cls[e] : 0), 0, has ? o.inst[e] : 0};
    ob[(size_t)e * R] = v;
    for (int r = 1; r < R; r++) { /* one sub-ray, one hit: dual mode's second return is missing */
      v.range = v.intensity = 0.0f;
      v.return_index = (uint8_t)r;
      v.class_id = 0;
      v.instance_id = 0;
      ob[(size_t)e * R + r] = v;
    }
  }
}

#if defined(SENSIM_HAVE_AVX2_PATHS)
/* Row i of m times the eight table directions: ((mi0 dx + mi1 dy) + mi2 dz). */
__attribute__((target("avx2"))) static inline __m256 row8(const double *mi, __m256d x0, __m256d x1, __m256d y0,
                                                          __m256d y1, __m256d z0, __m256d z1) {
  const __m256d a = _mm256_set1_pd(mi[0]), b = _mm256_set1_pd(mi[1]), c = _mm256_set1_pd(mi[2]);
  const __m256d lo = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(a, x0), _mm256_mul_pd(b, y0)), _mm256_mul_pd(c, z0));
  const __m256d hi = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(a, x1), _mm256_mul_pd(b, y1)), _mm256_mul_pd(c, z1));
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi), 1);
}

__attribute__((target("avx2"))) static void directions8_avx2(const double m[9], const float *dx, const float *dy,
                                                             const float *dz, sensim_rt_packet8 *pk) {
  const __m256 X = _mm256_loadu_ps(dx), Y = _mm256_loadu_ps(dy), Z = _mm256_loadu_ps(dz);
  const __m256d x0 = _mm256_cvtps_pd(_mm256_castps256_ps128(X)), x1 = _mm256_cvtps_pd(_mm256_extractf128_ps(X, 1));
  const __m256d y0 = _mm256_cvtps_pd(_mm256_castps256_ps128(Y)), y1 = _mm256_cvtps_pd(_mm256_extractf128_ps(Y, 1));
  const __m256d z0 = _mm256_cvtps_pd(_mm256_castps256_ps128(Z)), z1 = _mm256_cvtps_pd(_mm256_extractf128_ps(Z, 1));
  _mm256_store_ps(pk->dir_x, row8(m, x0, x1, y0, y1, z0, z1));
  _mm256_store_ps(pk->dir_y, row8(m + 3, x0, x1, y0, y1, z0, z1));
  _mm256_store_ps(pk->dir_z, row8(m + 6, x0, x1, y0, y1, z0, z1));
}
#endif

void sensim__lidar_directions8(const double m[9], const float *dx, const float *dy, const float *dz,
                               sensim_rt_packet8 *pk) {
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (sensim__cpu_has_avx2()) {
    directions8_avx2(m, dx, dy, dz, pk);
    return;
  }
#endif
  for (int e = 0; e < 8; e++) {
    pk->dir_x[e] = (float)(m[0] * dx[e] + m[1] * dy[e] + m[2] * dz[e]);
    pk->dir_y[e] = (float)(m[3] * dx[e] + m[4] * dy[e] + m[5] * dz[e]);
    pk->dir_z[e] = (float)(m[6] * dx[e] + m[7] * dy[e] + m[8] * dz[e]);
  }
}
