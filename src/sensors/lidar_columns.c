/* sensors/lidar_columns.c: tracing a lidar scan's columns: each beam
 * fired at its own instant from the sensor's pose then, its sub-rays traced
 * in packets of 8, their hits turned into returns and beams. A band of
 * columns is one pool job (sensors/lidar.c splits the scan). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensors/lidar_internal.h"

/* Firing time of channel c in column j, relative to the window's start. */
static double fire_time(const sensim_lidar *l, double win, int j, int c) {
  const int C = l->p.channels, N = l->p.columns;
  if (l->p.pattern == SENSIM_LIDAR_GRID) return win * ((double)c * N + j) / ((double)C * N) + l->fire_off[c];
  return win * j / N + l->fire_off[c];
}


/* Row-major rotation matrix of the sensor's attitude q composed with the
 * column's turn about the sensor's +Z: R(q) Rz(az), az given by its cosine
 * and sine (Hamilton quaternion to matrix, Shoemake, SIGGRAPH 1985). Equal
 * to q_rotate(q, Rz(az) v) up to double rounding (1e-16), far below the
 * float the rays are traced in. */
static void column_matrix(sensim_quat q, double ca, double sa, double m[9]) {
  double r[9];
  q_matrix(q, r);
  for (int i = 0; i < 3; i++) {
    m[3 * i] = r[3 * i] * ca + r[3 * i + 1] * sa;
    m[3 * i + 1] = r[3 * i + 1] * ca - r[3 * i] * sa;
    m[3 * i + 2] = r[3 * i + 2];
  }
}

/* One sub-ray's hit (lane i of a traced packet, n its world normal) as the
 * lidar equation sees it: P ~ w rho cos(theta) exp(-2 beta R) / R^2 for a
 * Lambertian target filling the sub-ray's footprint. Returns the
 * numerator w rho cos(theta) exp(-2 beta R) (0 for no hit); the caller
 * divides. */

static inline double measure(const sensim_lidar *l, double beta, const sensim_lidar_refl *refl,
                             const sensim_rt_packet8 *pk, int i, const float n[3], float w, sensim_lidar_hit *b) {
  b->range = b->power = b->intensity = 0.0f;
  b->body = ~0u;
  b->elem = 0;
  if (pk->body[i] == ~0u || !(pk->tfar[i] >= l->p.min_range)) return 0.0;
  b->body = pk->body[i];
  b->elem = pk->geom[i];
  const sensim_lidar_refl *br = &refl[pk->body[i]];
  double rho = br->tri ? br->tri[pk->prim[i]] : br->rho;
  uint32_t cls, inst;
  rho = sensim__lidar_placement(br, b->elem, rho, &cls, &inst);
  double cosi = fabs(n[0] * pk->dir_x[i] + n[1] * pk->dir_y[i] + n[2] * pk->dir_z[i]);
  if (cosi > 1.0) cosi = 1.0;
  double rr = pk->tfar[i];
  b->range = (float)rr;
  b->intensity = (float)(rho * cosi);
  double atm = beta > 0 ? exp(-2.0 * beta * rr) : 1.0;
  return w * rho * cosi * atm;
}

/* Where channel c fires from in one column: origin and the rotation taking
 * its table directions to the world (sensor attitude times the column's
 * turn). */
typedef struct firing {
  float org[3];
  double m[9];
} firing;

/* The firings follow the hits, at the next multiple of their alignment. */
static size_t firings_at(size_t hits) {
  const size_t a = _Alignof(firing), b = hits * sizeof(sensim_lidar_hit);
  return (b + a - 1) / a * a;
}



/* With an AVX2 clone where the compiler can make one (chosen at load time):
 * the column's direction loop then runs four doubles per instruction. The
 * clone does the same IEEE operations (no FMA contraction in ISO C mode),
 * so both give the same beams. The clones are static: GCC 12 exports the
 * dispatcher of an extern target_clones function whatever its visibility,
 * and libsensim.so exports nothing but the API. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
static void columns_run(void *arg) {
  sensim_lidar_band *band = arg;
  const sensim_lidar_scan *sc = band->sc;
  const sensim_lidar *l = sc->l;
  const int C = l->p.channels, N = l->p.columns, S = l->fp.n, R = l->nret;
  const size_t CS = (size_t)C * S;
  const double win = sc->win, t0 = sc->t0, qmax = sc->qmax, inv_qmax = sc->inv_qmax;
  const float tfar = sc->tfar;
  const sensim_lidar_refl *refl = sc->refl;
  sensim_rt_view *view = sc->view;
  const sensim_pose_table *poses = sc->poses;
  sensim_beam *out = sc->out;
  const int still = sc->still;
  /* One-sub-ray beams are measured lane by lane (lidar_packet.c) unless
   * particles join their hits. */
  const int packet = S == 1 && !sc->wx;
  /* One column's sub-ray measurements and firings, in the band's scratch. */
  sensim_lidar_hit *bh = band->scratch;
  firing *fr = (firing *)((char *)band->scratch + firings_at(CS));
  sensim_rt_packet8 pk;
  for (int i = 0; i < 8; i++) {
    pk.tnear[i] = 0.0f; /* traced from the sensor: a surface inside the blanking range still blocks the light
                           (it returns nothing the detector keeps) */
  }
  /* This column's firing times after the window's start (s), absolute (s)
   * and as ray times; zero past the last channel, where a column's last
   * packet reads whole lanes. */
  double tf[SENSIM_LIDAR_MAX_CHANNELS] = {0}, tabs[SENSIM_LIDAR_MAX_CHANNELS];
  float rtime[SENSIM_LIDAR_MAX_CHANNELS] = {0};
  /* Ray times matter if something moves; absolute times if the sensor
   * does (its pose per firing) or something does. */
  const int need_t = !still || poses->n != 1;
  for (int j = (int)band->b.lo; j < (int)band->b.hi; j++) {
    const double azj = l->col_az[j], ca = l->col_cs[2 * j], sa = l->col_cs[2 * j + 1];
    if (l->p.pattern == SENSIM_LIDAR_GRID) {
      for (int c = 0; c < C; c++) tf[c] = fire_time(l, win, j, c);
    } else { /* fire_time's spinning case with the column's part shared */
      const double tj = win * j / N;
      for (int c = 0; c < C; c++) tf[c] = tj + l->fire_off[c];
    }
    /* The column's firings; channels that fire at one instant (a flash
     * column, or a sensor that does not move) share one pose: src[c] is
     * the firing whose pose channel c uses. */
    double last_t = NAN;
    int src[SENSIM_LIDAR_MAX_CHANNELS];
    if (need_t)
      for (int c = 0; c < C; c++) tabs[c] = t0 + tf[c];
    if (!still) sensim__rt_ray_times(view, tabs, rtime, (size_t)C);
    for (int c = 0; c < C; c++) {
      if (c > 0 && poses->n == 1) break; /* one firing serves the column */
      const double t = need_t ? tabs[c] : t0 + tf[c];
      if (c > 0 && t == last_t) {
        src[c] = src[c - 1];
        continue;
      }
      src[c] = c;
      last_t = t;
      sensim_pose pose = poses->n == 1 ? poses->pose[0] : sensim__pose_table_at(poses, t);
      fr[c].org[0] = (float)pose.pos.x;
      fr[c].org[1] = (float)pose.pos.y;
      fr[c].org[2] = (float)pose.pos.z;
      column_matrix(pose.rot, ca, sa, fr[c].m);
    }
    /* Sub-ray i = c S + k of the column, traced in coherent packets of 8. */
    int c = 0, k = 0;
    for (size_t i0 = 0; i0 < CS; i0 += 8) {
      const int n = CS - i0 < 8 ? (int)(CS - i0) : 8;
      if (poses->n == 1) { /* one pose for the column: a loop the compiler vectorises */
        const float *dx = l->dsoa + i0;
        sensim__lidar_directions8(fr[0].m, dx, dx + CS, dx + 2 * CS, &pk);
        for (int e = 0; e < 8; e++) {
          pk.org_x[e] = fr[0].org[0];
          pk.org_y[e] = fr[0].org[1];
          pk.org_z[e] = fr[0].org[2];
          pk.tfar[e] = tfar;
        }
        if (S == 1) {
          memcpy(pk.time, rtime + i0, sizeof pk.time); /* lane e is channel i0 + e */
        } else {
          for (int e = 0; e < n; e++) {
            pk.time[e] = rtime[c];
            if (++k == S) k = 0, c++;
          }
        }
      } else {
        for (int e = 0; e < n; e++) {
          const firing *q = &fr[src[c]];
          const float *d0 = l->dir0[i0 + (size_t)e];
          pk.org_x[e] = q->org[0];
          pk.org_y[e] = q->org[1];
          pk.org_z[e] = q->org[2];
          pk.dir_x[e] = (float)(q->m[0] * d0[0] + q->m[1] * d0[1] + q->m[2] * d0[2]);
          pk.dir_y[e] = (float)(q->m[3] * d0[0] + q->m[4] * d0[1] + q->m[5] * d0[2]);
          pk.dir_z[e] = (float)(q->m[6] * d0[0] + q->m[7] * d0[1] + q->m[8] * d0[2]);
          pk.time[e] = rtime[c];
          pk.tfar[e] = tfar;
          if (++k == S) k = 0, c++;
        }
      }
      sensim__rt_intersect8(view, &pk, n);
      float nx[8], ny[8], nz[8];
      sensim__rt_packet_normals(view, &pk, n, nx, ny, nz);
      if (packet) { /* lane e is channel i0 + e: its beam is written here */
        sensim__lidar_packet_beams(sc, &pk, n, nx, ny, nz, &out[((size_t)j * C + i0) * R], azj, tf + i0, (int)i0);
        continue;
      }
      int kk = (int)(i0 % (size_t)S);
      for (int e = 0; e < n; e++) {
        const float nrm[3] = {nx[e], ny[e], nz[e]};
        sensim_lidar_hit *b = &bh[i0 + (size_t)e];
        double num = measure(l, sc->beta, refl, &pk, e, nrm, l->fp.w[kk], b);
        if (b->range > 0) {
          double rr = b->range;
          b->power = (float)(num / (rr * rr));
        }
        if (++kk == S) kk = 0;
      }
    }
    if (packet) continue;
    sensim_beam *ob = &out[(size_t)j * C * R];
    for (c = 0; c < C; c++, ob += R) {
      sensim_lidar_return ret[2];
      int nr = sc->wx ? sensim__lidar_wx_returns(sc, j, c, &bh[(size_t)c * S], ret)
                      : sensim__lidar_returns(l, &bh[(size_t)c * S], S, ret);
      const float az = (float)sensim__wrap_pi(azj + l->az_off[c]), el = (float)l->elev[c];
      const float toff = (float)(tf[c] - win);
      for (int r = 0; r < R; r++) {
        /* Built whole and stored at once; a missing return is range 0,
         * class 0, instance 0. */
        sensim_beam v = {0.0f, 0.0f, az, el, toff, l->ring[c], (uint8_t)r, 0, 0, 0, 0};
        if (r < nr) {
          v.range = ret[r].range;
          /* Quantised to the sensor's intensity resolution. */
          v.intensity = sensim__lidar_quantise(ret[r].intensity, qmax, inv_qmax);
          /* A surface return names its strongest hit's body
           * (sensors/lidar_beam.c); a weather particle's names none (~0u):
           * class 0, instance 0, as a miss. */
          if (ret[r].body != ~0u) {
            uint32_t cls, inst;
            (void)sensim__lidar_placement(&refl[ret[r].body], ret[r].elem, 0.0, &cls, &inst);
            v.class_id = (uint16_t)cls;
            v.instance_id = inst;
          }
        }
        ob[r] = v;
      }
    }
  }
}

void sensim__lidar_columns_run(void *arg) { columns_run(arg); }

size_t sensim__lidar_band_scratch(const sensim_lidar *l) {
  return firings_at((size_t)l->p.channels * l->fp.n) + (size_t)l->p.channels * sizeof(firing);
}
