/* tests/rt/alpha_tests.c: alpha-masked and alpha-blended surfaces let the
 * kernel's rays through (src/rt/alpha.c): holes where alpha < cutoff for
 * single rays, the lidar's 8-wide packets, the camera's 16-wide packets
 * and shadow (occlusion) rays; blended coverage passes 1 - alpha of the
 * rays within binomial tolerance, deterministically. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rt/rt.h"
#include "support/testutil.h"

typedef struct scene {
  sensim_world *w;
  sensim_snapshot *snap;
  sensim_rt_binding *bind;
  sensim_rt_view *view;
} scene;

/* A quad in the plane x = 5, y and z in [-1, 1], u = (y + 1) / 2 and
 * v = (1 - z) / 2, with material m (and, if rgba is not NULL, a 2 x 1
 * linear RGBA base-colour texture of it); behind it an opaque wall at
 * x = 10. */
static void make_scene(scene *s, sensim_material *m, const float *rgba) {
  s->w = test_world(0, 7);
  if (rgba) {
    sensim_texture *t = NULL;
    SENSIM_OK_OR_FAIL(sensim_texture_create_rgba(s->w, 2, 1, rgba, 0, &t));
    m->texture = t;
  }
  const float v[12] = {5, -1, -1, 5, 1, -1, 5, 1, 1, 5, -1, 1};
  const float uv[8] = {0, 1, 1, 1, 1, 0, 0, 0};
  const uint32_t ix[6] = {0, 1, 2, 0, 2, 3};
  const float wv[12] = {10, -9, -9, 10, 9, -9, 10, 9, 9, 10, -9, 9};
  sensim_mesh_desc d = test_mesh_desc(v, 4, ix, 2, m);
  d.uvs = uv;
  sensim_mesh *quad = NULL, *wall = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(s->w, &d, &quad));
  sensim_mesh_desc dw = test_mesh_desc(wv, 4, ix, 2, NULL);
  SENSIM_OK_OR_FAIL(sensim_mesh_create(s->w, &dw, &wall));
  sensim_mesh *meshes[2] = {quad, wall};
  for (int i = 0; i < 2; i++) {
    sensim_body_params bp;
    sensim_body_params_init(&bp);
    bp.mesh = meshes[i];
    bp.is_static = 1;
    sensim_body *b = NULL;
    SENSIM_OK_OR_FAIL(sensim_body_create(s->w, &bp, &b));
  }
  SENSIM_OK_OR_FAIL(sensim__snapshot_take(s->w, 0, 0, 1, -1, &s->snap));
  SENSIM_OK_OR_FAIL(sensim__rt_bind(s->w, s->snap, &s->bind));
  SENSIM_OK_OR_FAIL(sensim__rt_view_create(s->bind, s->snap, &s->view));
}

static void free_scene(scene *s) {
  sensim__rt_view_destroy(s->view);
  sensim__rt_binding_free(s->bind);
  sensim__snapshot_free(s->snap);
  sensim_world_destroy(s->w);
}

static sensim_rt_ray ray_at(float y, float z, float tfar) {
  sensim_rt_ray r = {{0, y, z}, {1, 0, 0}, 0.0f, tfar, 0.0};
  return r;
}

static void test_alpha_mask_holes_for_every_query(void **state) {
  (void)state;
  /* A 2 x 1 texture: left half alpha 0.2 (a hole under cutoff 0.5), right
   * half opaque; the quad's y < 0 is u < 0.5. */
  sensim_material m;
  sensim_material_init(&m);
  m.alpha_mode = SENSIM_ALPHA_MASK;
  m.alpha_cutoff = 0.5f;
  const float px[8] = {1, 1, 1, 0.2f, 1, 1, 1, 1.0f};
  scene sc;
  make_scene(&sc, &m, px);
  /* y = -0.5: u = 0.25, the left texel's centre (alpha 0.2): through to
   * the wall; y = +0.5: the right texel (alpha 1): the quad. */
  const float ys[2] = {-0.5f, 0.5f}, expect_t[2] = {10.0f, 5.0f};
  const int expect_body[2] = {1, 0};
  sensim_rt_ray rays[2] = {ray_at(ys[0], 0.3f, INFINITY), ray_at(ys[1], 0.3f, INFINITY)};
  sensim_rt_hit h[2];
  for (int coherent = 0; coherent < 2; coherent++) {
    sensim__rt_intersect(sc.view, rays, h, 2, coherent);
    for (int i = 0; i < 2; i++) {
      assert_int_equal(h[i].body, expect_body[i]);
      assert_near(h[i].t, expect_t[i], 1e-5);
    }
  }
  /* The lidar's packets of 8. */
  sensim_rt_packet8 p8;
  memset(&p8, 0, sizeof p8);
  for (int i = 0; i < 2; i++) {
    p8.org_x[i] = 0, p8.org_y[i] = ys[i], p8.org_z[i] = 0.3f;
    p8.dir_x[i] = 1, p8.dir_y[i] = 0, p8.dir_z[i] = 0;
    p8.tnear[i] = 0, p8.tfar[i] = INFINITY, p8.time[i] = 0;
  }
  sensim__rt_intersect8(sc.view, &p8, 2);
  for (int i = 0; i < 2; i++) {
    assert_int_equal((int)p8.body[i], expect_body[i]);
    assert_near(p8.tfar[i], expect_t[i], 1e-5);
  }
  /* The camera's packets of 16, and its shadow packets: a ray stopping at
   * x = 7 is occluded by the opaque half only. */
  sensim_rt_packet16 p16;
  sensim_rt_shadow16 s16;
  memset(&p16, 0, sizeof p16);
  memset(&s16, 0, sizeof s16);
  for (int i = 0; i < 16; i++) {
    const float y = ys[i & 1];
    p16.org_y[i] = s16.org_y[i] = y;
    p16.org_z[i] = s16.org_z[i] = 0.3f;
    p16.dir_x[i] = s16.dir_x[i] = 1;
    p16.tfar[i] = INFINITY;
    s16.tfar[i] = 7.0f;
  }
  sensim__rt_intersect16(sc.view, &p16, 0xFFFFu, 1);
  unsigned occ = sensim__rt_occluded16(sc.view, &s16, 0xFFFFu);
  for (int i = 0; i < 16; i++) {
    assert_int_equal((int)p16.body[i], expect_body[i & 1]);
    assert_int_equal((occ >> i) & 1, i & 1);
  }
  unsigned char o1[2];
  sensim_rt_ray sh[2] = {ray_at(ys[0], 0.3f, 7.0f), ray_at(ys[1], 0.3f, 7.0f)};
  sensim__rt_occluded(sc.view, sh, o1, 2, 0);
  assert_int_equal(o1[0], 0);
  assert_int_equal(o1[1], 1);
  free_scene(&sc);
}

/* Fraction of n rays through a blended quad of alpha a that reach the wall. */
static double blend_pass(float a, int n, unsigned char *passed) {
  sensim_material m;
  sensim_material_init(&m);
  m.alpha_mode = SENSIM_ALPHA_BLEND;
  m.alpha = a;
  scene s;
  make_scene(&s, &m, NULL);
  sensim_rt_ray *r = malloc((size_t)n * sizeof *r);
  sensim_rt_hit *h = malloc((size_t)n * sizeof *h);
  assert_true(r && h);
  for (int i = 0; i < n; i++) {
    /* Distinct directions from the origin through the quad. */
    r[i] = ray_at(0, 0, INFINITY);
    r[i].dir[0] = 5.0f;
    r[i].dir[1] = -0.9f + 1.8f * (float)(i % 100) / 100.0f;
    r[i].dir[2] = -0.9f + 1.8f * (float)(i / 100) / (float)(n / 100);
  }
  sensim__rt_intersect(s.view, r, h, (size_t)n, 0);
  int through = 0;
  for (int i = 0; i < n; i++) {
    assert_true(h[i].body == 0 || h[i].body == 1);
    passed[i] = h[i].body == 1;
    through += passed[i];
  }
  free(r);
  free(h);
  free_scene(&s);
  return (double)through / n;
}

static void test_alpha_blend_passes_one_minus_alpha_deterministically(void **state) {
  (void)state;
  enum { N = 10000 };
  unsigned char *a = malloc(N), *b = malloc(N);
  assert_true(a && b);
  const float alphas[3] = {0.3f, 0.75f, 1.0f};
  for (int k = 0; k < 3; k++) {
    const double f = blend_pass(alphas[k], N, a);
    /* Binomial: sd = sqrt(p (1 - p) / N) <= 0.005; 5 sd. */
    const double p = 1.0 - alphas[k];
    assert_near(f, p, 5 * sqrt(p * (1 - p) / N) + 1e-12);
    /* The same rays meet the same decisions in a new world of the same seed. */
    blend_pass(alphas[k], N, b);
    assert_memory_equal(a, b, N);
  }
  free(a);
  free(b);
}

int sensim_test_rt_alpha(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_alpha_mask_holes_for_every_query),
      cmocka_unit_test(test_alpha_blend_passes_one_minus_alpha_deterministically),
  };
  return cmocka_run_group_tests_name("rt_alpha", tests, NULL, NULL);
}
