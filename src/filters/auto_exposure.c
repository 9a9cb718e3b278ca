/* filters/auto_exposure.c: "auto_exposure", rgb_f32 / gray_f32 / raw_f32 in
 * SIGNAL units -> the same frame, data unchanged. It measures the frame and
 * asks the chain's exposure state (filter.h) for a new exposure, which a
 * later frame's "image_sensor" applies.
 *
 * Parameters [defaults]:
 *   "target"   mean luminance to reach, in (0, 1) of full scale [0.4]
 *              (0.18, photographic mid-grey, to 0.5 are usual);
 *   "speed"    k in (0, 1], the controller's gain in log exposure [0.5];
 *   "delay"    frames >= 1 (and <= 16, the depth of the chain's request
 *              queue, chain.h) from the measured frame to the first frame
 *              taken with the new setting, as a real ISP pipelines sensor
 *              register writes [2];
 *   "min_time", "max_time"  exposure time limits, s [1e-5, 1/30];
 *   "max_gain" analog gain limit, >= 1 [16].
 *
 * Measurement: the mean of the Rec. 709 luminance Y = 0.2126 R + 0.7152 G +
 * 0.0722 B (ITU-R BT.709-6) over the frame for rgb_f32, the plain mean for
 * gray_f32 and raw_f32 (a Bayer mosaic's mean weights G twice, as it is
 * sampled). A frame darker than target / 1000 counts as target / 1000, so a
 * black frame raises the exposure by at most 1000^k per step.
 *
 * Controller: proportional in log exposure. With H = exposure_time x gain
 * of the measured frame n (frame.exposure_time, frame.gain, set by
 * "image_sensor") and M its measured mean,
 *   H' = H (target / M)^k,
 * requested for frame n + delay. Since the signal is proportional to H
 * (below saturation), log M converges to log target geometrically, by the
 * factor (1 - k) every `delay` frames, without overshoot: each request is
 * computed from the exposure the measured frame really had, so requests
 * made while earlier ones are in flight do not accumulate (no wind-up).
 * H' is split exposure time first: time = clamp(H', min_time, max_time),
 * gain = clamp(H' / time, 1, max_gain), so gain rises only once the time
 * is at max_time (less noise than gain for the same signal). A request
 * equal to the latest one is not repeated (the latest stays in effect).
 *
 * Errors at apply: SENSIM_ETYPE when the frame is not in SIGNAL units or
 * carries no exposure (no "image_sensor" earlier in the chain). */
#include <math.h>
#include <stdlib.h>
#include "core/internal.h"
#include "filters/bands.h"
#include "filters/chain.h"

#define AE_MAX_DELAY 16 /* sensim_exposure_state.pending holds 16 requests */

typedef struct ae_state {
  double target, speed, min_time, max_time, max_gain;
  uint64_t delay;
  int requested;          /* a request has been made */
  sensim_exposure last;   /* the latest request: repeating it changes nothing */
} ae_state;

static const sensim_payload kAeAccepts[] = {SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_GRAY_F32, SENSIM_PAYLOAD_RAW_F32,
                                            SENSIM_PAYLOAD_NONE};

static sensim_status ae_create(const cJSON *params, void **user) {
  static const char *const known[] = {"target", "speed", "delay", "min_time", "max_time", "max_gain", NULL};
  ae_state p = {0.4, 0.5, 1e-5, 1.0 / 30.0, 16.0, 2, 0, {0, 0}};
  double delay = 2.0;
  sensim_status rc = sensim__param_only(params, "auto_exposure", known);
  if (!rc) rc = sensim__param_number(params, "target", &p.target);
  if (!rc) rc = sensim__param_number(params, "speed", &p.speed);
  if (!rc) rc = sensim__param_number(params, "delay", &delay);
  if (!rc) rc = sensim__param_number(params, "min_time", &p.min_time);
  if (!rc) rc = sensim__param_number(params, "max_time", &p.max_time);
  if (!rc) rc = sensim__param_number(params, "max_gain", &p.max_gain);
  if (rc) {
    sensim__error_context("auto_exposure");
    return rc;
  }
  if (!(p.target > 0 && p.target < 1))
    return sensim__fail(SENSIM_EINVAL, "auto_exposure: target %g must be in (0, 1) of full scale", p.target);
  if (!(p.speed > 0 && p.speed <= 1))
    return sensim__fail(SENSIM_EINVAL, "auto_exposure: speed %g must be in (0, 1]", p.speed);
  if (!(delay >= 1 && delay <= AE_MAX_DELAY && delay == floor(delay)))
    return sensim__fail(SENSIM_EINVAL, "auto_exposure: delay %g must be a whole number of frames in [1, %d]", delay,
                        AE_MAX_DELAY);
  if (!(p.min_time > 0 && p.max_time >= p.min_time))
    return sensim__fail(SENSIM_EINVAL, "auto_exposure: need 0 < min_time (%g s) <= max_time (%g s)", p.min_time,
                        p.max_time);
  if (!(p.max_gain >= 1))
    return sensim__fail(SENSIM_EINVAL, "auto_exposure: max_gain %g must be >= 1", p.max_gain);
  p.delay = (uint64_t)delay;
  ae_state *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = p;
  *user = u;
  return SENSIM_OK;
}

static sensim_status ae_init(void *user, sensim_payload in) {
  (void)user;
  for (const sensim_payload *a = kAeAccepts; *a != SENSIM_PAYLOAD_NONE; a++)
    if (*a == in) return SENSIM_OK;
  return sensim__fail(SENSIM_ETYPE, "auto_exposure takes rgb_f32, gray_f32 or raw_f32, not %s",
                      sensim_payload_name(in));
}

/* The frame's mean luminance (Rec. 709 weights on rgb; the value itself on
 * a mosaic or grey frame). The sum runs over a fixed partition of the
 * values, AE_PARTS chunks with four interleaved partial sums each, added in
 * a fixed order: the same bits for any thread count (the chunks are banded
 * over the world's workers, filters/bands.h), and four independent
 * accumulators instead of one dependent chain. */
#define AE_PARTS 16

typedef struct ae_job {
  const float *d;
  size_t count;
  int rgb;
  double part[AE_PARTS];
} ae_job;

static void ae_chunks(void *arg, size_t lo, size_t hi) {
  ae_job *j = arg;
  for (size_t c = lo; c < hi; c++) {
    const size_t i0 = j->count * c / AE_PARTS, i1 = j->count * (c + 1) / AE_PARTS;
    double s[4] = {0, 0, 0, 0};
    size_t i = i0;
    if (j->rgb) {
      for (; i + 4 <= i1; i += 4)
        for (int k = 0; k < 4; k++) {
          const float *p = j->d + 3 * (i + k);
          s[k] += 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
        }
      for (; i < i1; i++) s[0] += 0.2126 * j->d[3 * i] + 0.7152 * j->d[3 * i + 1] + 0.0722 * j->d[3 * i + 2];
    } else {
      for (; i + 4 <= i1; i += 4)
        for (int k = 0; k < 4; k++) s[k] += j->d[i + k];
      for (; i < i1; i++) s[0] += j->d[i];
    }
    j->part[c] = (s[0] + s[1]) + (s[2] + s[3]);
  }
}

static double ae_measure(const sensim_frame *f) {
  ae_job j = {f->data, f->count, f->type == SENSIM_PAYLOAD_RGB_F32, {0}};
  sensim__filter_bands(AE_PARTS, 1, ae_chunks, &j);
  double s = 0.0;
  for (int c = 0; c < AE_PARTS; c++) s += j.part[c];
  return f->count ? s / (double)f->count : 0.0;
}

static sensim_status ae_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  ae_state *p = user;
  if (f->unit != SENSIM_UNIT_SIGNAL)
    return sensim__fail(SENSIM_ETYPE, "auto_exposure needs a frame in SIGNAL units (put \"adc\" before it)");
  if (!(f->exposure_time > 0 && f->gain > 0))
    return sensim__fail(SENSIM_ETYPE, "auto_exposure needs image_sensor earlier in the chain");
  double m = fmax(ae_measure(f), 1e-3 * p->target);
  double h = f->exposure_time * f->gain * pow(p->target / m, p->speed);
  sensim_exposure e;
  e.time = fmin(fmax(h, p->min_time), p->max_time);
  e.gain = fmin(fmax(h / e.time, 1.0), p->max_gain);
  if (p->requested && e.time == p->last.time && e.gain == p->last.gain) return SENSIM_OK;
  sensim_status rc = sensim_filter_exposure_request(ctx, f->index + p->delay, e);
  if (rc) {
    sensim__error_context("auto_exposure");
    return rc;
  }
  p->requested = 1;
  p->last = e;
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_auto_exposure = {
    .def = {.name = "auto_exposure",
            .in = SENSIM_PAYLOAD_ANY,
            .out = SENSIM_PAYLOAD_ANY,
            .init = ae_init,
            .apply = ae_apply,
            .destroy = free},
    .create = ae_create,
    .accepts = kAeAccepts};
