/* sensors/camera_internal.h: the camera's configuration and its renderer.
 * Not installed. */
#ifndef SENSIM_SENSORS_CAMERA_INTERNAL_H
#define SENSIM_SENSORS_CAMERA_INTERNAL_H

#include <stdatomic.h>
#include "core/stash.h"
#include "sensim/camera.h"
#include "sensors/optics.h"
#include "sensors/traced.h"
#include "sensors/window.h"

/* A mirror reflection waiting for the next bounce. */
typedef struct sensim_camera_wave_ray {
  float org[3], dir[3]; /* world */
  float w[3];           /* path throughput */
  float time;           /* the view's ray time */
  size_t sample;        /* sample index in the strip */
  float pdf;            /* path: density of dir at the vertex it left (0: delta) */
  unsigned char ch;     /* path: colour channel of a lateral-CA ray */
} sensim_camera_wave_ray;

typedef struct sensim_camera_wave {
  sensim_camera_wave_ray *ray;
  size_t n, cap;
} sensim_camera_wave;

/* A snapshot body as shading and the label plane see it, packed so that a
 * strip's lookups stay in cache. */
typedef struct sensim_camera_body {
  float base[3];        /* base colour */
  float rough, metal;   /* roughness, metallic */
  uint16_t class_id;
  uint32_t instance_id;
  int textured;         /* the material varies over the surface: shading.c evaluates it per hit
                           (sensim__surface_varies) */
  /* What the path integrator needs besides (sensors/render/path.c). */
  float emission[3];    /* emitted radiance, W/(sr m^2) */
  float specular, ior, transmission;
  int thin_walled;
  const sensim_instance_group *group; /* the body's placements (their ids and variation), or NULL */
} sensim_camera_body;

/* The label of a hit on body cb, placement elem (0 for a plain body). */
static inline void sensim__camera_label_of(const sensim_camera_body *cb, uint32_t elem, uint16_t *cls, uint32_t *inst) {
  sensim__hit_ids(cb->group, cb->class_id, cb->instance_id, elem, cls, inst);
}

/* A base colour with placement elem's variation applied (clamped to
 * [0, 1], as sensim_instances_desc says); unchanged for a plain body. */
static inline void sensim__camera_vary_base(const sensim_camera_body *cb, uint32_t elem, float base[3]) {
  if (!cb->group || cb->group->albedo_jitter == 0.0f) return;
  float a[3], r;
  sensim__group_variation(cb->group, elem, a, &r);
  for (int c = 0; c < 3; c++) {
    const float x = base[c] * a[c];
    base[c] = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
  }
}

/* What one render band works in: a strip's samples (4 rows x width x
 * samples) and its reflection waves. Kept by the camera between frames, so
 * a camera in steady state allocates nothing to render. */
typedef struct sensim_camera_scratch {
  float (*col)[3];      /* radiance per sample */
  float (*uvoff)[2];    /* offset in its pixel */
  float (*lens)[2];     /* uniforms in (0, 1) picking its point of the aperture (depth of field) */
  double *t;            /* time, s */
  sensim_pose *pose;    /* sensor pose (moving sensors only) */
  float *axial;         /* X component of the unit sensor-frame ray */
  float *hit_t;         /* primary hit distance (INFINITY: miss) */
  float (*hit_n)[3];    /* primary normal, world */
  int *hit_body;        /* primary hit body, -1: miss */
  uint32_t *hit_elem;   /* its placement hit (sensim_rt_hit.elem) */
  uint32_t *words;      /* one row's random words (up to 5 per sample) */
  sensim_camera_body *bodies; /* per snapshot body, filled per frame */
  size_t cap_bodies;
  sensim_camera_wave cur, next;
} sensim_camera_scratch;

/* Render bands per frame at most (core/fork.h asks for 4 (threads + 1)). */
#define SENSIM_CAMERA_MAX_BANDS 64

typedef struct sensim_camera {
  sensim_camera_params p;
  sensim_optics *optics;
  int grid;        /* samples = grid^2 when stratified, else 0 */
  int nch;         /* rays per sample: 1, or 3 (one per channel) with lateral CA */
  double beta;     /* fog extinction coefficient, 1/m */
  double readout;  /* (height - 1) x line_time, s */
  double dof_radius; /* aperture radius, m; 0: no depth of field (pinhole rays) */
  sensim_stash scratch;              /* free scratch sets */
  atomic_size_t scratch_made;        /* scratch sets in existence (free or in use) */
} sensim_camera;

/* A scratch set for one band (reused, or allocated on first use), and its
 * return. sensors/camera_scratch.c. */
sensim_status sensim__camera_scratch_take(sensim_camera *c, sensim_camera_scratch **out);
void sensim__camera_scratch_give(sensim_camera *c, sensim_camera_scratch *s);
/* Make sure at least n scratch sets exist (the bands one frame runs at
 * once, and the set holding its body table), with room for nbodies in
 * their body tables, so that a frame finds them made whichever threads
 * happen to run its bands together. */
sensim_status sensim__camera_scratch_reserve(sensim_camera *c, size_t n, size_t nbodies);
/* Fill s->bodies from the snapshot (growing it only when the world has more
 * bodies than before). */
sensim_status sensim__camera_scratch_bodies(sensim_camera_scratch *s, const sensim_snapshot *snap);
/* Free every kept scratch set (camera destruction). */
void sensim__camera_scratch_free_all(sensim_camera *c);

/* Depth of field (sensors/camera_dof.c). The aperture radius (m) the
 * parameters ask for, 0 for none; SENSIM_EINVAL naming the parameter. */
sensim_status sensim__camera_dof_init(const sensim_camera_params *p, double *radius);
/* Turn the chief ray d (sensor frame, unit) into the thin lens's ray from
 * the aperture point picked by the uniforms (la, lb): o gets its origin
 * (sensor frame, m), d its unit direction through the chief ray's point
 * on the plane in focus. Returns 0 (d, o untouched) for a chief ray
 * nearly parallel to that plane. */
int sensim__camera_dof_ray(double radius, double focus, double la, double lb, double d[3], double o[3]);

/* Average the samples of rows [y0, y0 + nrows) (scratch s, strip-relative)
 * into f's radiance, depth, label and normal planes, writing every value;
 * fixed: one sensor pose for every ray, whose sensor-to-world rotation is
 * rot (row-major); else each sample's pose. sensors/camera_resolve.c. */
void sensim__camera_resolve(const sensim_camera *cam, const sensim_camera_scratch *s, const sensim_camera_body *bodies,
                            int fixed, const float rot[9], uint32_t y0, uint32_t nrows, sensim_frame *f);

/* Render the capture into f's rgb, depth, label and normal planes (already
 * allocated, zeroed). sensors/camera_render.c. */
sensim_status sensim__camera_render(const sensim_capture_ctx *ctx, sensim_frame *f);

#endif
