/* sensors/radar_trace.c: the radar's rays and their echoes.
 *
 * Grid. naz x nel rays at the centres of equal cells of the field of view
 * in azimuth and elevation; ray (i, j) points at azimuth
 * -hfov/2 + (i + 1/2) hfov/naz and elevation -vfov/2 + (j + 1/2) vfov/nel
 * and stands for the solid angle dOmega = (hfov/naz)(vfov/nel) cos(el).
 * Every ray is traced at one instant, the centre of the CPI (radar.h).
 *
 * Ray tubes. A ray is the axis of a tube of solid angle dOmega from the
 * radar. Reflection at plane facets keeps it a tube diverging from the
 * radar's mirror image, so at path length L its cross-section is
 * A = L^2 dOmega (geometrical optics).
 *
 * First hits. Since issue 30 the single bounce (diffuse and specular) is
 * radar_facets.c's, by physical optics over every lit facet; the first
 * hits here only give it a depth map and start the paths. (The diffuse
 * echo was 4 rho_d cos(theta) L^2 dOmega per ray: Lambert's law,
 * sigma0 = 4 rho_d cos^2(theta), Ulaby, Long, "Microwave Radar and
 * Radiometric Remote Sensing", 2014, sec. 10-5, now per facet area.)
 *
 * Specular echo (after the second and every later bounce, coherent). After each bounce the tube's
 * exit aperture, of area A, radiates back to the radar as a uniformly lit
 * aperture of the same area, a disc of radius a = sqrt(A / pi), whose
 * amplitude pattern at angle psi off its exit direction is
 * 2 J1(k a sin psi) / (k a sin psi) (shooting and bouncing rays: Ling,
 * Chou, Lee, IEEE Trans. Antennas Propag. 37(2):194-205, 1989, with the
 * tube's aperture integral in closed form). The echo's complex amplitude
 * is sqrt(prod |Gamma_i|^2) A pattern exp(-j k L) / R^2, L the whole path
 * (radar, bounces, back to the radar), R = L / 2; a lone tube seen along
 * its exit direction has sigma = 4 pi A^2 / lambda^2 (a plate's physical
 * optics RCS, Knott, Shaeffer, Tuley, "Radar Cross Section", 2nd ed.,
 * 2004, table 5.1). The detector sums amplitudes per resolution cell.
 * The return path is taken as clear when the next bounce's ray travels at
 * least as far as the radar is before it hits anything.
 *
 * Doppler. The path length's rate is the sum over its segments a -> b of
 * u_ab . (v_b - v_a), each bounce point moving with its body (exact for
 * rigid bodies: by Fermat's principle the sliding of the specular points
 * changes the length only to second order); the echo's radial velocity is
 * half of it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensors/kinematics.h"
#include "sensors/radar_internal.h"
#include "sensors/traced.h"

/* Smallest distance a bounce ray starts from its surface, m (clears the
 * kernel's binary32 hit positions at ranges up to a few km). */
#define RADAR_EPS 1e-4
/* Specular echoes weaker than this amplitude pattern are not kept (-80 dB). */
#define RADAR_MIN_PATTERN 1e-4

double sensim__radar_jinc(double x) {
  double ax = fabs(x);
  if (ax <= 3.0) {
    double y = (x / 3.0) * (x / 3.0);
    double j1x = 0.5 + y * (-0.56249985 + y * (0.21093573 + y * (-0.03954289 +
                                                                 y * (0.00443319 + y * (-0.00031761 + y * 0.00001109)))));
    return 2.0 * j1x;
  }
  double y = 3.0 / ax;
  double f1 = 0.79788456 + y * (0.00000156 + y * (0.01659667 + y * (0.00017105 +
                                                                     y * (-0.00249511 + y * (0.00113653 - y * 0.00020033)))));
  double t1 = ax - 2.35619449 + y * (0.12499612 + y * (0.00005650 + y * (-0.00637879 +
                                                                         y * (0.00074348 + y * (0.00079824 - y * 0.00029166)))));
  return 2.0 * f1 * cos(t1) / (ax * sqrt(ax));
}

/* One ray's path so far. */
typedef struct path {
  sensim_vec3 o, d; /* current segment's start (world) and unit direction */
  double L;         /* path length from the radar to o, m */
  double vsum;      /* sum of u . (v_b - v_a) over the segments so far, m/s */
  sensim_vec3 va;   /* velocity of the segment's start (the radar, then the last bounce point), m/s */
  double amp;       /* product of the bounces' reflection amplitudes */
  double domega;    /* the tube's solid angle, sr */
  double g_dep;     /* the antenna's one-way gain towards the ray's start, relative to boresight */
  int live;
  /* the last bounce's specular echo, kept until the next segment shows
   * whether its way back is clear */
  int pending;
  double back;      /* distance from the last bounce point to the radar, m */
  sensim__radar_echo echo;
} path;

sensim_status sensim__radar_push(sensim__radar_echoes *out, const sensim__radar_echo *e) {
  if (out->n == out->cap) {
    size_t cap = out->cap ? 2 * out->cap : 1024;
    sensim__radar_echo *ne = realloc(out->e, cap * sizeof *ne);
    if (!ne) return sensim__fail(SENSIM_ENOMEM, "radar: out of memory for %zu echoes", cap);
    out->e = ne;
    out->cap = cap;
  }
  out->e[out->n++] = *e;
  return SENSIM_OK;
}

void sensim__radar_intersect(const sensim_rt_view *view, sensim_rt_ray *rays, sensim_rt_hit *hits, size_t n, int skip,
                      sensim_rt_ray *tmp_r, sensim_rt_hit *tmp_h, size_t *idx) {
  sensim__rt_intersect(view, rays, hits, n, 0);
  if (skip < 0) return;
  for (int round = 0; round < 8; round++) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
      if (hits[i].body == skip) {
        tmp_r[m] = rays[i];
        tmp_r[m].tnear = hits[i].t + (float)RADAR_EPS;
        idx[m++] = i;
      }
    if (m == 0) return;
    sensim__rt_intersect(view, tmp_r, tmp_h, m, 0);
    for (size_t j = 0; j < m; j++) hits[idx[j]] = tmp_h[j];
  }
  for (size_t i = 0; i < n; i++)
    if (hits[i].body == skip) hits[i].body = -1;
}

sensim_status sensim__radar_trace(const sensim_capture_ctx *ctx, sensim__radar_echoes *out) {
  const sensim__radar *R = ctx->impl;
  const sensim_radar_params *p = &R->p;
  const sensim_snapshot *snap = ctx->snap;
  const double t = ctx->t_capture - 0.5 * fmin(p->cpi, ctx->window);
  const sensim_pose pose = sensim__ctx_pose_at(ctx, t);
  const sensim_vec3 vs = sensim__ctx_origin_velocity(ctx, t, pose.pos, NULL);
  const size_t n = (size_t)R->naz * (size_t)R->nel;
  sensim_rt_view *view = NULL;
  sensim_status rc = sensim__traced_view(ctx, &view);
  if (rc) return rc;
  path *ps = malloc(n * sizeof *ps);
  sensim_rt_ray *rays = malloc(2 * n * sizeof *rays);
  sensim_rt_hit *hits = malloc(2 * n * sizeof *hits);
  size_t *idx = malloc(n * sizeof *idx), *live = malloc(n * sizeof *live);
  if (!ps || !rays || !hits || !idx || !live) {
    rc = sensim__fail(SENSIM_ENOMEM, "radar: out of memory for %zu rays", n);
    goto done;
  }
  const double daz = p->hfov / R->naz, del = p->vfov / R->nel;
  for (int j = 0; j < R->nel; j++) {
    const double el = -0.5 * p->vfov + (j + 0.5) * del;
    for (int i = 0; i < R->naz; i++) {
      const double az = -0.5 * p->hfov + (i + 0.5) * daz;
      path *q = &ps[(size_t)j * R->naz + i];
      memset(q, 0, sizeof *q);
      q->o = pose.pos;
      q->d = q_rotate(pose.rot, v3(cos(el) * cos(az), cos(el) * sin(az), sin(el)));
      q->amp = 1.0;
      q->va = vs;
      q->domega = daz * del * cos(el);
      q->g_dep = sensim__radar_gain(p, az, el);
      q->live = 1;
    }
  }
  const double reach = p->max_range * 2.0; /* a path longer than twice max_range echoes from beyond it */
  /* Rain along the whole path out and back: power x 10^(-gamma L / 10),
   * gamma in dB/m (radar_rain.c); amplitudes by its square root. */
  const double rain_db_per_m = 1e-3 * sensim__radar_rain_db_per_km(p->frequency, snap->params.weather.rain_rate);
  for (int bounce = 0; bounce <= p->max_bounces && rc == SENSIM_OK; bounce++) {
    size_t m = 0;
    for (size_t r = 0; r < n; r++) {
      path *q = &ps[r];
      if (!q->live && !q->pending) continue;
      sensim_rt_ray *ry = &rays[m];
      ry->org[0] = (float)q->o.x;
      ry->org[1] = (float)q->o.y;
      ry->org[2] = (float)q->o.z;
      ry->dir[0] = (float)q->d.x;
      ry->dir[1] = (float)q->d.y;
      ry->dir[2] = (float)q->d.z;
      ry->tnear = bounce ? (float)RADAR_EPS : 0.0f;
      double left = reach - q->L;
      ry->tfar = (float)(q->pending && q->back > left ? q->back : left);
      ry->time = t;
      live[m++] = r;
    }
    if (m == 0) break;
    sensim__radar_intersect(view, rays, hits, m, ctx->carrier, rays + n, hits + n, idx);
    if (bounce == 0) {
      /* Single bounces: physical optics over the lit facets
       * (radar_facets.c), with the rays' first hits as a depth map; the
       * rays give the multiple bounces only. */
      float *depth = malloc(n * sizeof *depth);
      if (!depth) {
        rc = sensim__fail(SENSIM_ENOMEM, "radar: out of memory for %zu rays", n);
        break;
      }
      for (size_t k = 0; k < m; k++) depth[live[k]] = hits[k].body >= 0 ? hits[k].t : INFINITY;
      rc = sensim__radar_facets(ctx, view, pose, vs, t, rain_db_per_m, depth, out);
      free(depth);
      if (rc) break;
    }
    for (size_t k = 0; k < m && rc == SENSIM_OK; k++) {
      path *q = &ps[live[k]];
      const sensim_rt_hit *h = &hits[k];
      const int hit = h->body >= 0 && isfinite(h->t);
      if (q->pending) {
        q->pending = 0;
        if (!hit || h->t >= q->back) rc = sensim__radar_push(out, &q->echo);
      }
      if (!q->live || bounce == p->max_bounces) {
        q->live = 0;
        continue;
      }
      if (!hit) {
        q->live = 0;
        continue;
      }
      const sensim_body_snap *b = &snap->bodies[h->body];
      const sensim_material *mat = &b->mesh->material;
      const sensim_vec3 pt = v3_add(q->o, v3_scale(q->d, h->t));
      const sensim_vec3 vp = sensim__snap_point_velocity(snap, (size_t)h->body, t, pt);
      const sensim_vec3 nrm = v3(h->n[0], h->n[1], h->n[2]);
      q->L += h->t;
      q->vsum += v3_dot(q->d, v3_sub(vp, q->va));
      q->va = vp;
      const sensim_vec3 to_s = v3_sub(pose.pos, pt);
      const double back = v3_norm(to_s);
      const sensim_vec3 u = back > 0 ? v3_scale(to_s, 1.0 / back) : v3_scale(q->d, -1.0);
      const double L_tot = q->L + back, range = 0.5 * L_tot;
      const double area = q->L * q->L * q->domega;
            sensim__radar_echo e;
      memset(&e, 0, sizeof e);
      e.range = range;
      /* segment back from pt to the radar: u . (v_s - v_p) */
      e.vel = 0.5 * (q->vsum + v3_dot(u, v3_sub(vs, vp)));
      const sensim_vec3 ls = q_rotate_inv(pose.rot, v3_sub(pt, pose.pos));
      e.az = atan2(ls.y, ls.x);
      e.el = atan2(ls.z, hypot(ls.x, ls.y));
      sensim__hit_ids(b->group, b->class_id, b->instance_id, h->elem, &e.class_id, &e.instance);
      const int in_fov = fabs(e.az) <= 0.5 * p->hfov + daz && fabs(e.el) <= 0.5 * p->vfov + del;
      const int in_gate = range >= p->min_range && range <= p->max_range && e.vel >= p->min_velocity &&
                          e.vel <= p->max_velocity && in_fov;
      /* Mirror reflection about the facet. */
      q->d = v3_normalize(v3_sub(q->d, v3_scale(nrm, 2.0 * v3_dot(q->d, nrm))));
      q->o = pt;
      q->amp *= sqrt(mat->radar_specular);
      if (q->amp <= 0) {
        q->live = 0;
        continue;
      }
      const double c = v3_dot(q->d, u);
      if (bounce > 0 && c > 0 && in_gate) {
        const double s = sqrt(fmax(0.0, 1.0 - c * c));
        const double a = sqrt(area / M_PI);
        const double pat = sensim__radar_jinc(R->k * a * s);
        if (fabs(pat) >= RADAR_MIN_PATTERN) {
          double mag = q->amp * area * pat * sqrt(q->g_dep * sensim__radar_gain(p, e.az, e.el)) / (range * range);
          if (rain_db_per_m > 0) mag *= pow(10.0, -0.05 * rain_db_per_m * L_tot);
          const double ph = -fmod(R->k * L_tot, 2.0 * M_PI);
          e.re = mag * cos(ph);
          e.im = mag * sin(ph);
          e.w = R->K * 4.0 * M_PI / (R->lambda * R->lambda) * mag * mag;
          q->echo = e;
          q->pending = 1;
          q->back = back;
        }
      }
    }
  }
done:
  free(ps);
  free(rays);
  free(hits);
  free(idx);
  free(live);
  sensim__rt_view_destroy(view);
  return rc;
}
