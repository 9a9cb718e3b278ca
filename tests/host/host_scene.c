/* The scene the host-integration tests share: ground, a pole, boxes, and a
 * car on a circle carrying one sensor of each kind. */
#include <malloc.h>
#include <string.h>
#include "host/host_groups.h"
#include "support/testutil.h"

#if defined(__SANITIZE_ADDRESS__)
/* The sanitizers' public allocator interface (LLVM's
 * sanitizer/allocator_interface.h; GCC ships the library, not the header). */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

host_rates host_rates_default(void) {
  host_rates r = {{30.0, 10.0, 10.0, 200.0}, {0.002, 0.0005, 0.0003, 0.0001}, {0.045, 0.030, 0.050, 0.0025}};
  return r;
}

sensim_body_state host_car_state(double t) {
  const double R = 6.0, v = 3.0, w = v / R;
  double a = w * t;
  sensim_body_state s = {0};
  s.pose.pos = (sensim_vec3){R * cos(a), R * sin(a), 0.3};
  s.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, a + M_PI / 2);
  s.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
  s.lin_vel = (sensim_vec3){-v * sin(a), v * cos(a), 0};
  s.lin_acc = (sensim_vec3){-v * w * cos(a), -v * w * sin(a), 0};
  s.ang_vel = (sensim_vec3){0, 0, w};
  return s;
}

static void sensor_params(sensim_sensor_params *sp, const char *name, sensim_body *car, const host_rates *r,
                          int i) {
  sensim_sensor_params_init(sp);
  sp->name = name;
  sp->body = car;
  sp->rate = r->rate[i];
  sp->phase = r->phase[i];
  sp->lag = r->lag[i];
  sp->mount.pos = (sensim_vec3){0.5, 0.0, 0.4};
}

void host_rig_build(host_rig *r, int threads, uint64_t seed, const host_rates *rates, int noise) {
  memset(r, 0, sizeof *r);
  r->world = test_world(threads, seed);
  sensim_world *w = r->world;
  sensim_light l;
  sensim_light_init(&l);
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  test_static_shape(w, SENSIM_SHAPE_PLANE, (sensim_vec3){60, 60, 0}, (sensim_vec3){0, 0, 0});
  test_static_shape(w, SENSIM_SHAPE_CYLINDER, (sensim_vec3){0.3, 0, 4}, (sensim_vec3){0, 0, 0});
  for (int i = 0; i < 6; i++) {
    double a = i * M_PI / 3.0;
    test_static_shape(w, SENSIM_SHAPE_BOX, (sensim_vec3){1.0, 1.5, 1.0 + 0.3 * i},
               (sensim_vec3){10.0 * cos(a), 10.0 * sin(a), 0.5});
  }
  sensim_material m;
  sensim_material_init(&m);
  sensim_shape car_shape = {SENSIM_SHAPE_BOX, {1.2, 0.6, 0.4}, 0};
  sensim_mesh *car_mesh = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &car_shape, &m, &car_mesh));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = car_mesh;
  bp.class_id = 2;
  bp.pose = host_car_state(0.0).pose;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &r->car));

  host_rates def = host_rates_default();
  if (!rates) rates = &def;
  sensim_sensor_params sp;
  sensor_params(&sp, "cam", r->car, rates, 0);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 32;
  cp.height = 24;
  cp.samples = 1;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &r->cam));
  sensor_params(&sp, "lidar", r->car, rates, 1);
  sp.mount.pos.z = 0.6; /* above the car's roof */
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 8;
  lp.columns = 180;
  lp.max_range = 40.0;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &r->lidar));
  sensor_params(&sp, "gnss", r->car, rates, 2);
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &r->gnss));
  sensor_params(&sp, "imu", r->car, rates, 3);
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &r->imu));
  if (noise) {
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(r->cam, "image_noise", NULL));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(r->lidar, "lidar_noise", NULL));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(r->lidar, "points", NULL));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(r->gnss, "gnss_noise", "{\"sigma\": [0.5, 0.5, 1.0]}"));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(r->imu, "imu_noise", NULL));
  }
}

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 1099511628211ull; /* FNV-1a 64-bit prime */
  }
  return h;
}

uint64_t host_hash_frame(uint64_t h, const sensim_frame *f) {
  h = fnv(h, &f->sensor_id, sizeof f->sensor_id);
  h = fnv(h, &f->index, sizeof f->index);
  h = fnv(h, &f->t_capture, sizeof f->t_capture);
  h = fnv(h, &f->t_deliver, sizeof f->t_deliver);
  h = fnv(h, &f->pose, sizeof f->pose);
  h = fnv(h, &f->count, sizeof f->count);
  if (f->data) h = fnv(h, f->data, f->count * sensim_payload_elem_size(f->type));
  return h;
}

size_t host_heap_bytes(void) {
#if defined(__SANITIZE_ADDRESS__)
  return __sanitizer_get_current_allocated_bytes();
#else
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd; /* arena bytes in use + mmapped blocks */
#endif
}
