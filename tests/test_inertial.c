/* tests/test_inertial.c: the IMU, magnetometer and Allan-deviation test
 * binary; its groups live in tests/inertial/. */
#include <string.h>
#include "inertial/inertial_groups.h"

sensim_status inertial_apply(const sensim_builtin_filter *b, void *user, sensim_frame *f,
                             uint64_t seed, uint32_t sensor) {
  sensim_filter_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.seed = seed;
  ctx.sensor_id = sensor;
  ctx.slot = 0;
  /* As filters/chain.c keys a chain's streams: element 0x80000000 | slot. */
  sensim_rng_init(&ctx.rng, seed, sensor, f->index, 0x80000000u);
  return b->def.apply(user, f, &ctx);
}

void inertial_imu_frame(sensim_frame *f, sensim_imu_sample *s, uint64_t index, double t, double w) {
  memset(f, 0, sizeof *f);
  f->type = SENSIM_PAYLOAD_IMU;
  f->width = f->height = 1;
  f->count = 1;
  f->data = s;
  f->index = index;
  f->t_capture = t;
  f->window = w;
}

int main(void) {
  int failed = 0;
  failed += sensim_test_inertial_motion();
  failed += sensim_test_inertial_keyframes();
  failed += sensim_test_inertial_errors();
  failed += sensim_test_inertial_units();
  failed += sensim_test_inertial_allan();
  failed += sensim_test_inertial_mag();
  failed += sensim_test_inertial_cli();
  failed += sensim_test_inertial_mag_scenario();
  failed += sensim_test_inertial_gravity();
  return failed ? 1 : 0;
}
