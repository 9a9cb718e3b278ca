/* The bad-input matrix, part 2: calls with NULL or foreign handles, in the
 * wrong state, with bad filter JSON, bad mesh arrays, bad schedules, and
 * the pure functions' bad arguments. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "robust/robust_groups.h"
#include "support/testutil.h"

static sensim_sensor *tmp_sensor;
static sensim_world *tmp_world;
static sensim_mesh *tmp_mesh;
static sensim_body *tmp_body;
static const sensim_frame *tmp_frame;

/* ---- world, clock and bodies --------------------------------------------- */

static sensim_status world_null_params(robust_fx *fx, const robust_case *c) {
  (void)fx, (void)c;
  return sensim_world_create(NULL, &tmp_world);
}
static sensim_status world_null_out(robust_fx *fx, const robust_case *c) {
  (void)fx, (void)c;
  sensim_world_params p;
  sensim_world_params_init(&p);
  return sensim_world_create(&p, NULL);
}
static sensim_status advance_null(robust_fx *fx, const robust_case *c) {
  (void)fx, (void)c;
  return sensim_world_advance(NULL, 0.0);
}
static sensim_status advance_value(robust_fx *fx, const robust_case *c) {
  return sensim_world_advance(fx->world, c->value);
}
/* A clock that starts at Unix time with sensors at phase 0: 1.7e11
 * captures of the 100 Hz IMU in one call. */
static sensim_status advance_unix_time(robust_fx *fx, const robust_case *c) {
  (void)c;
  return sensim_world_advance(fx->world, 1.7e9);
}
static sensim_status reset_null(robust_fx *fx, const robust_case *c) {
  (void)fx, (void)c;
  return sensim_world_reset(NULL);
}
static sensim_status body_create_nulls(robust_fx *fx, const robust_case *c) {
  (void)c;
  return sensim_body_create(fx->world, NULL, &tmp_body);
}
static sensim_status body_mesh_of_another_world(robust_fx *fx, const robust_case *c) {
  (void)c;
  sensim_world *other = test_world(0, 1);
  sensim_shape sh = {SENSIM_SHAPE_SPHERE, {1, 1, 1}, 8};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(other, &sh, NULL, &tmp_mesh));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = tmp_mesh;
  sensim_status st = sensim_body_create(fx->world, &bp, &tmp_body);
  sensim_world_destroy(other);
  return st;
}
static sensim_status destroy_null(robust_fx *fx, const robust_case *c) {
  (void)fx, (void)c;
  return sensim_body_destroy(NULL);
}
static sensim_status destroy_carrier(robust_fx *fx, const robust_case *c) {
  (void)c;
  return sensim_body_destroy(fx->car);
}
static sensim_status destroy_twice(robust_fx *fx, const robust_case *c) {
  (void)c;
  SENSIM_OK_OR_FAIL(sensim_body_destroy(fx->spare));
  return sensim_body_destroy(fx->spare);
}
static sensim_status push_to_destroyed(robust_fx *fx, const robust_case *c) {
  (void)c;
  SENSIM_OK_OR_FAIL(sensim_body_destroy(fx->spare));
  sensim_body_state s = test_state_xyzyaw(0, 0, 0, 0);
  return sensim_body_push_state(fx->spare, 0.05, &s);
}
static sensim_status sensor_on_destroyed(robust_fx *fx, const robust_case *c) {
  (void)c;
  SENSIM_OK_OR_FAIL(sensim_body_destroy(fx->spare));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = fx->spare;
  return sensim_imu_create(fx->world, &sp, test_imu_defaults(), &tmp_sensor);
}
static sensim_status sensor_on_foreign_body(robust_fx *fx, const robust_case *c) {
  (void)c;
  sensim_world *other = test_world(0, 1);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  SENSIM_OK_OR_FAIL(sensim_body_create(other, &bp, &tmp_body));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = tmp_body;
  sensim_status st = sensim_imu_create(fx->world, &sp, test_imu_defaults(), &tmp_sensor);
  sensim_world_destroy(other);
  return st;
}
static sensim_status sensor_name_taken(robust_fx *fx, const robust_case *c) {
  (void)c;
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "cam";
  return sensim_imu_create(fx->world, &sp, test_imu_defaults(), &tmp_sensor);
}
static sensim_status sensor_name_empty(robust_fx *fx, const robust_case *c) {
  (void)c;
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "";
  return sensim_imu_create(fx->world, &sp, test_imu_defaults(), &tmp_sensor);
}
static sensim_status sensor_null_kind_params(robust_fx *fx, const robust_case *c) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  switch ((int)c->value) {
    case 0: return sensim_camera_create(fx->world, &sp, NULL, &tmp_sensor);
    case 1: return sensim_lidar_create(fx->world, &sp, NULL, &tmp_sensor);
    case 2: return sensim_gnss_create(fx->world, &sp, NULL, &tmp_sensor);
    case 3: return sensim_imu_create(fx->world, &sp, NULL, &tmp_sensor);
    case 4: return sensim_magnetometer_create(fx->world, &sp, NULL, &tmp_sensor);
    default: return sensim_cone_create(fx->world, &sp, NULL, &tmp_sensor);
  }
}
static sensim_status sensor_null_world(robust_fx *fx, const robust_case *c) {
  (void)fx, (void)c;
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  return sensim_imu_create(NULL, &sp, test_imu_defaults(), &tmp_sensor);
}
static sensim_status push_to_static(robust_fx *fx, const robust_case *c) {
  (void)c;
  sensim_body_state s = test_state_xyzyaw(3, 0, 1, 0);
  return sensim_body_push_state(fx->wall, 0.05, &s);
}
static sensim_status push_before_clock(robust_fx *fx, const robust_case *c) {
  (void)c;
  sensim_body_state s = test_state_xyzyaw(0, 0, 0.5, 0);
  return sensim_body_push_state(fx->spare, -0.5, &s);
}
static sensim_status push_null_state(robust_fx *fx, const robust_case *c) {
  (void)c;
  return sensim_body_push_state(fx->car, 0.05, NULL);
}
/* A meshed body whose pose is within the limit but whose mesh reaches past it. */
static sensim_status push_mesh_past_limit(robust_fx *fx, const robust_case *c) {
  (void)c;
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = fx->box;
  bp.pose.pos = (sensim_vec3){-100, 0, -100}; /* out of the camera's sight and light */
  SENSIM_OK_OR_FAIL(sensim_body_create(fx->world, &bp, &tmp_body));
  sensim_body_state s = test_state_xyzyaw(0, SENSIM_COORD_MAX - 1.0, 0, 0);
  return sensim_body_push_state(tmp_body, 0.05, &s);
}
/* 1e6 m/s is within the limit for 1 s from the origin, not from 1.6e7 m. */
static sensim_status push_speed_from_far(robust_fx *fx, const robust_case *c) {
  (void)c;
  sensim_body_state s = test_state_xyzyaw(1.6e7, 0, 0, 0);
  s.lin_vel.x = 1e6;
  return sensim_body_push_state(fx->spare, 0.05, &s);
}
static sensim_status state_at_nan(robust_fx *fx, const robust_case *c) {
  (void)c;
  sensim_body_state s;
  return sensim_body_state_at(fx->car, NAN, &s);
}
static sensim_status state_at_null(robust_fx *fx, const robust_case *c) {
  (void)fx, (void)c;
  sensim_body_state s;
  return sensim_body_state_at(NULL, 0.0, &s);
}

/* ---- lights needing two fields ------------------------------------------- */

static sensim_status light_point_far(robust_fx *fx, const robust_case *c) {
  sensim_light l;
  sensim_light_init(&l);
  l.kind = SENSIM_LIGHT_POINT;
  l.position.z = c->value;
  return sensim_light_add(fx->world, &l);
}
static sensim_status light_zero_direction(robust_fx *fx, const robust_case *c) {
  (void)c;
  sensim_light l;
  sensim_light_init(&l);
  l.direction = (sensim_vec3){0, 0, 0};
  return sensim_light_add(fx->world, &l);
}
static sensim_status light_spot_cone(robust_fx *fx, const robust_case *c) {
  sensim_light l;
  sensim_light_init(&l);
  l.kind = SENSIM_LIGHT_SPOT;
  l.spot_inner = 0.5f;
  l.spot_outer = (float)c->value;
  return sensim_light_add(fx->world, &l);
}

/* ---- meshes and textures -------------------------------------------------- */

static const float tri_v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
static const uint32_t tri_i[3] = {0, 1, 2};

static sensim_status mesh_variant(robust_fx *fx, const robust_case *c) {
  float v[9];
  uint32_t ix[3];
  float uv[6] = {0, 0, 1, 0, 0, 1}, refl[1] = {0.5f};
  memcpy(v, tri_v, sizeof v);
  memcpy(ix, tri_i, sizeof ix);
  sensim_mesh_desc d = test_mesh_desc(v, 3, ix, 1, NULL);
  sensim_material m;
  sensim_material_init(&m);
  const float zero_n[9] = {0, 0, 1, 0, 0, 1, 0, 0, 0};
  const float bad_w[12] = {1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1};
  const float nan_t[12] = {1, 0, 0, 1, NAN, 0, 0, 1, 1, 0, 0, 1};
  const uint32_t bad_id[1] = {5};
  sensim_material mats[2];
  sensim_material_init(&mats[0]);
  sensim_material_init(&mats[1]);
  switch ((int)c->value) {
    case 0: return sensim_mesh_create(fx->world, NULL, &tmp_mesh);
    case 1: d.vertices = NULL; break;
    case 2: d.indices = NULL; break;
    case 3: d.nvert = 2; break;
    case 4: d.ntri = 0; break;
    case 5: ix[2] = 3; break;
    case 6: v[4] = NAN; break;
    case 7: v[0] = INFINITY; break;
    case 8: v[8] = 2e7f; break;
    case 9: v[3] = 1e18f; break;
    case 10: uv[1] = NAN, d.uvs = uv; break;
    case 11: refl[0] = 2.0f, d.tri_reflectance = refl; break;
    case 12: d.nvert = (size_t)UINT32_MAX + 1; break;
    case 13: d.ntri = (size_t)UINT32_MAX; break;
    case 14: m.roughness = NAN, d.material = &m; break;
    case 16: d.normals = zero_n; break;
    case 17: d.tangents = bad_w; break;
    case 18: d.tangents = nan_t; break;
    case 19: d.materials = mats, d.nmaterials = 2, d.tri_material = bad_id; break;
    case 20: d.materials = mats, d.nmaterials = 2, d.material = &m; break;
    case 21: d.tri_material = bad_id; break;
    default: return sensim_mesh_create(fx->world, &d, NULL);
  }
  return sensim_mesh_create(fx->world, &d, &tmp_mesh);
}
static sensim_status texture_variant(robust_fx *fx, const robust_case *c) {
  float rgb[12] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
  sensim_texture *t = NULL;
  switch ((int)c->value) {
    case 0: return sensim_texture_create(fx->world, 2, 2, NULL, &t);
    case 1: return sensim_texture_create(fx->world, 0, 2, rgb, &t);
    case 2: return sensim_texture_create(fx->world, 70000, 1, rgb, &t);
    case 3: rgb[5] = 2.0f; return sensim_texture_create(fx->world, 2, 2, rgb, &t);
    default: rgb[0] = NAN; return sensim_texture_create(fx->world, 2, 2, rgb, &t);
  }
}
static sensim_status texture_rgba_variant(robust_fx *fx, const robust_case *c) {
  float rgba[4] = {0.5f, 0.5f, 0.5f, 0.5f};
  sensim_texture *t = NULL;
  switch ((int)c->value) {
    case 0: return sensim_texture_create_rgba(fx->world, 1, 1, NULL, 1, &t);
    case 1: return sensim_texture_create_rgba(fx->world, 1, 0, rgba, 1, &t);
    case 2: rgba[3] = -0.5f; return sensim_texture_create_rgba(fx->world, 1, 1, rgba, 1, &t);
    default: rgba[3] = NAN; return sensim_texture_create_rgba(fx->world, 1, 1, rgba, 0, &t);
  }
}
static sensim_status gltf_broken(robust_fx *fx, const robust_case *c) {
  static const char *files[4] = {SENSIM_TEST_DATA "/gltf/missing_texture.gltf",
                                 SENSIM_TEST_DATA "/gltf/negative_ior.gltf",
                                 SENSIM_TEST_DATA "/gltf/bad_image.gltf",
                                 SENSIM_TEST_DATA "/gltf/negative_emissive_strength.gltf"};
  return sensim_mesh_load(fx->world, files[(int)c->value], NULL, &tmp_mesh);
}
static sensim_status texture_of_another_world(robust_fx *fx, const robust_case *c) {
  (void)c;
  sensim_world *other = test_world(0, 1);
  float rgb[3] = {0.5f, 0.5f, 0.5f};
  sensim_texture *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_texture_create(other, 1, 1, rgb, &t));
  sensim_material m;
  sensim_material_init(&m);
  m.texture = t;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {1, 1, 1}, 0};
  sensim_status st = sensim_mesh_create_shape(fx->world, &sh, &m, &tmp_mesh);
  sensim_world_destroy(other);
  return st;
}
static sensim_status mesh_load_missing(robust_fx *fx, const robust_case *c) {
  (void)c;
  return sensim_mesh_load(fx->world, "/nonexistent/robust.obj", NULL, &tmp_mesh);
}
static sensim_status mesh_load_null(robust_fx *fx, const robust_case *c) {
  (void)c;
  return sensim_mesh_load(fx->world, NULL, NULL, &tmp_mesh);
}

/* ---- filters and delivery -------------------------------------------------- */

static sensim_status add_filter(robust_fx *fx, const robust_case *c) {
  sensim_sensor *s = c->value == 1 ? fx->imu : fx->cam;
  const char *name = c->ptr, *json = NULL;
  const char *sep = name ? strchr(name, '|') : NULL;
  char buf[128];
  if (sep) {
    size_t n = (size_t)(sep - name);
    memcpy(buf, name, n);
    buf[n] = '\0';
    json = sep + 1;
    name = buf;
  }
  return sensim_sensor_add_filter(c->value == 2 ? NULL : s, name, json);
}
static sensim_status refuse_init(void *user, sensim_payload in) {
  (void)user, (void)in;
  return sensim_error_set(SENSIM_EINVAL, "robust test filter refuses");
}
static sensim_status noop_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user, (void)f, (void)ctx;
  return SENSIM_OK;
}
static sensim_status add_user_filter(robust_fx *fx, const robust_case *c) {
  sensim_filter_def def = {"robust", SENSIM_PAYLOAD_ANY, SENSIM_PAYLOAD_ANY, NULL, noop_apply, NULL};
  switch ((int)c->value) {
    case 0: return sensim_sensor_add_user_filter(fx->cam, NULL, NULL);
    case 1: def.apply = NULL; break;
    case 2: def.in = SENSIM_PAYLOAD_POINTS; break;
    case 3: def.init = refuse_init; break;
    default: break; /* after the first capture */
  }
  return sensim_sensor_add_user_filter(fx->cam, &def, NULL);
}
static sensim_status poll_variant(robust_fx *fx, const robust_case *c) {
  return c->value == 0 ? sensim_sensor_poll(NULL, &tmp_frame) : sensim_sensor_poll(fx->cam, NULL);
}
static sensim_status overrun_variant(robust_fx *fx, const robust_case *c) {
  switch ((int)c->value) {
    case 0: return sensim_sensor_set_overrun(NULL, 4, SENSIM_OVERRUN_WAIT);
    case 1: return sensim_sensor_set_overrun(fx->cam, -1, SENSIM_OVERRUN_WAIT);
    case 2: return sensim_sensor_set_overrun(fx->cam, 1025, SENSIM_OVERRUN_WAIT);
    default: return sensim_sensor_set_overrun(fx->cam, 4, (sensim_overrun)5);
  }
}
static sensim_status callback_null(robust_fx *fx, const robust_case *c) {
  (void)fx, (void)c;
  return sensim_sensor_set_callback(NULL, NULL, NULL);
}
static sensim_status camera_params_of_imu(robust_fx *fx, const robust_case *c) {
  (void)c;
  sensim_camera_params cp;
  return sensim_camera_params_get(fx->imu, &cp);
}

/* ---- pure functions -------------------------------------------------------- */

static sensim_status camera_math(robust_fx *fx, const robust_case *c) {
  (void)fx;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  double u, v;
  sensim_vec3 d;
  sensim_lens_table *t = NULL;
  switch ((int)c->value) {
    case 0: return sensim_camera_project(&cp, (sensim_vec3){NAN, 0, 0}, &u, &v);
    case 1: return sensim_camera_project(&cp, (sensim_vec3){-1, 0, 0}, &u, &v);
    case 2: return sensim_camera_pixel_ray(&cp, NAN, 3, &d);
    case 3: return sensim_camera_pixel_ray(NULL, 1, 1, &d);
    case 4: return sensim_lens_table_create(NULL, &t);
    case 5: cp.hfov = -1; return sensim_lens_table_create(&cp, &t);
    default:
      /* A tangential distortion is tabulated on a grid over the image:
       * 4e10 cells for a 2e6-pixel-wide one, refused before allocating. */
      cp.width = cp.height = 2000000;
      cp.lens = SENSIM_LENS_BROWN_CONRADY;
      cp.dist[2] = 1e-4;
      return sensim_lens_table_create(&cp, &t);
  }
}
static sensim_status misc_pure(robust_fx *fx, const robust_case *c) {
  (void)fx;
  sensim_lidar_params lp;
  sensim_payload pl;
  sensim_cone_params kp;
  sensim_cone_params_init(&kp);
  sensim_magnetometer_params mp;
  sensim_magnetometer_params_init(&mp);
  double origin[3] = {0, 0, 0}, field[3], x;
  sensim_frame f;
  memset(&f, 0, sizeof f);
  switch ((int)c->value) {
    case 0: return sensim_lidar_preset("VLP-17", &lp);
    case 1: return sensim_lidar_preset(NULL, &lp);
    case 2: return sensim_payload_from_name("png", &pl);
    case 3: return sensim_payload_from_name(NULL, &pl);
    case 4: kp.method = SENSIM_CONE_LINES, kp.lines = 1; return sensim_cone_params_check(&kp);
    case 5: return sensim_magnetometer_field(&mp, origin, NAN, 0, 0, field);
    case 6: return sensim_magnetometer_field(&mp, origin, 91, 0, 0, field);
    case 7: return sensim_unit_factor(SENSIM_DIM_GYRO, "furlong/fortnight", &x);
    case 8: return sensim_utc_from_civil(2024, 13, 1, 0, 0, 0, &x);
    case 9: return sensim_utc_parse_iso8601("yesterday", &x);
    case 10: return sensim_frame_alloc(NULL, SENSIM_PAYLOAD_GRAY8, 1, 1);
    case 11: return sensim_frame_alloc(&f, SENSIM_PAYLOAD_NONE, 1, 1);
    case 12: mp.g10 = mp.g11 = mp.h11 = 0; return sensim_magnetometer_field(&mp, origin, 0, 0, 0, field);
    case 14: kp.method = SENSIM_CONE_RAYS, kp.rays = 1; return sensim_cone_params_check(&kp);
    default: return sensim_cone_params_check(NULL);
  }
}
static sensim_status chain_variant(robust_fx *fx, const robust_case *c) {
  (void)fx;
  sensim_filter_chain *ch = NULL;
  sensim_status st;
  switch ((int)c->value) {
    case 0: return sensim_filter_chain_create(SENSIM_PAYLOAD_NONE, &ch);
    case 1: return sensim_filter_chain_create(SENSIM_PAYLOAD_ANY, &ch);
    case 2: return sensim_filter_chain_create((sensim_payload)99, &ch);
    default: break;
  }
  SENSIM_OK_OR_FAIL(sensim_filter_chain_create(SENSIM_PAYLOAD_RGB_F32, &ch));
  sensim_frame f;
  memset(&f, 0, sizeof f);
  switch ((int)c->value) {
    case 3: st = sensim_filter_chain_add(ch, "no_such_filter", NULL); break;
    case 4: st = sensim_filter_chain_add(ch, "points", NULL); break;
    case 5: st = sensim_filter_chain_add(ch, "image_noise", "{\"sigma\": "); break;
    case 6: st = sensim_filter_chain_run(ch, &f, 1, 0); break;
    case 7:
      SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_GRAY8, 2, 2));
      st = sensim_filter_chain_run(ch, &f, 1, 0);
      sensim_frame_release(&f);
      break;
    default: st = sensim_filter_chain_run(ch, NULL, 1, 0); break;
  }
  sensim_filter_chain_destroy(ch);
  return st;
}

#define CALL(fn, code, sub) {#fn, fn, code, sub, 0, 0, 0, 0, 0, NULL}
#define CALLV(fn, v, code, sub) {#fn "(" #v ")", fn, code, sub, 0, 0, 0, 0, (double)(v), NULL}
#define ADV(fn, v, code, sub) {#fn "(" #v ", advanced)", fn, code, sub, 1, 0, 0, 0, (double)(v), NULL}
#define FILTER(who, text, code, sub) {"add_filter " text, add_filter, code, sub, 0, 0, 0, 0, who, text}
#define EINV SENSIM_EINVAL
#define ESTATE SENSIM_ESTATE

const robust_case robust_call_cases[] = {
    CALL(world_null_params, EINV, "NULL"),
    CALL(world_null_out, EINV, "NULL"),
    CALL(advance_null, EINV, "NULL"),
    CALLV(advance_value, NAN, EINV, "advance time"),
    CALLV(advance_value, INFINITY, EINV, "advance time"),
    CALLV(advance_value, -INFINITY, EINV, "advance time"),
    CALLV(advance_value, 4294967297.0, EINV, "SENSIM_TIME_MAX"),
    CALLV(advance_value, 2e4, EINV, "SENSIM_ADVANCE_MAX_CAPTURES"),
    ADV(advance_value, -1, ESTATE, "before the world's time"),
    ADV(advance_value, NAN, EINV, "advance time"),
    CALL(advance_unix_time, EINV, "set its phase"),
    CALL(reset_null, EINV, "NULL"),
    CALL(body_create_nulls, EINV, "NULL"),
    CALL(body_mesh_of_another_world, EINV, "another world"),
    CALL(destroy_null, EINV, "NULL"),
    CALL(destroy_carrier, ESTATE, "carries sensor"),
    CALL(destroy_twice, ESTATE, "already destroyed"),
    CALL(push_to_destroyed, ESTATE, "destroyed"),
    CALL(sensor_on_destroyed, EINV, "destroyed"),
    CALL(sensor_on_foreign_body, EINV, "another world"),
    CALL(sensor_name_taken, EINV, "already exists"),
    CALL(sensor_name_empty, EINV, "name"),
    CALLV(sensor_null_kind_params, 0, EINV, "NULL"),
    CALLV(sensor_null_kind_params, 1, EINV, "NULL"),
    CALLV(sensor_null_kind_params, 2, EINV, "NULL"),
    CALLV(sensor_null_kind_params, 3, EINV, "NULL"),
    CALLV(sensor_null_kind_params, 4, EINV, "NULL"),
    CALLV(sensor_null_kind_params, 5, EINV, "NULL"),
    CALL(sensor_null_world, EINV, "NULL"),
    CALL(push_to_static, ESTATE, "static"),
    ADV(push_before_clock, 0, ESTATE, "before the world's time"),
    CALL(push_null_state, EINV, "NULL"),
    CALL(push_mesh_past_limit, EINV, "SENSIM_COORD_MAX"),
    CALL(push_speed_from_far, EINV, "speed"),
    CALL(state_at_nan, EINV, "NaN"),
    CALL(state_at_null, EINV, "NULL"),

    CALLV(light_point_far, 2e7, EINV, "SENSIM_COORD_MAX"),
    CALLV(light_point_far, 1e18, EINV, "SENSIM_COORD_MAX"),
    CALL(light_zero_direction, EINV, "direction"),
    CALLV(light_spot_cone, 0.25, EINV, "spot"),
    CALLV(light_spot_cone, 3.2, EINV, "spot"),
    CALLV(light_spot_cone, NAN, EINV, "spot"),

    CALLV(mesh_variant, 0, EINV, "NULL"),
    CALLV(mesh_variant, 1, EINV, "NULL"),
    CALLV(mesh_variant, 2, EINV, "NULL"),
    CALLV(mesh_variant, 3, EINV, "at least 3 vertices"),
    CALLV(mesh_variant, 4, EINV, "at least 3 vertices"),
    CALLV(mesh_variant, 5, EINV, "indexes vertex 3"),
    CALLV(mesh_variant, 6, EINV, "vertex 1"),
    CALLV(mesh_variant, 7, EINV, "vertex 0"),
    CALLV(mesh_variant, 8, EINV, "SENSIM_COORD_MAX"),
    CALLV(mesh_variant, 9, EINV, "mesh vertex 1"),
    CALLV(mesh_variant, 10, EINV, "uv 0"),
    CALLV(mesh_variant, 11, EINV, "reflectance"),
    CALLV(mesh_variant, 12, EINV, "too large"),
    CALLV(mesh_variant, 13, EINV, "too large"),
    CALLV(mesh_variant, 14, EINV, "roughness"),
    CALLV(mesh_variant, 15, EINV, "NULL"),
    CALLV(texture_variant, 0, EINV, "NULL"),
    CALLV(texture_variant, 1, EINV, "texture size"),
    CALLV(texture_variant, 2, EINV, "texture size"),
    CALLV(texture_variant, 3, EINV, "texture value 5"),
    CALLV(texture_variant, 4, EINV, "texture value 0"),
    CALLV(mesh_variant, 16, EINV, "normal 2"),
    CALLV(mesh_variant, 17, EINV, "handedness"),
    CALLV(mesh_variant, 18, EINV, "tangent 1"),
    CALLV(mesh_variant, 19, EINV, "material 5 of 2"),
    CALLV(mesh_variant, 20, EINV, "both a material"),
    CALLV(mesh_variant, 21, EINV, "nmaterials = 0"),
    CALLV(texture_rgba_variant, 0, EINV, "NULL"),
    CALLV(texture_rgba_variant, 1, EINV, "texture size"),
    CALLV(texture_rgba_variant, 2, EINV, "texture value 3"),
    CALLV(texture_rgba_variant, 3, EINV, "texture value 3"),
    CALLV(gltf_broken, 0, SENSIM_EPARSE, "missing_base.png"),
    CALLV(gltf_broken, 1, SENSIM_EPARSE, "ior"),
    CALLV(gltf_broken, 2, SENSIM_EPARSE, "not_a_png.png"),
    CALLV(gltf_broken, 3, SENSIM_EPARSE, "emissiveStrength"),
    CALL(texture_of_another_world, EINV, "another world"),
    CALL(mesh_load_missing, SENSIM_ENOTFOUND, "robust.obj"),
    CALL(mesh_load_null, EINV, NULL),

    FILTER(0, "no_such_filter", SENSIM_ENOTFOUND, "no_such_filter"),
    FILTER(0, "points", SENSIM_ETYPE, "points"),
    FILTER(1, "image_noise", SENSIM_ETYPE, "image_noise"),
    FILTER(0, "image_noise|{", SENSIM_EPARSE, "image_noise"),
    FILTER(0, "image_noise|[1, 2]", SENSIM_EPARSE, "object"),
    FILTER(0, "image_noise|\"sigma\"", SENSIM_EPARSE, "object"),
    FILTER(0, "image_noise|{\"sigma\": -1}", EINV, "sigma"),
    FILTER(0, "image_noise|{\"sigma\": 1e999}", EINV, "sigma"),
    FILTER(0, "image_noise|{\"sigma\": \"big\"}", EINV, "sigma"),
    FILTER(0, "image_noise|{\"sigmaa\": 0.1}", EINV, "sigmaa"),
    FILTER(0, "image_noise|{\"sigma\": 0.1, \"sigma\": 0.2}", SENSIM_EPARSE, "sigma"),
    FILTER(0, "srgb8|{\"exposure\": -2}", EINV, "exposure"),
    FILTER(1, "imu_noise|{\"accel_noise_density\": -1}", EINV, "accel_noise_density"),
    FILTER(1, "imu_noise|{\"gyro_bias_walk\": 1e999}", EINV, "gyro_bias_walk"),
    FILTER(1, "gnss_noise", SENSIM_ETYPE, "gnss_noise"),
    FILTER(2, "image_noise", EINV, "NULL"),
    {"add_filter NULL name", add_filter, EINV, "NULL", 0, 0, 0, 0, 0, NULL},
    {"add_filter after the first capture", add_filter, ESTATE, "started capturing", 1, 0, 0, 0, 0, "image_noise"},
    CALLV(add_user_filter, 0, EINV, "NULL"),
    CALLV(add_user_filter, 1, EINV, "NULL"),
    CALLV(add_user_filter, 2, SENSIM_ETYPE, "robust"),
    CALLV(add_user_filter, 3, EINV, "refuses"),
    ADV(add_user_filter, 4, ESTATE, "started capturing"),
    CALLV(poll_variant, 0, EINV, "NULL"),
    CALLV(poll_variant, 1, EINV, "NULL"),
    CALLV(overrun_variant, 0, EINV, "NULL"),
    CALLV(overrun_variant, 1, EINV, "max_inflight"),
    CALLV(overrun_variant, 2, EINV, "max_inflight"),
    CALLV(overrun_variant, 3, EINV, "policy"),
    CALL(callback_null, EINV, "NULL"),
    CALL(camera_params_of_imu, EINV, "not a camera"),

    CALLV(camera_math, 0, EINV, "not"),
    CALLV(camera_math, 1, EINV, "in front"),
    CALLV(camera_math, 2, EINV, "not finite"),
    CALLV(camera_math, 3, EINV, "NULL"),
    CALLV(camera_math, 4, EINV, "NULL"),
    CALLV(camera_math, 5, EINV, "hfov"),
    CALLV(camera_math, 6, EINV, "lens grid needs"),
    CALLV(misc_pure, 0, SENSIM_ENOTFOUND, "VLP-17"),
    CALLV(misc_pure, 1, EINV, "NULL"),
    CALLV(misc_pure, 2, SENSIM_ENOTFOUND, "png"),
    CALLV(misc_pure, 3, EINV, "NULL"),
    CALLV(misc_pure, 4, EINV, "lines"),
    CALLV(misc_pure, 5, EINV, "not finite"),
    CALLV(misc_pure, 6, EINV, "latitude"),
    CALLV(misc_pure, 7, SENSIM_ENOTFOUND, "furlong"),
    CALLV(misc_pure, 8, EINV, "out of range"),
    CALLV(misc_pure, 9, EINV, "yesterday"),
    CALLV(misc_pure, 10, EINV, "NULL"),
    CALLV(misc_pure, 11, EINV, "none"),
    CALLV(misc_pure, 12, EINV, "no field"),
    CALLV(misc_pure, 13, EINV, "NULL"),
    CALLV(misc_pure, 14, EINV, "rays"),
    FILTER(0, "image_noise|{\"sigma\": 0.1} trailing", SENSIM_EPARSE, "image_noise"),
    CALLV(chain_variant, 0, EINV, "none"),
    CALLV(chain_variant, 1, EINV, "any"),
    CALLV(chain_variant, 2, EINV, "unknown"),
    CALLV(chain_variant, 3, SENSIM_ENOTFOUND, "no_such_filter"),
    CALLV(chain_variant, 4, SENSIM_ETYPE, "points"),
    CALLV(chain_variant, 5, SENSIM_EPARSE, "image_noise"),
    CALLV(chain_variant, 6, SENSIM_ETYPE, "rgb_f32"),
    CALLV(chain_variant, 7, SENSIM_ETYPE, "gray8"),
    CALLV(chain_variant, 8, EINV, "NULL"),
};
const size_t robust_call_case_count = sizeof robust_call_cases / sizeof robust_call_cases[0];
