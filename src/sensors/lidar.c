/* sensors/lidar.c: the lidar sensor: parameters, validation, and the
 * generator that fires every beam at its own instant, traces its sub-rays
 * and turns their hits into returns (sensors/lidar_beam.c). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensors/lidar_internal.h"
#include "sensors/shading.h"

void sensim_lidar_params_init(sensim_lidar_params *p) {
  memset(p, 0, sizeof *p);
  p->pattern = SENSIM_LIDAR_SPINNING;
  p->channels = 16;
  p->elev_min = -15.0 * M_PI / 180.0;
  p->elev_max = 15.0 * M_PI / 180.0;
  p->columns = 1800;
  p->hfov = 2.0 * M_PI;
  p->start_azimuth = -M_PI;
  p->min_range = 0.1;
  p->max_range = 100.0;
  p->shape = SENSIM_BEAM_CIRCULAR;
  p->subrays = 1;
  p->returns = SENSIM_RETURN_STRONGEST;
  p->range_resolution = 0.1;
  p->detection_range = 100.0;
  p->intensity_bits = 8;
}

static void lidar_destroy(void *impl) {
  sensim_lidar *l = impl;
  if (!l) return;
  sensim__lidar_footprint_free(&l->fp);
  free(l->dir0);
  free(l->col_az);
  free(l->dsoa);
  free(l);
}

/* Firing time of channel c in column j, relative to the window's start. */
static double fire_time(const sensim_lidar *l, double win, int j, int c) {
  const int C = l->p.channels, N = l->p.columns;
  if (l->p.pattern == SENSIM_LIDAR_GRID) return win * ((double)c * N + j) / ((double)C * N) + l->fire_off[c];
  return win * j / N + l->fire_off[c];
}

static double column_azimuth(const sensim_lidar *l, int j) {
  double step = l->p.hfov * j / l->p.columns;
  return l->p.start_azimuth + (l->p.clockwise ? -step : step);
}

/* Wrap to (-pi, pi]; column azimuths and offsets stay within a few turns,
 * so a loop is cheaper than fmod. */
static double wrap_pi(double a) {
  while (a > M_PI) a -= 2.0 * M_PI;
  while (a <= -M_PI) a += 2.0 * M_PI;
  return a;
}

/* Row-major rotation matrix of the sensor's attitude q composed with the
 * column's turn about the sensor's +Z: R(q) Rz(az), az given by its cosine
 * and sine (Hamilton quaternion to matrix, Shoemake, SIGGRAPH 1985). Equal
 * to q_rotate(q, Rz(az) v) up to double rounding (1e-16), far below the
 * float the rays are traced in. */
static void column_matrix(sensim_quat q, double ca, double sa, double m[9]) {
  double w = q.w, x = q.x, y = q.y, z = q.z;
  double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                 2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                 2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
  for (int i = 0; i < 3; i++) {
    m[3 * i] = r[3 * i] * ca + r[3 * i + 1] * sa;
    m[3 * i + 1] = r[3 * i + 1] * ca - r[3 * i] * sa;
    m[3 * i + 2] = r[3 * i + 2];
  }
}

/* nearbyint(x) for x in [0, 2^52): adding 2^52 leaves no fraction bits,
 * so the sum is rounded at the units place in the default mode (to
 * nearest, ties to even) as nearbyint rounds; without a library call. */
static inline double round_units(double x) {
  const double big = 4503599627370496.0; /* 2^52 */
  return (x + big) - big;
}

/* A body's lidar reflectance: per triangle, or its material's. */
typedef struct body_refl {
  const float *tri; /* the mesh's tri_reflectance, or NULL */
  double rho;       /* the material's reflectance */
} body_refl;

/* One sub-ray's hit (lane i of a traced packet, n its world normal) as the
 * lidar equation sees it: P ~ w rho cos(theta) exp(-2 beta R) / R^2 for a
 * Lambertian target filling the sub-ray's footprint. Returns the
 * numerator w rho cos(theta) exp(-2 beta R) (0 for no hit); the caller
 * divides. */

static inline double measure(const sensim_lidar *l, const body_refl *refl, const sensim_rt_packet8 *pk, int i,
                             const float n[3], float w, sensim_lidar_hit *b) {
  b->range = b->power = b->intensity = 0.0f;
  if (pk->body[i] == ~0u || !(pk->tfar[i] >= l->p.min_range)) return 0.0;
  const body_refl *br = &refl[pk->body[i]];
  double rho = br->tri ? br->tri[pk->prim[i]] : br->rho;
  double cosi = fabs(n[0] * pk->dir_x[i] + n[1] * pk->dir_y[i] + n[2] * pk->dir_z[i]);
  if (cosi > 1.0) cosi = 1.0;
  double rr = pk->tfar[i];
  b->range = (float)rr;
  b->intensity = (float)(rho * cosi);
  double atm = l->beta > 0 ? exp(-2.0 * l->beta * rr) : 1.0;
  return w * rho * cosi * atm;
}

/* The beams of one packet of one-sub-ray channels (lane e is channel
 * c0 + e, its beam(s) at ob[e R ..]), written straight from the packet:
 * measure() and the detection test in three passes over the lanes (lookups, the
 * lidar equation, the beams) rather than one call per lane; one hit is
 * one return in every mode, if detected. */
static inline void one_subray_beams(const sensim_lidar *l, const body_refl *refl, const sensim_rt_packet8 *pk,
                                    int n, const float nx[8], const float ny[8], const float nz[8], sensim_beam *ob,
                                    double azj, const double *tf, double win, double qmax, double inv_qmax, int c0) {
  const int R = l->nret;
  const double w = l->fp.w[0], pmin = l->p_min, minr = l->p.min_range;
  double rho[8], atm[8], num[8];
  float rng[8], inten[8];
  int det[8], ok[8];
  for (int e = 0; e < 8; e++) {
    rho[e] = 0.0;
    atm[e] = 1.0;
    ok[e] = e < n && pk->body[e] != ~0u && pk->tfar[e] >= minr;
    if (!ok[e]) continue;
    const body_refl *br = &refl[pk->body[e]];
    rho[e] = br->tri ? br->tri[pk->prim[e]] : br->rho;
    if (l->beta > 0) atm[e] = exp(-2.0 * l->beta * pk->tfar[e]);
  }
  for (int e = 0; e < 8; e++) {
    /* measure(): the same operations in the same order. */
    double cosi = fabs(nx[e] * pk->dir_x[e] + ny[e] * pk->dir_y[e] + nz[e] * pk->dir_z[e]);
    cosi = cosi > 1.0 ? 1.0 : cosi;
    const double rr = pk->tfar[e];
    rng[e] = ok[e] ? (float)rr : 0.0f;
    inten[e] = (float)(rho[e] * cosi);
    num[e] = w * rho[e] * cosi * atm[e];
    /* Detection, (float)(num / rr^2) >= p_min, decided by multiplication
     * where the margin allows: the division and the float rounding move
     * the quotient by under 1e-7 relative, so outside a 1e-6 band around
     * the threshold the product comparison gives the same answer (1 above,
     * 0 below); inside it (-1) the division is made below. */
    const double lim = pmin * (rr * rr);
    const int hi = num[e] > lim * (1.0 + 1e-6), lo = num[e] < lim * (1.0 - 1e-6);
    det[e] = hi - (1 - hi - lo);
  }
  for (int e = 0; e < n; e++) {
    const int c = c0 + e;
    int nr = rng[e] > 0;
    if (nr && det[e] < 0) nr = (float)(num[e] / ((double)rng[e] * rng[e])) >= pmin;
    else if (nr) nr = det[e];
    const float az = (float)wrap_pi(azj + l->az_off[c]), el = (float)l->elev[c];
    const float toff = (float)(tf[e] - win);
    for (int r = 0; r < R; r++) {
      /* Built whole and stored at once; a missing return is range 0. */
      sensim_beam v = {0.0f, 0.0f, az, el, toff, l->ring[c], (uint8_t)r, 0};
      if (r < nr) {
        v.range = rng[e];
        /* Quantised to the sensor's intensity resolution. */
        double iq = inten[e] > 1.0f ? 1.0 : inten[e]; /* rho |cos| >= 0 */
        v.intensity = (float)(round_units(iq * qmax) * inv_qmax);
      }
      ob[(size_t)e * R + r] = v;
    }
  }
}

/* Where channel c fires from in one column: origin and the rotation taking
 * its table directions to the world (sensor attitude times the column's
 * turn). */
typedef struct firing {
  float org[3];
  double m[9];
} firing;

/* What every band of columns of one capture shares, read-only. */
typedef struct scan {
  const sensim_lidar *l;
  const body_refl *refl;
  sensim_rt_view *view;
  const sensim_pose_table *poses;
  sensim_beam *out;
  double win, t0, qmax, inv_qmax;
  float tfar;
  int still; /* no instance moves: ray times are irrelevant */
} scan;

/* A band of columns [j0, j1) traced by one pool job, with its own scratch
 * buffers; columns are independent, so the beams are the same however
 * the scan is banded. */
typedef struct col_band {
  const scan *sc;
  int j0, j1;
  sensim_status rc;
  char error[256];
} col_band;

/* With an AVX2 clone where the compiler can make one (chosen at load time):
 * the column's direction loop then runs four doubles per instruction. The
 * clone does the same IEEE operations (no FMA contraction in ISO C mode),
 * so both give the same beams. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
static void columns_run(void *arg) {
  col_band *band = arg;
  const scan *sc = band->sc;
  const sensim_lidar *l = sc->l;
  const int C = l->p.channels, N = l->p.columns, S = l->fp.n, R = l->nret;
  const size_t CS = (size_t)C * S;
  const double win = sc->win, t0 = sc->t0, qmax = sc->qmax, inv_qmax = sc->inv_qmax;
  const float tfar = sc->tfar;
  const body_refl *refl = sc->refl;
  sensim_rt_view *view = sc->view;
  const sensim_pose_table *poses = sc->poses;
  sensim_beam *out = sc->out;
  const int still = sc->still;
  /* One column's sub-ray measurements and firings. */
  sensim_lidar_hit *bh = malloc(CS * sizeof *bh);
  firing *fr = malloc((size_t)C * sizeof *fr);
  if (!bh || !fr) {
    band->rc = sensim__fail(SENSIM_ENOMEM, "out of memory for a lidar column");
    snprintf(band->error, sizeof band->error, "%s", sensim_last_error());
    free(bh);
    free(fr);
    return;
  }
  sensim_rt_packet8 pk;
  for (int i = 0; i < 8; i++) {
    pk.tnear[i] = 0.0f; /* traced from the sensor: a surface inside the blanking range still blocks the light
                           (it returns nothing the detector keeps) */
  }
  double tf[SENSIM_LIDAR_MAX_CHANNELS]; /* this column's firing times after the window's start, s */
  for (int j = band->j0; j < band->j1; j++) {
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
    double last_t = NAN, tabs[SENSIM_LIDAR_MAX_CHANNELS];
    float rtime[SENSIM_LIDAR_MAX_CHANNELS];
    int src[SENSIM_LIDAR_MAX_CHANNELS];
    for (int c = 0; c < C; c++) tabs[c] = t0 + tf[c];
    if (still) memset(rtime, 0, (size_t)C * sizeof *rtime);
    else sensim__rt_ray_times(view, tabs, rtime, (size_t)C);
    for (int c = 0; c < C; c++) {
      const double t = tabs[c];
      if (c > 0 && poses->n == 1) break; /* one firing serves the column */
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
        const double *m = fr[0].m;
        const float *dx = l->dsoa + i0, *dy = dx + CS, *dz = dy + CS;
        for (int e = 0; e < 8; e++) {
          pk.dir_x[e] = (float)(m[0] * dx[e] + m[1] * dy[e] + m[2] * dz[e]);
          pk.dir_y[e] = (float)(m[3] * dx[e] + m[4] * dy[e] + m[5] * dz[e]);
          pk.dir_z[e] = (float)(m[6] * dx[e] + m[7] * dy[e] + m[8] * dz[e]);
          pk.org_x[e] = fr[0].org[0];
          pk.org_y[e] = fr[0].org[1];
          pk.org_z[e] = fr[0].org[2];
          pk.tfar[e] = tfar;
        }
        for (int e = 0; e < n; e++) {
          pk.time[e] = rtime[c];
          if (++k == S) k = 0, c++;
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
      if (S == 1) { /* lane e is channel i0 + e: its beam is written here */
        one_subray_beams(l, refl, &pk, n, nx, ny, nz, &out[((size_t)j * C + i0) * R], azj, tf + i0, win, qmax,
                         inv_qmax, (int)i0);
        continue;
      }
      int kk = (int)(i0 % (size_t)S);
      for (int e = 0; e < n; e++) {
        const float nrm[3] = {nx[e], ny[e], nz[e]};
        sensim_lidar_hit *b = &bh[i0 + (size_t)e];
        double num = measure(l, refl, &pk, e, nrm, l->fp.w[kk], b);
        if (b->range > 0) {
          double rr = b->range;
          b->power = (float)(num / (rr * rr));
        }
        if (++kk == S) kk = 0;
      }
    }
    if (S == 1) continue;
    sensim_beam *ob = &out[(size_t)j * C * R];
    for (c = 0; c < C; c++, ob += R) {
      sensim_lidar_return ret[2];
      int nr = sensim__lidar_returns(l, &bh[(size_t)c * S], S, ret);
      const float az = (float)wrap_pi(azj + l->az_off[c]), el = (float)l->elev[c];
      const float toff = (float)(tf[c] - win);
      for (int r = 0; r < R; r++) {
        /* Built whole and stored at once; a missing return is range 0. */
        sensim_beam v = {0.0f, 0.0f, az, el, toff, l->ring[c], (uint8_t)r, 0};
        if (r < nr) {
          v.range = ret[r].range;
          /* Quantised to the sensor's intensity resolution. */
          double iq = ret[r].intensity > 1.0f ? 1.0 : ret[r].intensity; /* rho |cos| >= 0 */
          v.intensity = (float)(round_units(iq * qmax) * inv_qmax);
        }
        ob[r] = v;
      }
    }
  }
  free(bh);
  free(fr);
}

static sensim_status lidar_generate(const sensim_sensor *s, const sensim_capture *cap, sensim_frame *f) {
  const sensim_lidar *l = s->impl;
  const int C = l->p.channels, N = l->p.columns, R = l->nret;
  const sensim_snapshot *snap = cap->snap;
  scan sc;
  sc.l = l;
  sc.win = s->params.window;
  sc.t0 = cap->t_capture - sc.win;
  sc.qmax = (double)((1u << l->p.intensity_bits) - 1u);
  sc.inv_qmax = 1.0 / sc.qmax;
  sc.tfar = (float)l->p.max_range;
  sensim_status rc = sensim_frame_alloc(f, SENSIM_PAYLOAD_BEAMS, (uint32_t)((size_t)N * C * R), 1);
  if (rc) return rc;
  f->returns = (uint32_t)R;
  sc.out = f->data;
  body_refl *refl = malloc((snap->nbodies ? snap->nbodies : 1) * sizeof *refl);
  sensim_rt_view *view = NULL;
  sensim_pose_table poses = {0, 0, 0, NULL};
  col_band *bands = NULL;
  void **args = NULL;
  if (!refl) {
    rc = sensim__fail(SENSIM_ENOMEM, "out of memory for a lidar scan");
    goto done;
  }
  for (size_t i = 0; i < snap->nbodies; i++) { /* one load per hit instead of three */
    const sensim_mesh *m = snap->bodies[i].mesh;
    refl[i].tri = m ? m->tri_reflectance : NULL;
    refl[i].rho = m ? m->material.reflectance : 0.0;
  }
  sc.refl = refl;
  if ((rc = sensim__traced_view(cap, &view))) goto done;
  sc.view = view;
  int fixed = sc.win <= 0 || !s->params.body || s->params.body->is_static;
  /* One table entry per column keeps interpolation error far below the
   * float precision of a point (nlerp over one column step). */
  if ((rc = sensim__pose_table_init(&poses, s, snap, sc.t0, cap->t_capture, fixed ? 1 : N + 1))) goto done;
  sc.poses = &poses;
  f->trajectory = malloc((size_t)poses.n * sizeof *f->trajectory);
  if (!f->trajectory) {
    rc = sensim__fail(SENSIM_ENOMEM, "out of memory for the lidar trajectory");
    goto done;
  }
  memcpy(f->trajectory, poses.pose, (size_t)poses.n * sizeof *f->trajectory);
  f->ntraj = (uint32_t)poses.n;
  sc.still = sensim__rt_view_is_static(view);
  /* A scan due before the next one starts (lag under a period) is split
   * into bands of columns over the world's pool, a few per thread to
   * balance uneven columns, so every worker helps finish it before the
   * host needs it. A scan with more slack runs whole on one worker beside
   * the others: bands would only add hand-offs and cache traffic (the
   * OS1-128 bench at lag 3 periods ran 20 % slower on 2 threads banded). */
  int threads = sensim__pool_threads(s->world->pool);
  int urgent = s->params.lag * s->params.rate < 1.0;
  int nb = threads > 0 && urgent ? 4 * (threads + 1) : 1;
  if (nb > N) nb = N;
  bands = calloc((size_t)nb, sizeof *bands);
  args = calloc((size_t)nb, sizeof *args);
  if (!bands || !args) {
    rc = sensim__fail(SENSIM_ENOMEM, "out of memory for %d lidar bands", nb);
    goto done;
  }
  for (int i = 0; i < nb; i++) {
    bands[i].sc = &sc;
    bands[i].j0 = (int)((int64_t)N * i / nb);
    bands[i].j1 = (int)((int64_t)N * (i + 1) / nb);
    args[i] = &bands[i];
  }
  sensim__pool_run_all(s->world->pool, columns_run, args, (size_t)nb);
  for (int i = 0; i < nb && !rc; i++)
    if (bands[i].rc) rc = sensim__fail(bands[i].rc, "%s", bands[i].error);
done:
  sensim__pose_table_free(&poses);
  sensim__rt_view_destroy(view);
  free(bands);
  free(args);
  free(refl);
  return rc;
}

static double lidar_default_window(const void *impl, double rate) {
  (void)impl;
  return 1.0 / rate;
}

static const sensim_sensor_kind lidar_kind = {
    .name = "lidar",
    .raw_type = SENSIM_PAYLOAD_BEAMS,
    .needs_geometry = 1,
    .default_window = lidar_default_window,
    .generate = lidar_generate,
    .destroy = lidar_destroy,
    .prepare = sensim__traced_prepare,
    .release_aux = sensim__traced_release,
};

static sensim_status check_table(const double *t, int n, const char *name, double lo, double hi) {
  for (int c = 0; t && c < n; c++)
    if (!(t[c] >= lo && t[c] <= hi))
      return sensim__fail(SENSIM_EINVAL, "lidar %s[%d] = %g is outside [%g, %g]", name, c, t[c], lo, hi);
  return SENSIM_OK;
}

static sensim_status check(const sensim_lidar_params *p) {
  if (p->pattern != SENSIM_LIDAR_SPINNING && p->pattern != SENSIM_LIDAR_GRID)
    return sensim__fail(SENSIM_EINVAL, "lidar pattern %d is not spinning or grid", (int)p->pattern);
  if (p->channels < 1 || p->channels > SENSIM_LIDAR_MAX_CHANNELS)
    return sensim__fail(SENSIM_EINVAL, "lidar channels %d must be in [1, %d] (an empty beam table)", p->channels,
                        SENSIM_LIDAR_MAX_CHANNELS);
  if (p->columns < 1 || p->columns > 1000000)
    return sensim__fail(SENSIM_EINVAL, "lidar columns %d must be in [1, 1e6]", p->columns);
  if (!(p->hfov > 0 && p->hfov <= 2.0 * M_PI + 1e-12))
    return sensim__fail(SENSIM_EINVAL, "lidar hfov %g rad must be in (0, 2 pi]", p->hfov);
  if (!isfinite(p->start_azimuth)) return sensim__fail(SENSIM_EINVAL, "lidar start_azimuth must be finite");
  if (!(p->min_range >= 0 && p->max_range > p->min_range && isfinite(p->max_range)))
    return sensim__fail(SENSIM_EINVAL, "lidar range [%g, %g] m must satisfy 0 <= min < max < inf", p->min_range,
                        p->max_range);
  sensim_status rc;
  if ((rc = check_table(p->elevations, p->channels, "elevations", -M_PI / 2 + 1e-9, M_PI / 2 - 1e-9))) return rc;
  if ((rc = check_table(p->azimuth_offsets, p->channels, "azimuth_offsets", -M_PI, M_PI))) return rc;
  if ((rc = check_table(p->firing_offsets, p->channels, "firing_offsets", 0.0, 1.0))) return rc;
  if (!p->elevations) {
    if (!(p->elev_min > -M_PI / 2 && p->elev_max < M_PI / 2 && p->elev_min <= p->elev_max))
      return sensim__fail(SENSIM_EINVAL, "lidar elevation range [%g, %g] rad must lie in (-pi/2, pi/2)",
                          p->elev_min, p->elev_max);
    if (p->channels > 1 && !(p->elev_max > p->elev_min))
      return sensim__fail(SENSIM_EINVAL, "lidar with %d channels needs elev_max > elev_min", p->channels);
  }
  if (!(p->div_h >= 0 && p->div_h < 0.2 && p->div_v >= 0 && p->div_v < 0.2))
    return sensim__fail(SENSIM_EINVAL, "lidar divergence (%g, %g) rad must be in [0, 0.2)", p->div_h, p->div_v);
  if (p->returns < SENSIM_RETURN_STRONGEST || p->returns > SENSIM_RETURN_DUAL)
    return sensim__fail(SENSIM_EINVAL, "lidar return mode %d is unknown", (int)p->returns);
  if (!(p->range_resolution > 0 && isfinite(p->range_resolution)))
    return sensim__fail(SENSIM_EINVAL, "lidar range_resolution %g m must be > 0", p->range_resolution);
  if (!(p->detection_range > 0 && isfinite(p->detection_range)))
    return sensim__fail(SENSIM_EINVAL, "lidar detection_range %g m must be > 0", p->detection_range);
  if (p->intensity_bits < 1 || p->intensity_bits > 16)
    return sensim__fail(SENSIM_EINVAL, "lidar intensity_bits %d must be in [1, 16]", p->intensity_bits);
  if (!(p->extinction >= 0 && isfinite(p->extinction)))
    return sensim__fail(SENSIM_EINVAL, "lidar extinction %g 1/m must be finite and >= 0", p->extinction);
  if (!(p->fog_visibility >= 0 && isfinite(p->fog_visibility)))
    return sensim__fail(SENSIM_EINVAL, "lidar fog_visibility %g m must be finite and >= 0", p->fog_visibility);
  return SENSIM_OK;
}

sensim_status sensim_lidar_create(sensim_world *w, const sensim_sensor_params *sp, const sensim_lidar_params *lp,
                                  sensim_sensor **out) {
  if (!lp) return sensim__fail(SENSIM_EINVAL, "sensim_lidar_create: lidar params are NULL");
  sensim_status rc = check(lp);
  if (rc) return rc;
  if (!sp) return sensim__fail(SENSIM_EINVAL, "sensim_lidar_create: sensor params are NULL");
  /* The window the sensor will have (sensor.c resolves the default the
   * same way); firing delays must fit inside a column or grid cell. */
  double win = sp->window >= 0 ? sp->window : (sp->rate > 0 ? 1.0 / sp->rate : 0.0);
  double cell = lp->pattern == SENSIM_LIDAR_GRID ? win / ((double)lp->channels * lp->columns) : win / lp->columns;
  for (int c = 0; lp->firing_offsets && c < lp->channels; c++)
    if (win > 0 && !(lp->firing_offsets[c] < cell))
      return sensim__fail(SENSIM_EINVAL,
                          "lidar firing_offsets[%d] = %g s does not fit in a %s of %g s: %d columns at this rate "
                          "are finer than the firing table allows",
                          c, lp->firing_offsets[c], lp->pattern == SENSIM_LIDAR_GRID ? "cell" : "column", cell,
                          lp->columns);
  sensim_lidar *l = calloc(1, sizeof *l);
  if (!l) return sensim__fail(SENSIM_ENOMEM, "out of memory for a lidar");
  if ((rc = sensim__lidar_footprint_init(lp, &l->fp))) {
    free(l);
    return rc;
  }
  l->p = *lp;
  l->p.elevations = l->p.azimuth_offsets = l->p.firing_offsets = NULL; /* copied below */
  /* Into [-pi, pi): every beam azimuth then lies within a few turns of 0. */
  l->p.start_azimuth = fmod(lp->start_azimuth, 2.0 * M_PI);
  if (l->p.start_azimuth >= M_PI) l->p.start_azimuth -= 2.0 * M_PI;
  if (l->p.start_azimuth < -M_PI) l->p.start_azimuth += 2.0 * M_PI;
  const int C = lp->channels;
  for (int c = 0; c < C; c++) {
    l->elev[c] = lp->elevations ? lp->elevations[c]
                 : C == 1       ? lp->elev_min
                                : lp->elev_min + (lp->elev_max - lp->elev_min) * c / (C - 1);
    l->az_off[c] = lp->azimuth_offsets ? lp->azimuth_offsets[c] : 0.0;
    l->fire_off[c] = lp->firing_offsets ? lp->firing_offsets[c] : 0.0;
    /* A spinning head keeps turning while a column's channels fire one
     * after another (VLP-16 manual, sec. 9.5): each channel's azimuth
     * trails the column's by the angle turned during its delay. */
    if (lp->pattern == SENSIM_LIDAR_SPINNING && win > 0) {
      double turned = lp->hfov / win * l->fire_off[c];
      l->az_off[c] += lp->clockwise ? -turned : turned;
    }
  }
  /* Ring: the channel's rank by elevation, ties kept in firing order (the
   * "ring" field of common lidar drivers). */
  for (int c = 0; c < C; c++) {
    int rank = 0;
    for (int d = 0; d < C; d++) rank += l->elev[d] < l->elev[c] || (l->elev[d] == l->elev[c] && d < c);
    l->ring[c] = (uint16_t)rank;
  }
  const int S = l->fp.n;
  l->dir0 = malloc((size_t)C * S * sizeof *l->dir0);
  l->col_az = malloc((size_t)lp->columns * 3 * sizeof *l->col_az);
  /* Padded by 8 so a column's last packet reads whole lanes. */
  l->dsoa = calloc((size_t)C * S * 3 + 8, sizeof *l->dsoa);
  if (!l->dir0 || !l->col_az || !l->dsoa) {
    lidar_destroy(l);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for a lidar's beam table");
  }
  /* Sub-ray offsets are angles in the beam's own frame (axis f, horizontal
   * h towards increasing azimuth, vertical u), so a footprint keeps its
   * width at any elevation. */
  for (int c = 0; c < C; c++) {
    double a = l->az_off[c], e = l->elev[c];
    sensim_vec3 f = v3(cos(e) * cos(a), cos(e) * sin(a), sin(e));
    sensim_vec3 h = v3(-sin(a), cos(a), 0.0);
    sensim_vec3 u = v3(-sin(e) * cos(a), -sin(e) * sin(a), cos(e));
    for (int k = 0; k < S; k++) {
      sensim_vec3 d = v3_normalize(v3_add(f, v3_add(v3_scale(h, tan(l->fp.dh[k])), v3_scale(u, tan(l->fp.dv[k])))));
      float *o = l->dir0[(size_t)c * S + k];
      o[0] = (float)d.x;
      o[1] = (float)d.y;
      o[2] = (float)d.z;
      for (int a3 = 0; a3 < 3; a3++) l->dsoa[(size_t)a3 * C * S + (size_t)c * S + k] = o[a3];
    }
  }
  l->col_cs = l->col_az + lp->columns;
  for (int j = 0; j < lp->columns; j++) {
    double a = column_azimuth(l, j);
    l->col_az[j] = a;
    l->col_cs[2 * j] = cos(a);
    l->col_cs[2 * j + 1] = sin(a);
  }
  l->nret = lp->returns == SENSIM_RETURN_DUAL ? 2 : 1;
  l->beta = lp->extinction + sensim__fog_beta(lp->fog_visibility);
  /* Detection threshold: the power a full beam returns from a
   * reflectance-0.8 target at normal incidence at detection_range in clear
   * air (the datasheet figure); fog and extinction then shorten the range. */
  double rd = lp->detection_range;
  l->p_min = 0.8 / (rd * rd);
  return sensim__sensor_create(w, sp, &lidar_kind, l, out);
}
