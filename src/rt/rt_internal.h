/* rt/rt_internal.h: Embree handles behind the rt module's opaque types. */
#ifndef SENSIM_RT_RT_INTERNAL_H
#define SENSIM_RT_RT_INTERNAL_H

#include <embree3/rtcore.h>
#include <pthread.h>
#include "core/stash.h"
#include "rt/rt.h"

#define SENSIM_RT_MAX_STEPS 64
/* How closely a moving body's motion steps must reproduce its keyframes
 * (rt/view.c): every vertex within 1 mm of where the keyframes put it,
 * bounded by |position error| + angle error x the mesh's radius. A
 * lidar's range noise is 15-30 mm (OS1, VLP-16 datasheets); 1 mm at 10 m
 * is 0.1 mrad, a tenth of a 1280-pixel, 90-degree camera's pixel. */
#define SENSIM_RT_STEP_TOL 1e-3

/* One body's instance in a top-level scene: which BLAS, and its pose at
 * each time step (steps[first .. first + nsteps)). What Embree is given is
 * a function of these alone, so two scenes with equal instance lists trace
 * alike. */
typedef struct sensim_rt_step {
  sensim_vec3 pos; /* world, m */
  sensim_quat rot; /* mesh frame to world */
} sensim_rt_step;

/* A body's rotation as a row-major float matrix, valid if `one_step`. */
typedef struct sensim_rt_body_rot {
  float m[9];
  int one_step;
} sensim_rt_body_rot;

/* A committed top-level scene and what finish_hit needs of it; shared by
 * the views that trace it and by the world's one-entry cache
 * (sensim__rt_scene_release drops a reference). Immutable once built. */
typedef struct sensim_rt_scene {
  RTCScene scene;
  size_t cap_nb, cap_total;     /* capacities of the per-body and per-step arrays (spares) */
  int refs;                   /* guarded by the owning sensim_rt's lock */
  size_t nbodies;             /* snapshot bodies the lists below index */
  RTCScene *blas;             /* per body: its BLAS, NULL for bodies without a mesh (borrowed: the world
                                 keeps every BLAS until its kernel, cache first, is released) */
  int *nsteps;                /* per body; 0 for bodies without a mesh */
  size_t *first;              /* per body: index of its first step */
  size_t total;               /* steps over all bodies */
  sensim_rt_step *step;       /* total */
  float (*mat)[9];            /* per step: row-major rotation of step[i].rot, for float normals */
  sensim_rt_body_rot *fixed;  /* per body: its rotation if it has one step (one load per hit) */
  int is_static;              /* every body with a mesh has one step */
  RTCScene *owned;            /* BLAS built for this scene's deforming bodies (released with it) */
  size_t nowned;
  int deforming;              /* some body of the list deforms: never equal to another list */
} sensim_rt_scene;

typedef struct sensim_rt {
  RTCDevice device;
  RTCScene *blas;     /* indexed by mesh index */
  size_t nblas, cap;
  struct sensim_rt_group **groups; /* indexed by body index: the placements' BVH of a body
                                      holding placements (rt/instances.c), else NULL */
  size_t ngroups, cap_groups;
  /* The last top-level scene built: reused by the next capture whose
   * instance list is equal (a static scene, or one where nothing moved),
   * which skips rebuilding the instance BVH. */
  pthread_mutex_t lock;
  sensim_rt_scene *cached[2]; /* per part: SENSIM_RT_MOVING, SENSIM_RT_STATIC */
  unsigned long builds;       /* top-level scenes built, for tests */
  int rebuild;                /* benchmarks' "before": the moving part built anew, never updated */
  /* Blocks of finished captures kept for the next ones (at most
   * SENSIM_RT_SPARES of each): in a world whose instances do not change, a
   * capture then allocates nothing in the kernel. */
  sensim_stash spare_bindings;
  sensim_stash spare_lists; /* instance lists without an Embree scene */
  int list_users;           /* threads that may build a view at once: the world's workers and its host */
  sensim_stash spare_views;
} sensim_rt;

#define SENSIM_RT_SPARES 8

struct sensim_rt_binding {
  RTCDevice device;
  RTCScene *blas;     /* per snapshot body; NULL for bodies without a mesh (borrowed from held) */
  RTCScene *held;     /* every BLAS of the world at binding time, retained */
  size_t nheld;
  size_t nbodies;
  sensim_rt *rt;      /* the world's kernel: outlives every capture job (the pool stops first) */
  size_t cap_blas, cap_held;
};

/* A view's two parts. Static bodies (sensim_body_params.is_static) never
 * move, so their instances form a scene of their own, built once and
 * reused by every capture until the set of static bodies changes; bodies
 * that may move form the other, rebuilt when one of them moved. A ray is
 * traced through the static part and then the moving part, whose closer
 * hits replace the first (Embree keeps a ray's hit when it finds none
 * nearer than tfar). So a capture's rebuild costs what the moving bodies
 * cost, and the static world's BVH carries no motion blur. */
enum { SENSIM_RT_MOVING = 0, SENSIM_RT_STATIC = 1 };

struct sensim_rt_view {
  sensim_rt_scene *part[2];     /* referenced; NULL for a part without instances */
  sensim_rt *rt;                /* whose lock guards the parts' refs */
  RTCScene scenes[2];           /* part[i]->scene in tracing order (static first), NULL-padded */
  int nscenes;
  double t0, t1;                /* window mapped to ray time [0, 1] */
  const sensim_snapshot *snap;  /* borrowed: the capture owns it */
};

/* Filter functions on a mesh's geometry that make its alpha-masked and
 * alpha-blended triangles let rays through (rt/alpha.c); nothing for an
 * opaque mesh. */
void sensim__rt_alpha_attach(RTCGeometry g, const sensim_mesh *m);

/* The placements of group g of mesh m (BLAS mesh_blas) as one user
 * geometry in a scene of their own, built once (rt/instances.c). */
struct sensim_rt_group;
sensim_status sensim__rt_group_build(RTCDevice dev, RTCScene mesh_blas, const sensim_mesh *m,
                                     const sensim_instance_group *g, struct sensim_rt_group **out);
/* Its scene: what a view instances, with the identity, for the holding body. */
RTCScene sensim__rt_group_scene(const struct sensim_rt_group *gr);
void sensim__rt_group_free(struct sensim_rt_group *gr);

/* Free the kernel's spare blocks (rt/view.c; the world's release). */
void sensim__rt_spares_free(sensim_rt *rt);

/* Motion steps of snapshot body b over [t0, t1] (rt/view.c): 1 for a body
 * that cannot move, else the fewest that meet the tolerances above. */
int sensim__rt_step_count(const sensim_body_snap *b, double t0, double t1);

/* The part of v holding snapshot body `body`'s instance. */
static inline const sensim_rt_scene *sensim__rt_part_of(const sensim_rt_view *v, unsigned body) {
  return v->snap->bodies[body].is_static ? v->part[SENSIM_RT_STATIC] : v->part[SENSIM_RT_MOVING];
}

/* Drop the world's cached top-level scene (rt/view.c); world teardown. */
void sensim__rt_cache_release(sensim_rt *rt);

/* Unit world normals n = m g / |m g| of the lanes in `lanes` (bit i: lane
 * i) from mesh-frame normals g, for one static body's row-major rotation
 * m; other lanes keep their values (rt/normals16.c). */
void sensim__rt_body_normals16(const float m[9], const float gx[16], const float gy[16], const float gz[16],
                               unsigned lanes, float nx[16], float ny[16], float nz[16]);

#endif
