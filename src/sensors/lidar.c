/* sensors/lidar.c: the basic spinning lidar: a channel elevation table, one
 * column of beams per azimuth step, each column fired at its own time in
 * the scan, intensity = reflectance x |cos(incidence)|. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensim/lidar.h"
#include "sensors/traced.h"

typedef struct lidar {
  sensim_lidar_params p;
  double elev[SENSIM_LIDAR_MAX_CHANNELS]; /* rad, ascending */
  double cos_el[SENSIM_LIDAR_MAX_CHANNELS], sin_el[SENSIM_LIDAR_MAX_CHANNELS];
  double *cos_az, *sin_az;                /* per column */
} lidar;

void sensim_lidar_params_init(sensim_lidar_params *p) {
  memset(p, 0, sizeof *p);
  p->channels = 16;
  p->elev_min = -15.0 * M_PI / 180.0;
  p->elev_max = 15.0 * M_PI / 180.0;
  p->columns = 1800;
  p->hfov = 2.0 * M_PI;
  p->start_azimuth = -M_PI;
  p->min_range = 0.1;
  p->max_range = 100.0;
}

static void lidar_destroy(void *impl) {
  lidar *l = impl;
  if (!l) return;
  free(l->cos_az);
  free(l->sin_az);
  free(l);
}

static double column_azimuth(const sensim_lidar_params *p, int j) {
  return p->start_azimuth + p->hfov * j / p->columns;
}

static sensim_status lidar_generate(const sensim_sensor *s, const sensim_capture *cap, sensim_frame *f) {
  const lidar *l = s->impl;
  const int C = l->p.channels, N = l->p.columns;
  sensim_status rc = sensim_frame_alloc(f, SENSIM_PAYLOAD_BEAMS, (uint32_t)((size_t)C * N), 1);
  if (rc) return rc;
  sensim_rt_ray *rays = malloc((size_t)C * sizeof *rays);
  sensim_rt_hit *hits = malloc((size_t)C * sizeof *hits);
  sensim_rt_view *view = NULL;
  if (!rays || !hits) {
    rc = sensim__fail(SENSIM_ENOMEM, "out of memory for a lidar column");
    goto done;
  }
  if ((rc = sensim__traced_view(cap, &view))) goto done;
  const sensim_snapshot *snap = cap->snap;
  const double win = s->params.window, t1 = cap->t_capture;
  sensim_beam *out = f->data;
  for (int j = 0; j < N; j++) {
    /* Columns fire evenly over the window, the first at its start. */
    double tj = t1 - win + win * j / N;
    sensim_pose pose = sensim__sensor_pose_at(s, snap, tj);
    for (int c = 0; c < C; c++) {
      double ce = l->cos_el[c];
      sensim_vec3 d = q_rotate(pose.rot, v3(ce * l->cos_az[j], ce * l->sin_az[j], l->sin_el[c]));
      sensim_rt_ray *r = &rays[c];
      r->org[0] = (float)pose.pos.x;
      r->org[1] = (float)pose.pos.y;
      r->org[2] = (float)pose.pos.z;
      r->dir[0] = (float)d.x;
      r->dir[1] = (float)d.y;
      r->dir[2] = (float)d.z;
      r->tnear = (float)l->p.min_range;
      r->tfar = (float)l->p.max_range;
      r->time = tj;
    }
    sensim__rt_intersect(view, rays, hits, (size_t)C, 1);
    for (int c = 0; c < C; c++) {
      sensim_beam *b = &out[(size_t)j * C + c];
      b->azimuth = (float)column_azimuth(&l->p, j);
      b->elevation = (float)l->elev[c];
      b->time_offset = (float)(tj - t1);
      b->ring = (uint16_t)c;
      if (hits[c].body < 0) continue;
      const sensim_material *m = &snap->bodies[hits[c].body].mesh->material;
      double cosi = fabs(hits[c].n[0] * rays[c].dir[0] + hits[c].n[1] * rays[c].dir[1] +
                         hits[c].n[2] * rays[c].dir[2]);
      b->range = hits[c].t;
      b->intensity = (float)(m->reflectance * (cosi > 1.0 ? 1.0 : cosi));
    }
  }
done:
  sensim__rt_view_destroy(view);
  free(rays);
  free(hits);
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

static sensim_status check(const sensim_lidar_params *p) {
  if (p->channels < 1 || p->channels > SENSIM_LIDAR_MAX_CHANNELS)
    return sensim__fail(SENSIM_EINVAL, "lidar channels %d must be in [1, %d]", p->channels,
                        SENSIM_LIDAR_MAX_CHANNELS);
  if (p->columns < 1 || p->columns > 1000000)
    return sensim__fail(SENSIM_EINVAL, "lidar columns %d must be in [1, 1e6]", p->columns);
  if (!(p->hfov > 0 && p->hfov <= 2.0 * M_PI + 1e-12))
    return sensim__fail(SENSIM_EINVAL, "lidar hfov %g rad must be in (0, 2 pi]", p->hfov);
  if (!isfinite(p->start_azimuth)) return sensim__fail(SENSIM_EINVAL, "lidar start_azimuth must be finite");
  if (!(p->min_range >= 0 && p->max_range > p->min_range && isfinite(p->max_range)))
    return sensim__fail(SENSIM_EINVAL, "lidar range [%g, %g] m must satisfy 0 <= min < max < inf", p->min_range,
                        p->max_range);
  if (p->elevations) {
    for (int c = 0; c < p->channels; c++) {
      double e = p->elevations[c];
      if (!(e > -M_PI / 2 && e < M_PI / 2))
        return sensim__fail(SENSIM_EINVAL, "lidar elevation[%d] = %g rad must be in (-pi/2, pi/2)", c, e);
      if (c > 0 && !(e > p->elevations[c - 1]))
        return sensim__fail(SENSIM_EINVAL, "lidar elevations must ascend (channel %d)", c);
    }
  } else {
    if (!(p->elev_min > -M_PI / 2 && p->elev_max < M_PI / 2 && p->elev_min <= p->elev_max))
      return sensim__fail(SENSIM_EINVAL, "lidar elevation range [%g, %g] rad must lie in (-pi/2, pi/2)",
                          p->elev_min, p->elev_max);
    if (p->channels > 1 && !(p->elev_max > p->elev_min))
      return sensim__fail(SENSIM_EINVAL, "lidar with %d channels needs elev_max > elev_min", p->channels);
  }
  return SENSIM_OK;
}

sensim_status sensim_lidar_create(sensim_world *w, const sensim_sensor_params *sp,
                                  const sensim_lidar_params *lp, sensim_sensor **out) {
  if (!lp) return sensim__fail(SENSIM_EINVAL, "sensim_lidar_create: lidar params are NULL");
  sensim_status rc = check(lp);
  if (rc) return rc;
  lidar *l = calloc(1, sizeof *l);
  if (l) {
    l->cos_az = malloc((size_t)lp->columns * sizeof *l->cos_az);
    l->sin_az = malloc((size_t)lp->columns * sizeof *l->sin_az);
  }
  if (!l || !l->cos_az || !l->sin_az) {
    lidar_destroy(l);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for a lidar");
  }
  l->p = *lp;
  l->p.elevations = NULL; /* copied into elev[] */
  for (int c = 0; c < lp->channels; c++)
    l->elev[c] = lp->elevations ? lp->elevations[c]
                 : lp->channels == 1 ? lp->elev_min
                                     : lp->elev_min + (lp->elev_max - lp->elev_min) * c / (lp->channels - 1);
  for (int c = 0; c < lp->channels; c++) {
    l->cos_el[c] = cos(l->elev[c]);
    l->sin_el[c] = sin(l->elev[c]);
  }
  for (int j = 0; j < lp->columns; j++) {
    double a = column_azimuth(lp, j);
    l->cos_az[j] = cos(a);
    l->sin_az[j] = sin(a);
  }
  return sensim__sensor_create(w, sp, &lidar_kind, l, out);
}
