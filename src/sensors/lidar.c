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

void *sensim__lidar_scratch_take(sensim_lidar *l) {
  void *b = sensim__stash_take(&l->scratch);
  return b ? b : malloc(sensim__lidar_band_scratch(l));
}

void sensim__lidar_scratch_give(sensim_lidar *l, void *block) {
  if (!sensim__stash_give(&l->scratch, block)) free(block);
}

static void lidar_destroy(void *impl) {
  sensim_lidar *l = impl;
  if (!l) return;
  sensim__lidar_footprint_free(&l->fp);
  sensim__stash_destroy(&l->scratch, free);
  free(l->dir0);
  free(l->col_az);
  free(l->dsoa);
  free(l);
}

static double column_azimuth(const sensim_lidar *l, int j) {
  double step = l->p.hfov * j / l->p.columns;
  return l->p.start_azimuth + (l->p.clockwise ? -step : step);
}

static sensim_status lidar_generate(sensim_capture_ctx ctx, sensim_frame *f) {
  const sensim_lidar *l = ctx.impl;
  const int C = l->p.channels, N = l->p.columns, R = l->nret;
  const sensim_snapshot *snap = ctx.snap;
  sensim_lidar_scan sc;
  sc.l = l;
  sc.win = ctx.window;
  sc.t0 = ctx.t_capture - sc.win;
  sc.qmax = (double)((1u << l->p.intensity_bits) - 1u);
  sc.inv_qmax = 1.0 / sc.qmax;
  sc.tfar = (float)l->p.max_range;
  sc.key = ctx.key;
  sc.groups = 0;
  /* The world's weather: its fog unless the lidar has its own, plus rain
   * and snow, on top of the lidar's clear-air extinction (docs/weather.md). */
  sc.beta = l->p.extinction + sensim__weather_beta(&snap->params.weather, l->p.fog_visibility);
  sensim_lidar_wx *wx = NULL;
  /* Every beam is written by the columns below: no zeroing first. */
  sensim_status rc = sensim__frame_alloc_unset(f, SENSIM_PAYLOAD_BEAMS, (uint32_t)((size_t)N * C * R), 1);
  if (rc) return rc;
  f->returns = (uint32_t)R;
  sc.out = f->data;
  /* Scratch from the capture's frame pool (this thread's), given back below. */
  sensim_lidar_refl *refl = sensim__frame_buffer((snap->nbodies ? snap->nbodies : 1) * sizeof *refl, 0);
  sensim_rt_view *view = NULL;
  sensim_pose_table poses = {0, 0, 0, NULL};
  sensim_lidar_band *bands = NULL;
  size_t nb = 0;
  if (!refl) {
    rc = sensim__fail(SENSIM_ENOMEM, "out of memory for a lidar scan");
    goto done;
  }
  for (size_t i = 0; i < snap->nbodies; i++) { /* one load per hit instead of three */
    const sensim_mesh *m = snap->bodies[i].mesh;
    refl[i].tri = m ? m->tri_reflectance : NULL;
    refl[i].rho = m ? m->material.reflectance : 0.0;
    refl[i].class_id = snap->bodies[i].class_id;
    refl[i].instance_id = snap->bodies[i].instance_id;
    refl[i].group = m ? snap->bodies[i].group : NULL;
    sc.groups |= refl[i].group != NULL;
  }
  sc.refl = refl;
  if ((rc = sensim__lidar_wx_init(l, &snap->params.weather, sc.beta, &wx))) goto done;
  sc.wx = wx;
  if ((rc = sensim__traced_view(&ctx, &view))) goto done;
  sc.view = view;
  int fixed = sc.win <= 0 || sensim__ctx_fixed(&ctx);
  /* One table entry per column keeps interpolation error far below the
   * float precision of a point (nlerp over one column step). */
  if ((rc = sensim__pose_table_init(&poses, &ctx, sc.t0, ctx.t_capture, fixed ? 1 : N + 1))) goto done;
  sc.poses = &poses;
  f->trajectory = sensim__frame_buffer((size_t)poses.n * sizeof *f->trajectory, 0);
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
  int urgent = ctx.lag * ctx.rate < 1.0;
  nb = sensim__fork_band_count(ctx.fork, (size_t)N, urgent);
  bands = sensim__frame_buffer(nb * sizeof *bands, 1);
  if (!bands) {
    rc = sensim__fail(SENSIM_ENOMEM, "out of memory for %zu lidar bands", nb);
    goto done;
  }
  for (size_t i = 0; i < nb; i++) {
    bands[i].sc = &sc;
    if (!(bands[i].scratch = sensim__lidar_scratch_take((sensim_lidar *)l))) {
      rc = sensim__fail(SENSIM_ENOMEM, "out of memory for a lidar column");
      goto done;
    }
  }
  rc = sensim__fork_run_bands(ctx.fork, (size_t)N, bands, nb, sizeof *bands, sensim__lidar_columns_run);
done:
  sensim__pose_table_free(&poses);
  sensim__rt_view_destroy(view);
  if (bands)
    for (size_t i = 0; i < nb; i++)
      if (bands[i].scratch) sensim__lidar_scratch_give((sensim_lidar *)l, bands[i].scratch);
  sensim__frame_buffer_free(bands);
  sensim__frame_buffer_free(wx);
  sensim__frame_buffer_free(refl);
  return rc;
}

static double lidar_default_window(const void *impl, double rate) {
  (void)impl;
  return 1.0 / rate;
}

static double lidar_reach(const void *impl) { return ((const sensim_lidar *)impl)->p.max_range; }

static const sensim_sensor_kind lidar_kind = {
    .name = "lidar",
    .raw_type = SENSIM_PAYLOAD_BEAMS,
    .needs_geometry = 1,
    .default_window = lidar_default_window,
    .generate = lidar_generate,
    .destroy = lidar_destroy,
    .prepare = sensim__traced_prepare,
    .release_aux = sensim__traced_release,
    .reach = lidar_reach,
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
  if (p->columns < 1 || p->columns > SENSIM_LIDAR_MAX_COLUMNS)
    return sensim__fail(SENSIM_EINVAL, "lidar columns %d must be in [1, %d]", p->columns,
                        SENSIM_LIDAR_MAX_COLUMNS);
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
  /* A scan of columns x channels x returns beams (up to 5.1e8), each a
   * sensim_beam, with its "points" twin of the same count. */
  double beams = (double)p->columns * p->channels * (p->returns == SENSIM_RETURN_DUAL ? 2 : 1);
  char what[96];
  snprintf(what, sizeof what, "a lidar scan of %d columns x %d channels", p->columns, p->channels);
  return sensim__check_bytes(beams * (sizeof(sensim_beam) + sizeof(sensim_point)), what);
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
  sensim__stash_init(&l->scratch, SENSIM_STASH_MAX);
  if ((rc = sensim__lidar_footprint_init(lp, &l->fp))) {
    sensim__stash_destroy(&l->scratch, free);
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
