/* tests/rt/tiles_tests.c: what a capture leaves out because its sensor
 * cannot reach it (runtime/reach.c): tiles of a static world
 * (scene/tiles.c, sensim/tile.h) and moving bodies (rt/view.c). Leaving
 * them out must change no frame bit, must keep what is barely within
 * reach, and a tile that fails to load must cost only itself. And the
 * moving part updated in place must trace as one built anew. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rt/rt_internal.h"
#include "scene/scene.h"
#include "support/testutil.h"

#define DIR SENSIM_TEST_TMP "/tiles"
#define RANGE 40.0 /* m: the test lidar's max_range */

/* A wall facing -X at x, spanning [y0, y1] x [0, 6] m, as an OBJ file. */
static void write_wall_obj(const char *path, double x, double y0, double y1) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "v %g %g 0\nv %g %g 0\nv %g %g 6\nv %g %g 6\nf 1 3 2\nf 1 4 3\n", x, y0, x, y1, x, y1, x, y0);
  fclose(f);
}

/* The same wall as a binary PLY (a format whose length the import checks). */
static void write_wall_ply(const char *path, double x, double y0, double y1) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fprintf(f, "ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
             "property float z\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n");
  const float v[12] = {(float)x, (float)y0, 0, (float)x, (float)y1, 0, (float)x, (float)y1, 6, (float)x, (float)y0, 6};
  fwrite(v, sizeof v, 1, f);
  const int tri[2][3] = {{0, 2, 1}, {0, 3, 2}};
  for (int t = 0; t < 2; t++) {
    unsigned char three = 3;
    fwrite(&three, 1, 1, f);
    fwrite(tri[t], sizeof tri[t], 1, f);
  }
  fclose(f);
}

static void wall_tile(sensim_tile_params *p, const char *path, double x, double y0, double y1) {
  sensim_tile_params_init(p);
  p->path = path;
  p->bounds_min[0] = x - 0.5, p->bounds_min[1] = y0, p->bounds_min[2] = 0;
  p->bounds_max[0] = x + 0.5, p->bounds_max[1] = y1, p->bounds_max[2] = 6;
  p->class_id = 7;
}

/* A VLP-16 with max_range RANGE at 1 m up on `carrier` (NULL: a static mast
 * at the origin), 10 Hz. */
static sensim_sensor *add_lidar(sensim_world *w, sensim_body *carrier) {
  if (!carrier) {
    sensim_body_params bp;
    sensim_body_params_init(&bp);
    bp.is_static = 1;
    SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &carrier));
  }
  sensim_lidar_params lp;
  SENSIM_OK_OR_FAIL(sensim_lidar_preset("VLP-16", &lp));
  lp.max_range = RANGE;
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = carrier;
  sp.rate = 10.0;
  sp.mount.pos.z = 1.0;
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &s));
  return s;
}

/* Beams of the frame the lidar delivers at t (one capture per call). */
static const sensim_beam *scan_at(sensim_world *w, sensim_sensor *s, double t, size_t *n) {
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  *n = f->count;
  return f->data;
}

static size_t hits_of_class(const sensim_beam *b, size_t n, uint16_t class_id) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += b[i].range > 0 && b[i].class_id == class_id;
  return k;
}

static void fresh_dir(void) {
  test_remove_tree(DIR);
  assert_true(mkdir(SENSIM_TEST_TMP, 0755) == 0 || errno == EEXIST);
  assert_int_equal(mkdir(DIR, 0755), 0);
}

/* A tile beyond the lidar's reach is never read and left out; the frames
 * are bit-identical to a world holding both walls as ordinary bodies. */
static void test_far_tile_left_out_bit_exact(void **state) {
  (void)state;
  fresh_dir();
  const char *near_path = test_path(DIR, "near.obj"), *far_path = test_path(DIR, "far.obj");
  write_wall_obj(near_path, 20.0, -10.0, 10.0);
  write_wall_obj(far_path, RANGE + 5.0, -10.0, 10.0);

  sensim_world *a = test_world(0, 3);
  sensim_sensor *la = add_lidar(a, NULL);
  sensim_tile_params tp;
  sensim_tile *near = NULL, *far = NULL;
  wall_tile(&tp, near_path, 20.0, -10.0, 10.0);
  SENSIM_OK_OR_FAIL(sensim_tile_add(a, &tp, &near));
  wall_tile(&tp, far_path, RANGE + 5.0, -10.0, 10.0);
  SENSIM_OK_OR_FAIL(sensim_tile_add(a, &tp, &far));
  assert_int_equal(sensim_tile_state_get(near), SENSIM_TILE_PENDING);

  sensim_world *b = test_world(0, 3);
  sensim_sensor *lb = add_lidar(b, NULL);
  const char *paths[2] = {near_path, far_path};
  for (int i = 0; i < 2; i++) {
    sensim_mesh *m = NULL;
    SENSIM_OK_OR_FAIL(sensim_mesh_load(b, paths[i], NULL, &m));
    sensim_body_params bp;
    sensim_body_params_init(&bp);
    bp.mesh = m, bp.is_static = 1, bp.class_id = 7;
    sensim_body *body = NULL;
    SENSIM_OK_OR_FAIL(sensim_body_create(b, &bp, &body));
  }
  for (int k = 0; k < 3; k++) {
    size_t na, nb;
    const sensim_beam *ba = scan_at(a, la, 0.1 * k, &na), *bb = scan_at(b, lb, 0.1 * k, &nb);
    assert_int_equal(na, nb);
    assert_true(hits_of_class(ba, na, 7) > 100); /* the near wall is seen */
    assert_memory_equal(ba, bb, na * sizeof *ba);
  }
  assert_int_equal(sensim_tile_state_get(near), SENSIM_TILE_LOADED);
  assert_true(sensim_tile_in_range(near));
  assert_int_equal(sensim_tile_state_get(far), SENSIM_TILE_PENDING); /* never read */
  assert_false(sensim_tile_in_range(far));
  assert_null(sensim_tile_mesh(far));
  sensim_world_destroy(a);
  sensim_world_destroy(b);
}

/* A lidar driven along +X: the far wall's tile loads when its bounds come
 * within max_range (plus the mount) of the carrier's keyframes and is then
 * seen; the near one, left behind, leaves the scene but stays loaded.
 * With 2 worker threads too: tiles load on the host thread while earlier
 * captures may still trace. */
static void tiles_follow(int threads) {
  fresh_dir();
  const char *p1 = test_path(DIR, "a.obj"), *p2 = test_path(DIR, "b.obj");
  write_wall_obj(p1, 10.0, -10.0, 10.0);
  write_wall_obj(p2, 120.0, -10.0, 10.0);
  sensim_world *w = test_world(threads, 5);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *car = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &car));
  sensim_sensor *s = add_lidar(w, car);
  sensim_tile_params tp;
  sensim_tile *t1 = NULL, *t2 = NULL;
  wall_tile(&tp, p1, 10.0, -10.0, 10.0);
  tp.class_id = 1;
  SENSIM_OK_OR_FAIL(sensim_tile_add(w, &tp, &t1));
  wall_tile(&tp, p2, 120.0, -10.0, 10.0);
  tp.class_id = 2;
  SENSIM_OK_OR_FAIL(sensim_tile_add(w, &tp, &t2));
  size_t n = 0;
  /* Carrier at x = 0 (t1 ahead at 10 m); then, from t = 0.2 s, at x = 100:
   * t2 20 m ahead, t1 90 m behind. (A window [0.2, 0.3] computed as
   * 0.3 - 0.1 starts a hair before 0.2 and still holds the keyframe at x =
   * 0: the frame at 0.4 is the first without it.) */
  for (int k = 0; k <= 4; k++) {
    double t = 0.1 * k, x = k < 2 ? 0.0 : 100.0;
    sensim_body_state st = test_state_xyzyaw(x, 0, 0, 0);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(car, t, &st));
    const sensim_beam *b = scan_at(w, s, t, &n);
    if (k == 0) {
      assert_int_equal(sensim_tile_state_get(t2), SENSIM_TILE_PENDING);
      assert_true(hits_of_class(b, n, 1) > 100);
    }
    if (k == 4) { /* the window [0.3, 0.4] holds keyframes at x = 100 only */
      assert_int_equal(sensim_tile_state_get(t2), SENSIM_TILE_LOADED);
      assert_true(sensim_tile_in_range(t2));
      assert_false(sensim_tile_in_range(t1));
      assert_int_equal(sensim_tile_state_get(t1), SENSIM_TILE_LOADED);
      assert_true(hits_of_class(b, n, 2) > 100);
      assert_int_equal(hits_of_class(b, n, 1), 0);
    }
  }
  sensim_world_destroy(w);
}

static void test_tiles_follow_the_sensor(void **state) {
  (void)state;
  tiles_follow(0);
  tiles_follow(2);
}

/* Tiles whose files go missing or get corrupted between the first load
 * and theirs: the advance that needs each returns its error naming the
 * file, still delivers its frame, and the world goes on with the rest. */
static void test_failing_tiles(void **state) {
  (void)state;
  fresh_dir();
  const char *ok = test_path(DIR, "ok.obj"), *gone = test_path(DIR, "gone.obj");
  const char *cut = test_path(DIR, "cut.ply"), *bent = test_path(DIR, "bent.obj");
  write_wall_obj(ok, 10.0, -10.0, 10.0);
  write_wall_obj(gone, 200.0, -10.0, 10.0);
  write_wall_ply(cut, 400.0, -10.0, 10.0);
  write_wall_obj(bent, 600.0, -10.0, 10.0);
  sensim_world *w = test_world(0, 9);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *car = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &car));
  sensim_sensor *s = add_lidar(w, car);
  const char *paths[4] = {ok, gone, cut, bent};
  const double xs[4] = {10.0, 200.0, 400.0, 600.0};
  sensim_tile *t[4];
  for (int i = 0; i < 4; i++) {
    sensim_tile_params tp;
    wall_tile(&tp, paths[i], xs[i], -10.0, 10.0);
    if (i == 3) tp.bounds_max[2] = 5.0; /* the file's wall is 6 m tall */
    SENSIM_OK_OR_FAIL(sensim_tile_add(w, &tp, &t[i]));
  }
  sensim_body_state st = test_state_xyzyaw(0, 0, 0, 0);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(car, 0.0, &st));
  size_t n;
  scan_at(w, s, 0.0, &n);
  assert_int_equal(sensim_tile_state_get(t[0]), SENSIM_TILE_LOADED);
  /* Between the load requests: one file deleted, one cut short. */
  assert_int_equal(unlink(gone), 0);
  assert_int_equal(truncate(cut, 200), 0);
  const sensim_status want[4] = {SENSIM_OK, SENSIM_ENOTFOUND, SENSIM_EPARSE, SENSIM_EINVAL};
  for (int i = 1; i < 4; i++) {
    double t0 = 0.1 * (2 * i - 1);
    st = test_state_xyzyaw(xs[i] - 20.0, 0, 0, 0);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(car, t0, &st));
    sensim_status rc = sensim_world_advance(w, t0);
    assert_int_equal(rc, want[i]);
    assert_non_null(strstr(sensim_last_error(), paths[i]));
    assert_int_equal(sensim_tile_state_get(t[i]), SENSIM_TILE_FAILED);
    assert_non_null(strstr(sensim_tile_error(t[i]), paths[i]));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f)); /* the step's capture went on */
    assert_non_null(f);
    /* The next step is an ordinary one: the failed tile is not retried. */
    SENSIM_OK_OR_FAIL(sensim_body_push_state(car, t0 + 0.1, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t0 + 0.1));
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
    assert_non_null(f);
  }
  /* Back at the first wall: still there. */
  st = test_state_xyzyaw(0, 0, 0, 0);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(car, 0.7, &st));
  scan_at(w, s, 0.7, &n);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(car, 0.8, &st));
  const sensim_beam *b = scan_at(w, s, 0.8, &n);
  assert_true(hits_of_class(b, n, 7) > 100);
  assert_true(sensim_tile_in_range(t[0]));
  sensim_world_destroy(w);
}

/* Tiles read ahead on the reader's thread (from 1.5 times a sensor's
 * reach) against read when needed: the same frames bit for bit and the
 * same tile states at every step, as the lidar drives past three walls
 * and by a fourth 55 m to the side (read ahead, dropped as the lidar
 * passes, never in reach); a tile read ahead is not in the scene before
 * the reach meets it. */
static void test_read_ahead_changes_nothing(void **state) {
  (void)state;
  fresh_dir();
  const double xs[3] = {10.0, 70.0, 130.0};
  const char *paths[4] = {test_path(DIR, "r0.obj"), test_path(DIR, "r1.obj"), test_path(DIR, "r2.obj"),
                          test_path(DIR, "side.obj")};
  for (int i = 0; i < 3; i++) write_wall_obj(paths[i], xs[i], -10.0, 10.0);
  FILE *f = fopen(paths[3], "w"); /* a wall along X at y = 55 m, x in [40, 50] */
  assert_non_null(f);
  fprintf(f, "v 40 55 0\nv 50 55 0\nv 50 55 6\nv 40 55 6\nf 1 2 3\nf 1 3 4\n");
  fclose(f);
  sensim_world *w[2];
  sensim_sensor *l[2];
  sensim_body *car[2];
  sensim_tile *t[2][4];
  for (int j = 0; j < 2; j++) {
    w[j] = test_world(j ? 0 : 2, 13);
    SENSIM_OK_OR_FAIL(sensim__rt_set_tuning(w[j], j ? SENSIM_RT_NO_READ_AHEAD : 0));
    sensim_body_params bp;
    sensim_body_params_init(&bp);
    SENSIM_OK_OR_FAIL(sensim_body_create(w[j], &bp, &car[j]));
    l[j] = add_lidar(w[j], car[j]);
    for (int i = 0; i < 4; i++) {
      sensim_tile_params tp;
      wall_tile(&tp, paths[i], xs[i < 3 ? i : 0], -10.0, 10.0);
      if (i == 3) { /* the side wall's box */
        tp.bounds_min[0] = 40, tp.bounds_min[1] = 54.5, tp.bounds_max[0] = 50, tp.bounds_max[1] = 55.5;
      }
      tp.class_id = (uint16_t)(1 + i);
      SENSIM_OK_OR_FAIL(sensim_tile_add(w[j], &tp, &t[j][i]));
    }
  }
  int seen_ahead = 0;
  for (int k = 0; k <= 24; k++) {
    double tk = 0.1 * k;
    size_t n[2];
    const sensim_beam *b[2];
    for (int j = 0; j < 2; j++) {
      sensim_body_state st = test_state_xyzyaw(60.0 * tk, 0, 0, 0); /* 60 m/s along X */
      SENSIM_OK_OR_FAIL(sensim_body_push_state(car[j], tk, &st));
      b[j] = scan_at(w[j], l[j], tk, &n[j]);
    }
    assert_int_equal(n[0], n[1]);
    assert_memory_equal(b[0], b[1], n[0] * sizeof *b[0]);
    for (int i = 0; i < 4; i++) {
      assert_int_equal(sensim_tile_state_get(t[0][i]), sensim_tile_state_get(t[1][i]));
      assert_int_equal(sensim_tile_in_range(t[0][i]), sensim_tile_in_range(t[1][i]));
    }
    /* At t = 0.1 s the lidar (x = 6) reaches to 47 m, reads ahead to 67 m:
     * wall 1 (69.5 m) not yet; by 0.2 s (x = 12: 53 and 73 m) it is read
     * ahead but still out of the scene. */
    if (k == 2 && sensim_tile_state_get(t[0][1]) == SENSIM_TILE_PENDING) seen_ahead = w[0]->tile_reader != NULL;
  }
  assert_true(seen_ahead);
  assert_null(w[1]->tile_reader); /* read when needed: no thread */
  for (int i = 0; i < 3; i++) assert_int_equal(sensim_tile_state_get(t[0][i]), SENSIM_TILE_LOADED);
  assert_int_equal(sensim_tile_state_get(t[0][3]), SENSIM_TILE_PENDING); /* 55 m off: never in reach */
  sensim_world_destroy(w[0]);
  sensim_world_destroy(w[1]);
}

static void test_bad_tiles_refused(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_tile_params p;
  sensim_tile *t = NULL;
  wall_tile(&p, "x.obj", 10.0, -1.0, 1.0);
  p.bounds_min[1] = NAN;
  assert_int_equal(sensim_tile_add(w, &p, &t), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "x.obj"));
  wall_tile(&p, "x.obj", 10.0, -1.0, 1.0);
  p.bounds_max[0] = INFINITY;
  assert_int_equal(sensim_tile_add(w, &p, &t), SENSIM_EINVAL);
  wall_tile(&p, "x.obj", 10.0, 1.0, -1.0); /* inverted y */
  assert_int_equal(sensim_tile_add(w, &p, &t), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "inverted"));
  wall_tile(&p, "x.obj", 10.0, -1.0, 1.0);
  p.bounds_max[2] = 2.0 * SENSIM_COORD_MAX;
  assert_int_equal(sensim_tile_add(w, &p, &t), SENSIM_EINVAL);
  wall_tile(&p, "", 10.0, -1.0, 1.0);
  assert_int_equal(sensim_tile_add(w, &p, &t), SENSIM_EINVAL);
  assert_int_equal(sensim_tile_add(w, NULL, &t), SENSIM_EINVAL);
  assert_null(t);
  wall_tile(&p, "x.obj", 10.0, -1.0, 1.0);
  SENSIM_OK_OR_FAIL(sensim_tile_add(w, &p, &t)); /* the world took none of the refused ones */
  assert_int_equal(sensim_tile_state_get(t), SENSIM_TILE_PENDING);
  sensim_world_destroy(w);
}

/* ---- moving bodies beyond reach ---- */

/* A world with `threads` workers and 4 x 2 x 1.5 m cars: one crossing in
 * front of the lidar, one whose centre stays beyond max_range while its
 * near face is within it, and `far` more driving beyond reach; returns
 * the world and its lidar. */
static sensim_world *traffic(int threads, int far, sensim_sensor **lidar, sensim_body **cars, int *ncars) {
  sensim_world *w = test_world(threads, 11);
  *lidar = add_lidar(w, NULL);
  sensim_shape box = {SENSIM_SHAPE_BOX, {4.0, 2.0, 1.5}, 0};
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &box, NULL, &m));
  *ncars = 2 + far;
  for (int i = 0; i < *ncars; i++) {
    sensim_body_params bp;
    sensim_body_params_init(&bp);
    bp.mesh = m;
    bp.class_id = (uint16_t)(i < 2 ? 20 + i : 30);
    SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &cars[i]));
  }
  return w;
}

static sensim_body_state car_at(int i, double t) {
  if (i == 0) return test_state_xyzyaw(12.0, -5.0 + 10.0 * t, 0.75, 0);
  /* Centre 1.5 m beyond max_range along X (and beyond the reach box, which
   * adds the 1 m mount), the face towards the lidar 2 m closer: within
   * reach of the 1 m-high lidar's -1 degree ring. */
  if (i == 1) return test_state_xyzyaw(RANGE + 1.5, 2.0 * t, 0.75, 0);
  double a = 0.05 * i;
  return test_state_xyzyaw((RANGE + 30.0) * cos(a) + 3.0 * t, (RANGE + 30.0) * sin(a), 0.75, 0);
}

static void test_moving_beyond_reach_left_out(void **state) {
  (void)state;
  sensim_sensor *la, *lb;
  sensim_body *ca[64], *cb[64];
  int na, nb;
  sensim_world *a = traffic(0, 60, &la, ca, &na), *b = traffic(0, 0, &lb, cb, &nb);
  for (int k = 0; k <= 30; k++) {
    double t = 0.01 * k;
    for (int i = 0; i < na; i++) {
      sensim_body_state s = car_at(i, t);
      SENSIM_OK_OR_FAIL(sensim_body_push_state(ca[i], t, &s));
      if (i < nb) SENSIM_OK_OR_FAIL(sensim_body_push_state(cb[i], t, &s));
    }
    if (k % 10) continue;
    size_t n1, n2;
    const sensim_beam *x = scan_at(a, la, t, &n1), *y = scan_at(b, lb, t, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(x, y, n1 * sizeof *x); /* the far cars change no bit */
    assert_true(hits_of_class(x, n1, 20) > 10);
    assert_true(hits_of_class(x, n1, 21) > 0); /* barely in reach: kept */
  }
  /* White box: a snapshot with the lidar's reach holds the two near cars
   * alone, and the view of it two instances. */
  sensim_reach reach;
  for (int k = 0; k < 3; k++) reach.lo[k] = -RANGE, reach.hi[k] = RANGE;
  void *block = NULL;
  size_t cap = 0;
  sensim_snapshot *snap = NULL;
  SENSIM_OK_OR_FAIL(sensim__snapshot_take_into(a, 0.2, 0.3, 1, -1, &reach, &block, &cap, &snap));
  int kept = 0;
  for (size_t i = 0; i < snap->nbodies; i++) kept += snap->bodies[i].mesh != NULL;
  assert_int_equal(kept, 2);
  assert_non_null(snap->bodies[ca[0]->index].mesh);
  assert_non_null(snap->bodies[ca[1]->index].mesh);
  sensim_rt_binding *bind = NULL;
  SENSIM_OK_OR_FAIL(sensim__rt_bind(a, snap, &bind));
  sensim_rt_view *v = NULL;
  SENSIM_OK_OR_FAIL(sensim__rt_view_create(bind, snap, &v));
  const sensim_rt_scene *mv = v->part[SENSIM_RT_MOVING];
  assert_non_null(mv);
  kept = 0;
  for (size_t i = 0; i < mv->nbodies; i++) kept += mv->nsteps[i] > 0;
  assert_int_equal(kept, 2);
  sensim__rt_view_destroy(v);
  sensim__rt_binding_free(bind);
  free(block);
  sensim_world_destroy(a);
  sensim_world_destroy(b);
}

/* The moving part updated in place (rt/view.c) against built anew each
 * capture: a turning car (quaternion steps), a straight one, cars coming
 * into and leaving reach, a car destroyed and one created mid-run, with
 * 0 and 2 worker threads: the same frames, bit for bit. */
static sensim_body_state turning_car(double t) {
  return test_state_xyzyaw(8.0 + 3.0 * cos(2.0 * t), -20.0 + 40.0 * t, 0.75, 2.0 * t);
}

static void test_moving_part_updated_in_place_matches_rebuild(void **state) {
  (void)state;
  for (int threads = 0; threads <= 2; threads += 2) {
    sensim_sensor *l[2];
    sensim_body *cars[2][64], *late[2] = {NULL, NULL};
    sensim_world *w[2];
    int n = 0;
    for (int j = 0; j < 2; j++) {
      w[j] = traffic(threads, 40, &l[j], cars[j], &n);
      SENSIM_OK_OR_FAIL(sensim__rt_set_tuning(w[j], j ? SENSIM_RT_REBUILD : 0));
    }
    for (int k = 0; k <= 80; k++) {
      double t = 0.01 * k;
      for (int j = 0; j < 2; j++) {
        if (k == 25) {
          SENSIM_OK_OR_FAIL(sensim_body_destroy(cars[j][1]));
          sensim_body_params bp;
          sensim_body_params_init(&bp);
          sensim_shape box = {SENSIM_SHAPE_BOX, {1.0, 1.0, 3.0}, 0};
          SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w[j], &box, NULL, &bp.mesh));
          bp.class_id = 40;
          SENSIM_OK_OR_FAIL(sensim_body_create(w[j], &bp, &late[j]));
        }
        for (int i = 0; i < n; i++) {
          if (i == 1 && k >= 25) continue;
          /* the far cars drive 80 m/s towards the lidar: some come into reach */
          sensim_body_state s = i == 0 ? turning_car(t) : car_at(i, t);
          if (i >= 2) s.pose.pos.x -= 80.0 * t * cos(0.05 * i), s.pose.pos.y -= 80.0 * t * sin(0.05 * i);
          SENSIM_OK_OR_FAIL(sensim_body_push_state(cars[j][i], t, &s));
        }
        if (late[j]) {
          sensim_body_state s = test_state_xyzyaw(-10.0 + 20.0 * t, 6.0, 1.5, 0);
          SENSIM_OK_OR_FAIL(sensim_body_push_state(late[j], t, &s));
        }
      }
      if (k % 10) continue;
      size_t n0, n1;
      const sensim_beam *b0 = scan_at(w[0], l[0], t, &n0), *b1 = scan_at(w[1], l[1], t, &n1);
      assert_int_equal(n0, n1);
      assert_memory_equal(b0, b1, n0 * sizeof *b0);
      assert_true(hits_of_class(b0, n0, 20) > 10);
      if (k >= 30) assert_true(hits_of_class(b0, n0, 40) > 0);
      if (k == 80) assert_true(hits_of_class(b0, n0, 30) > 0); /* far cars came into reach */
    }
    sensim_world_destroy(w[0]);
    sensim_world_destroy(w[1]);
  }
}

int sensim_test_rt_tiles(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_far_tile_left_out_bit_exact),
      cmocka_unit_test(test_tiles_follow_the_sensor),
      cmocka_unit_test(test_failing_tiles),
      cmocka_unit_test(test_read_ahead_changes_nothing),
      cmocka_unit_test(test_bad_tiles_refused),
      cmocka_unit_test(test_moving_beyond_reach_left_out),
      cmocka_unit_test(test_moving_part_updated_in_place_matches_rebuild),
  };
  return cmocka_run_group_tests_name("rt_tiles", tests, NULL, NULL);
}
