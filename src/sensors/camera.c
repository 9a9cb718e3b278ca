/* sensors/camera.c: the camera sensor: parameters, validation, creation and
 * the frame it delivers. Rendering is in camera_render.c, lenses in
 * optics.c, surfaces and lights in shading.c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensim/rng.h"
#include "sensors/camera_internal.h"
#include "sensors/camera_rain.h"
#include "sensors/shading.h"

void sensim_camera_params_init(sensim_camera_params *p) {
  memset(p, 0, sizeof *p);
  p->width = 640;
  p->height = 480;
  p->hfov = M_PI / 2;
  p->lens = SENSIM_LENS_PINHOLE;
  p->samples = 4;
  p->max_bounces = 1;
  /* Sony IMX250/IMX264 (machine-vision global shutter sensors): 3.45 um
   * pixels (datasheet). */
  p->pixel_pitch = 3.45e-6;
}

static void camera_destroy(void *impl) {
  sensim_camera *c = impl;
  if (!c) return;
  sensim__optics_destroy(c->optics);
  sensim__camera_scratch_free_all(c);
  free(c);
}

static sensim_status camera_generate(sensim_capture_ctx ctx, sensim_frame *f) {
  const sensim_camera *cam = ctx.impl;
  const uint32_t W = cam->p.width, H = cam->p.height;
  /* The renderer writes every value of the image and of its planes, so
   * none needs zeroing; planes the frame already has (of this size) are
   * reused. */
  sensim_status rc = sensim__frame_alloc_unset(f, SENSIM_PAYLOAD_RGB_F32, W, H);
  if (rc) return rc;
  f->unit = SENSIM_UNIT_RADIANCE;
  f->exposure_time = cam->p.exposure_time;
  /* From the sensor's frame pool, unzeroed: the renderer writes every byte
   * of the planes, misses and each label's padding too, so frames are
   * bit-identical whatever buffers they got (tests/runtime/frame_pool_tests.c
   * compares whole planes). */
  if (!f->depth) f->depth = sensim__frame_buffer((size_t)W * H * sizeof *f->depth, 0);
  if (!f->labels) f->labels = sensim__frame_buffer((size_t)W * H * sizeof *f->labels, 0);
  if (!f->normals) f->normals = sensim__frame_buffer((size_t)W * H * 3 * sizeof *f->normals, 0);
  if (!f->depth || !f->labels || !f->normals)
    return sensim__fail(SENSIM_ENOMEM, "out of memory for the planes of a %ux%u image", W, H);
  rc = sensim__camera_render(&ctx, f);
  if (rc || !(ctx.snap->params.weather.rain_rate > 0.0)) return rc;
  /* Rain streaks over the rendered image (sensors/camera_rain.c), from
   * their own stream: element 0x40000000 is beyond any row's. */
  sensim_rng rng;
  sensim_rng_init(&rng, ctx.key.seed, ctx.key.sensor, ctx.key.frame, 0x40000000u);
  size_t drops;
  return sensim__rain_draw(&cam->p, ctx.snap->params.weather.rain_rate, ctx.snap->params.background, f->pose, &rng,
                           f->data, f->depth, &drops);
}

/* The whole readout: the first row starts exposing this long before the
 * last row stops. */
static double camera_default_window(const void *impl, double rate) {
  (void)rate;
  const sensim_camera *c = impl;
  return c->p.exposure_time + c->readout;
}

static const sensim_sensor_kind camera_kind = {
    .name = "camera",
    .raw_type = SENSIM_PAYLOAD_RGB_F32,
    .needs_geometry = 1,
    .default_window = camera_default_window,
    .generate = camera_generate,
    .destroy = camera_destroy,
    .prepare = sensim__traced_prepare,
    .release_aux = sensim__traced_release,
};

sensim_status sensim_camera_params_get(const sensim_sensor *s, sensim_camera_params *out) {
  if (!s || !out) return sensim__fail(SENSIM_EINVAL, "sensim_camera_params_get: NULL argument");
  if (sensim__sensor_kind(s) != &camera_kind)
    return sensim__fail(SENSIM_EINVAL, "sensor '%s' is not a camera", sensim_sensor_name(s));
  *out = ((const sensim_camera *)sensim__sensor_impl(s))->p;
  return SENSIM_OK;
}

static sensim_status check(const sensim_camera_params *cp) {
  if (cp->samples < 1 || cp->samples > 1024)
    return sensim__fail(SENSIM_EINVAL, "camera samples %d must be in [1, 1024]", cp->samples);
  if (!(cp->exposure_time >= 0 && cp->exposure_time < 1e3))
    return sensim__fail(SENSIM_EINVAL, "camera exposure_time %g s must be in [0, 1000)", cp->exposure_time);
  if (!(cp->line_time >= 0 && cp->line_time < 1.0))
    return sensim__fail(SENSIM_EINVAL, "camera line_time %g s must be in [0, 1)", cp->line_time);
  if (cp->integrator != SENSIM_INTEGRATOR_DIRECT && cp->integrator != SENSIM_INTEGRATOR_PATH)
    return sensim__fail(SENSIM_EINVAL, "camera integrator %d is not one of direct (0), path (1)", (int)cp->integrator);
  if (cp->integrator == SENSIM_INTEGRATOR_DIRECT && (cp->max_bounces < 0 || cp->max_bounces > 8))
    return sensim__fail(SENSIM_EINVAL, "camera max_bounces %d must be in [0, 8] (direct integrator)", cp->max_bounces);
  if (cp->integrator == SENSIM_INTEGRATOR_PATH && (cp->max_bounces < 0 || cp->max_bounces > 64))
    return sensim__fail(SENSIM_EINVAL, "camera max_bounces %d must be in [0, 64] (path integrator)", cp->max_bounces);
  if (!(cp->fog_visibility >= 0 && isfinite(cp->fog_visibility)))
    return sensim__fail(SENSIM_EINVAL, "camera fog_visibility %g m must be finite and >= 0", cp->fog_visibility);
  /* A bound on a row's samples: the renderer keeps four rows of them in
   * scratch (camera_render.c). */
  if ((uint64_t)cp->width * (uint64_t)cp->samples > UINT32_MAX)
    return sensim__fail(SENSIM_EINVAL, "camera width %u x samples %d = %llu rays per row exceed 2^32 - 1",
                        cp->width, cp->samples, (unsigned long long)cp->width * (unsigned long long)cp->samples);
  /* A raw frame holds radiance (3 floats), depth (1 float), a label
   * (sensim_label) and a normal (3 floats) per pixel. */
  double px = (double)cp->width * cp->height;
  char what[96];
  snprintf(what, sizeof what, "a %ux%u camera frame", cp->width, cp->height);
  return sensim__check_bytes(px * (7 * sizeof(float) + sizeof(sensim_label)), what);
}

sensim_status sensim_camera_create(sensim_world *w, const sensim_sensor_params *sp,
                                   const sensim_camera_params *cp, sensim_sensor **out) {
  if (!cp) return sensim__fail(SENSIM_EINVAL, "sensim_camera_create: camera params are NULL");
  sensim_status rc = check(cp);
  if (rc) return rc;
  sensim_camera *c = calloc(1, sizeof *c);
  if (!c) return sensim__fail(SENSIM_ENOMEM, "out of memory for a camera");
  c->p = *cp;
  sensim__stash_init(&c->scratch, SENSIM_STASH_MAX);
  if ((rc = sensim__optics_create(cp, &c->optics))) {
    sensim__stash_destroy(&c->scratch, free);
    free(c);
    return rc;
  }
  int g = (int)lrint(sqrt((double)cp->samples));
  c->grid = g * g == cp->samples ? g : 0;
  c->nch = sensim__optics_has_ca(c->optics) ? 3 : 1;
  c->beta = sensim__fog_beta(cp->fog_visibility);
  c->readout = (cp->height - 1.0) * cp->line_time;
  if ((rc = sensim__camera_dof_init(cp, &c->dof_radius))) {
    camera_destroy(c);
    return rc;
  }
  double need = c->p.exposure_time + c->readout;
  if (sp && sp->window >= 0 && sp->window < need * (1.0 - 1e-12)) {
    camera_destroy(c);
    return sensim__fail(SENSIM_EINVAL, "camera window %g s is shorter than exposure + readout = %g s", sp->window,
                        need);
  }
  return sensim__sensor_create(w, sp, &camera_kind, c, out);
}
