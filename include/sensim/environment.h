/* sensim/environment.h: the light that reaches the scene from infinitely
 * far away (the sky), as the path integrator sees it (docs/rendering.md).
 *
 * The world owns one environment. The path integrator samples it as a light
 * (next-event estimation) and adds it where rays escape; the direct
 * integrator keeps the world's background and ambient terms. Radiance is
 * in the camera's linear radiance units, W/(sr m^2) per RGB channel. */
#ifndef SENSIM_ENVIRONMENT_H
#define SENSIM_ENVIRONMENT_H

#include "sensim/export.h"

#include "sensim/status.h"
#include "sensim/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sensim_environment_type {
  SENSIM_ENVIRONMENT_NONE = 0,    /* no environment: the path integrator sees the
                                     world's background as uniform radiance */
  SENSIM_ENVIRONMENT_UNIFORM = 1, /* the same radiance from every direction */
  SENSIM_ENVIRONMENT_SKY = 2,     /* a clear sky (Preetham, Shirley & Smits 1999) and
                                     the sun as a disc of 0.53 deg (docs/rendering.md) */
  SENSIM_ENVIRONMENT_MAP = 3      /* an equirectangular radiance map (a .hdr file through
                                     sensim_texture_load_hdr), importance-sampled by luminance */
} sensim_environment_type;

/* Radiance units: the camera's linear radiance, W/(sr m^2). The sky model
 * gives luminance (cd/m^2); it enters as luminance / 683 lm/W (the
 * luminous efficacy at 555 nm), so a frame of the sky is in "photopic
 * watts" and an image-sensor filter calibrated in W/(sr m^2) sees the
 * sky's brightness right (docs/rendering.md). */
typedef struct sensim_environment {
  sensim_environment_type type;
  float radiance[3]; /* UNIFORM: radiance, W/(sr m^2) per linear RGB channel,
                        each finite and >= 0 */
  /* SKY: the sun's position in the world's ENU frame (x east, y north, z up). */
  double sun_elevation; /* rad above the horizon, [-pi/2, pi/2]; below 0 the sun
                           and the sky are dark (the model holds above the horizon) */
  double sun_azimuth;   /* rad, from north (+y) towards east (+x), finite */
  double turbidity;     /* Linke-like turbidity of the model, [1.7, 10]: 2 very
                           clear, 3 clear, 6 hazy */
  int sun;              /* nonzero: the sun's disc shines too (default) */
  /* MAP: column u in [0, 1) is the azimuth 2 pi u from east (+x) towards north
   * (+y), row v in [0, 1] (row 0 on top) the zenith angle pi v; each pixel is
   * a constant radiance over its cell. */
  const sensim_texture *map; /* borrowed from the same world (which keeps it) */
  float scale;          /* MAP: radiance = texel x scale, finite and >= 0 */
} sensim_environment;

/* Defaults: NONE; radiance 1 (what UNIFORM then gives); sky: sun 45 deg up
 * in the south (azimuth 180 deg), turbidity 3, with the sun; no map, scale 1. */
SENSIM_API void sensim_environment_init(sensim_environment *env);

/* Replace the world's environment (copied) for every capture that starts
 * at a later sensim_world_advance; captures already started keep theirs.
 * SENSIM_EINVAL naming the field, the environment unchanged, for NULL
 * arguments, an unknown type or a value out of range. */
SENSIM_API sensim_status sensim_world_set_environment(sensim_world *world, const sensim_environment *env);

/* The environment as last set (NONE if never set). SENSIM_EINVAL for NULL. */
SENSIM_API sensim_status sensim_world_get_environment(const sensim_world *world, sensim_environment *out);

/* The same from JSON text, the scenario's "world": {"environment": ...}
 * (docs/scenario.md): {"type": "none"}, {"type": "uniform",
 * "radiance": [r, g, b]} or {"type": "sky", "sun_elevation_deg": e,
 * "sun_azimuth_deg": a, "turbidity": t, "sun": true} or {"type": "map",
 * "path": "sky.hdr", "scale": 1} (a relative path from the working
 * directory; in a scenario, from the scenario's folder). `source` names the text in messages (NULL:
 * "environment"). SENSIM_EPARSE / SENSIM_EINVAL naming the key, the
 * environment unchanged, on bad input. */
SENSIM_API sensim_status sensim_world_set_environment_json(sensim_world *world, const char *json,
                                                           const char *source);

#ifdef __cplusplus
}
#endif
#endif
