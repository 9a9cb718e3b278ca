/* sensors/radar_facets.c: single-bounce echoes by physical optics over the
 * bodies' facets, so that no target falls between rays.
 *
 * Every triangle of every body (the carrier's excepted) inside the range
 * gate and the field of view is cut into m^2 congruent sub-triangles,
 * small enough that the two-way path length is linear across each to a
 * quarter of a wavelength's phase: with rho the largest distance of a
 * sub-triangle's points from its centroid and R its range, the quadratic
 * term of 2 |r - s| is rho^2 / R, a phase error k rho^2 / R <= pi / 8 when
 * rho <= sqrt(lambda R / 16) (the Fresnel-zone criterion of a facet's far
 * field, Knott, Shaeffer, Tuley, "Radar Cross Section", 2nd ed., 2004,
 * sec. 5.2). A sub-triangle is lit when nothing lies between the radar and
 * its centroid (one occlusion ray, starting where it leaves the carrier's
 * bounding sphere: the carrier is looked through, and so is anything else
 * inside that sphere); its echo is:
 *
 *  - coherent, physical optics (PO): the monostatic PO integral of a flat
 *    facet, sigma = (4 pi / lambda^2) |cos(theta) I|^2 with
 *    I = int_facet exp(j w . (r - c)) dA, w = -2 k (u - (u . n) n) the
 *    in-plane gradient of the two-way phase, u the unit vector from the
 *    radar, theta the incidence angle (Knott et al., eq. 5.37 for a plate).
 *    I in closed form over the polygon's edges (W. B. Gordon, "Far-field
 *    approximations to the Kirchhoff-Helmholtz representations of
 *    scattered fields", IEEE Trans. Antennas Propag. 23(4):590-592, 1975),
 *    from the divergence theorem in the facet's plane:
 *
 *      I = (1 / (j |w|^2)) sum_edges (w . (b - a) x n)
 *                          exp(j w . m_ab) sinc(w . (b - a) / 2),
 *
 *    edges a -> b counter-clockwise about n, m_ab their midpoints relative
 *    to c, sinc x = sin x / x; I = area when |w| times the facet's size is
 *    below 1e-3 (the formula's limit; its next term is of order
 *    (|w| size)^2). Amplitude sqrt(radar_specular) cos(theta) I
 *    exp(-j k 2R) / R^2, summed per resolution cell with the ray tubes'
 *    (docs/radar.md), so a plate square-on gives 4 pi A^2 / lambda^2 at
 *    any range in its far field and its PO near-field pattern nearer.
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

/* Deepest split of a triangle into four: sub-triangles at least 1/2^16 of
 * its edges. */
#define FACET_MAX_DEPTH 16
/* Sub-triangles whose visibility rays are traced together. */
#define FACET_CHUNK 4096

/* atan2 by Abramowitz & Stegun 4.4.49 (atan x on [0, 1] as an odd
 * polynomial of degree 17, |error| <= 2e-8 rad), reduced by octant: the
 * facets' directions, several per sub-triangle, without libm's atan2. */
static double fast_atan2(double y, double x) {
  const double ax = fabs(x), ay = fabs(y);
  const double mx = ax > ay ? ax : ay, mn = ax > ay ? ay : ax;
  if (!(mx > 0)) return 0.0;
  const double z = mn / mx, z2 = z * z;
  double r = z * (1.0 + z2 * (-0.3333314528 + z2 * (0.1999355085 + z2 * (-0.1420889944 + z2 * (0.1065626393 +
             z2 * (-0.0752896400 + z2 * (0.0429096138 + z2 * (-0.0161657367 + z2 * 0.0028662257))))))));
  if (ay > ax) r = 0.5 * M_PI - r;
  if (x < 0) r = M_PI - r;
  return y < 0 ? -r : r;
}

static double sinc(double x) { return fabs(x) < 1e-8 ? 1.0 - x * x / 6.0 : sin(x) / x; }

void sensim__radar_po_triangle(const sensim_vec3 v[3], sensim_vec3 w, double *re, double *im) {
  const sensim_vec3 nn = v3_cross(v3_sub(v[1], v[0]), v3_sub(v[2], v[0]));
  const double twice_area = v3_norm(nn);
  *re = *im = 0.0;
  if (!(twice_area > 0)) return;
  const sensim_vec3 n = v3_scale(nn, 1.0 / twice_area);
  w = v3_sub(w, v3_scale(n, v3_dot(w, n))); /* only the in-plane part carries phase */
  const double w2 = v3_dot(w, w);
  double size = 0.0;
  for (int i = 0; i < 3; i++) size = fmax(size, v3_norm(v[i]));
  if (w2 * size * size < 1e-6) {
    /* exp(j w . (r - c)) = 1 + j w . (r - c) + O((w size)^2); the linear
     * term integrates to zero about the centroid. */
    *re = 0.5 * twice_area;
    return;
  }
  double sr = 0.0, si = 0.0;
  for (int i = 0; i < 3; i++) {
    const sensim_vec3 a = v[i], b = v[(i + 1) % 3], e = v3_sub(b, a);
    const double flux = v3_dot(w, v3_cross(e, n));
    const double ph = 0.5 * (v3_dot(w, a) + v3_dot(w, b));
    const double s = flux * sinc(0.5 * v3_dot(w, e));
    sr += s * cos(ph);
    si += s * sin(ph);
  }
  /* divided by j |w|^2: (sr + j si) / j = si - j sr */
  *re = si / w2;
  *im = -sr / w2;
}

/* One lit candidate: a sub-triangle waiting for its visibility ray. */
typedef struct sub {
  sensim_vec3 v[3]; /* world vertices, m */
  sensim_vec3 c;    /* centroid */
  double R;         /* range to the centroid, m */
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
static double fov_excess(const fov *f, sensim_vec3 p) {
  const double rho = sqrt(p.x * p.x + p.y * p.y);
  double e = -f->sh * p.x + f->ch * fabs(p.y);
  e = fmax(e, fabs(p.z) * f->cv - rho * f->sv);
  return e;
}

/* Does a sphere (centre ls in the sensor frame, radius r) reach into the
 * field of view and the range gate? Conservative. */
static int sphere_in_view(const fov *f, sensim_vec3 ls, double r) {
  const double d = v3_norm(ls);
  if (d - r > f->rmax || d + r < f->rmin) return 0;
  return fov_excess(f, ls) <= r;
}

typedef struct facet_run {
  const sensim_capture_ctx *ctx;
  fov f;
  const sensim__radar *R;
  const sensim_rt_view *view;
  sensim_pose pose; /* sensor frame in the world at t */
  sensim_vec3 vs;   /* the radar's velocity */
  sensim_vec3 carrier_o; /* the carrier's origin at t (world) */
  double carrier_r;      /* and its mesh's radius, m; 0 without one */
  const float *depth;    /* the grid rays' first hits, m */
  double t, rain_db_per_m;
  sub *subs;
  size_t nsub;
  sensim_rt_ray *rays;
  unsigned char *occl;
  sensim__radar_echoes *out;
} facet_run;

/* Trace the queued sub-triangles' visibility rays and emit the lit ones'
 * echoes. */
static sensim_status flush(facet_run *fr) {
  const sensim__radar *R = fr->R;
  const sensim_radar_params *p = &R->p;
  const sensim_snapshot *snap = fr->ctx->snap;
  const size_t n = fr->nsub;
  if (n == 0) return SENSIM_OK;
  for (size_t i = 0; i < n; i++) {
    const sub *q = &fr->subs[i];
    const sensim_vec3 u = v3_scale(v3_sub(q->c, fr->pose.pos), 1.0 / q->R);
    sensim_rt_ray *ry = &fr->rays[i];
    ry->org[0] = (float)fr->pose.pos.x;
    ry->org[1] = (float)fr->pose.pos.y;
    ry->org[2] = (float)fr->pose.pos.z;
    ry->dir[0] = (float)u.x;
    ry->dir[1] = (float)u.y;
    ry->dir[2] = (float)u.z;
    /* start where the ray leaves the carrier's bounding sphere (the
     * carrier is looked through), stop short of the facet itself: binary32
     * positions and the kernel's interpolated motion put it within
     * millimetres of q->R */
    double t0 = 0.0;
    if (fr->carrier_r > 0) {
      const sensim_vec3 oc = v3_sub(fr->pose.pos, fr->carrier_o);
      const double b = v3_dot(u, oc), disc = b * b - (v3_dot(oc, oc) - fr->carrier_r * fr->carrier_r);
      if (disc > 0) t0 = fmax(0.0, -b + sqrt(disc));
    }
    const double t1 = q->R - (0.01 + 1e-4 * q->R);
    ry->tnear = (float)fmin(t0, t1);
    ry->tfar = (float)t1;
    ry->time = fr->t;
  }
  sensim__rt_occluded(fr->view, fr->rays, fr->occl, n, 0);
  const double coh = R->K * 4.0 * M_PI / (R->lambda * R->lambda);
  sensim_status rc = SENSIM_OK;
  for (size_t i = 0; i < n && rc == SENSIM_OK; i++) {
    if (fr->occl[i]) continue;
    const sub *q = &fr->subs[i];
    const sensim_body_snap *b = &snap->bodies[q->body];
    const sensim_material *mat = &b->mesh->material;
    const sensim_vec3 u = v3_scale(v3_sub(q->c, fr->pose.pos), 1.0 / q->R);
    const sensim_vec3 nn = v3_cross(v3_sub(q->v[1], q->v[0]), v3_sub(q->v[2], q->v[0]));
    const double twice_area = v3_norm(nn);
    const double cosi = fabs(v3_dot(nn, u)) / twice_area;
    const sensim_vec3 ls = q_rotate_inv(fr->pose.rot, v3_sub(q->c, fr->pose.pos));
    sensim__radar_echo e;
    memset(&e, 0, sizeof e);
    e.range = q->R;
    e.az = fast_atan2(ls.y, ls.x);
    e.el = fast_atan2(ls.z, sqrt(ls.x * ls.x + ls.y * ls.y));
    const sensim_vec3 vp = sensim__snap_point_velocity(snap, (size_t)q->body, fr->t, q->c);
    e.vel = v3_dot(u, v3_sub(vp, fr->vs));
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
      const double ph = -fmod(2.0 * R->k * q->R, 2.0 * M_PI);
      const double c = cos(ph), s = sin(ph);
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
static int behind_depth(const facet_run *fr, sensim_vec3 ls, double rs, double max_cells) {
  const sensim__radar *R = fr->R;
  const sensim_radar_params *p = &R->p;
  const double d = v3_norm(ls);
  if (!(d > 2.0 * rs)) return 0;
  const double rho = hypot(ls.x, ls.y);
  const double az = fast_atan2(ls.y, ls.x), el = fast_atan2(ls.z, rho), ang = rs > 0 ? asin(rs / d) : 0.0;
  const double daz = p->hfov / R->naz, del = p->vfov / R->nel;
  const double angaz = rs > 0 ? (rho > rs ? asin(fmin(1.0, rs / rho)) : M_PI) : 0.0;
  const int i0 = (int)floor((az - angaz + 0.5 * p->hfov) / daz) - 1, i1 = (int)floor((az + angaz + 0.5 * p->hfov) / daz) + 1;
  const int j0 = (int)floor((el - ang + 0.5 * p->vfov) / del) - 1, j1 = (int)floor((el + ang + 0.5 * p->vfov) / del) + 1;
  if ((double)(i1 - i0 + 1) * (j1 - j0 + 1) > max_cells) return 0;
  const double near = d - rs, lim = near - (0.1 + 0.01 * near);
  for (int jj = j0 < 0 ? 0 : j0; jj <= j1 && jj < R->nel; jj++)
    for (int ii = i0 < 0 ? 0 : i0; ii <= i1 && ii < R->naz; ii++)
      if (!(fr->depth[(size_t)jj * (size_t)R->naz + (size_t)ii] < lim)) return 0;
  return 1;
}

/* Queue the sub-triangles of world triangle (a, b, c) of body `bi`: split
 * into four at its edges' midpoints while it reaches into the field of view
 * and (i) is larger than the binning scale, or (ii) is larger than the
 * Fresnel criterion's rho and lies within two Fresnel radii of the plane's
 * stationary-phase (specular) point. */
static sensim_status triangle(facet_run *fr, int bi, sensim_vec3 a, sensim_vec3 b, sensim_vec3 c) {
  const sensim__radar *R = fr->R;
  const sensim_radar_params *p = &R->p;
  const sensim_vec3 nn = v3_cross(v3_sub(b, a), v3_sub(c, a));
  const double nl = v3_norm(nn);
  if (!(nl > 0)) return SENSIM_OK;
  const sensim_vec3 n = v3_scale(nn, 1.0 / nl);
  /* the foot of the radar on the triangle's plane: where the two-way
   * phase is stationary */
  const sensim_vec3 foot = v3_sub(fr->pose.pos, v3_scale(n, v3_dot(v3_sub(fr->pose.pos, a), n)));
  struct {
    sensim_vec3 v[3];
    int depth;
  } stack[3 * FACET_MAX_DEPTH + 4];
  int top = 0;
  stack[0].v[0] = a;
  stack[0].v[1] = b;
  stack[0].v[2] = c;
  stack[0].depth = 0;
  top = 1;
  while (top > 0) {
    top--;
    sensim_vec3 v[3] = {stack[top].v[0], stack[top].v[1], stack[top].v[2]};
    const int depth = stack[top].depth;
    const sensim_vec3 ctr = v3_scale(v3_add(v3_add(v[0], v[1]), v[2]), 1.0 / 3.0);
    double rt = 0.0;
    for (int k = 0; k < 3; k++) rt = fmax(rt, v3_norm(v3_sub(v[k], ctr)));
    const sensim_vec3 ls = q_rotate_inv(fr->pose.rot, v3_sub(ctr, fr->pose.pos));
    /* the caller has tested the whole triangle's sphere */
    if (depth > 0 && !sphere_in_view(&fr->f, ls, rt)) continue;
    const double rc = v3_norm(ls), rmin = fmax(rc - rt, fmax(p->min_range, 0.05));
    /* k rho^2 / R <= pi / 32: rho <= sqrt(lambda R / 64) */
    const double rho_fresnel = sqrt(R->lambda * rmin / 64.0);
    const double rho_bin = fmin(R->dr, rmin * p->azimuth_resolution);
    const int near_specular = v3_norm(v3_sub(foot, ctr)) < rt + 2.0 * sqrt(R->lambda * rc);
    const int split = depth < FACET_MAX_DEPTH && (rt > rho_bin || (near_specular && rt > rho_fresnel));
    if (split) {
      if (depth == 0 && behind_depth(fr, ls, rt, 36.0)) continue; /* spare the split of a hidden triangle */
      const sensim_vec3 m01 = v3_scale(v3_add(v[0], v[1]), 0.5), m12 = v3_scale(v3_add(v[1], v[2]), 0.5),
                        m20 = v3_scale(v3_add(v[2], v[0]), 0.5);
      const sensim_vec3 kids[4][3] = {{v[0], m01, m20}, {m01, v[1], m12}, {m20, m12, v[2]}, {m12, m20, m01}};
      for (int k = 0; k < 4; k++) {
        for (int j = 0; j < 3; j++) stack[top].v[j] = kids[k][j];
        stack[top].depth = depth + 1;
        top++;
      }
      continue;
    }
    sub q;
    q.v[0] = v[0];
    q.v[1] = v[1];
    q.v[2] = v[2];
    q.c = ctr;
    q.R = rc;
    if (!(q.R >= p->min_range && q.R <= p->max_range)) continue;
    if (fov_excess(&fr->f, ls) > 0) continue;
    if (behind_depth(fr, ls, 0.0, 9.0)) continue;
    q.body = bi;
    fr->subs[fr->nsub++] = q;
    if (fr->nsub == FACET_CHUNK) {
      sensim_status st = flush(fr);
      if (st) return st;
    }
  }
  return SENSIM_OK;
}

/* Mesh point (x, y, z) in the sensor frame: t + M (x, y, z). */
static sensim_vec3 to_sensor(const double M[9], sensim_vec3 t, double x, double y, double z) {
  return v3(t.x + M[0] * x + M[1] * y + M[2] * z, t.y + M[3] * x + M[4] * y + M[5] * z,
            t.z + M[6] * x + M[7] * y + M[8] * z);
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
  fr.subs = malloc(FACET_CHUNK * sizeof *fr.subs);
  fr.rays = malloc(FACET_CHUNK * sizeof *fr.rays);
  fr.occl = malloc(FACET_CHUNK);
  sensim_status rc = SENSIM_OK;
  if (!fr.subs || !fr.rays || !fr.occl) {
    rc = sensim__fail(SENSIM_ENOMEM, "radar: out of memory for facet echoes");
    goto done;
  }
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
     * t_sb + q_sb x there */
    const sensim_quat q_sb = q_mul(q_conj(pose.rot), bp.rot);
    const sensim_vec3 t_sb = q_rotate_inv(pose.rot, v3_sub(bp.pos, pose.pos));
    if (!sphere_in_view(&fr.f, t_sb, b->mesh->radius)) continue;
    const sensim_mesh *mesh = b->mesh;
    double M[9]; /* q_sb as a matrix: sensor = t_sb + M x */
    {
      const sensim_vec3 ex = q_rotate(q_sb, v3(1, 0, 0)), ey = q_rotate(q_sb, v3(0, 1, 0)),
                        ez = q_rotate(q_sb, v3(0, 0, 1));
      const double m9[9] = {ex.x, ey.x, ez.x, ex.y, ey.y, ez.y, ex.z, ey.z, ez.z};
      memcpy(M, m9, sizeof M);
    }
    for (size_t t0 = 0; t0 < mesh->ntri && rc == SENSIM_OK; t0 += SENSIM__MESH_CHUNK) {
      const float *cb = &mesh->chunk_bounds[4 * (t0 / SENSIM__MESH_CHUNK)];
      const sensim_vec3 cs = to_sensor(M, t_sb, cb[0], cb[1], cb[2]);
      if (!sphere_in_view(&fr.f, cs, cb[3]) || behind_depth(&fr, cs, cb[3], 4096.0)) continue;
      const size_t t1 = t0 + SENSIM__MESH_CHUNK < mesh->ntri ? t0 + SENSIM__MESH_CHUNK : mesh->ntri;
      for (size_t tri = t0; tri < t1 && rc == SENSIM_OK; tri++) {
        sensim_vec3 m[3];
        for (int k = 0; k < 3; k++) {
          const float *x = &mesh->vertices[3 * (size_t)mesh->indices[3 * tri + k]];
          m[k] = v3(x[0], x[1], x[2]);
        }
        /* cull by the triangle's bounding sphere before moving it */
        const sensim_vec3 mc = v3_scale(v3_add(v3_add(m[0], m[1]), m[2]), 1.0 / 3.0);
        const double r2 = fmax(v3_dot(v3_sub(m[0], mc), v3_sub(m[0], mc)),
                               fmax(v3_dot(v3_sub(m[1], mc), v3_sub(m[1], mc)), v3_dot(v3_sub(m[2], mc), v3_sub(m[2], mc))));
        if (!sphere_in_view(&fr.f, to_sensor(M, t_sb, mc.x, mc.y, mc.z), sqrt(r2))) continue;
        sensim_vec3 w[3];
        for (int k = 0; k < 3; k++) w[k] = v3_add(bp.pos, q_rotate(bp.rot, m[k]));
        rc = triangle(&fr, (int)bi, w[0], w[1], w[2]);
      }
    }
  }
  if (rc == SENSIM_OK) rc = flush(&fr);
done:
  free(fr.subs);
  free(fr.rays);
  free(fr.occl);
  return rc;
}
