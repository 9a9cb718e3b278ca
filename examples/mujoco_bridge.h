/* examples/mujoco_bridge.h: MuJoCo as sensim's host engine.
 *
 * Converts an mjModel's geoms into sensim meshes and bodies, and after each
 * mj_step pushes every moving MuJoCo body's and geom's pose, velocity and
 * acceleration into sensim. Used by examples/mujoco_host.c and the MuJoCo
 * cross-check tests (tests/host/mujoco_tests.c). */
#ifndef SENSIM_EXAMPLES_MUJOCO_BRIDGE_H
#define SENSIM_EXAMPLES_MUJOCO_BRIDGE_H

#include <mujoco/mujoco.h>
#include <sensim/sensim.h>

typedef struct mjb_bridge {
  const mjModel *m;         /* borrowed; outlives the bridge */
  sensim_world *world;      /* borrowed */
  sensim_body **frame;      /* per MuJoCo body: a bare sensim frame that sensors
                               can ride (nbody; [0], the world, is NULL) */
  sensim_body **geom;       /* per MuJoCo geom: its sensim body, or NULL (ngeom) */
  int skipped_geoms;        /* geoms of a type sensim does not model (hfield) */
} mjb_bridge;

/* Build the sensim scene for model m in `world`: one mesh per geom
 * (plane, box, sphere, ellipsoid, capsule, cylinder, mesh), static for
 * geoms welded to the world. `d` must hold positions for the initial
 * state (mj_forward run). */
sensim_status mjb_create(const mjModel *m, const mjData *d, sensim_world *world, mjb_bridge *out);
void mjb_free(mjb_bridge *b);

/* Push the state of every moving body frame and geom at time t. Call after
 * mj_step with t = d->time - m->opt.timestep: mj_step computes positions,
 * velocities, accelerations and sensor values for the state it started
 * from and only then integrates, so after it returns the kinematic fields
 * belong to the step's start time. Needs d->cacc (computed when the model
 * has an acceleration sensor; otherwise call mj_rnePostConstraint first). */
sensim_status mjb_push(mjb_bridge *b, const mjData *d, double t);

/* The state of a MuJoCo object (mjOBJ_BODY, mjOBJ_GEOM or mjOBJ_SITE) as
 * sensim takes it: pose, and velocity and acceleration of its origin in
 * world axes, gravity removed from MuJoCo's acceleration. */
void mjb_object_state(const mjModel *m, const mjData *d, int objtype, int id, sensim_body_state *s);

/* The pose of a site in its body's frame (a sensor mount). */
sensim_pose mjb_site_mount(const mjModel *m, int site);

/* The rover's drive: skid-steer torques weaving left and right (N m). */
void mjb_rover_control(const mjModel *m, mjData *d);

#endif
