/* examples/mujoco_bridge.c: MuJoCo geoms to sensim meshes, mjData to sensim
 * body states.
 *
 * Acceleration. MuJoCo keeps body motion as spatial vectors about the
 * subtree centre of mass: d->cvel = [omega; v_c] and d->cacc its time
 * derivative in spatial (Plucker) form, where the linear part is the
 * derivative of the velocity field at a point fixed in space, not the
 * acceleration of a material point. The classical acceleration of a point
 * p moving with the body is a_p = a_spatial,p + omega x v_p (Featherstone,
 * "Rigid Body Dynamics Algorithms", Springer 2008, sec. 2.11, eq. 2.44).
 * mj_objectAcceleration shifts cacc to the object's origin and adds that
 * omega x v term (the same computation MuJoCo's accelerometer makes,
 * engine_sensor.c). MuJoCo's forward pass also starts its recursion at the
 * world body with acceleration -g (mj_rnePostConstraint, "gravity as a
 * fictitious acceleration"), so cacc carries a_p - g: a body at rest reads
 * +9.81 m/s^2 up. sensim wants the true acceleration (its IMU subtracts g
 * itself, imu.h), so the bridge adds m->opt.gravity back. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mujoco_bridge.h"

#define MJB_SEGMENTS 48 /* facets around curved geoms */
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static sensim_pose pose_from(const mjtNum pos[3], const mjtNum mat[9]) {
  mjtNum q[4];
  mju_mat2Quat(q, mat);
  mju_normalize4(q);
  sensim_pose p = {{pos[0], pos[1], pos[2]}, {q[0], q[1], q[2], q[3]}};
  return p;
}

/* A solid of revolution about Z from a profile of (radius, z) rings,
 * bottom to top; a ring of radius 0 is one vertex (a pole). x and y are
 * scaled by sx, sy (ellipsoids). Faces wind counter-clockwise seen from
 * outside. */
static sensim_status lathe(sensim_world *w, const double (*ring)[2], int nring, double sx, double sy,
                           const sensim_material *mat, sensim_mesh **out) {
  const int n = MJB_SEGMENTS;
  float *v = malloc((size_t)nring * n * 3 * sizeof *v);
  uint32_t *ix = malloc((size_t)(nring - 1) * n * 6 * sizeof *ix);
  int *first = malloc((size_t)nring * sizeof *first);
  if (!v || !ix || !first) {
    free(v), free(ix), free(first);
    return SENSIM_ENOMEM;
  }
  size_t nv = 0, nt = 0;
  for (int i = 0; i < nring; i++) {
    first[i] = (int)nv;
    int cnt = ring[i][0] == 0.0 ? 1 : n;
    for (int j = 0; j < cnt; j++) {
      double a = 2.0 * M_PI * j / n;
      v[3 * nv] = (float)(sx * ring[i][0] * cos(a));
      v[3 * nv + 1] = (float)(sy * ring[i][0] * sin(a));
      v[3 * nv + 2] = (float)ring[i][1];
      nv++;
    }
  }
  for (int i = 0; i + 1 < nring; i++) {
    int lo_pole = ring[i][0] == 0.0, hi_pole = ring[i + 1][0] == 0.0;
    for (int j = 0; j < n; j++) {
      uint32_t a = (uint32_t)(first[i] + (lo_pole ? 0 : j));
      uint32_t b = (uint32_t)(first[i] + (lo_pole ? 0 : (j + 1) % n));
      uint32_t c = (uint32_t)(first[i + 1] + (hi_pole ? 0 : (j + 1) % n));
      uint32_t d = (uint32_t)(first[i + 1] + (hi_pole ? 0 : j));
      if (!lo_pole) { ix[3 * nt] = a, ix[3 * nt + 1] = b, ix[3 * nt + 2] = c; nt++; }
      if (!hi_pole) { ix[3 * nt] = a, ix[3 * nt + 1] = c, ix[3 * nt + 2] = d; nt++; }
    }
  }
  sensim_mesh_desc d;
  sensim_mesh_desc_init(&d);
  d.vertices = v, d.nvert = nv, d.indices = ix, d.ntri = nt, d.material = mat;
  sensim_status rc = sensim_mesh_create(w, &d, out);
  free(v), free(ix), free(first);
  return rc;
}

/* Profile of a capsule of radius r whose cylinder runs z in [-h, h]
 * (h = 0: a sphere). */
static int capsule_profile(double r, double h, double (*ring)[2], int nlat) {
  int k = 0;
  for (int i = 0; i <= nlat; i++) { /* lower hemisphere, pole first */
    double phi = -M_PI / 2 + (M_PI / 2) * i / nlat;
    ring[k][0] = i == 0 ? 0.0 : r * cos(phi);
    ring[k][1] = r * sin(phi) - h;
    k++;
  }
  for (int i = h > 0 ? 0 : 1; i <= nlat; i++) { /* upper hemisphere, pole last */
    double phi = (M_PI / 2) * i / nlat;
    ring[k][0] = i == nlat ? 0.0 : r * cos(phi);
    ring[k][1] = r * sin(phi) + h;
    k++;
  }
  return k;
}

static sensim_status geom_mesh(const mjModel *m, int g, sensim_world *w, sensim_mesh **out, int *skipped) {
  const mjtNum *size = m->geom_size + 3 * g;
  sensim_material mat;
  sensim_material_init(&mat);
  for (int c = 0; c < 3; c++) mat.base_color[c] = m->geom_rgba[4 * g + c];
  *out = NULL;
  double ring[2 * (MJB_SEGMENTS / 4 + 1) + 2][2];
  switch (m->geom_type[g]) {
    case mjGEOM_PLANE: {
      /* size 0 means an infinite plane: 200 m square stands in for it. */
      sensim_shape s = {SENSIM_SHAPE_PLANE, {size[0] > 0 ? 2 * size[0] : 200, size[1] > 0 ? 2 * size[1] : 200, 0}, 0};
      return sensim_mesh_create_shape(w, &s, &mat, out);
    }
    case mjGEOM_BOX: {
      sensim_shape s = {SENSIM_SHAPE_BOX, {2 * size[0], 2 * size[1], 2 * size[2]}, 0};
      return sensim_mesh_create_shape(w, &s, &mat, out);
    }
    case mjGEOM_SPHERE: {
      sensim_shape s = {SENSIM_SHAPE_SPHERE, {size[0], 0, 0}, MJB_SEGMENTS};
      return sensim_mesh_create_shape(w, &s, &mat, out);
    }
    case mjGEOM_ELLIPSOID: {
      /* A unit-height sphere profile scaled: z by size[2], x and y by
       * size[0] and size[1]. */
      int k = capsule_profile(1.0, 0.0, ring, MJB_SEGMENTS / 4);
      for (int i = 0; i < k; i++) ring[i][1] *= size[2];
      return lathe(w, (const double(*)[2])ring, k, size[0], size[1], &mat, out);
    }
    case mjGEOM_CAPSULE: {
      int k = capsule_profile(size[0], size[1], ring, MJB_SEGMENTS / 4);
      return lathe(w, (const double(*)[2])ring, k, 1.0, 1.0, &mat, out);
    }
    case mjGEOM_CYLINDER: { /* centred, unlike sensim's cylinder shape */
      const double prof[4][2] = {{0, -size[1]}, {size[0], -size[1]}, {size[0], size[1]}, {0, size[1]}};
      return lathe(w, prof, 4, 1.0, 1.0, &mat, out);
    }
    case mjGEOM_MESH: {
      /* MuJoCo stores mesh vertices in the geom's frame (re-centred at
       * compile time, with geom_pos/geom_quat compensating). */
      int id = m->geom_dataid[g];
      int nv = m->mesh_vertnum[id], nf = m->mesh_facenum[id];
      const float *v = m->mesh_vert + 3 * m->mesh_vertadr[id];
      const int *f = m->mesh_face + 3 * m->mesh_faceadr[id];
      uint32_t *ix = malloc((size_t)nf * 3 * sizeof *ix);
      if (!ix) return SENSIM_ENOMEM;
      for (int i = 0; i < 3 * nf; i++) ix[i] = (uint32_t)f[i];
      sensim_mesh_desc d;
      sensim_mesh_desc_init(&d);
      d.vertices = v, d.nvert = (size_t)nv, d.indices = ix, d.ntri = (size_t)nf, d.material = &mat;
      sensim_status rc = sensim_mesh_create(w, &d, out);
      free(ix);
      return rc;
    }
    default:
      (*skipped)++; /* height fields: not converted */
      return SENSIM_OK;
  }
}

sensim_status mjb_create(const mjModel *m, const mjData *d, sensim_world *w, mjb_bridge *b) {
  memset(b, 0, sizeof *b);
  b->m = m;
  b->world = w;
  b->frame = calloc((size_t)m->nbody, sizeof *b->frame);
  b->geom = calloc((size_t)(m->ngeom ? m->ngeom : 1), sizeof *b->geom);
  if (!b->frame || !b->geom) {
    mjb_free(b);
    return SENSIM_ENOMEM;
  }
  sensim_status rc = SENSIM_OK;
  sensim_body_params bp;
  for (int i = 1; i < m->nbody && !rc; i++) {
    sensim_body_params_init(&bp);
    bp.is_static = m->body_weldid[i] == 0;
    mjtNum mat[9];
    mju_quat2Mat(mat, d->xquat + 4 * i);
    bp.pose = pose_from(d->xpos + 3 * i, mat);
    rc = sensim_body_create(w, &bp, &b->frame[i]);
  }
  for (int g = 0; g < m->ngeom && !rc; g++) {
    sensim_mesh *mesh = NULL;
    if ((rc = geom_mesh(m, g, w, &mesh, &b->skipped_geoms)) || !mesh) continue;
    sensim_body_params_init(&bp);
    bp.mesh = mesh;
    bp.is_static = m->body_weldid[m->geom_bodyid[g]] == 0;
    bp.class_id = (uint16_t)(m->geom_bodyid[g] + 1);
    bp.pose = pose_from(d->geom_xpos + 3 * g, d->geom_xmat + 9 * g);
    rc = sensim_body_create(w, &bp, &b->geom[g]);
  }
  if (rc) mjb_free(b);
  return rc;
}

void mjb_free(mjb_bridge *b) {
  /* sensim bodies and meshes belong to the world. */
  free(b->frame);
  free(b->geom);
  b->frame = NULL;
  b->geom = NULL;
}

void mjb_object_state(const mjModel *m, const mjData *d, int type, int id, sensim_body_state *s) {
  memset(s, 0, sizeof *s);
  mjtNum mat[9];
  if (type == mjOBJ_BODY) {
    mju_quat2Mat(mat, d->xquat + 4 * id);
    s->pose = pose_from(d->xpos + 3 * id, mat);
  } else if (type == mjOBJ_GEOM) {
    s->pose = pose_from(d->geom_xpos + 3 * id, d->geom_xmat + 9 * id);
  } else {
    s->pose = pose_from(d->site_xpos + 3 * id, d->site_xmat + 9 * id);
  }
  mjtNum vel[6], acc[6];
  /* [rotation; translation] of the object's origin, world axes (flg_local 0). */
  mj_objectVelocity(m, d, type, id, vel, 0);
  mj_objectAcceleration(m, d, type, id, acc, 0);
  s->flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
  s->ang_vel = (sensim_vec3){vel[0], vel[1], vel[2]};
  s->lin_vel = (sensim_vec3){vel[3], vel[4], vel[5]};
  s->ang_acc = (sensim_vec3){acc[0], acc[1], acc[2]};
  /* cacc holds a - g (file comment): add g back for the true acceleration. */
  s->lin_acc = (sensim_vec3){acc[3] + m->opt.gravity[0], acc[4] + m->opt.gravity[1], acc[5] + m->opt.gravity[2]};
}

sensim_status mjb_push(mjb_bridge *b, const mjData *d, double t) {
  const mjModel *m = b->m;
  sensim_body_state s;
  for (int i = 1; i < m->nbody; i++) {
    if (m->body_weldid[i] == 0) continue;
    mjb_object_state(m, d, mjOBJ_BODY, i, &s);
    sensim_status rc = sensim_body_push_state(b->frame[i], t, &s);
    if (rc) return rc;
  }
  for (int g = 0; g < m->ngeom; g++) {
    if (!b->geom[g] || m->body_weldid[m->geom_bodyid[g]] == 0) continue;
    mjb_object_state(m, d, mjOBJ_GEOM, g, &s);
    sensim_status rc = sensim_body_push_state(b->geom[g], t, &s);
    if (rc) return rc;
  }
  return SENSIM_OK;
}

sensim_pose mjb_site_mount(const mjModel *m, int site) {
  const mjtNum *p = m->site_pos + 3 * site, *q = m->site_quat + 4 * site;
  sensim_pose pose = {{p[0], p[1], p[2]}, {q[0], q[1], q[2], q[3]}};
  return pose;
}

void mjb_rover_control(const mjModel *m, mjData *d) {
  if (m->nu < 4) return;
  /* Left and right torques swing in opposite phase: the rover weaves. */
  double turn = 2.4 * sin(0.7 * d->time);
  d->ctrl[0] = d->ctrl[2] = 0.6 + turn;
  d->ctrl[1] = d->ctrl[3] = 0.6 - turn;
}
