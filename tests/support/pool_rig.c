/* tests/support/pool_rig.c: see pool_rig.h. */
#include "support/pool_rig.h"
#include "support/testutil.h"

static const char *const isp[][2] = {
    {"image_sensor", NULL}, {"noise_emva1288", NULL}, {"cfa", NULL}, {"adc", NULL},
    {"demosaic", NULL},     {"white_balance", NULL},  {"ccm", NULL}, {"auto_exposure", NULL},
    {"tone", NULL},         {"quantize", NULL}};
static const char *const in_place[][2] = {{"image_sensor", NULL}, {"noise_emva1288", NULL}, {"adc", NULL},
                                          {"white_balance", NULL}, {"ccm", NULL},         {"tone", NULL}};

void pool_rig_make(pool_rig *r, int threads, pool_rig_chain chain) {
  r->w = test_world(threads, 17);
  test_static_shape(r->w, SENSIM_SHAPE_PLANE, (sensim_vec3){60, 60, 0}, (sensim_vec3){0, 0, 0});
  test_static_shape(r->w, SENSIM_SHAPE_BOX, (sensim_vec3){2, 2, 3}, (sensim_vec3){8, 0, 0});
  test_static_shape(r->w, SENSIM_SHAPE_BOX, (sensim_vec3){1, 4, 5}, (sensim_vec3){-6, 3, 0});
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  r->car = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(r->w, &bp, &r->car));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = r->car;
  sp.mount.pos.z = 1.5;
  sp.rate = 10;
  sp.name = "cam";
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = POOL_RIG_W;
  cp.height = POOL_RIG_H;
  SENSIM_OK_OR_FAIL(sensim_camera_create(r->w, &sp, &cp, &r->cam));
  size_t n = chain == POOL_RIG_ISP ? sizeof isp / sizeof isp[0]
             : chain == POOL_RIG_IN_PLACE ? sizeof in_place / sizeof in_place[0] : 0;
  for (size_t i = 0; i < n; i++) {
    const char *const *f = chain == POOL_RIG_ISP ? isp[i] : in_place[i];
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(r->cam, f[0], f[1]));
  }
  sp.name = "lidar";
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.columns = 180;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(r->w, &sp, &lp, &r->lid));
  if (chain == POOL_RIG_ISP) SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(r->lid, "points", NULL));
}

void pool_rig_step(pool_rig *r, int k) {
  double t = k * 0.1;
  /* A turn of 0.7 rad a frame sweeps the boxes in and out of view. */
  sensim_body_state s = test_state_xyzyaw(0.5 * sin(t), 0, 0, 0.7 * k);
  s.flags = 0;
  SENSIM_OK_OR_FAIL(sensim_body_push_state(r->car, t, &s));
  SENSIM_OK_OR_FAIL(sensim_world_advance(r->w, t));
}
