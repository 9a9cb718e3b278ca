/* sensim/filter.h: filter chains.
 *
 * Each sensor's frames pass through its chain in order: noise, lens
 * effects, ISP stages, format conversion. A filter declares the payload it
 * takes and the one it gives; the chain is checked when each filter is
 * appended. The chain of one sensor runs on one frame at a time, in frame
 * order, so a filter may keep state from frame to frame (a bias random
 * walk); different sensors' chains run in parallel.
 *
 * Built-in filters (parameters as a JSON object; defaults in brackets):
 *   "srgb8"      rgb_f32 -> rgba8. {"exposure": scale applied before
 *                encoding [1]}. IEC 61966-2-1 sRGB transfer curve.
 *   "depth"      rgb_f32 -> depth_f32: promotes the camera's depth plane.
 *   "labels"     rgb_f32 -> labels: promotes the camera's label plane.
 *   "normals"    rgb_f32 -> rgb_f32: the camera's normal plane as an image,
 *                (n + 1) / 2 per component (unit SIGNAL, 0 where nothing was
 *                hit), ready for "quantize".
 *   The camera pipeline's filters (image sensor, noise, CFA, ISP; "glare",
 *   "lens_flare" and "blooming" before the sensor; "jpeg" compression
 *   artefacts) are documented in docs/camera_pipeline.md.
 *   "image_noise" rgb_f32 -> rgb_f32: additive white Gaussian noise
 *                {"sigma": std dev in radiance units [0.01]}.
 *   "points"     beams -> points: beams with a return to sensor-frame
 *                Cartesian points.
 *   "range_noise" beams -> beams: Gaussian range noise {"sigma": m [0.02]}.
 *   "lidar_noise", "deskew", "organized", "range_image", "birdseye": the
 *                lidar's noise and outputs, documented in docs/lidar.md.
 *   "gnss_noise" gnss -> gnss: additive Gaussian ENU error
 *                {"sigma": [east, north, up] m [1, 1, 2], "mean": [0, 0, 0]};
 *                lat/lon/height are recomputed and diag(sigma^2) is added to
 *                cov_enu.
 *   "gnss_random_walk", "gnss_hdop", "gnss_gauss_markov", "gnss_outage"
 *                gnss -> gnss: the receiver error models of docs/gnss.md
 *                (random walk bounded by a maximum error, HDOP low-pass
 *                covariance, Gauss-Markov bias, outage windows); chained,
 *                they give the published study's five variants.
 *   "imu_noise"  imu -> imu: the IMU error model of docs/imu.md: white noise
 *                and bias random walk per axis (IEEE Std 952 terms; the
 *                original keys "accel_noise_density" m/s^2/sqrt(Hz) [2e-3],
 *                "accel_bias_walk" m/s^3/sqrt(Hz) [3e-4],
 *                "gyro_noise_density" rad/s/sqrt(Hz) [1.7e-4],
 *                "gyro_bias_walk" rad/s^2/sqrt(Hz) [2e-5]), turn-on bias,
 *                scale factor and misalignment, Gauss-Markov bias
 *                instability, quantisation and saturation, with keys in
 *                datasheet units.
 *   "mag_noise"  mag -> mag: magnetometer errors (soft and hard iron, white
 *                noise, resolution, range), docs/imu.md. */
#ifndef SENSIM_FILTER_H
#define SENSIM_FILTER_H

#include "sensim/export.h"

#include <stdint.h>
#include "sensim/frame.h"
#include "sensim/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exposure settings a camera's chain shares: "image_sensor" applies them,
 * an auto-exposure filter changes them for later frames. */
typedef struct sensim_exposure {
  double time; /* exposure time, s */
  double gain; /* analog gain, x (1 = unity) */
} sensim_exposure;

typedef struct sensim_exposure_state sensim_exposure_state;

/* What a filter's apply() is told besides the frame. */
typedef struct sensim_filter_ctx {
  uint64_t seed;      /* world seed */
  uint32_t sensor_id; /* id of the sensor whose frame this is */
  int slot;           /* position of this filter in the chain, from 0 */
  sensim_rng rng;     /* stream keyed by (seed, sensor, frame, slot), fresh per call */
  sensim_exposure_state *exposure; /* the chain's shared exposure state */
} sensim_filter_ctx;

/* The exposure in effect for the frame being filtered. `*valid` is 0 until a
 * filter has set one (then e is left alone). */
SENSIM_API void sensim_filter_exposure_get(const sensim_filter_ctx *ctx, sensim_exposure *e, int *valid);
/* Set the exposure in effect from this frame on (the first "image_sensor"
 * does this from its parameters). */
SENSIM_API void sensim_filter_exposure_set(sensim_filter_ctx *ctx, sensim_exposure e);
/* Ask for `e` to take effect from frame index `from_frame` on (later than
 * the current frame: a real ISP applies new settings frames late). Requests
 * are applied in frame order before the chain runs on each frame. */
SENSIM_API sensim_status sensim_filter_exposure_request(sensim_filter_ctx *ctx, uint64_t from_frame,
                                             sensim_exposure e);

typedef struct sensim_filter_def {
  const char *name;     /* for messages */
  sensim_payload in;    /* payload taken (SENSIM_PAYLOAD_ANY: any) */
  sensim_payload out;   /* payload given (SENSIM_PAYLOAD_ANY: same as taken) */
  /* Called once when the filter is appended, with the payload it will take;
   * a negative return refuses the filter. May be NULL. */
  sensim_status (*init)(void *user, sensim_payload in);
  /* Transform the frame in place. May call sensim_frame_alloc() to change
   * the payload; must leave frame->type == out. A negative return drops the
   * frame from delivery and its message is kept for the host. */
  sensim_status (*apply)(void *user, sensim_frame *frame, sensim_filter_ctx *ctx);
  /* Called once when the world is destroyed; may be NULL. */
  void (*destroy)(void *user);
} sensim_filter_def;

/* Names of the built-in filters, NULL-terminated. */
SENSIM_API const char *const *sensim_filter_names(void);

/* ---- standalone chains (filters/standalone_chain.c) ----------------------
 * A filter chain outside any sensor, for frames the caller makes: an image
 * read from disk, a frame from another simulator. The filters are the
 * built-in ones (and user filters) that a sensor's chain runs, checked and
 * run the same way, so a standalone chain gives a frame exactly what a
 * sensor's chain would. One thread at a time per chain; frames one at a
 * time, in increasing frame->index where a filter keeps state from frame to
 * frame (a bias random walk, an exposure request). */
typedef struct sensim_filter_chain sensim_filter_chain;

/* An empty chain whose first filter will take `input` (a payload type, not
 * NONE or ANY: SENSIM_EINVAL). */
SENSIM_API sensim_status sensim_filter_chain_create(sensim_payload input, sensim_filter_chain **out);

/* Append built-in filter `name` with its parameters as a JSON object text
 * (NULL: its defaults; the text is not kept), checked as
 * sensim_sensor_add_filter checks it: SENSIM_ENOTFOUND for an unknown name,
 * SENSIM_ETYPE when it does not take what the chain gives so far,
 * SENSIM_EPARSE when the text is not a JSON object, the filter's own error
 * for a bad parameter. The chain is unchanged on failure. */
SENSIM_API sensim_status sensim_filter_chain_add(sensim_filter_chain *chain, const char *name,
                                                const char *params_json);

/* Append a user filter: *def is copied, `user` is borrowed until the chain
 * is destroyed, when def->destroy(user) is called. On failure (ETYPE, or
 * def->init refusing) the chain is unchanged and destroy is not called. */
SENSIM_API sensim_status sensim_filter_chain_add_user(sensim_filter_chain *chain,
                                                     const sensim_filter_def *def, void *user);

/* The payload the chain gives after its last filter (its input when empty);
 * SENSIM_PAYLOAD_NONE for NULL. */
SENSIM_API sensim_payload sensim_filter_chain_output(const sensim_filter_chain *chain);

/* Run every filter on `frame` in place. frame->type must be the chain's
 * input and its buffer allocated (SENSIM_ETYPE, SENSIM_EINVAL); the
 * caller owns the frame before and after (free it with
 * sensim_frame_release: a filter may have replaced its payload). Random
 * draws are keyed as in a sensor's chain, with `seed` for the world seed
 * and `stream` for the sensor id: filter i draws from the stream (seed,
 * stream, frame->index, 2^31 + i), so the same seed, stream and index give
 * the same result. Stops at the first failing filter, whose error it
 * returns with the filter named; the frame is then partly filtered. */
SENSIM_API sensim_status sensim_filter_chain_run(sensim_filter_chain *chain, sensim_frame *frame,
                                                uint64_t seed, uint32_t stream);

/* Destroy every filter (their destroy callbacks) and the chain. NULL is a
 * no-op. */
SENSIM_API void sensim_filter_chain_destroy(sensim_filter_chain *chain);

#ifdef __cplusplus
}
#endif
#endif
