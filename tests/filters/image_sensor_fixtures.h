/* tests/filters/image_sensor_fixtures.h: the harness, moments and flat
 * camera world that the image-sensor filter groups share
 * (image_noise_tests.c, image_sensor_tests.c; defined in
 * image_sensor_fixtures.c). They were static helpers of
 * image_sensor_tests.c before it was split by topic. */
#ifndef SENSIM_TESTS_FILTERS_IMAGE_SENSOR_FIXTURES_H
#define SENSIM_TESTS_FILTERS_IMAGE_SENSOR_FIXTURES_H

#include "filters/chain.h"
#include "sensim/sensim.h"

/* The seed run_ok gives the filters. */
#define SEED 1288u

/* A builtin's create with parameters `json` (NULL: none); make fails the
 * test on error, drop destroys. */
sensim_status try_make(const sensim_builtin_filter *b, const char *json, void **user);
void *fx_make(const sensim_builtin_filter *b, const char *json);
void fx_drop(const sensim_builtin_filter *b, void *user);

/* The context chain.c builds for slot 0 of sensor `sensor`, frame f->index. */
typedef struct harness {
  sensim_exposure_state x;
  sensim_filter_ctx ctx;
} harness;
sensim_status fx_run(const sensim_builtin_filter *b, void *user, sensim_frame *f, harness *h, uint64_t seed,
                  uint32_t sensor);
/* run with SEED for sensor 3 in a fresh harness; fails the test on error. */
void run_ok(const sensim_builtin_filter *b, void *user, sensim_frame *f);

/* A w x h frame of `type` whose every value is `fill`. */
void fx_image(sensim_frame *f, sensim_payload type, uint32_t w, uint32_t h, sensim_image_unit unit, float fill,
           uint64_t index);

/* Running mean and variance (Welford). */
typedef struct moments {
  double n, mean, m2;
} moments;
void mom_add(moments *m, double x);
double mom_var(const moments *m);
moments mom_of(const float *v, size_t n);
/* Mean within 5 standard errors; variance within 5 standard errors of a
 * sample variance with cumulants kappa2, kappa4. */
void check_moments(const moments *m, double mu, double kappa2, double kappa4);

/* A world whose camera sees only a uniform background of radiance 0.25. */
sensim_world *flat_world(uint64_t seed);
/* A 32 x 24 camera, one sample per pixel, in world w. */
sensim_sensor *flat_camera(sensim_world *w);

#endif
