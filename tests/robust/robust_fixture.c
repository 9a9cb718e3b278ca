/* The bad-input matrix's fixture and runner: every case gets a fresh small
 * world, makes one bad call, and must leave the world exactly as if the
 * call had not been made: the frames it delivers next are compared byte
 * for byte with those of an undisturbed world. */
#include <stdio.h>
#include <string.h>
#include "robust/robust_groups.h"
#include "support/testutil.h"

#define CHECK_T 0.1 /* s: where the health check steps to */

static sensim_body_state car_state(double t) {
  /* 2 m/s along +X, 0.5 m up. */
  sensim_body_state s = test_state_xyzyaw(2.0 * t, 0.0, 0.5, 0.0);
  s.lin_vel.x = 2.0;
  return s;
}

void robust_fx_build(robust_fx *fx, int advanced) {
  memset(fx, 0, sizeof *fx);
  fx->advanced = advanced;
  fx->world = test_world(0, 7);
  sensim_material m;
  sensim_material_init(&m);
  m.base_color[0] = 0.8f;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {0.5, 4.0, 2.0}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(fx->world, &sh, &m, &fx->box));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = fx->box;
  bp.is_static = 1;
  bp.class_id = 3;
  bp.pose.pos = (sensim_vec3){3.0, 0.0, 1.0};
  SENSIM_OK_OR_FAIL(sensim_body_create(fx->world, &bp, &fx->wall));
  sensim_body_params_init(&bp);
  SENSIM_OK_OR_FAIL(sensim_body_create(fx->world, &bp, &fx->car));
  SENSIM_OK_OR_FAIL(sensim_body_create(fx->world, &bp, &fx->spare));
  sensim_light l;
  sensim_light_init(&l);
  l.direction = (sensim_vec3){1.0, 0.2, -1.0};
  SENSIM_OK_OR_FAIL(sensim_light_add(fx->world, &l));

  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "cam";
  sp.body = fx->car;
  sp.rate = 10.0;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 16;
  cp.height = 12;
  cp.samples = 1;
  SENSIM_OK_OR_FAIL(sensim_camera_create(fx->world, &sp, &cp, &fx->cam));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(fx->cam, "image_noise", "{\"sigma\": 0.01}"));
  sp.name = "imu";
  sp.rate = 100.0;
  SENSIM_OK_OR_FAIL(sensim_imu_create(fx->world, &sp, test_imu_defaults(), &fx->imu));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(fx->imu, "imu_noise", NULL));

  sensim_body_state s = car_state(0.0);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(fx->car, 0.0, &s));
  if (advanced) SENSIM_OK_OR_FAIL(sensim_world_advance(fx->world, 0.0));
}

void robust_fx_free(robust_fx *fx) {
  sensim_world_destroy(fx->world);
  memset(fx, 0, sizeof *fx);
}

/* FNV-1a over what a frame says: index, times, type, size and payload. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

static uint64_t hash_frame(const sensim_frame *f) {
  uint64_t h = 1469598103934665603ull;
  h = fnv(h, &f->index, sizeof f->index);
  h = fnv(h, &f->t_capture, sizeof f->t_capture);
  h = fnv(h, &f->t_deliver, sizeof f->t_deliver);
  h = fnv(h, &f->type, sizeof f->type);
  h = fnv(h, &f->count, sizeof f->count);
  return fnv(h, f->data, f->count * sensim_payload_elem_size(f->type));
}

/* Step to CHECK_T and hash the last frame of each sensor; 0 on failure
 * (with the reason in `why`). */
static uint64_t step_and_hash(robust_fx *fx, char *why, size_t nwhy) {
  sensim_body_state s = car_state(CHECK_T);
  sensim_status st = sensim_body_push_state(fx->car, CHECK_T, &s);
  if (st == SENSIM_OK) st = sensim_world_advance(fx->world, CHECK_T);
  if (st != SENSIM_OK) {
    snprintf(why, nwhy, "stepping to %g s failed: %s", CHECK_T, sensim_last_error());
    return 0;
  }
  uint64_t h = 0;
  sensim_sensor *sensors[2] = {fx->cam, fx->imu};
  for (int i = 0; i < 2; i++) {
    const sensim_frame *f = NULL, *last = NULL;
    uint64_t fh = 0;
    while (sensim_sensor_poll(sensors[i], &f) == SENSIM_OK && f) {
      last = f;
      fh = hash_frame(f); /* f is valid until the next poll */
    }
    if (!last) {
      snprintf(why, nwhy, "sensor '%s' delivered no frame by %g s", sensim_sensor_name(sensors[i]), CHECK_T);
      return 0;
    }
    h = h * 31 + fh;
  }
  return h ? h : 1;
}

static uint64_t control_hash(int advanced) {
  static uint64_t control[2];
  if (!control[advanced]) {
    robust_fx fx;
    robust_fx_build(&fx, advanced);
    char why[512] = "";
    control[advanced] = step_and_hash(&fx, why, sizeof why);
    if (!control[advanced]) fail_msg("control run: %s", why);
    robust_fx_free(&fx);
  }
  return control[advanced];
}

/* One case; returns 0 when it passed, else prints why. */
static int run_one(const robust_case *c) {
  uint64_t want = control_hash(c->advanced);
  robust_fx fx;
  robust_fx_build(&fx, c->advanced);
  size_t nsensors = sensim_world_sensor_count(fx.world);
  size_t ncar = sensim_body_keyframe_count(fx.car);
  sensim_error_set(SENSIM_OK, NULL);
  sensim_status st = c->call(&fx, c);
  char msg[512];
  snprintf(msg, sizeof msg, "%s", sensim_last_error());
  char why[1024] = "";
  if (st != c->expect)
    snprintf(why, sizeof why, "status %d (%s), expected %d (%s); message \"%s\"", st, sensim_status_str(st),
             c->expect, sensim_status_str(c->expect), msg);
  else if (!msg[0])
    snprintf(why, sizeof why, "no message");
  else if (c->substr && !strstr(msg, c->substr))
    snprintf(why, sizeof why, "message \"%s\" lacks \"%s\"", msg, c->substr);
  else if (sensim_world_sensor_count(fx.world) != nsensors)
    snprintf(why, sizeof why, "the world has %zu sensors, not %zu", sensim_world_sensor_count(fx.world), nsensors);
  else if (sensim_body_keyframe_count(fx.car) != ncar)
    snprintf(why, sizeof why, "the car holds %zu keyframes, not %zu", sensim_body_keyframe_count(fx.car), ncar);
  else {
    uint64_t got = step_and_hash(&fx, why, sizeof why);
    if (got && got != want) snprintf(why, sizeof why, "frames after the call differ from the control run");
  }
  robust_fx_free(&fx);
  if (!why[0]) return 0;
  print_error("case '%s': %s\n", c->name, why);
  return 1;
}

int robust_run_cases(const robust_case *cases, size_t n) {
  int failed = 0;
  for (size_t i = 0; i < n; i++) failed += run_one(&cases[i]);
  return failed;
}
