/* sensors/camera_render.h: what the camera's integrators share: a band's
 * render state, packets of 16 rays, the strip's samples and its primary
 * rays (sensors/camera_render.c), and the integrators themselves (direct
 * in camera_render.c, path in sensors/render/path.c). Not installed. */
#ifndef SENSIM_SENSORS_CAMERA_RENDER_H
#define SENSIM_SENSORS_CAMERA_RENDER_H

#include "scene/environment.h"
#include "sensors/camera_internal.h"
#include "sensors/camera_shade.h"

#define TILE 4 /* a tile is TILE x TILE pixels: one packet of 16 */
#define LANES 16
#define RENDER_SUNS 8

/* A packet of rays with what the shading needs besides Embree's fields. */
typedef struct lanes {
  sensim_rt_packet16 pk;
  float w[3][LANES];    /* path throughput per channel */
  size_t sample[LANES]; /* sample index in the strip */
  float pdf[LANES];     /* path: density of the direction at the last vertex (0: camera or delta) */
  unsigned char ch[LANES]; /* path: the colour channel of a lateral-CA ray (0 otherwise) */
  unsigned valid;       /* lanes holding a ray */
  unsigned plane;       /* lanes whose hit feeds the depth/label/normal planes */
} lanes;

/* What a band renders with: the capture's read-only state and its scratch. */
typedef struct render {
  sensim_stream_key key;
  const sensim_camera *cam;
  const sensim_snapshot *snap;
  sensim_rt_view *view;
  sensim_pose_table poses;
  sensim_camera_scratch *s;
  const sensim_camera_body *bodies; /* per snapshot body, shared by the frame's bands */
  int fixed;            /* one pose for every ray */
  float org[3], rot[9]; /* that pose: origin, sensor-to-world rotation (row-major) */
  int pinhole;          /* plain pinhole on a fixed pose: rays by the packet kernel */
  sensim_camera_pinhole pin;
  int static_view; /* ray times do not matter */
  float bg[3];     /* background radiance */
  float beta;      /* fog extinction, 1/m */
  float ambient;   /* ambient irradiance / pi */
  /* Directional lights (the first RENDER_SUNS): direction to them,
   * irradiance, whether they send anything; the same at every point. */
  float sun_to[RENDER_SUNS][3], sun_irr[RENDER_SUNS];
  int sun_ok[RENDER_SUNS];
  sensim_env env; /* path: the world's environment, or the background as a uniform one */
  const struct sensim_emitters *emitters; /* path: the snapshot's emissive triangles (NULL: none) */
} render;

/* The strip's samples (jittered positions, times, aperture points) from
 * each row's stream, and its sample slots cleared. */
void sensim__camera_strip_samples(render *r, uint32_t y0, uint32_t nrows);
/* Primary rays of tile tx for sample k, channel c, into L. */
void sensim__camera_tile_rays(render *r, uint32_t y0, uint32_t nrows, uint32_t tx, int k, int c, lanes *L);
/* Queue a ray for the next bounce. */
sensim_status sensim__camera_wave_push(sensim_camera_wave *q, const float o[3], const float d[3], float time,
                                       const float w[3], size_t sample);

/* Make the queued rays (s->next) the wave to trace, and the traced one
 * the empty queue for the bounce after; returns the wave to trace. */
sensim_camera_wave sensim__camera_wave_next(sensim_camera_scratch *s);
/* Lanes from rays [i, i + LANES) of wave q: origin, direction, time,
 * throughput and sample, tnear 0, tfar infinity, valid set, plane 0. */
void sensim__camera_wave_lanes(const sensim_camera_wave *q, size_t i, lanes *L);

/* The path integrator's strip (sensors/render/path.c). */
sensim_status sensim__camera_path_strip(render *r, uint32_t y0, uint32_t nrows);

#endif
