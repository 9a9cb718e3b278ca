/* tests/sensors/camera_material_tests.c: the direct camera with glTF-style
 * materials: a normal map bends the shading normal (the BRDF then follows
 * the bent normal, checked against an independent transcription of the
 * model), the metallic-roughness texture scales roughness (G) and
 * metallic (B), emissive surfaces glow from either face by emission x the
 * decoded emissive texture, and an alpha-masked roof lets the sun through
 * its holes onto the floor. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"

typedef struct vec {
  double x, y, z;
} vec;
static vec vv(double x, double y, double z) { return (vec){x, y, z}; }
static double dot(vec a, vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static vec unit(vec a) {
  double n = sqrt(dot(a, a));
  return vv(a.x / n, a.y / n, a.z / n);
}

/* Lambert + Cook-Torrance GGX (Walter et al. 2007), Smith G, Schlick F,
 * metallic workflow (glTF 2.0 appendix B); BRDF x cos(theta_l). */
static double brdf_cos(double base, double rough, double metal, vec n, vec v, vec l) {
  double nl = dot(n, l), nv = dot(n, v);
  if (nl <= 0 || nv <= 0) return 0;
  vec h = unit(vv(l.x + v.x, l.y + v.y, l.z + v.z));
  double a = rough * rough;
  if (a < 1e-3) a = 1e-3;
  double a2 = a * a, nh = dot(n, h), vh = dot(v, h);
  double D = a2 / (M_PI * pow(nh * nh * (a2 - 1) + 1, 2));
  double g1l = 2 * nl / (nl + sqrt(a2 + (1 - a2) * nl * nl));
  double g1v = 2 * nv / (nv + sqrt(a2 + (1 - a2) * nv * nv));
  double f0 = 0.04 * (1 - metal) + base * metal;
  double F = f0 + (1 - f0) * pow(1 - vh, 5);
  return ((1 - F) * (1 - metal) * base / M_PI + F * D * g1l * g1v / (4 * nl * nv)) * nl;
}

static double srgb_decode(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }

static sensim_world *dark_world(void) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = 0;
  p.background[0] = p.background[1] = p.background[2] = 0.0f;
  p.ambient = 0.0f;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  return w;
}

/* A static square plane (shape: normal +Z, u = x / size + 1/2, v = 1/2 -
 * y / size) at `pos` turned by `rot`. */
static void add_plane(sensim_world *w, double size, sensim_vec3 pos, sensim_quat rot, const sensim_material *m) {
  sensim_mesh *mesh = NULL;
  sensim_shape sh = {SENSIM_SHAPE_PLANE, {size, size, 0}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, m, &mesh));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh;
  bp.is_static = 1;
  bp.pose.pos = pos;
  bp.pose.rot = rot;
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
}

static sensim_quat aim(vec d) {
  d = unit(d);
  vec axis = vv(0, -d.z, d.y);
  double s = sqrt(dot(axis, axis));
  if (s < 1e-12) return d.x > 0 ? (sensim_quat){1, 0, 0, 0} : (sensim_quat){0, 0, 0, 1};
  return sensim_quat_from_axis_angle((sensim_vec3){axis.x, axis.y, axis.z}, atan2(s, d.x));
}

/* A one-pixel, 0.1 mrad camera at pos looking along dir. */
static sensim_sensor *pencil(sensim_world *w, vec pos, vec dir) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.mount.pos = (sensim_vec3){pos.x, pos.y, pos.z};
  sp.mount.rot = aim(dir);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = cp.height = 1;
  cp.hfov = 1e-4;
  cp.samples = 1;
  cp.max_bounces = 0;
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &s));
  return s;
}

static void render(sensim_world *w, sensim_sensor *s, float rgb[3]) {
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  memcpy(rgb, f->data, 3 * sizeof *rgb);
}

static void add_sun(sensim_world *w, vec travel, float irradiance) {
  sensim_light l;
  sensim_light_init(&l);
  l.direction = (sensim_vec3){travel.x, travel.y, travel.z};
  l.intensity = irradiance;
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
}

/* A plane whose 1 x 1 normal map holds the tangent-space normal
 * (0.6, 0, 0.8) (texel (0.8, 0.5, 0.9), given sRGB-encoded: a data use
 * must read it as stored), scaled by `scale`, on a body yawed by `yaw`:
 * its shading normal is (0.6 s, 0, 0.8) normalised in (T, B, N) = (+x,
 * +y, +z) of the plane, turned by the yaw. */
static void check_normal_map(double scale, double yaw) {
  sensim_world *w = dark_world();
  const float px[4] = {0.8f, 0.5f, 0.9f, 1.0f};
  sensim_texture *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_texture_create_rgba(w, 1, 1, px, 1, &t));
  sensim_material m;
  sensim_material_init(&m);
  m.base_color[0] = 0.8f, m.base_color[1] = 0.6f, m.base_color[2] = 0.4f;
  m.roughness = 0.6f;
  m.normal_texture = t;
  m.normal_scale = (float)scale;
  add_plane(w, 100, (sensim_vec3){0, 0, 0}, sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, yaw), &m);
  const vec travel = vv(0.8, 0.2, -1.0), dir = vv(0.7, 0.4, -1);
  add_sun(w, travel, 2.0f);
  sensim_sensor *cam = pencil(w, vv(0, 0, 1), dir);
  float rgb[3];
  render(w, cam, rgb);
  const double x = 2 * 0.8 - 1, y = 2 * 0.5 - 1, z = 2 * 0.9 - 1; /* as stored: (0.6, 0, 0.8) */
  const vec nt = unit(vv(x * scale, y * scale, z));
  const vec n = vv(nt.x * cos(yaw) - nt.y * sin(yaw), nt.x * sin(yaw) + nt.y * cos(yaw), nt.z);
  const vec v = unit(vv(-dir.x, -dir.y, -dir.z)), l = unit(vv(-travel.x, -travel.y, -travel.z));
  for (int c = 0; c < 3; c++) {
    const double expect = brdf_cos(m.base_color[c], 0.6, 0.0, n, v, l) * 2.0;
    const double flat = brdf_cos(m.base_color[c], 0.6, 0.0, vv(0, 0, 1), v, l) * 2.0;
    assert_near(rgb[c], expect, 2e-3 * expect + 1e-6);
    /* The map visibly changes the shading. */
    assert_true(fabs(expect - flat) > 0.05 * flat);
  }
  sensim_world_destroy(w);
}

static void test_camera_normal_map_bends_the_shading_normal(void **state) {
  (void)state;
  check_normal_map(1.0, 0.0);
  check_normal_map(0.5, 0.0);
  check_normal_map(1.0, M_PI / 2);
}

static void test_camera_metallic_roughness_texture_scales_factors(void **state) {
  (void)state;
  sensim_world *w = dark_world();
  /* G = 0.5 scales roughness 0.8 to 0.4, B = 0.25 scales metallic 1 to
   * 0.25; given sRGB-encoded, read as stored (data). R is unused. */
  const float px[4] = {0.9f, 0.5f, 0.25f, 1.0f};
  sensim_texture *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_texture_create_rgba(w, 1, 1, px, 1, &t));
  sensim_material m;
  sensim_material_init(&m);
  m.base_color[0] = 0.9f, m.base_color[1] = 0.5f, m.base_color[2] = 0.2f;
  m.roughness = 0.8f;
  m.metallic = 1.0f;
  m.metallic_roughness_texture = t;
  add_plane(w, 100, (sensim_vec3){0, 0, 0}, (sensim_quat){1, 0, 0, 0}, &m);
  const vec travel = vv(-0.5, 0.2, -1.0), dir = vv(1, 0.3, -1);
  add_sun(w, travel, 2.0f);
  sensim_sensor *cam = pencil(w, vv(0, 0, 1), dir);
  float rgb[3];
  render(w, cam, rgb);
  const vec v = unit(vv(-dir.x, -dir.y, -dir.z)), l = unit(vv(-travel.x, -travel.y, -travel.z));
  for (int c = 0; c < 3; c++) {
    const double expect = brdf_cos(m.base_color[c], 0.4, 0.25, vv(0, 0, 1), v, l) * 2.0;
    assert_near(rgb[c], expect, 1e-3 * expect + 1e-6);
  }
  sensim_world_destroy(w);
}

static void test_camera_emissive_surface_glows_from_both_faces(void **state) {
  (void)state;
  for (int back = 0; back < 2; back++) {
    sensim_world *w = dark_world();
    /* Emissive texture code 0.5 (sRGB): decoded 0.214. */
    const float px[4] = {0.5f, 1.0f, 0.25f, 1.0f};
    sensim_texture *t = NULL;
    SENSIM_OK_OR_FAIL(sensim_texture_create_rgba(w, 1, 1, px, 1, &t));
    sensim_material m;
    sensim_material_init(&m);
    m.emission[0] = 2.0f, m.emission[1] = 1.0f, m.emission[2] = 0.5f;
    m.emissive_texture = t;
    add_plane(w, 10, (sensim_vec3){0, 0, 0}, (sensim_quat){1, 0, 0, 0}, &m);
    sensim_sensor *cam = pencil(w, vv(0, 0, back ? -1 : 1), vv(0.2, 0.1, back ? 1 : -1));
    float rgb[3];
    render(w, cam, rgb);
    for (int c = 0; c < 3; c++) {
      /* Either face (sensim's surfaces are two-sided, as the path
       * integrator's emitters are). */
      const double expect = m.emission[c] * srgb_decode(px[c]);
      assert_near(rgb[c], expect, 1e-6 * expect + 1e-7);
    }
    sensim_world_destroy(w);
  }
}

static void test_camera_alpha_masked_roof_lets_the_sun_through(void **state) {
  (void)state;
  sensim_world *w = dark_world();
  /* Floor at z = 0; a 2 m roof at z = 1 whose 2 x 1 texture is a hole
   * (alpha 0) for x < 0 and opaque for x > 0; the sun straight down. */
  const float px[8] = {1, 1, 1, 0.0f, 1, 1, 1, 1.0f};
  sensim_texture *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_texture_create_rgba(w, 2, 1, px, 0, &t));
  sensim_material roof;
  sensim_material_init(&roof);
  roof.texture = t;
  roof.alpha_mode = SENSIM_ALPHA_MASK;
  sensim_material floor;
  sensim_material_init(&floor);
  floor.roughness = 1.0f;
  add_plane(w, 100, (sensim_vec3){0, 0, 0}, (sensim_quat){1, 0, 0, 0}, &floor);
  add_plane(w, 2, (sensim_vec3){0, 0, 1}, (sensim_quat){1, 0, 0, 0}, &roof);
  add_sun(w, vv(0, 0, -1), 1.0f);
  /* Cameras below the roof looking at the floor under each half, and one
   * above looking down through the hole. */
  sensim_sensor *lit = pencil(w, vv(-0.5, 0, 0.5), vv(0, 0, -1));
  sensim_sensor *dark = pencil(w, vv(0.5, 0, 0.5), vv(0, 0, -1));
  sensim_sensor *above = pencil(w, vv(-0.5, 0, 3), vv(0, 0, -1));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  const double expect = brdf_cos(0.5, 1.0, 0.0, vv(0, 0, 1), vv(0, 0, 1), vv(0, 0, 1));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(lit, &f));
  assert_near(((const float *)f->data)[0], expect, 1e-4 * expect);
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(dark, &f));
  assert_near(((const float *)f->data)[0], 0.0, 1e-7);
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(above, &f));
  assert_near(((const float *)f->data)[0], expect, 1e-4 * expect); /* the floor, seen through the hole */
  sensim_world_destroy(w);
}

int sensim_test_camera_materials(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_camera_normal_map_bends_the_shading_normal),
      cmocka_unit_test(test_camera_metallic_roughness_texture_scales_factors),
      cmocka_unit_test(test_camera_emissive_surface_glows_from_both_faces),
      cmocka_unit_test(test_camera_alpha_masked_roof_lets_the_sun_through),
  };
  return cmocka_run_group_tests_name("camera_materials", tests, NULL, NULL);
}
