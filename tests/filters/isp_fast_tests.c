/* tests/filters/isp_fast_tests.c: the ISP's shortcuts give the results of
 * the plain computation. The chain's early "cfa" (filters/chain.c) gives
 * the same bits as the chain in its written order, frame after frame
 * (auto exposure feeding back). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/builtin.h"
#include "filters/chain.h"
#include "filters/image_sensor_fixtures.h"
#include "support/testutil.h"

/* The typical chain of docs/camera_pipeline.md. */
static const char *const kTypical[][2] = {
    {"image_sensor", NULL},   {"noise_emva1288", NULL}, {"cfa", NULL},
    {"adc", NULL},            {"demosaic", "{\"method\": \"mhc\"}"},
    {"white_balance", NULL},  {"ccm", NULL},            {"auto_exposure", NULL},
    {"tone", NULL},           {"quantize", NULL},
};
#define NTYPICAL (sizeof kTypical / sizeof kTypical[0])

static void build_typical(sensim_chain *c) {
  sensim__chain_init(c, SENSIM_PAYLOAD_RGB_F32);
  for (size_t i = 0; i < NTYPICAL; i++)
    SENSIM_OK_OR_FAIL(sensim__chain_append_builtin(c, kTypical[i][0], kTypical[i][1], NULL));
}

/* A radiance frame with a gradient, texture, and the odd bad value. */
static void radiance_frame(sensim_frame *f, uint32_t w, uint32_t h, uint64_t index) {
  fx_image(f, SENSIM_PAYLOAD_RGB_F32, w, h, SENSIM_UNIT_RADIANCE, 0.0f, index);
  float *v = f->data;
  for (size_t i = 0; i < 3 * f->count; i++) {
    size_t p = i / 3, x = p % w, y = p / w;
    double r = 0.02 + 0.5 * (double)x / w * (1.0 + 0.3 * sin(0.7 * (double)y + (double)(i % 3)));
    v[i] = (float)(i % 1009 == 0 ? NAN : i % 997 == 0 ? -0.1 : i % 991 == 0 ? 10.0 : r);
  }
}

static void test_typical_chain_gives_same_bits_with_cfa_run_first(void **state) {
  (void)state;
  sensim_chain a, b;
  build_typical(&a);
  build_typical(&b);
  b.keep_order = 1;
  for (uint64_t k = 0; k < 4; k++) { /* auto exposure changes the exposure of later frames */
    sensim_frame fa, fb;
    radiance_frame(&fa, 67, 45, k);
    radiance_frame(&fb, 67, 45, k);
    SENSIM_OK_OR_FAIL(sensim__chain_run(&a, &fa, 77, 4));
    SENSIM_OK_OR_FAIL(sensim__chain_run(&b, &fb, 77, 4));
    assert_int_equal(fa.type, SENSIM_PAYLOAD_RGBA8);
    assert_int_equal(fb.type, SENSIM_PAYLOAD_RGBA8);
    assert_memory_equal(fa.data, fb.data, 4 * fa.count);
    assert_true(fa.exposure_time == fb.exposure_time && fa.gain == fb.gain);
    free(fa.data);
    free(fb.data);
  }
  sensim__chain_free(&a);
  sensim__chain_free(&b);
}

int sensim_test_isp_fast(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_typical_chain_gives_same_bits_with_cfa_run_first),
  };
  return cmocka_run_group_tests_name("isp_fast", tests, NULL, NULL);
}
