/* Camera rendering against closed forms: the GGX BRDF, mirror reflection,
 * spot lights, Koschmieder fog, textures through UVs, rolling shutter,
 * depth and normal planes, vignetting. The expected values are computed
 * here from the published formulas, independently of src/sensors/shading.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "support/testutil.h"

/* ---- an independent transcription of the shading model ---- */

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
 * metallic workflow; returns BRDF x cos(theta_l) for channel base. */
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

/* ---- scene helpers ---- */

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

/* A static square plane of side `size` centred at `pos`, its front normal
 * +Z turned by `rot`. */
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

/* The rotation taking +X to the unit vector d (shortest arc). */
static sensim_quat aim(vec d) {
  d = unit(d);
  vec axis = vv(0, -d.z, d.y); /* X cross d */
  double s = sqrt(dot(axis, axis));
  if (s < 1e-12) return d.x > 0 ? (sensim_quat){1, 0, 0, 0} : (sensim_quat){0, 0, 0, 1};
  return sensim_quat_from_axis_angle((sensim_vec3){axis.x, axis.y, axis.z}, atan2(s, d.x));
}

/* A one-pixel camera (0.1 mrad wide) at `pos` looking along `dir`: its
 * rays all leave within 5e-5 rad of that direction. */
static sensim_sensor *pencil_camera(sensim_world *w, vec pos, vec dir, int bounces, double fog) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.mount.pos = (sensim_vec3){pos.x, pos.y, pos.z};
  sp.mount.rot = aim(dir);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = cp.height = 1;
  cp.hfov = 1e-4;
  cp.samples = 1;
  cp.max_bounces = bounces;
  cp.fog_visibility = fog;
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &s));
  return s;
}

static const float *render1(sensim_world *w, sensim_sensor *s) {
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  return f->data;
}

static sensim_light sun(vec travel, float irradiance, int shadows) {
  sensim_light l;
  sensim_light_init(&l);
  l.direction = (sensim_vec3){travel.x, travel.y, travel.z};
  l.intensity = irradiance;
  l.cast_shadows = shadows;
  return l;
}

/* ---- tests ---- */

static void check_ggx(float rough, float metal) {
  sensim_world *w = dark_world();
  sensim_material m;
  sensim_material_init(&m);
  m.base_color[0] = 0.8f;
  m.base_color[1] = 0.6f;
  m.base_color[2] = 0.4f;
  m.roughness = rough;
  m.metallic = metal;
  add_plane(w, 100, (sensim_vec3){0, 0, 0}, (sensim_quat){1, 0, 0, 0}, &m);
  vec travel = vv(-0.5, 0.2, -1.0);
  sensim_light l = sun(travel, 2.0f, 1);
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  vec dir = vv(1, 0.3, -1);
  sensim_sensor *cam = pencil_camera(w, vv(0, 0, 1), dir, 0, 0);
  const float *rgb = render1(w, cam);
  vec n = vv(0, 0, 1), v = unit(vv(-dir.x, -dir.y, -dir.z)), to = unit(vv(-travel.x, -travel.y, -travel.z));
  for (int c = 0; c < 3; c++) {
    double expect = brdf_cos(m.base_color[c], rough, metal, n, v, to) * 2.0;
    /* The pencil's rays stray up to 5e-5 rad: a relative change of that
     * order in the angles; float storage adds 1e-7. */
    assert_near(rgb[c], expect, 1e-3 * expect + 1e-6);
  }
  sensim_world_destroy(w);
}

static void test_camera_ggx_brdf_matches_closed_form(void **state) {
  (void)state;
  check_ggx(0.5f, 0.0f);
  check_ggx(0.3f, 1.0f);
  check_ggx(0.8f, 0.4f);
}

static void test_camera_mirror_shows_scene_behind_with_fresnel_weight(void **state) {
  (void)state;
  for (int bounces = 0; bounces <= 1; bounces++) {
    sensim_world *w = dark_world();
    sensim_material mirror;
    sensim_material_init(&mirror);
    mirror.base_color[0] = mirror.base_color[1] = mirror.base_color[2] = 1.0f; /* F0 = 1: F = 1 */
    mirror.metallic = 1.0f;
    mirror.roughness = 0.0f;
    sensim_material wall;
    sensim_material_init(&wall);
    wall.base_color[0] = 0.2f;
    wall.base_color[1] = 0.4f;
    wall.base_color[2] = 0.6f;
    wall.roughness = 1.0f;
    /* Mirror at x = 5 facing -X; a wall at x = -5 facing +X. */
    add_plane(w, 20, (sensim_vec3){5, 0, 0}, sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, -M_PI / 2), &mirror);
    add_plane(w, 20, (sensim_vec3){-5, 0, 0}, sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, M_PI / 2), &wall);
    sensim_light l = sun(vv(-1, 0, 0), 1.0f, 0); /* lights the wall's face, not the mirror's */
    SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
    sensim_sensor *cam = pencil_camera(w, vv(0, 0, 0), vv(1, 0, 0), bounces, 0);
    const float *rgb = render1(w, cam);
    for (int c = 0; c < 3; c++) {
      /* The wall seen head-on along +X, lit head-on. */
      double expect = bounces ? brdf_cos(wall.base_color[c], 1.0, 0.0, vv(1, 0, 0), vv(1, 0, 0), vv(1, 0, 0)) : 0.0;
      assert_near(rgb[c], expect, 1e-4 * expect + 1e-7);
    }
    sensim_world_destroy(w);
  }
}

static double smoothstep_cos(double angle, double inner, double outer) {
  double c = cos(angle), ci = cos(inner), co = cos(outer);
  if (c >= ci) return 1;
  if (c <= co) return 0;
  double x = (c - co) / (ci - co);
  return x * x * (3 - 2 * x);
}

static void test_camera_spot_light_follows_cone_and_inverse_square(void **state) {
  (void)state;
  const double H = 5.0, I = 40.0, inner = 0.2, outer = 0.3;
  const double radii[4] = {0.5, 1.2, 1.4, 2.0}; /* inside, in the ramp (x2), outside */
  for (int i = 0; i < 4; i++) {
    sensim_world *w = dark_world();
    sensim_material m;
    sensim_material_init(&m);
    m.roughness = 1.0f;
    add_plane(w, 100, (sensim_vec3){0, 0, 0}, (sensim_quat){1, 0, 0, 0}, &m);
    sensim_light l;
    sensim_light_init(&l);
    l.kind = SENSIM_LIGHT_SPOT;
    l.position = (sensim_vec3){0, 0, H};
    l.direction = (sensim_vec3){0, 0, -1};
    l.intensity = (float)I;
    l.spot_inner = (float)inner;
    l.spot_outer = (float)outer;
    SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
    double r = radii[i];
    vec cam_pos = vv(r - 1.0, 0, 1.0); /* looks 45 deg down at (r, 0, 0) */
    sensim_sensor *cam = pencil_camera(w, cam_pos, vv(1, 0, -1), 0, 0);
    const float *rgb = render1(w, cam);
    vec to = unit(vv(-r, 0, H));
    double d2 = r * r + H * H;
    double E = I / d2 * smoothstep_cos(atan2(r, H), inner, outer);
    double expect = brdf_cos(0.5, 1.0, 0.0, vv(0, 0, 1), unit(vv(-1, 0, 1)), to) * E;
    assert_near(rgb[0], expect, 2e-3 * expect + 1e-7);
    if (i == 3) assert_true(rgb[0] == 0.0f);
    sensim_world_destroy(w);
  }
}

static void test_camera_fog_follows_koschmieder(void **state) {
  (void)state;
  const double D = 50.0, V = 100.0;
  float clear[3], foggy[3];
  for (int k = 0; k < 2; k++) {
    sensim_world_params p;
    sensim_world_params_init(&p);
    p.threads = 0;
    p.ambient = 0.3f; /* background (the horizon sky) stays at its default grey */
    sensim_world *w = NULL;
    SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
    sensim_material m;
    sensim_material_init(&m);
    add_plane(w, 200, (sensim_vec3){D, 0, 0}, sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, -M_PI / 2), &m);
    sensim_sensor *cam = pencil_camera(w, vv(0, 0, 0), vv(1, 0, 0), 0, k ? V : 0.0);
    memcpy(k ? foggy : clear, render1(w, cam), sizeof clear);
    sensim_world_destroy(w);
  }
  double T = exp(-3.912023005428146 / V * D); /* beta = -ln(0.02) / V */
  for (int c = 0; c < 3; c++) assert_near(foggy[c], clear[c] * T + 0.6 * (1 - T), 1e-5);
  assert_true(clear[0] < 0.6f * 0.5f); /* the wall is darker than the sky: fog brightens it */
}

static void test_camera_texture_maps_through_plane_uvs(void **state) {
  (void)state;
  /* A 2 x 2 texture on a 2 m floor plane: texel (i, j) covers u in
   * [i/2, (i+1)/2), v in [j/2, (j+1)/2); the plane's UVs put u = x/2 + 1/2,
   * v = 1/2 - y/2, so texel centres lie at x = +-0.5, y = -+0.5. */
  const float tex[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
  const double tx[4] = {-0.5, 0.5, -0.5, 0.5}, ty[4] = {0.5, 0.5, -0.5, -0.5};
  for (int i = 0; i < 4; i++) {
    sensim_world *w = dark_world();
    sensim_texture *t = NULL;
    SENSIM_OK_OR_FAIL(sensim_texture_create(w, 2, 2, tex, &t));
    sensim_material m;
    sensim_material_init(&m);
    m.base_color[0] = m.base_color[1] = m.base_color[2] = 1.0f;
    m.roughness = 1.0f;
    m.texture = t;
    add_plane(w, 2, (sensim_vec3){0, 0, 0}, (sensim_quat){1, 0, 0, 0}, &m);
    sensim_light l = sun(vv(0, 0, -1), 1.0f, 0);
    SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
    vec dir = vv(tx[i], ty[i], -1);
    sensim_sensor *cam = pencil_camera(w, vv(0, 0, 1), dir, 0, 0);
    const float *rgb = render1(w, cam);
    vec v = unit(vv(-dir.x, -dir.y, -dir.z));
    /* The pencil's pixel spans +-5e-5 rad about the axis, so its corner
     * rays are sqrt(2) 5e-5 rad off it; at distance d = |dir| and
     * incidence cos = 1 / d that moves the hit by up to sqrt(2) 5e-5 d^2 m
     * from the texel centre, mixing in at most that fraction of the
     * neighbouring texels (1 m wide; a texel of 1 gives `white`). */
    const double d2 = tx[i] * tx[i] + ty[i] * ty[i] + 1.0;
    const double white = brdf_cos(1.0, 1.0, 0.0, vv(0, 0, 1), v, vv(0, 0, 1));
    const double mix = sqrt(2.0) * 5e-5 * d2 * white;
    for (int c = 0; c < 3; c++) {
      double expect = brdf_cos(tex[3 * i + c], 1.0, 0.0, vv(0, 0, 1), v, vv(0, 0, 1));
      assert_near(rgb[c], expect, 1e-3 * expect + mix);
    }
    sensim_world_destroy(w);
  }
}

static void test_camera_rolling_shutter_slants_moving_bar(void **state) {
  (void)state;
  const double D = 10.0, v = 20.0, line = 1e-4;
  const uint32_t W = 200, H = 100;
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = 0;
  p.background[0] = p.background[1] = p.background[2] = 0.0f;
  p.ambient = 1.0f;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  sensim_material m;
  sensim_material_init(&m);
  sensim_mesh *bar = NULL;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {0.1, 0.4, 40}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &m, &bar));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = bar;
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 10;
  sp.phase = 0.05;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = W;
  cp.height = H;
  cp.samples = 16;
  cp.line_time = line;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  assert_near(sensim_sensor_params_get(cam)->window, (H - 1) * line, 1e-15);
  const sensim_frame *f = NULL;
  for (int i = 0; i <= 60 && !f; i++) {
    double t = i * 0.001;
    /* The bar crosses the optical axis at t = 0.045 moving towards +Y. */
    sensim_body_state s = test_state_xyzyaw(D, v * (t - 0.045), 0, 0);
    s.flags = SENSIM_STATE_VELOCITY;
    s.lin_vel.y = v;
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, t, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
  }
  assert_non_null(f);
  /* Row y is read at t_k - (H - 1 - y) line: the bar's centre column moves
   * by -fx v line / D per row (fx = W / 2 for hfov 90). */
  const float *rgb = f->data;
  double sy = 0, sc = 0, syy = 0, syc = 0;
  for (uint32_t y = 0; y < H; y++) {
    double mass = 0, mom = 0;
    for (uint32_t x = 0; x < W; x++) {
      double val = rgb[3 * ((size_t)y * W + x)];
      mass += val;
      mom += val * x;
    }
    assert_true(mass > 0);
    double c = mom / mass;
    sy += y;
    sc += c;
    syy += (double)y * y;
    syc += y * c;
  }
  double slope = (H * syc - sy * sc) / (H * syy - sy * sy);
  double expect = -(W / 2.0) * v * line / D; /* -0.02 px per row */
  assert_near(slope, expect, 0.05 * fabs(expect));
  sensim_world_destroy(w);
}

static void test_camera_depth_modes_and_normals_plane(void **state) {
  (void)state;
  float *depth[2] = {NULL, NULL};
  const uint32_t W = 320, H = 240;
  for (int mode = 0; mode < 2; mode++) {
    sensim_world *w = dark_world();
    sensim_material m;
    sensim_material_init(&m);
    add_plane(w, 100, (sensim_vec3){4, 0, 0}, sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, -M_PI / 2), &m);
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sensim_camera_params cp;
    sensim_camera_params_init(&cp);
    cp.width = W;
    cp.height = H;
    cp.samples = 1;
    cp.depth_along_ray = mode;
    sensim_sensor *cam = NULL;
    SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
    assert_non_null(f);
    assert_non_null(f->normals);
    for (size_t i = 0; i < f->count; i++) {
      assert_near(f->normals[3 * i], -1.0, 1e-5);
      assert_near(f->normals[3 * i + 1], 0.0, 1e-5);
    }
    depth[mode] = malloc(f->count * sizeof(float));
    memcpy(depth[mode], f->depth, f->count * sizeof(float));
    sensim_world_destroy(w);
  }
  /* The "normals" filter encodes the plane as an image: (n + 1) / 2. */
  {
    sensim_world *w = dark_world();
    sensim_material m;
    sensim_material_init(&m);
    add_plane(w, 100, (sensim_vec3){4, 0, 0}, sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, -M_PI / 2), &m);
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sensim_camera_params cp;
    sensim_camera_params_init(&cp);
    cp.width = 8;
    cp.height = 6;
    sensim_sensor *cam = NULL;
    SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "normals", NULL));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
    const float *rgb = f->data;
    assert_int_equal(f->unit, SENSIM_UNIT_SIGNAL);
    for (size_t i = 0; i < f->count; i++) {
      assert_near(rgb[3 * i], 0.0, 1e-5);
      assert_near(rgb[3 * i + 1], 0.5, 1e-5);
      assert_near(rgb[3 * i + 2], 0.5, 1e-5);
    }
    sensim_world_destroy(w);
  }
  const double fx = W / 2.0;
  for (uint32_t y = 0; y < H; y += 7)
    for (uint32_t x = 0; x < W; x += 11) {
      size_t i = (size_t)y * W + x;
      assert_near(depth[0][i], 4.0, 1e-5); /* along the axis: the wall's distance */
      /* Along the ray: 4 / cos(angle), the angle of a ray somewhere inside
       * the pixel (same seed: the same jittered ray as the axial render). */
      double du = fabs(x - (W - 1) / 2.0) + 0.5, dv = fabs(y - (H - 1) / 2.0) + 0.5;
      double hi = 4.0 * sqrt(1 + (du * du + dv * dv) / (fx * fx));
      double dlo = fmax(du - 1.0, 0.0), dvlo = fmax(dv - 1.0, 0.0);
      double lo = 4.0 * sqrt(1 + (dlo * dlo + dvlo * dvlo) / (fx * fx));
      assert_true(depth[1][i] >= lo - 1e-4 && depth[1][i] <= hi + 1e-4);
    }
  free(depth[0]);
  free(depth[1]);
}

static void test_camera_vignetting_follows_cos4(void **state) {
  (void)state;
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = 0;
  p.ambient = 1.0f; /* ambient light only: the wall's radiance is the same from every angle */
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  sensim_material m;
  sensim_material_init(&m);
  add_plane(w, 100, (sensim_vec3){4, 0, 0}, sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, -M_PI / 2), &m);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 41;
  cp.height = 31;
  cp.samples = 64;
  cp.vignetting = 1;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
  const float *rgb = f->data;
  const double L = 0.5 / M_PI, fx = 20.5; /* (41 / 2) / tan(45 deg) */
  for (uint32_t y = 0; y < 31; y += 5)
    for (uint32_t x = 0; x < 41; x += 4) {
      double du = (x - 20.0) / fx, dv = (y - 15.0) / fx;
      double c2 = 1.0 / (1.0 + du * du + dv * dv); /* cos^2 of the pixel centre's ray */
      /* 64 samples average cos^4 over the pixel: second-order away from
       * its centre value, under 0.5 % here. */
      assert_near(rgb[3 * ((size_t)y * 41 + x)], L * c2 * c2, 5e-3 * L);
    }
  sensim_world_destroy(w);
}

/* A scene with every shading path: a textured floor, a mirror, a rough
 * metal box, a directional light with shadows, a point light without, fog;
 * rendered at 4 samples per pixel on `threads` workers, with the SIMD
 * kernels on or off. Returns a malloc'd copy of the image and its planes. */
static float *every_path_frame(int threads, int plain) {
#if defined(SENSIM_HAVE_AVX2_PATHS)
  atomic_store(&sensim__cpu_avx2_off, plain);
#else
  (void)plain;
#endif
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = threads;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  const float tex[12] = {1, 0.2f, 0.2f, 0.2f, 1, 0.2f, 0.2f, 0.2f, 1, 1, 1, 1};
  sensim_texture *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_texture_create(w, 2, 2, tex, &t));
  sensim_material floor_m, mirror_m, box_m;
  sensim_material_init(&floor_m);
  floor_m.texture = t;
  sensim_material_init(&mirror_m);
  mirror_m.roughness = 0.02f;
  mirror_m.metallic = 1.0f;
  sensim_material_init(&box_m);
  box_m.roughness = 0.3f;
  box_m.metallic = 0.7f;
  box_m.base_color[0] = 0.8f;
  add_plane(w, 20, (sensim_vec3){0, 0, 0}, (sensim_quat){1, 0, 0, 0}, &floor_m);
  add_plane(w, 4, (sensim_vec3){6, 0, 2}, sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, -M_PI / 2), &mirror_m);
  sensim_mesh *box = NULL;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {1, 1, 1}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &box_m, &box));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = box;
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){3, 1, 0.5};
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_light l = sun(vv(-0.3, 0.4, -1), 2.0f, 1);
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  sensim_light pl;
  sensim_light_init(&pl);
  pl.kind = SENSIM_LIGHT_POINT;
  pl.position = (sensim_vec3){2, -1, 2};
  pl.intensity = 3.0f;
  pl.cast_shadows = 0;
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &pl));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.mount.pos = (sensim_vec3){0, 0, 1.5};
  sp.mount.rot = aim(vv(1, 0, -0.2));
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 61; /* not a multiple of the 4-pixel tile */
  cp.height = 46;
  cp.samples = 4;
  cp.max_bounces = 2;
  cp.fog_visibility = 200;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
  assert_non_null(f);
  const size_t n = (size_t)f->width * f->height;
  float *out = malloc(n * 8 * sizeof(float));
  assert_non_null(out);
  memcpy(out, f->data, 3 * n * sizeof(float));
  memcpy(out + 3 * n, f->depth, n * sizeof(float));
  memcpy(out + 4 * n, f->normals, 3 * n * sizeof(float));
  uint32_t *ids = (uint32_t *)(out + 7 * n); /* the label fields, not the struct's padding */
  for (size_t i = 0; i < n; i++) ids[i] = f->labels[i].class_id ^ (f->labels[i].instance_id << 16);
  sensim_world_destroy(w);
#if defined(SENSIM_HAVE_AVX2_PATHS)
  atomic_store(&sensim__cpu_avx2_off, 0);
#endif
  return out;
}

/* The packet kernels' SIMD and plain builds give the same bits, and the
 * image does not depend on how many workers render its strips. */
static void test_camera_simd_plain_and_thread_counts_give_the_same_frame(void **state) {
  (void)state;
  const size_t bytes = (size_t)61 * 46 * 8 * sizeof(float);
  float *ref = every_path_frame(0, 0);
  float *plain = every_path_frame(0, 1);
  float *two = every_path_frame(2, 0);
  assert_memory_equal(ref, plain, bytes);
  assert_memory_equal(ref, two, bytes);
  /* The scene is not empty: floor, box, mirror and sky all in view. */
  size_t lit = 0;
  for (size_t i = 0; i < (size_t)61 * 46; i++) lit += ref[3 * i] > 0.05f;
  assert_true(lit > 61 * 46 / 2);
  free(ref);
  free(plain);
  free(two);
}

static void test_camera_rejects_bad_render_params(void **state) {
  (void)state;
  sensim_world *w = dark_world();
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_sensor *cam = NULL;
  for (int k = 0; k < 6; k++) {
    sensim_camera_params_init(&cp);
    sensim_sensor_params_init(&sp);
    switch (k) {
      case 0: cp.exposure_time = -1; break;
      case 1: cp.line_time = NAN; break;
      case 2: cp.max_bounces = 9; break;
      case 3: cp.fog_visibility = -5; break;
      case 4: cp.exposure_time = 0.01; sp.window = 0.005; break; /* window shorter than exposure */
      case 5: cp.lens = (sensim_lens_model)42; break;
    }
    assert_int_equal(sensim_camera_create(w, &sp, &cp, &cam), SENSIM_EINVAL);
    assert_true(strlen(sensim_last_error()) > 0);
  }
  assert_int_equal(sensim_world_sensor_count(w), 0);
  /* Spot lights with impossible cones are refused too. */
  sensim_light l;
  sensim_light_init(&l);
  l.kind = SENSIM_LIGHT_SPOT;
  l.spot_inner = 0.5f;
  l.spot_outer = 0.2f;
  assert_int_equal(sensim_light_add(w, &l), SENSIM_EINVAL);
  /* A texture from another world cannot be used. */
  sensim_world *w2 = dark_world();
  const float px[3] = {1, 1, 1};
  sensim_texture *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_texture_create(w2, 1, 1, px, &t));
  sensim_material m;
  sensim_material_init(&m);
  m.texture = t;
  sensim_mesh *mesh = NULL;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {1, 1, 1}, 0};
  assert_int_equal(sensim_mesh_create_shape(w, &sh, &m, &mesh), SENSIM_EINVAL);
  const float bad[3] = {1.5f, 0, 0};
  assert_int_equal(sensim_texture_create(w2, 1, 1, bad, &t), SENSIM_EINVAL);
  sensim_world_destroy(w2);
  sensim_world_destroy(w);
}

int sensim_test_camera_render(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_camera_ggx_brdf_matches_closed_form),
      cmocka_unit_test(test_camera_mirror_shows_scene_behind_with_fresnel_weight),
      cmocka_unit_test(test_camera_spot_light_follows_cone_and_inverse_square),
      cmocka_unit_test(test_camera_fog_follows_koschmieder),
      cmocka_unit_test(test_camera_texture_maps_through_plane_uvs),
      cmocka_unit_test(test_camera_rolling_shutter_slants_moving_bar),
      cmocka_unit_test(test_camera_depth_modes_and_normals_plane),
      cmocka_unit_test(test_camera_vignetting_follows_cos4),
      cmocka_unit_test(test_camera_rejects_bad_render_params),
      cmocka_unit_test(test_camera_simd_plain_and_thread_counts_give_the_same_frame),
  };
  return cmocka_run_group_tests_name("camera_render", tests, NULL, NULL);
}
