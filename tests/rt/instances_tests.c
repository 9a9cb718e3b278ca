/* Placements (sensim_body_create_instances): one body holding many
 * placements of a mesh is traced, labelled and shaded as the same
 * placements made one static body each; its material variation is
 * deterministic, in range and of mean 1; bad input leaves the world as it
 * was. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/vecmath.h"
#include "rt/rt.h"
#include "scene/scene.h"
#include "support/testutil.h"

enum { K = 40 };

/* Placement k: on a ring 6-20 m from the origin, turned about every axis
 * (so a wrong rotation or a transposed one moves the box's faces). */
static sensim_pose placement(int k) {
  const double a = 2.0 * M_PI * k / K, r = 6.0 + 14.0 * ((k * 37) % K) / (double)K;
  sensim_pose p;
  p.pos = (sensim_vec3){r * cos(a), r * sin(a), 0.3 * (k % 3)};
  sensim_quat yaw = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, 0.7 * k);
  sensim_quat tilt = sensim_quat_from_axis_angle(v3_normalize(v3(1.0, 0.5 * (k % 4), 0.2)), 0.05 * (k % 7));
  p.rot = q_normalize(q_mul(yaw, tilt));
  return p;
}

/* The placed box; `lambert`: a material without its specular layer, so
 * radiance is proportional to the base colour. */
static int g_lambert;
static sensim_mesh *box_mesh(sensim_world *w) {
  sensim_material mat;
  sensim_material_init(&mat);
  if (g_lambert) mat.specular = 0.0f;
  mat.base_color[0] = 0.6f, mat.base_color[1] = 0.4f, mat.base_color[2] = 0.2f;
  mat.reflectance = 0.5f;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {1.0, 2.0, 3.0}, 0};
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &mat, &m));
  return m;
}

/* The K placements as one body (grouped; 2: with fast_bvh) or as K static
 * bodies, with classes 3 + k % 5 and instance ids 1000 + k either way. */
static sensim_body *place(sensim_world *w, int grouped, float albedo_jitter, float refl_jitter) {
  sensim_mesh *m = box_mesh(w);
  sensim_pose poses[K];
  uint16_t cls[K];
  uint32_t ids[K];
  for (int k = 0; k < K; k++) poses[k] = placement(k), cls[k] = (uint16_t)(3 + k % 5), ids[k] = 1000u + (uint32_t)k;
  if (grouped) {
    sensim_instances_desc d;
    sensim_instances_desc_init(&d);
    d.mesh = m, d.n = K, d.poses = poses, d.class_ids = cls, d.instance_ids = ids;
    d.albedo_jitter = albedo_jitter, d.reflectance_jitter = refl_jitter, d.fast_bvh = grouped == 2;
    sensim_body *g = NULL;
    SENSIM_OK_OR_FAIL(sensim_body_create_instances(w, &d, &g));
    assert_int_equal(sensim_body_instance_count(g), K);
    return g;
  }
  for (int k = 0; k < K; k++) {
    sensim_body_params bp;
    sensim_body_params_init(&bp);
    bp.mesh = m, bp.is_static = 1, bp.pose = poses[k], bp.class_id = cls[k], bp.instance_id = ids[k];
    sensim_body *b = NULL;
    SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  }
  return NULL;
}

typedef struct kernel {
  sensim_world *w;
  sensim_snapshot *snap;
  sensim_rt_binding *bind;
  sensim_rt_view *view;
} kernel;

/* GROUP_BODY: the group's body index when grouped (a bare body comes
 * first, so a hit's body is not 0 by accident). */
enum { GROUP_BODY = 1 };
static void kernel_open(kernel *k, int grouped) {
  k->w = test_world(0, 7);
  if (grouped) {
    sensim_body_params bp;
    sensim_body_params_init(&bp);
    sensim_body *bare = NULL;
    SENSIM_OK_OR_FAIL(sensim_body_create(k->w, &bp, &bare));
  }
  place(k->w, grouped, 0.0f, 0.0f);
  SENSIM_OK_OR_FAIL(sensim__snapshot_take(k->w, 0.0, 0.0, 1, -1, &k->snap));
  SENSIM_OK_OR_FAIL(sensim__rt_bind(k->w, k->snap, &k->bind));
  SENSIM_OK_OR_FAIL(sensim__rt_view_create(k->bind, k->snap, &k->view));
}

static void kernel_close(kernel *k) {
  sensim__rt_view_destroy(k->view);
  sensim__rt_binding_free(k->bind);
  sensim__snapshot_free(k->snap);
  sensim_world_destroy(k->w);
}

/* N rays from 1 m up at the origin over the horizon band the ring fills. */
enum { N = 4096 };
static void rays(sensim_rt_ray *r) {
  for (int i = 0; i < N; i++) {
    const double az = 2.0 * M_PI * (i + 0.5) / N * 7.0, el = -0.15 + 0.35 * ((i * 7919) % N) / (double)N;
    r[i] = (sensim_rt_ray){{0.0f, 0.0f, 1.0f}, {(float)(cos(el) * cos(az)), (float)(cos(el) * sin(az)), (float)sin(el)},
                           0.0f, 100.0f, 0.0};
  }
}

/* Hit g (on the group, body GROUP_BODY) is hit b (on static body b.body) to 1e-5 m. */
static int same_hit(const sensim_rt_hit *g, const sensim_rt_hit *b) {
  if (b->body < 0) return g->body < 0;
  if (g->body != GROUP_BODY || (int)g->elem != b->body || g->prim != b->prim) return 0;
  if (!(fabsf(g->t - b->t) <= 1e-5f)) return 0;
  for (int c = 0; c < 3; c++)
    if (!(fabsf(g->n[c] - b->n[c]) <= 1e-5f)) return 0;
  return 1;
}

/* Either BVH of the placements (for memory, for speed). */
static void trace_as_bodies(int grouped) {
  kernel a, b;
  kernel_open(&a, grouped);
  kernel_open(&b, 0);
  static sensim_rt_ray r[N];
  static sensim_rt_hit ha[N], hb[N];
  rays(r);
  int hits = 0;
  for (int coherent = 0; coherent < 2; coherent++) { /* single rays, and packets of 8 */
    sensim__rt_intersect(a.view, r, ha, N, coherent);
    sensim__rt_intersect(b.view, r, hb, N, coherent);
    for (int i = 0; i < N; i++) {
      if (!same_hit(&ha[i], &hb[i]))
        fail_msg("ray %d (coherent %d): group body %d elem %u prim %u t %.7g, bodies %d prim %u t %.7g", i, coherent,
                 ha[i].body, ha[i].elem, ha[i].prim, ha[i].t, hb[i].body, hb[i].prim, hb[i].t);
      hits += hb[i].body >= 0;
    }
  }
  assert_true(hits > N / 4); /* the rays do meet the ring */
  /* Packets of 16 (the camera's) and their world normals. */
  for (int i0 = 0; i0 < N; i0 += 16) {
    sensim_rt_packet16 pa, pb;
    for (int l = 0; l < 16; l++) {
      const sensim_rt_ray *q = &r[i0 + l];
      pa.org_x[l] = q->org[0], pa.org_y[l] = q->org[1], pa.org_z[l] = q->org[2];
      pa.dir_x[l] = q->dir[0], pa.dir_y[l] = q->dir[1], pa.dir_z[l] = q->dir[2];
      pa.tnear[l] = 0.0f, pa.tfar[l] = 100.0f, pa.time[l] = 0.0f;
    }
    pb = pa;
    sensim__rt_intersect16(a.view, &pa, 0xFFFFu, 1);
    sensim__rt_intersect16(b.view, &pb, 0xFFFFu, 1);
    float nax[16], nay[16], naz[16], nbx[16], nby[16], nbz[16];
    sensim__rt_packet16_normals(a.view, &pa, 0xFFFFu, nax, nay, naz);
    sensim__rt_packet16_normals(b.view, &pb, 0xFFFFu, nbx, nby, nbz);
    for (int l = 0; l < 16; l++) {
      const int miss = pb.geom[l] == ~0u;
      assert_int_equal(pa.geom[l] == ~0u, miss);
      if (miss) continue;
      assert_int_equal(pa.body[l], GROUP_BODY);
      assert_int_equal(pa.geom[l], pb.body[l]);
      assert_int_equal(pa.prim[l], pb.prim[l]);
      assert_near(pa.tfar[l], pb.tfar[l], 1e-5);
      assert_near(nax[l], nbx[l], 1e-5);
      assert_near(nay[l], nby[l], 1e-5);
      assert_near(naz[l], nbz[l], 1e-5);
      float ma[9], mb[9]; /* the rotation that turns vertex normals: the placement's */
      sensim__rt_body_matrix(a.view, GROUP_BODY, pa.geom[l], 0.0f, ma);
      sensim__rt_body_matrix(b.view, (int)pb.body[l], 0, 0.0f, mb);
      for (int e = 0; e < 9; e++) assert_true(ma[e] == mb[e]);
    }
  }
  /* Occlusion, short of and beyond each hit. */
  static unsigned char oa[N], ob[N];
  for (int i = 0; i < N; i++) r[i].tfar = hb[i].body >= 0 ? (i % 2 ? hb[i].t * 0.999f : hb[i].t * 1.001f) : 100.0f;
  sensim__rt_occluded(a.view, r, oa, N, 0);
  sensim__rt_occluded(b.view, r, ob, N, 0);
  for (int i = 0; i < N; i++) assert_int_equal(oa[i], ob[i]);
  kernel_close(&a);
  kernel_close(&b);
}

static void test_instances_trace_as_the_same_static_bodies(void **state) {
  (void)state;
  trace_as_bodies(1);
  trace_as_bodies(2);
}

static void test_instances_destroyed_group_is_no_longer_traced(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 7);
  sensim_body *g = place(w, 1, 0.0f, 0.0f);
  SENSIM_OK_OR_FAIL(sensim_body_destroy(g));
  kernel k = {w, NULL, NULL, NULL};
  SENSIM_OK_OR_FAIL(sensim__snapshot_take(w, 0.0, 0.0, 1, -1, &k.snap));
  SENSIM_OK_OR_FAIL(sensim__rt_bind(w, k.snap, &k.bind));
  SENSIM_OK_OR_FAIL(sensim__rt_view_create(k.bind, k.snap, &k.view));
  static sensim_rt_ray r[N];
  static sensim_rt_hit h[N];
  rays(r);
  sensim__rt_intersect(k.view, r, h, N, 0);
  for (int i = 0; i < N; i++) assert_int_equal(h[i].body, -1);
  kernel_close(&k);
}

/* A camera (radiance, depth and labels) and a raw-beam lidar, one with
 * four sub-rays, at 1 m up at the origin. */
typedef struct rig {
  sensim_world *w;
  sensim_sensor *cam, *lid, *lid4;
} rig;

static void rig_open(rig *g, int grouped, float aj, float rj) {
  g->w = test_black_world(0, 1.0f);
  place(g->w, grouped, aj, rj);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){0, 0, 1};
  sensim_body *mast = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(g->w, &bp, &mast));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = mast;
  sp.rate = 10.0;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 160, cp.height = 60, cp.samples = 1, cp.hfov = 2.0;
  SENSIM_OK_OR_FAIL(sensim_camera_create(g->w, &sp, &cp, &g->cam));
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.columns = 900;
  lp.intensity_bits = 16;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(g->w, &sp, &lp, &g->lid));
  lp.subrays = 4, lp.div_h = lp.div_v = 0.002;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(g->w, &sp, &lp, &g->lid4));
  SENSIM_OK_OR_FAIL(sensim_world_advance(g->w, 0.0));
}

static const sensim_frame *poll1(sensim_sensor *s) {
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  return f;
}

static void test_instances_label_and_depth_planes_and_lidar_ids_match_bodies(void **state) {
  (void)state;
  rig a, b;
  rig_open(&a, 1, 0.0f, 0.0f);
  rig_open(&b, 0, 0.0f, 0.0f);
  const sensim_frame *ca = poll1(a.cam), *cb = poll1(b.cam);
  const size_t npx = (size_t)ca->width * ca->height;
  size_t labelled = 0;
  for (size_t i = 0; i < npx; i++) {
    assert_int_equal(ca->labels[i].class_id, cb->labels[i].class_id);
    assert_int_equal(ca->labels[i].instance_id, cb->labels[i].instance_id);
    assert_near(ca->depth[i], cb->depth[i], 1e-4);
    for (int c = 0; c < 3; c++) assert_near(((const float *)ca->data)[3 * i + c], ((const float *)cb->data)[3 * i + c], 1e-5);
    labelled += cb->labels[i].instance_id >= 1000;
  }
  assert_true(labelled > npx / 20);
  sensim_sensor *lids[2][2] = {{a.lid, b.lid}, {a.lid4, b.lid4}};
  for (int s = 0; s < 2; s++) {
    const sensim_frame *la = poll1(lids[s][0]), *lb = poll1(lids[s][1]);
    assert_int_equal(la->count, lb->count);
    const sensim_beam *ba = la->data, *bb = lb->data;
    size_t returns = 0;
    for (size_t i = 0; i < la->count; i++) {
      assert_near(ba[i].range, bb[i].range, 1e-4);
      assert_near(ba[i].intensity, bb[i].intensity, 2e-4);
      assert_int_equal(ba[i].class_id, bb[i].class_id);
      assert_int_equal(ba[i].instance_id, bb[i].instance_id);
      if (bb[i].range > 0) {
        returns++;
        assert_int_equal(bb[i].class_id, 3 + (bb[i].instance_id - 1000) % 5);
      }
    }
    assert_true(returns > 100);
  }
  sensim_world_destroy(a.w);
  sensim_world_destroy(b.w);
}

/* The camera sees albedo x ambient in the black world, the lidar rho cos:
 * with jitter, placement k's pixels and returns are those without, times
 * its factors (no clamping here: 0.6 x 1.3 < 1). */
static void test_instances_variation_scales_camera_colour_and_lidar_intensity(void **state) {
  (void)state;
  rig a, b;
  rig_open(&a, 1, 0.3f, 0.4f);
  rig_open(&b, 1, 0.0f, 0.0f);
  sensim_body *g = a.w->bodies[0];
  const sensim_frame *ca = poll1(a.cam), *cb = poll1(b.cam);
  size_t seen = 0;
  for (size_t i = 0; i < (size_t)ca->width * ca->height; i++) {
    const uint32_t id = ca->labels[i].instance_id;
    if (id < 1000) continue;
    float s[3], rs;
    SENSIM_OK_OR_FAIL(sensim_body_instance_variation(g, id - 1000, s, &rs));
    for (int c = 0; c < 3; c++) {
      const float va = ((const float *)ca->data)[3 * i + c], vb = ((const float *)cb->data)[3 * i + c];
      assert_near(va, vb * s[c], 1e-5 + 1e-5 * vb);
    }
    seen++;
  }
  assert_true(seen > 100);
  sensim_sensor *lids[2][2] = {{a.lid, b.lid}, {a.lid4, b.lid4}};
  for (int s = 0; s < 2; s++) {
    const sensim_frame *la = poll1(lids[s][0]), *lb = poll1(lids[s][1]);
    const sensim_beam *ba = la->data, *bb = lb->data;
    size_t returns = 0, mixed = 0;
    for (size_t i = 0; i < la->count; i++) {
      if (!(bb[i].range > 0) || !(ba[i].range > 0)) continue;
      float sc[3], rs;
      SENSIM_OK_OR_FAIL(sensim_body_instance_variation(g, ba[i].instance_id - 1000, sc, &rs));
      /* each quantised to half a 16-bit step, b's error scaled by rs <= 1.4 */
      const int ok = fabsf(ba[i].intensity - bb[i].intensity * rs) <= 1.25f / 65535;
      /* four sub-rays: a beam over two placements' edges mixes their factors */
      if (s == 0) assert_true(ok);
      mixed += !ok;
      returns++;
    }
    assert_true(returns > 100);
    assert_true(mixed * 50 < returns);
  }
  sensim_world_destroy(a.w);
  sensim_world_destroy(b.w);
}

/* The path integrator, direct light only (max_bounces 1) from a
 * directional light onto Lambertian boxes: a pixel's radiance is the base
 * colour / pi x E cos x visibility, so a placement's pixels are those
 * without variation times its albedo factors. */
static void test_instances_variation_reaches_the_path_integrator(void **state) {
  (void)state;
  const sensim_frame *f[2];
  sensim_world *w[2];
  sensim_body *g = NULL;
  g_lambert = 1;
  for (int j = 0; j < 2; j++) {
    w[j] = test_black_world(0, 0.0f);
    sensim_body *gj = place(w[j], 1, j == 0 ? 0.3f : 0.0f, 0.0f);
    if (j == 0) g = gj;
    sensim_light l;
    sensim_light_init(&l);
    l.direction = (sensim_vec3){-0.6, -0.3, -0.74};
    SENSIM_OK_OR_FAIL(sensim_light_add(w[j], &l));
    sensim_body_params bp;
    sensim_body_params_init(&bp);
    bp.is_static = 1;
    bp.pose.pos = (sensim_vec3){0, 0, 1};
    sensim_body *mast = NULL;
    SENSIM_OK_OR_FAIL(sensim_body_create(w[j], &bp, &mast));
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.body = mast;
    sensim_camera_params cp;
    sensim_camera_params_init(&cp);
    cp.width = 96, cp.height = 32, cp.samples = 1, cp.hfov = 2.0;
    cp.integrator = SENSIM_INTEGRATOR_PATH, cp.max_bounces = 1;
    sensim_sensor *cam = NULL;
    SENSIM_OK_OR_FAIL(sensim_camera_create(w[j], &sp, &cp, &cam));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w[j], 0.0));
    f[j] = poll1(cam);
  }
  g_lambert = 0;
  size_t lit = 0;
  for (size_t i = 0; i < (size_t)f[0]->width * f[0]->height; i++) {
    const uint32_t id = f[0]->labels[i].instance_id;
    assert_int_equal(id, f[1]->labels[i].instance_id);
    if (id < 1000) continue;
    float s[3], rs;
    SENSIM_OK_OR_FAIL(sensim_body_instance_variation(g, id - 1000, s, &rs));
    for (int c = 0; c < 3; c++) {
      const float va = ((const float *)f[0]->data)[3 * i + c], vb = ((const float *)f[1]->data)[3 * i + c];
      assert_near(va, vb * s[c], 1e-6 + 1e-5 * vb);
      lit += c == 0 && vb > 0;
    }
  }
  assert_true(lit > 50);
  sensim_world_destroy(w[0]);
  sensim_world_destroy(w[1]);
}

/* The cone sensor's rays method traces the kernel: its detection of a
 * placement names the placement's ids at the range a body there gives. */
static void test_instances_cone_rays_detection_names_the_placement(void **state) {
  (void)state;
  double range[2];
  for (int grouped = 0; grouped < 2; grouped++) {
    sensim_world *w = test_world(0, 3);
    sensim_shape sh = {SENSIM_SHAPE_BOX, {1.0, 1.0, 1.0}, 0};
    sensim_mesh *m = NULL;
    SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, NULL, &m));
    sensim_pose poses[2] = {{{5.0, 0.0, 0.0}, {1, 0, 0, 0}}, {{0.0, 8.0, 0.0}, {1, 0, 0, 0}}};
    uint16_t cls[2] = {9, 4};
    uint32_t ids[2] = {77, 78};
    if (grouped) {
      sensim_instances_desc d;
      sensim_instances_desc_init(&d);
      d.mesh = m, d.n = 2, d.poses = poses, d.class_ids = cls, d.instance_ids = ids;
      sensim_body *g = NULL;
      SENSIM_OK_OR_FAIL(sensim_body_create_instances(w, &d, &g));
    } else {
      for (int k = 0; k < 2; k++) {
        sensim_body_params bp;
        sensim_body_params_init(&bp);
        bp.mesh = m, bp.is_static = 1, bp.pose = poses[k], bp.class_id = cls[k], bp.instance_id = ids[k];
        sensim_body *b = NULL;
        SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
      }
    }
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sensim_cone_params cp;
    sensim_cone_params_init(&cp);
    cp.method = SENSIM_CONE_RAYS;
    sensim_sensor *cone = NULL;
    SENSIM_OK_OR_FAIL(sensim_cone_create(w, &sp, &cp, &cone));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
    const sensim_detection *det = poll1(cone)->data;
    assert_int_equal(det->detected, 1);
    assert_int_equal(det->instance_id, 77);
    assert_int_equal(det->class_id, 9);
    range[grouped] = det->range;
    sensim_world_destroy(w);
  }
  assert_near(range[1], range[0], 1e-5);
  assert_near(range[0], 4.5, 1e-3);
}

/* Factors of a 100 000-placement group: in [1 - j, 1 + j], mean 1 and
 * variance j^2 / 3 (uniform) within five standard errors, channels
 * uncorrelated; the same for the same seed, other for another. */
static void test_instances_variation_is_deterministic_uniform_of_mean_one(void **state) {
  (void)state;
  enum { M = 100000 };
  const float aj = 0.3f, rj = 0.2f;
  sensim_pose *poses = malloc(M * sizeof *poses);
  assert_non_null(poses);
  for (int k = 0; k < M; k++) poses[k] = (sensim_pose){{(k % 300) * 4.0, (k / 300) * 4.0, 0}, {1, 0, 0, 0}};
  sensim_body *g[3];
  sensim_world *w[3];
  for (int i = 0; i < 3; i++) {
    w[i] = test_world(0, i == 2 ? 99 : 5);
    sensim_instances_desc d;
    sensim_instances_desc_init(&d);
    d.mesh = box_mesh(w[i]), d.n = M, d.poses = poses, d.albedo_jitter = aj, d.reflectance_jitter = rj;
    SENSIM_OK_OR_FAIL(sensim_body_create_instances(w[i], &d, &g[i]));
  }
  free(poses);
  double sum[4] = {0}, sq[4] = {0}, c01 = 0;
  size_t differ = 0;
  for (size_t k = 0; k < M; k++) {
    float a[3], r, a1[3], r1, a2[3], r2;
    SENSIM_OK_OR_FAIL(sensim_body_instance_variation(g[0], k, a, &r));
    SENSIM_OK_OR_FAIL(sensim_body_instance_variation(g[1], k, a1, &r1));
    SENSIM_OK_OR_FAIL(sensim_body_instance_variation(g[2], k, a2, &r2));
    assert_true(memcmp(a, a1, sizeof a) == 0 && r == r1);
    differ += a2[0] != a[0];
    const double x[4] = {a[0] - 1.0, a[1] - 1.0, a[2] - 1.0, r - 1.0}, j[4] = {aj, aj, aj, rj};
    for (int c = 0; c < 4; c++) {
      assert_true(fabs(x[c]) <= j[c] * (1 + 1e-6));
      sum[c] += x[c], sq[c] += x[c] * x[c];
    }
    c01 += x[0] * x[1];
  }
  assert_true(differ > M * 0.99);
  for (int c = 0; c < 4; c++) {
    const double j = c < 3 ? aj : rj, var = j * j / 3.0;
    assert_near(sum[c] / M, 0.0, 5.0 * sqrt(var / M));
    /* sample variance of a uniform: standard error sqrt(4 j^4 / 45 / M) */
    assert_near(sq[c] / M, var, 5.0 * sqrt(4.0 * j * j * j * j / 45.0 / M));
  }
  assert_near(c01 / M / (aj * aj / 3.0), 0.0, 5.0 / sqrt((double)M));
  float s[3], rs;
  assert_int_equal(sensim_body_instance_variation(g[0], M, s, &rs), SENSIM_EINVAL);
  for (int i = 0; i < 3; i++) sensim_world_destroy(w[i]);
}

/* Each bad input: SENSIM_EINVAL, a message naming the cause, and the world
 * as it was (no body, no instance id used). */
static void expect_refused(sensim_world *w, const sensim_instances_desc *d, const char *says) {
  const size_t nb = w->nbodies;
  const uint32_t next = w->next_instance_id;
  sensim_body *g = (sensim_body *)(void *)1;
  assert_int_equal(sensim_body_create_instances(w, d, &g), SENSIM_EINVAL);
  if (!strstr(sensim_last_error(), says)) fail_msg("error \"%s\" does not say \"%s\"", sensim_last_error(), says);
  assert_int_equal(w->nbodies, nb);
  assert_int_equal(w->next_instance_id, next);
}

static void test_instances_bad_input_is_refused_and_the_world_unchanged(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1), *other = test_world(0, 1);
  sensim_mesh *m = box_mesh(w), *foreign = box_mesh(other);
  sensim_pose poses[3] = {placement(0), placement(1), placement(2)};
  uint32_t ids[3] = {5, 0, 7};
  sensim_instances_desc d;
  sensim_instances_desc_init(&d);
  d.mesh = foreign, d.n = 3, d.poses = poses;
  expect_refused(w, &d, "belongs to another world");
  d.mesh = NULL;
  expect_refused(w, &d, "mesh is NULL");
  d.mesh = m, d.n = 0;
  expect_refused(w, &d, "n = 0");
  d.n = 3, d.instance_ids = ids;
  expect_refused(w, &d, "placement 1's instance id is 0");
  d.instance_ids = NULL;
  poses[2].pos.y = NAN;
  expect_refused(w, &d, "placement 2");
  poses[2] = placement(2);
  poses[1].rot.w *= 1.01;
  expect_refused(w, &d, "placement 1: quaternion norm");
  poses[1] = placement(1);
  poses[0].pos.x = SENSIM_COORD_MAX;
  expect_refused(w, &d, "placement 0");
  poses[0] = placement(0);
  d.albedo_jitter = 0.6f;
  expect_refused(w, &d, "albedo_jitter");
  d.albedo_jitter = NAN;
  expect_refused(w, &d, "albedo_jitter");
  d.albedo_jitter = 0.0f, d.reflectance_jitter = -0.1f;
  expect_refused(w, &d, "reflectance_jitter");
  d.reflectance_jitter = 0.0f;
  const uint32_t keep = w->next_instance_id;
  w->next_instance_id = UINT32_MAX - 1; /* 3 more ids would pass it */
  expect_refused(w, &d, "UINT32_MAX");
  w->next_instance_id = keep;
  sensim_body *g = NULL;
  assert_int_equal(sensim_body_create_instances(NULL, &d, &g), SENSIM_EINVAL);
  assert_int_equal(sensim_body_create_instances(w, NULL, &g), SENSIM_EINVAL);
  /* and the good one after all that: consecutive ids after the world's last */
  SENSIM_OK_OR_FAIL(sensim_body_create_instances(w, &d, &g));
  assert_int_equal(sensim_body_instance_count(g), 3);
  assert_int_equal(w->next_instance_id, keep + 3);
  float s[3], rs;
  assert_int_equal(sensim_body_instance_variation(w->bodies[0], 0, s, &rs), SENSIM_OK);
  assert_int_equal(sensim_body_instance_count(NULL), 0);
  sensim_world_destroy(w);
  sensim_world_destroy(other);
}

int sensim_test_rt_instances(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_instances_trace_as_the_same_static_bodies),
      cmocka_unit_test(test_instances_destroyed_group_is_no_longer_traced),
      cmocka_unit_test(test_instances_label_and_depth_planes_and_lidar_ids_match_bodies),
      cmocka_unit_test(test_instances_variation_scales_camera_colour_and_lidar_intensity),
      cmocka_unit_test(test_instances_variation_reaches_the_path_integrator),
      cmocka_unit_test(test_instances_cone_rays_detection_names_the_placement),
      cmocka_unit_test(test_instances_variation_is_deterministic_uniform_of_mean_one),
      cmocka_unit_test(test_instances_bad_input_is_refused_and_the_world_unchanged),
  };
  return cmocka_run_group_tests_name("rt_instances", tests, NULL, NULL);
}
