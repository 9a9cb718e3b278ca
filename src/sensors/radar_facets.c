/* sensors/radar_facets.c: single-bounce echoes by physical optics over the
 * bodies' facets, so that no target falls between rays.
 *
 * Every triangle of every body (the carrier's excepted) inside the range
 * gate and the field of view, taken into the sensor frame (the walk and
 * the echoes work there; only the Doppler and the visibility rays go back
 * to the world), is split into four at its edges' midpoints, recursively,
 * while it is larger than the binning scale, or near the plane's specular
 * point and larger than the Fresnel criterion: with rho the largest
 * distance of a sub-triangle's points from its centroid and R its range,
 * the quadratic term of 2 |r - s| is rho^2 / R, a phase error
 * k rho^2 / R <= pi / 32 when rho <= sqrt(lambda R / 64) (the
 * Fresnel-zone criterion of a facet's far field, Knott, Shaeffer, Tuley,
 * "Radar Cross Section", 2nd ed., 2004, sec. 5.2). A sub-triangle is lit
 * when nothing lies between the radar and its centroid (one occlusion ray,
 * traced 16 at a time, starting where it leaves the carrier's bounding
 * sphere: the carrier is looked through, and so is anything else inside
 * that sphere), unless it is clearly behind what the grid rays around it
 * hit (behind_depth); its echo is:
 *
 *  - coherent, physical optics (PO): the monostatic PO integral of a flat
 *    facet, sigma = (4 pi / lambda^2) |cos(theta) I|^2 with
 *    I = int_facet exp(j w . (r - c)) dA, w = -2 k (u - (u . n) n) the
 *    in-plane gradient of the two-way phase, u the unit vector from the
 *    radar, theta the incidence angle (Knott et al., eq. 5.37 for a plate).
 *    I in closed form over the polygon's edges (Gordon 1975: radar_po.c).
 *    Amplitude sqrt(radar_specular) cos(theta) I exp(-j k 2R) / R^2,
 *    summed per resolution cell with the ray tubes' (docs/radar.md), so a
 *    plate square-on gives 4 pi A^2 / lambda^2 at any range in its far
 *    field and its PO near-field pattern nearer.
 *  - incoherent, Lambert: sigma = 4 rho_d cos^2(theta) A_sub, the
 *    diffuse return radar_trace.c gave per ray, now per facet area.
 *
 * Both are weighted by the antenna's two-way gain towards the centroid
 * (radar_antenna.c) and the rain's attenuation. Doppler from the body's
 * twist at the centroid. Multiple bounces stay with the ray tubes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "rt/rt.h"
#include "sensors/kinematics.h"
#include "sensors/radar_internal.h"
#include "sensors/radar_trig.h"

/* Deepest split of a triangle into four: sub-triangles at least 1/2^16 of
 * its edges. */
#define FACET_MAX_DEPTH 16
/* Sub-triangles whose visibility rays are traced together. */
#define FACET_CHUNK 4096
/* A piece about to be split is tested against the depth map as a whole
 * when it covers at most this many grid cells. */
#define FACET_SPLIT_CELLS 400.0

/* max and min of two numbers that are not NaN (libm's fmax is a call) */
static inline double dmax(double a, double b) { return a > b ? a : b; }
static inline double dmin(double a, double b) { return a < b ? a : b; }
/* floor(x) as an int for |x| < 2^31 (libm's floor is a call without
 * SSE4.1) */
static inline int ifloor(double x) {
  const int i = (int)x;
  return i - (x < (double)i);
}

/* atan2 by Abramowitz & Stegun 4.4.49 (atan x on [0, 1] as an odd
 * polynomial of degree 17, |error| <= 2e-8 rad), reduced by octant: the
 * facets' directions, several per sub-triangle, without libm's atan2. */
static inline double fast_atan2(double y, double x) {
  const double ax = fabs(x), ay = fabs(y);
  const double mx = ax > ay ? ax : ay, mn = ax > ay ? ay : ax;
  if (!(mx > 0)) return 0.0;
  const double z = mn / mx, z2 = z * z;
  double r = z * (1.0 + z2 * (-0.3333314528 + z2 * (0.1999355085 + z2 * (-0.1420889944 + z2 * (0.1065626393 +
             z2 * (-0.0752896400 + z2 * (0.0429096138 + z2 * (-0.0161657367 + z2 * 0.0028662257))))))));
  /* selects, not branches: the signs are as likely one way as the other */
  const double r1 = ay > ax ? 0.5 * M_PI - r : r;
  const double r2 = x < 0 ? M_PI - r1 : r1;
  return copysign(r2, y);
}

/* One lit candidate: a sub-triangle waiting for its visibility ray. */
typedef struct sub {
  sensim_vec3 v[3]; /* vertices in the sensor frame, m */
  sensim_vec3 c;    /* centroid, sensor frame */
  double R;         /* range to the centroid, |c|, m */
  double az, el;    /* its direction, rad */
  int body;
} sub;

/* The field of view as signed distances: a point p (sensor frame) is in
 * it when |az| <= hfov/2, i.e. -sin(h) x +- cos(h) y <= 0 (two half-spaces,
 * h < pi/2), and |el| <= vfov/2, i.e. +-z cos(v) - rho sin(v) <= 0 (a
 * double cone, rho = sqrt(x^2 + y^2)); each left side is 1-Lipschitz, so
 * a sphere of radius r is wholly outside when one of them exceeds r. */
typedef struct fov {
  double sh, ch, sv, cv;    /* sin and cos of hfov/2 and vfov/2 */
  double rmin, rmax;        /* range gate, m */
} fov;

static fov fov_of(const sensim_radar_params *p) {
  fov f = {sin(0.5 * p->hfov), cos(0.5 * p->hfov), sin(0.5 * p->vfov), cos(0.5 * p->vfov), p->min_range,
           p->max_range};
  return f;
}

/* Largest of the field's signed distances at p: <= 0 inside. */
static inline double fov_excess(const fov *f, sensim_vec3 p) {
  const double rho = sqrt(p.x * p.x + p.y * p.y);
  const double e = -f->sh * p.x + f->ch * fabs(p.y);
  return dmax(e, fabs(p.z) * f->cv - rho * f->sv);
}

/* Does a sphere (centre ls in the sensor frame, radius r, at distance
 * d = |ls|) reach into the field of view and the range gate?
 * Conservative. The azimuth test first: it needs no square root. */
static inline int sphere_in_view_d(const fov *f, sensim_vec3 ls, double d, double r) {
  if (-f->sh * ls.x + f->ch * fabs(ls.y) > r) return 0;
  if (d - r > f->rmax || d + r < f->rmin) return 0;
  return fov_excess(f, ls) <= r;
}
static inline int sphere_in_view(const fov *f, sensim_vec3 ls, double r) {
  if (-f->sh * ls.x + f->ch * fabs(ls.y) > r) return 0;
  return sphere_in_view_d(f, ls, v3_norm(ls), r);
}

typedef struct facet_run {
  const sensim_capture_ctx *ctx;
  fov f;
  const sensim__radar *R;
  const sensim_rt_view *view;
  sensim_pose pose; /* sensor frame in the world at t */
  double Rs[9];     /* world to sensor rotation, row-major: ls = Rs (p - pose.pos) */
  double inv_daz, inv_del; /* grid rays per radian in azimuth and elevation */
  sensim_vec3 vs;   /* the radar's velocity */
  sensim_vec3 carrier_o; /* the carrier's origin at t (world) */
  double carrier_r;      /* and its mesh's radius, m; 0 without one */
  const float *depth;    /* the grid rays' first hits, m */
  float *depth3;         /* the largest of depth over each cell's 3 x 3 block (clipped to the grid;
                            NaN as infinity) */
  double t, rain_db_per_m;
  sub *subs;
  size_t nsub;
  unsigned char *occl;
  sensim__radar_echoes *out;
} facet_run;

/* A sensor-frame direction in the world: Rs^T d. */
static inline sensim_vec3 to_world_dir(const facet_run *fr, sensim_vec3 d) {
  const double *M = fr->Rs;
  return v3(M[0] * d.x + M[3] * d.y + M[6] * d.z, M[1] * d.x + M[4] * d.y + M[7] * d.z,
            M[2] * d.x + M[5] * d.y + M[8] * d.z);
}

/* Trace the queued sub-triangles' visibility rays and emit the lit ones'
 * echoes. */
static sensim_status flush(facet_run *fr) {
  const sensim__radar *R = fr->R;
  const sensim_radar_params *p = &R->p;
  const sensim_snapshot *snap = fr->ctx->snap;
  const size_t n = fr->nsub;
  if (n == 0) return SENSIM_OK;
  /* The visibility rays leave one point for neighbouring facets: traced
   * as packets of 16 (rtcOccluded16), the same query as one at a time. */
  const float time = sensim__rt_ray_time(fr->view, fr->t);
  /* the radar from the carrier's centre, and |oc|^2 - r^2, for where a ray
   * leaves the carrier's sphere */
  const sensim_vec3 oc = v3_sub(fr->pose.pos, fr->carrier_o);
  const double oc_c = v3_dot(oc, oc) - fr->carrier_r * fr->carrier_r;
  for (size_t i0 = 0; i0 < n; i0 += 16) {
    sensim_rt_shadow16 pk;
    const size_t m = n - i0 < 16 ? n - i0 : 16;
    for (size_t l = 0; l < m; l++) {
      const sub *q = &fr->subs[i0 + l];
      const sensim_vec3 u = to_world_dir(fr, v3_scale(q->c, 1.0 / q->R));
      pk.org_x[l] = (float)fr->pose.pos.x;
      pk.org_y[l] = (float)fr->pose.pos.y;
      pk.org_z[l] = (float)fr->pose.pos.z;
      pk.dir_x[l] = (float)u.x;
      pk.dir_y[l] = (float)u.y;
      pk.dir_z[l] = (float)u.z;
      /* start where the ray leaves the carrier's bounding sphere (the
       * carrier is looked through), stop short of the facet itself:
       * binary32 positions and the kernel's interpolated motion put it
       * within millimetres of q->R */
      double t0 = 0.0;
      if (fr->carrier_r > 0) {
        const double b = v3_dot(u, oc), disc = b * b - oc_c;
        if (disc > 0) t0 = dmax(0.0, -b + sqrt(disc));
      }
      const double t1 = q->R - (0.01 + 1e-4 * q->R);
      pk.tnear[l] = (float)dmin(t0, t1);
      pk.tfar[l] = (float)t1;
      pk.time[l] = time;
    }
    const unsigned occ = sensim__rt_occluded16(fr->view, &pk, m == 16 ? 0xFFFFu : (1u << m) - 1u);
    for (size_t l = 0; l < m; l++) fr->occl[i0 + l] = (occ >> l) & 1u;
  }
  const double coh = R->K * 4.0 * M_PI / (R->lambda * R->lambda);
  sensim_status rc = SENSIM_OK;
  sensim_body_state bs;
  int state_body = -1;
  for (size_t i = 0; i < n && rc == SENSIM_OK; i++) {
    if (fr->occl[i]) continue;
    const sub *q = &fr->subs[i];
    const sensim_body_snap *b = &snap->bodies[q->body];
    const sensim_material *mat = &b->mesh->material;
    /* u and the facet in the sensor frame; the Doppler in the world's */
    const sensim_vec3 ls = q->c, u = v3_scale(ls, 1.0 / q->R);
    const sensim_vec3 nn = v3_cross(v3_sub(q->v[1], q->v[0]), v3_sub(q->v[2], q->v[0]));
    const double twice_area = v3_norm(nn);
    const double cosi = fabs(v3_dot(nn, u)) / twice_area;
    sensim__radar_echo e;
    memset(&e, 0, sizeof e);
    e.range = q->R;
    e.az = q->az;
    e.el = q->el;
    const sensim_vec3 uw = to_world_dir(fr, u);
    if (q->body != state_body) { /* one body's facets come in runs: its state once per run */
      sensim__snap_state_at(snap, (size_t)q->body, fr->t, &bs);
      state_body = q->body;
    }
    /* the velocity of the facet's point (sensim__snap_point_velocity) */
    const sensim_vec3 vp =
        v3_add(bs.lin_vel, v3_cross(bs.ang_vel, v3_sub(v3_add(fr->pose.pos, v3_scale(uw, q->R)), bs.pose.pos)));
    e.vel = v3_dot(uw, v3_sub(vp, fr->vs));
    if (e.vel < p->min_velocity || e.vel > p->max_velocity) continue;
    e.instance = b->instance_id;
    e.class_id = b->class_id;
    const double g = sensim__radar_gain(p, e.az, e.el);
    const double R2 = q->R * q->R;
    double pw = 1.0; /* rain, two-way, on power */
    if (fr->rain_db_per_m > 0) pw = pow(10.0, -0.1 * fr->rain_db_per_m * 2.0 * q->R);
    if (mat->radar_specular > 0) {
      sensim_vec3 rel[3];
      for (int k = 0; k < 3; k++) rel[k] = v3_sub(q->v[k], q->c);
      double ire, iim;
      sensim__radar_po_triangle(rel, v3_scale(u, -2.0 * R->k), &ire, &iim);
      const double mag = sqrt(mat->radar_specular * pw) * cosi * g / R2;
      double c, s; /* exp(-j k 2R) */
      sensim__radar_sincos(2.0 * R->k * q->R, &s, &c);
      s = -s;
      e.re = mag * (ire * c - iim * s);
      e.im = mag * (ire * s + iim * c);
    }
    if (mat->radar_diffuse > 0) {
      const double sigma = 4.0 * mat->radar_diffuse * cosi * cosi * 0.5 * twice_area;
      e.p_inc = R->K * sigma * g * g * pw / (R2 * R2);
    }
    e.w = coh * (e.re * e.re + e.im * e.im) + e.p_inc;
    if (e.w > 0) rc = sensim__radar_push(fr->out, &e);
  }
  fr->nsub = 0;
  return rc;
}

/* Is a sphere at ls (sensor frame, radius rs) clearly hidden: farther
 * than what each grid ray around its directions hits (the cells its
 * angular extent covers and one more on each side), by more than the
 * spread of depths a surface seen through those rays can have (10 cm
 * plus 1 %)? A facet seen only through a gap narrower than the ray
 * spacing is lost this way; any other gets its own visibility ray.
 * Spheres covering more than max_cells cells are not tested (the loop
 * would cost more than it saves: 36 for a triangle, 4096 for a chunk of
 * them, which is tested far less often and hides more). */
static int behind_depth(const facet_run *fr, sensim_vec3 ls, double d, double rs, double max_cells) {
  const sensim__radar *R = fr->R;
  const sensim_radar_params *p = &R->p;
  if (!(d > 2.0 * rs)) return 0;
  const double rho = sqrt(ls.x * ls.x + ls.y * ls.y);
  const double az = fast_atan2(ls.y, ls.x), el = fast_atan2(ls.z, rho), ang = rs > 0 ? asin(rs / d) : 0.0;
  const double angaz = rs > 0 ? (rho > rs ? asin(dmin(1.0, rs / rho)) : M_PI) : 0.0;
  const int i0 = ifloor((az - angaz + 0.5 * p->hfov) * fr->inv_daz) - 1,
            i1 = ifloor((az + angaz + 0.5 * p->hfov) * fr->inv_daz) + 1;
  const int j0 = ifloor((el - ang + 0.5 * p->vfov) * fr->inv_del) - 1,
            j1 = ifloor((el + ang + 0.5 * p->vfov) * fr->inv_del) + 1;
  if ((double)(i1 - i0 + 1) * (j1 - j0 + 1) > max_cells) return 0;
  const double near = d - rs, lim = near - (0.1 + 0.01 * near);
  for (int jj = j0 < 0 ? 0 : j0; jj <= j1 && jj < R->nel; jj++) {
    const float *row = fr->depth + (size_t)jj * (size_t)R->naz;
    for (int ii = i0 < 0 ? 0 : i0; ii <= i1 && ii < R->naz; ii++)
      if (!(row[ii] < lim)) return 0;
  }
  return 1;
}

/* behind_depth for a point (a sub-triangle's centroid, rs = 0; d = |ls|,
 * az and el its direction as behind_depth computes them): its 3 x 3
 * block of cells is hidden when their largest depth is nearer than the
 * limit, one look-up in depth3; the loop where the block leaves the grid. */
static int point_behind_depth(const facet_run *fr, sensim_vec3 ls, double d, double az, double el) {
  const sensim__radar *R = fr->R;
  const sensim_radar_params *p = &R->p;
  if (!(d > 0.0)) return 0;
  const int i = ifloor((az + 0.5 * p->hfov) * fr->inv_daz);
  const int j = ifloor((el + 0.5 * p->vfov) * fr->inv_del);
  if (i < 0 || i >= R->naz || j < 0 || j >= R->nel) return behind_depth(fr, ls, d, 0.0, 9.0);
  return fr->depth3[(size_t)j * (size_t)R->naz + (size_t)i] < d - (0.1 + 0.01 * d);
}

/* depth3 from depth (see facet_run). */
static void dilate3(const float *depth, int naz, int nel, float *out) {
  for (int j = 0; j < nel; j++)
    for (int i = 0; i < naz; i++) {
      float m = -INFINITY;
      for (int jj = j > 0 ? j - 1 : 0; jj <= j + 1 && jj < nel; jj++)
        for (int ii = i > 0 ? i - 1 : 0; ii <= i + 1 && ii < naz; ii++) {
          const float x = depth[(size_t)jj * (size_t)naz + (size_t)ii];
          m = x > m ? x : (x == x ? m : INFINITY);
        }
      out[(size_t)j * (size_t)naz + (size_t)i] = m;
    }
}

/* Queue the sub-triangles of triangle (a, b, c) of body `bi` (sensor
 * frame, m): split into four at its edges' midpoints while it reaches into
 * the field of view and (i) is larger than the binning scale, or (ii) is
 * larger than the Fresnel criterion's rho and lies within two Fresnel
 * radii of the plane's stationary-phase (specular) point. Each piece
 * that would be split is first tested against the depth map as a whole
 * (a piece hidden behind what the grid rays hit hides all its
 * sub-triangles, each of which the leaf test below would have dropped:
 * their centroids lie in its sphere, their cells in its cells). */
static sensim_status triangle(facet_run *fr, int bi, sensim_vec3 a, sensim_vec3 b, sensim_vec3 c) {
  const sensim__radar *R = fr->R;
  const sensim_radar_params *p = &R->p;
  const sensim_vec3 nn = v3_cross(v3_sub(b, a), v3_sub(c, a));
  const double nl = v3_norm(nn);
  if (!(nl > 0)) return SENSIM_OK;
  /* the foot of the radar (the origin) on the triangle's plane, where the
   * two-way phase is stationary: only for pieces near the Fresnel scale */
  sensim_vec3 foot = v3(0, 0, 0);
  int have_foot = 0;
  const double range_floor = dmax(p->min_range, 0.05);
  /* Depth first, the pieces in the order 3, 2, 1, 0 of a split (the
   * order the queue and so the echoes keep): the fourth child goes on in
   * registers, the other three wait on the stack. */
  struct {
    sensim_vec3 v[3];
    int depth;
  } stack[3 * FACET_MAX_DEPTH + 4];
  int top = 0, depth = 0;
  sensim_vec3 v[3] = {a, b, c};
  for (;;) {
    const sensim_vec3 ctr = v3_scale(v3_add(v3_add(v[0], v[1]), v[2]), 1.0 / 3.0);
    double rt2 = 0.0;
    for (int k = 0; k < 3; k++) {
      const sensim_vec3 dv = v3_sub(v[k], ctr);
      rt2 = dmax(rt2, v3_dot(dv, dv));
    }
    const double rt = sqrt(rt2), rc = v3_norm(ctr);
    /* the caller has tested the whole triangle's sphere */
    if (depth > 0 && !sphere_in_view_d(&fr->f, ctr, rc, rt)) goto next;
    const double rmin = dmax(rc - rt, range_floor);
    int split = 0;
    if (depth < FACET_MAX_DEPTH) {
      /* k rho^2 / R <= pi / 32: rho <= sqrt(lambda R / 64), compared
       * squared */
      split = rt > dmin(R->dr, rmin * p->azimuth_resolution);
      if (!split && rt2 > R->lambda * rmin / 64.0) {
        if (!have_foot) {
          const sensim_vec3 n = v3_scale(nn, 1.0 / nl);
          foot = v3_scale(n, v3_dot(a, n));
          have_foot = 1;
        }
        split = v3_norm(v3_sub(foot, ctr)) < rt + 2.0 * sqrt(R->lambda * rc);
      }
    }
    if (split) {
      if (behind_depth(fr, ctr, rc, rt, FACET_SPLIT_CELLS)) goto next;
      const sensim_vec3 m01 = v3_scale(v3_add(v[0], v[1]), 0.5), m12 = v3_scale(v3_add(v[1], v[2]), 0.5),
                        m20 = v3_scale(v3_add(v[2], v[0]), 0.5);
      const sensim_vec3 kids[3][3] = {{v[0], m01, m20}, {m01, v[1], m12}, {m20, m12, v[2]}};
      for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 3; j++) stack[top].v[j] = kids[k][j];
        stack[top].depth = depth + 1;
        top++;
      }
      v[0] = m12;
      v[1] = m20;
      v[2] = m01;
      depth++;
      continue;
    }
    if (!(rc >= p->min_range && rc <= p->max_range)) goto next;
    const double rho = sqrt(ctr.x * ctr.x + ctr.y * ctr.y); /* fov_excess, shared */
    if (dmax(-fr->f.sh * ctr.x + fr->f.ch * fabs(ctr.y), fabs(ctr.z) * fr->f.cv - rho * fr->f.sv) > 0) goto next;
    const double az = fast_atan2(ctr.y, ctr.x), el = fast_atan2(ctr.z, rho);
    if (point_behind_depth(fr, ctr, rc, az, el)) goto next;
    sub *q = &fr->subs[fr->nsub++];
    q->v[0] = v[0];
    q->v[1] = v[1];
    q->v[2] = v[2];
    q->c = ctr;
    q->R = rc;
    q->az = az;
    q->el = el;
    q->body = bi;
    if (fr->nsub == FACET_CHUNK) {
      sensim_status st = flush(fr);
      if (st) return st;
    }
  next:
    if (top == 0) break;
    top--;
    v[0] = stack[top].v[0];
    v[1] = stack[top].v[1];
    v[2] = stack[top].v[2];
    depth = stack[top].depth;
  }
  return SENSIM_OK;
}

/* Mesh point x in the sensor frame: t + M x. */
static inline sensim_vec3 mesh_to_sensor(const double M[9], sensim_vec3 t, const float *x) {
  return v3(t.x + M[0] * x[0] + M[1] * x[1] + M[2] * x[2], t.y + M[3] * x[0] + M[4] * x[1] + M[5] * x[2],
            t.z + M[6] * x[0] + M[7] * x[1] + M[8] * x[2]);
}

sensim_status sensim__radar_facets(const sensim_capture_ctx *ctx, const sensim_rt_view *view, sensim_pose pose,
                                   sensim_vec3 vs, double t, double rain_db_per_m, const float *depth,
                                   sensim__radar_echoes *out) {
  const sensim_snapshot *snap = ctx->snap;
  facet_run fr;
  memset(&fr, 0, sizeof fr);
  fr.ctx = ctx;
  fr.R = ctx->impl;
  fr.view = view;
  fr.pose = pose;
  q_matrix(q_conj(pose.rot), fr.Rs);
  fr.inv_daz = fr.R->naz / fr.R->p.hfov;
  fr.inv_del = fr.R->nel / fr.R->p.vfov;
  fr.vs = vs;
  fr.t = t;
  fr.rain_db_per_m = rain_db_per_m;
  fr.out = out;
  fr.depth = depth;
  fr.f = fov_of(&fr.R->p);
  if (ctx->carrier >= 0 && snap->bodies[ctx->carrier].mesh) {
    const sensim_body_snap *cb = &snap->bodies[ctx->carrier];
    if (cb->is_static) {
      fr.carrier_o = cb->pose.pos;
    } else {
      sensim_body_state st;
      sensim__snap_state_at(snap, (size_t)ctx->carrier, t, &st);
      fr.carrier_o = st.pose.pos;
    }
    fr.carrier_r = cb->mesh->radius * (1.0 + 1e-6) + 1e-4;
  }
  fr.subs = sensim__frame_buffer(FACET_CHUNK * sizeof *fr.subs, 0);
  fr.occl = sensim__frame_buffer(FACET_CHUNK, 0);
  fr.depth3 = sensim__frame_buffer((size_t)fr.R->naz * (size_t)fr.R->nel * sizeof *fr.depth3, 0);
  sensim_status rc = SENSIM_OK;
  if (!fr.subs || !fr.occl || !fr.depth3) {
    rc = sensim__fail(SENSIM_ENOMEM, "radar: out of memory for facet echoes");
    goto done;
  }
  dilate3(depth, fr.R->naz, fr.R->nel, fr.depth3);
  for (size_t bi = 0; bi < snap->nbodies && rc == SENSIM_OK; bi++) {
    const sensim_body_snap *b = &snap->bodies[bi];
    /* Placements (b->group) are seen by the traced part only. */
    if ((int)bi == ctx->carrier || !b->mesh || b->mesh->ntri == 0 || b->group) continue;
    const sensim_material *mat = &b->mesh->material;
    if (!(mat->radar_specular > 0) && !(mat->radar_diffuse > 0)) continue;
    sensim_pose bp;
    if (b->is_static) {
      bp = b->pose;
    } else {
      if (b->nk == 0) continue;
      sensim_body_state st;
      sensim__snap_state_at(snap, bi, t, &st);
      bp = st.pose;
    }
    /* the body's frame in the sensor frame: mesh point x is at
     * t_sb + M x there, M the rotation q_sb */
    const sensim_quat q_sb = q_mul(q_conj(pose.rot), bp.rot);
    const sensim_vec3 t_sb = q_rotate_inv(pose.rot, v3_sub(bp.pos, pose.pos));
    if (!sphere_in_view(&fr.f, t_sb, b->mesh->radius)) continue;
    const sensim_mesh *mesh = b->mesh;
    double M[9];
    q_matrix(q_sb, M);
    for (size_t t0 = 0; t0 < mesh->ntri && rc == SENSIM_OK; t0 += SENSIM__MESH_CHUNK) {
      const float *cb = &mesh->chunk_bounds[4 * (t0 / SENSIM__MESH_CHUNK)];
      const sensim_vec3 cs = mesh_to_sensor(M, t_sb, cb);
      if (!sphere_in_view(&fr.f, cs, cb[3]) || behind_depth(&fr, cs, v3_norm(cs), cb[3], 4096.0)) continue;
      const size_t t1 = t0 + SENSIM__MESH_CHUNK < mesh->ntri ? t0 + SENSIM__MESH_CHUNK : mesh->ntri;
      for (size_t tri = t0; tri < t1 && rc == SENSIM_OK; tri++) {
        const uint32_t *ix = &mesh->indices[3 * tri];
#if defined(__GNUC__)
        if (tri + 1 < t1) /* the next triangle's vertices, while this one is tested */
          for (int k = 3; k < 6; k++) __builtin_prefetch(&mesh->vertices[3 * (size_t)ix[k]]);
#endif
        sensim_vec3 w[3];
        for (int k = 0; k < 3; k++) w[k] = mesh_to_sensor(M, t_sb, &mesh->vertices[3 * (size_t)ix[k]]);
        /* cull by the triangle's bounding sphere about its centroid */
        const sensim_vec3 mc = v3_scale(v3_add(v3_add(w[0], w[1]), w[2]), 1.0 / 3.0);
        double r2 = 0.0;
        for (int k = 0; k < 3; k++) {
          const sensim_vec3 dv = v3_sub(w[k], mc);
          r2 = dmax(r2, v3_dot(dv, dv));
        }
        if (!sphere_in_view(&fr.f, mc, sqrt(r2))) continue;
        rc = triangle(&fr, (int)bi, w[0], w[1], w[2]);
      }
    }
  }
  if (rc == SENSIM_OK) rc = flush(&fr);
done:
  sensim__frame_buffer_free(fr.subs);
  sensim__frame_buffer_free(fr.occl);
  sensim__frame_buffer_free(fr.depth3);
  return rc;
}
