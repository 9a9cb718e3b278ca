/* bench/bench_scale.c: how a capture's cost grows with the world.
 *
 * 1. Moving bodies: the procedural town of bench/town.c (static bodies,
 *    --blocks sets its size: 8 is the 2 M-triangle town, 24 a city of
 *    about 18 M) with M cars (4 x 2 x 1.5 m boxes) driving along its
 *    streets, every car's state pushed at each 10 ms host step; an
 *    OS1-128 (raw beams, 10 Hz) on a static mast at the central crossing.
 *    With no worker threads a capture runs inside the advance that reaches
 *    its time, so its cost is that advance's time less an idle advance's.
 *    Reported per M: capture ms (median over the captures), the host
 *    loop's push_state (all cars) + advance per idle step, and the BVH
 *    build (the first capture's extra time) with the process's resident
 *    memory. Then the same cases before and after the moving part's
 *    changes of issue 32t, in the same run (rt/rt.h's tuning flags): built
 *    anew with every car, updated in place with every car, updated in
 *    place with the cars within the lidar's reach.
 * 2. Static bodies against one mesh: a ground plane and N boxes, as N
 *    static bodies of one box mesh or as one mesh holding the N boxes'
 *    triangles, the same OS1-128 capture on each.
 * 3. Instancing memory: one tree mesh (a 64 x 64 sphere on a cylinder,
 *    8 k triangles) placed K times as static bodies: resident memory after
 *    the first capture (BLAS and views built), against one tree.
 * 4. Tiles: a G x G city of 200 m tile files (bench/tile_city.c), the
 *    OS1-128 at its centre, with every file loaded up front as a static
 *    body against the files given as tiles (sensim/tile.h): set-up plus
 *    first capture, capture time, resident memory (each in a child
 *    process), and that both give the same ranges and intensities.
 *
 *   bench_scale [--quick] [--blocks B] [--moving M1,M2,...] [--static N] [--trees K] [--parked] [--tiles G]
 * --parked makes the cars static bodies where they stand at t = 0 (the
 * same geometry without motion). Everything runs on the calling thread
 * (the world's pool off) and the times are that thread's CPU time, so
 * other processes on a shared machine do not inflate them; Embree's BVH
 * builders follow the world's one-thread budget. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"
#include "rt/rt.h"
#include "sensim/sensim.h"
#include "tile_city.h"
#include "town.h"

#define PROG "bench_scale"
#define STEP 0.01    /* s: host step */
#define PERIOD 0.1   /* s: the lidar's period (OS1-128's factory 10 Hz) */
#define CAPTURES 10  /* timed captures per case, after one warm-up */

/* --parked: the cars are static bodies where they stand at t = 0: what
 * the same geometry costs without motion. */
static int g_parked;
/* The kernel's tuning for the worlds made next (rt/rt.h): 0, or the
 * "before" variants of the moving-bodies table. */
static unsigned g_tuning;

/* Resident memory of the process, MiB. */
static double rss_mib(void) {
  FILE *fp = fopen("/proc/self/statm", "r");
  long pages = 0, res = 0;
  if (fp) {
    if (fscanf(fp, "%ld %ld", &pages, &res) != 2) res = 0;
    fclose(fp);
  }
  return (double)res * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

static sensim_world *new_world(void) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  sensim_world *w = NULL;
  BENCH_CHECK(PROG, NULL, sensim_world_create(&wp, &w));
  BENCH_CHECK(PROG, NULL, sensim__rt_set_tuning(w, g_tuning));
  return w;
}

/* An OS1-128 with raw beams, 10 Hz, on `carrier`. */
static sensim_sensor *add_lidar_on(sensim_world *w, sensim_body *carrier) {
  sensim_lidar_params lp;
  BENCH_CHECK(PROG, NULL, sensim_lidar_preset("OS1-128", &lp));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "os1";
  sp.body = carrier;
  sp.rate = 1.0 / PERIOD;
  sensim_sensor *s = NULL;
  BENCH_CHECK(PROG, NULL, sensim_lidar_create(w, &sp, &lp, &s));
  return s;
}

/* An OS1-128 with raw beams on a static mast 2 m up at (x, y). */
static sensim_sensor *add_lidar(sensim_world *w, double x, double y) {
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){x, y, 2.0};
  sensim_body *mast = NULL;
  BENCH_CHECK(PROG, NULL, sensim_body_create(w, &bp, &mast));
  return add_lidar_on(w, mast);
}

/* Car i's state at time t: lanes along the X streets of the town, each car
 * at 5 to 15 m/s, wrapping around the town's extent. */
typedef struct traffic {
  sensim_body **car;
  int n;
  double half; /* half the town's side, m */
  double pitch; /* street spacing, m */
  int streets;
} traffic;

static sensim_body_state car_state(const traffic *tr, int i, double t) {
  sensim_body_state s;
  memset(&s, 0, sizeof s);
  int street = i % tr->streets, lane = (i / tr->streets) % 4;
  double speed = 5.0 + 10.0 * ((i * 7919) % 100) / 100.0, dir = lane < 2 ? 1.0 : -1.0;
  double x0 = fmod(i * 37.3, 2 * tr->half);
  double x = fmod(x0 + dir * speed * t + 4 * tr->half, 2 * tr->half) - tr->half;
  double y = -tr->half + street * tr->pitch + (lane - 1.5) * 3.2;
  s.pose.pos = (sensim_vec3){x, y, 0.75};
  s.pose.rot = dir > 0 ? sensim_pose_identity().rot : sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, 3.141592653589793);
  return s;
}

typedef struct moving_row {
  int cars;
  double capture_ms, idle_step_ms, push_ms, build_ms, rss;
} moving_row;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Run the town with `cars` moving bodies. */
static int run_moving(const bench_town *town, const bench_town_params *tp, int cars, moving_row *row) {
  double rss0 = rss_mib();
  sensim_world *w = new_world();
  if (!w) return -1;
  BENCH_CHECK(PROG, -1, bench_town_add_to_world(town, w));
  sensim_sensor *lidar = add_lidar(w, 0.0, 0.0);
  if (!lidar) return -1;
  sensim_shape box = {SENSIM_SHAPE_BOX, {4.0, 2.0, 1.5}, 0};
  sensim_mesh *car_mesh = NULL;
  BENCH_CHECK(PROG, -1, sensim_mesh_create_shape(w, &box, NULL, &car_mesh));
  traffic tr = {calloc((size_t)(cars ? cars : 1), sizeof(sensim_body *)), cars,
                0.5 * tp->blocks * (tp->block_size + tp->street_width), tp->block_size + tp->street_width,
                tp->blocks + 1};
  if (!tr.car) return -1;
  for (int i = 0; i < cars; i++) {
    sensim_body_params bp;
    sensim_body_params_init(&bp);
    bp.mesh = car_mesh;
    bp.class_id = 10;
    if (g_parked) { bp.is_static = 1; bp.pose = car_state(&tr, i, 0).pose; }
    BENCH_CHECK(PROG, -1, sensim_body_create(w, &bp, &tr.car[i]));
  }
  int steps_per = (int)lround(PERIOD / STEP), nsteps = (CAPTURES + 1) * steps_per + 1;
  double cap[CAPTURES], idle_sum = 0, push_sum = 0;
  int ncap = 0, nidle = 0;
  bench_span sp;
  for (int k = 0; k < nsteps; k++) {
    double t = k * STEP;
    bench_span_start(&sp);
    for (int i = 0; i < cars && !g_parked; i++) {
      sensim_body_state s = car_state(&tr, i, t);
      BENCH_CHECK(PROG, -1, sensim_body_push_state(tr.car[i], t, &s));
    }
    bench_span_stop(&sp);
    double push = sp.thread;
    bench_span_start(&sp);
    BENCH_CHECK(PROG, -1, sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    BENCH_CHECK(PROG, -1, sensim_sensor_poll(lidar, &f));
    bench_span_stop(&sp);
    if (f && k == 0) row->build_ms = sp.thread; /* the first capture builds every BVH */
    else if (f) cap[ncap++] = sp.thread;
    else if (k > 0) idle_sum += sp.thread, push_sum += push, nidle++;
  }
  row->rss = rss_mib() - rss0;
  qsort(cap, (size_t)ncap, sizeof *cap, cmp_double);
  row->cars = cars;
  row->idle_step_ms = nidle ? (idle_sum + push_sum) / nidle : 0;
  row->push_ms = nidle ? push_sum / nidle : 0;
  row->capture_ms = (ncap ? cap[ncap / 2] : 0) - (nidle ? idle_sum / nidle : 0);
  row->build_ms -= row->capture_ms;
  sensim_world_destroy(w);
  free(tr.car);
  return 0;
}

/* Median capture time of an OS1-128 at the origin over CAPTURES captures. */
static double capture_ms(sensim_world *w, sensim_sensor *lidar, double *first_ms) {
  double cap[CAPTURES + 1];
  bench_span sp;
  for (int k = 0; k <= CAPTURES; k++) {
    bench_span_start(&sp);
    if (sensim_world_advance(w, k * PERIOD) != SENSIM_OK) return -1;
    const sensim_frame *f = NULL;
    if (sensim_sensor_poll(lidar, &f) != SENSIM_OK || !f) return -1;
    bench_span_stop(&sp);
    cap[k] = sp.thread;
  }
  *first_ms = cap[0];
  qsort(cap + 1, CAPTURES, sizeof *cap, cmp_double);
  return cap[1 + CAPTURES / 2];
}

/* A box's 8 corners and 12 triangles at (x, y), appended. */
static void box_tris(float *v, uint32_t *ix, size_t b, double x, double y) {
  static const int tri[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                                 {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
  for (int c = 0; c < 8; c++) {
    v[24 * b + 3 * c] = (float)(x + ((c & 1) ^ ((c >> 1) & 1) ? 2.0 : -2.0));
    v[24 * b + 3 * c + 1] = (float)(y + (c & 2 ? 1.0 : -1.0));
    v[24 * b + 3 * c + 2] = (float)(c & 4 ? 1.5 : 0.0);
  }
  for (int t = 0; t < 12; t++)
    for (int k = 0; k < 3; k++) ix[36 * b + 3 * t + k] = (uint32_t)(8 * b + (size_t)tri[t][k]);
}

/* Box b's place on a square grid of n boxes, 10 m apart, clear of the origin. */
static void grid_xy(int b, int n, double *x, double *y) {
  int side = (int)ceil(sqrt((double)n));
  *x = (b % side - 0.5 * side) * 10.0 + 5.0;
  *y = (b / side - 0.5 * side) * 10.0 + 5.0;
}

static int run_static(int n, int merged, double *ms, double *first) {
  sensim_world *w = new_world();
  if (!w) return -1;
  sensim_shape ground = {SENSIM_SHAPE_PLANE, {2000.0, 2000.0, 0}, 0};
  sensim_mesh *gm = NULL;
  BENCH_CHECK(PROG, -1, sensim_mesh_create_shape(w, &ground, NULL, &gm));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = 1;
  bp.mesh = gm;
  sensim_body *b = NULL;
  BENCH_CHECK(PROG, -1, sensim_body_create(w, &bp, &b));
  size_t nb = merged ? (size_t)n : 1;
  float *v = malloc(24 * nb * sizeof *v);
  uint32_t *ix = malloc(36 * nb * sizeof *ix);
  if (!v || !ix) return -1;
  for (size_t i = 0; i < nb; i++) {
    double x = 0, y = 0;
    if (merged) grid_xy((int)i, n, &x, &y);
    box_tris(v, ix, i, x, y);
  }
  sensim_mesh_desc d;
  sensim_mesh_desc_init(&d);
  d.vertices = v, d.nvert = 8 * nb, d.indices = ix, d.ntri = 12 * nb;
  sensim_mesh *m = NULL;
  BENCH_CHECK(PROG, -1, sensim_mesh_create(w, &d, &m));
  free(v);
  free(ix);
  bp.mesh = m;
  for (int i = 0; i < (merged ? 1 : n); i++) {
    double x = 0, y = 0;
    if (!merged) grid_xy(i, n, &x, &y);
    bp.pose.pos = (sensim_vec3){x, y, 0};
    BENCH_CHECK(PROG, -1, sensim_body_create(w, &bp, &b));
  }
  sensim_sensor *lidar = add_lidar(w, 0.0, 0.0);
  if (!lidar) return -1;
  *ms = capture_ms(w, lidar, first);
  sensim_world_destroy(w);
  return *ms < 0 ? -1 : 0;
}

/* Run fn(arg, r) in a child process and return its results r[0 .. 5):
 * each memory figure then starts from a fresh heap, so no earlier case's
 * freed memory hides the growth. */
#define CHILD_RESULTS 5
static int run_in_child(int (*fn)(const void *arg, double r[CHILD_RESULTS]), const void *arg,
                        double r[CHILD_RESULTS]) {
  int fd[2];
  if (pipe(fd) != 0) return -1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    double c[CHILD_RESULTS] = {0};
    int rc = fn(arg, c);
    if (rc == 0 && write(fd[1], c, sizeof c) != (ssize_t)sizeof c) rc = 1;
    _exit(rc ? 1 : 0);
  }
  close(fd[1]);
  ssize_t got = read(fd[0], r, CHILD_RESULTS * sizeof *r);
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (got != (ssize_t)(CHILD_RESULTS * sizeof *r) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return 0;
}

/* Resident memory (MiB) after the first capture of a world with `k` trees
 * (r[0]) and the tree's triangles (r[1]). */
static int trees_child(int k, double *mib, double *tree_kib);
static int trees_in_child(const void *arg, double r[CHILD_RESULTS]) {
  return trees_child(*(const int *)arg, &r[0], &r[1]);
}
static int run_trees(int k, double *mib, double *ntri) {
  double r[CHILD_RESULTS];
  if (run_in_child(trees_in_child, &k, r)) return -1;
  *mib = r[0], *ntri = r[1];
  return 0;
}

static int trees_child(int k, double *mib, double *tree_kib) {
  double rss0 = rss_mib();
  sensim_world *w = new_world();
  if (!w) return -1;
  sensim_shape crown = {SENSIM_SHAPE_SPHERE, {3.0, 0, 0}, 64};
  sensim_mesh *m = NULL;
  BENCH_CHECK(PROG, -1, sensim_mesh_create_shape(w, &crown, NULL, &m));
  *tree_kib = sensim_mesh_triangle_count(m);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = 1;
  bp.mesh = m;
  int side = (int)ceil(sqrt((double)k));
  for (int i = 0; i < k; i++) {
    bp.pose.pos = (sensim_vec3){(i % side - 0.5 * side) * 8.0 + 4.0, (i / side - 0.5 * side) * 8.0 + 4.0, 3.0};
    bp.class_id = 5;
    sensim_body *b = NULL;
    BENCH_CHECK(PROG, -1, sensim_body_create(w, &bp, &b));
  }
  sensim_sensor *lidar = add_lidar(w, 0.0, 0.0);
  if (!lidar) return -1;
  double first;
  if (capture_ms(w, lidar, &first) < 0) return -1;
  *mib = rss_mib() - rss0;
  sensim_world_destroy(w);
  return 0;
}

/* ---- tiles: the city as tile files, every tile loaded against tiles ---- */

typedef struct tiles_case {
  const bench_tile_city *city;
  int as_tiles; /* 1: sensim_tile_add; 0: every file loaded up front as a static body;
                   driving: 2 read ahead, 3 read when needed */
} tiles_case;

/* Tile (i, j) of the city's parameters. */
static void city_tile(const bench_tile_city *c, int i, int j, sensim_tile_params *tp) {
  sensim_tile_params_init(tp);
  tp->path = bench_tile_city_path(c, i, j);
  bench_tile_city_bounds(c, i, j, tp->bounds_min, tp->bounds_max);
}

/* FNV-1a of every beam's range and intensity: the two cases' frames are
 * compared by it (their bodies' instance ids differ: the tiles' bodies
 * are made in the order the tiles load). */
static double frame_hash(const sensim_frame *f) {
  const sensim_beam *b = f->data;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < f->count; i++) {
    unsigned char p[2 * sizeof(float)];
    memcpy(p, &b[i].range, sizeof(float));
    memcpy(p + sizeof(float), &b[i].intensity, sizeof(float));
    for (size_t k = 0; k < sizeof p; k++) h = (h ^ p[k]) * 1099511628211ull;
  }
  return (double)(h >> 11); /* 53 bits: exact in a double */
}

/* r: set-up plus the first capture ms (file loads and BVH builds), the
 * median capture ms after it, resident MiB, tiles in the world's scene,
 * the last frame's hash. */
static int tiles_child(const void *arg, double r[CHILD_RESULTS]) {
  const tiles_case *tc = arg;
  const bench_tile_city *c = tc->city;
  double rss0 = rss_mib();
  bench_span sp;
  bench_span_start(&sp);
  sensim_world *w = new_world();
  if (!w) return -1;
  sensim_sensor *lidar = add_lidar(w, 0.0, 0.0);
  if (!lidar) return -1;
  int loaded = 0;
  sensim_tile **tile = calloc((size_t)c->grid * c->grid, sizeof *tile);
  if (!tile) return -1;
  for (int i = 0; i < c->grid; i++)
    for (int j = 0; j < c->grid; j++) {
      sensim_tile_params tp;
      city_tile(c, i, j, &tp);
      if (tc->as_tiles) {
        BENCH_CHECK(PROG, -1, sensim_tile_add(w, &tp, &tile[i * c->grid + j]));
        continue;
      }
      sensim_mesh *m = NULL;
      BENCH_CHECK(PROG, -1, sensim_mesh_load(w, tp.path, NULL, &m));
      sensim_body_params bp;
      sensim_body_params_init(&bp);
      bp.is_static = 1, bp.mesh = m;
      sensim_body *b = NULL;
      BENCH_CHECK(PROG, -1, sensim_body_create(w, &bp, &b));
      loaded++;
    }
  double cap[CAPTURES];
  for (int k = 0; k <= CAPTURES; k++) {
    if (k) bench_span_start(&sp);
    BENCH_CHECK(PROG, -1, sensim_world_advance(w, k * PERIOD));
    const sensim_frame *f = NULL;
    BENCH_CHECK(PROG, -1, sensim_sensor_poll(lidar, &f));
    bench_span_stop(&sp);
    if (!f) return -1;
    if (k) cap[k - 1] = sp.thread;
    else r[0] = sp.thread;
    r[4] = frame_hash(f);
  }
  qsort(cap, CAPTURES, sizeof *cap, cmp_double);
  r[1] = cap[CAPTURES / 2];
  r[2] = rss_mib() - rss0;
  for (int i = 0; tc->as_tiles && i < c->grid * c->grid; i++) loaded += sensim_tile_in_range(tile[i]);
  r[3] = loaded;
  free(tile);
  sensim_world_destroy(w);
  return 0;
}

/* A lidar on a car driving across the city of tiles: DRIVE_SPEED along
 * +X on y = 10 m from 100 m inside the west edge, DRIVE_S seconds, host
 * steps of STEP. r: the worst advance's host-thread ms, the median of
 * the advances that started a capture, tiles loaded, the frames' hash
 * (all scans), 0. With read ahead on (the default) tiles' files are read
 * on the world's tile reader thread, whose time the host's thread CPU
 * time leaves out. */
#define DRIVE_SPEED 40.0 /* m/s */
#define DRIVE_S 10.0     /* s */
static int drive_child(const void *arg, double r[CHILD_RESULTS]) {
  const tiles_case *tc = arg;
  const bench_tile_city *c = tc->city;
  g_tuning = tc->as_tiles == 3 ? SENSIM_RT_NO_READ_AHEAD : 0;
  sensim_world *w = new_world();
  if (!w) return -1;
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *car = NULL;
  BENCH_CHECK(PROG, -1, sensim_body_create(w, &bp, &car));
  sensim_sensor *lidar = add_lidar_on(w, car);
  sensim_tile **tile = calloc((size_t)c->grid * c->grid, sizeof *tile);
  if (!lidar || !tile) return -1;
  for (int i = 0; i < c->grid * c->grid; i++) {
    sensim_tile_params tp;
    city_tile(c, i / c->grid, i % c->grid, &tp);
    BENCH_CHECK(PROG, -1, sensim_tile_add(w, &tp, &tile[i]));
  }
  int nsteps = (int)lround(DRIVE_S / STEP), ncap = 0;
  double *cap = malloc((size_t)(nsteps + 1) * sizeof *cap), worst = 0, hash = 0;
  if (!cap) return -1;
  const double x0 = -0.5 * c->grid * c->size + 100.0;
  bench_span spn;
  for (int k = 0; k <= nsteps; k++) {
    double t = k * STEP;
    sensim_body_state st;
    memset(&st, 0, sizeof st);
    st.pose = sensim_pose_identity();
    st.pose.pos = (sensim_vec3){x0 + DRIVE_SPEED * t, 10.0, 2.0}; /* the lidar 2 m up */
    BENCH_CHECK(PROG, -1, sensim_body_push_state(car, t, &st));
    bench_span_start(&spn);
    BENCH_CHECK(PROG, -1, sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    BENCH_CHECK(PROG, -1, sensim_sensor_poll(lidar, &f));
    bench_span_stop(&spn);
    if (k > 0 && spn.thread > worst) worst = spn.thread;
    if (f && k > 0) cap[ncap++] = spn.thread;
    if (f) hash = fmod(hash * 31.0 + frame_hash(f), 9007199254740881.0);
  }
  qsort(cap, (size_t)ncap, sizeof *cap, cmp_double);
  int loaded = 0;
  for (int i = 0; i < c->grid * c->grid; i++) loaded += sensim_tile_state_get(tile[i]) == SENSIM_TILE_LOADED;
  r[0] = worst, r[1] = ncap ? cap[ncap / 2] : 0, r[2] = loaded, r[3] = hash, r[4] = 0;
  free(cap);
  free(tile);
  sensim_world_destroy(w);
  return 0;
}

static int run_tiles(int grid, int cells) {
  bench_tile_city city;
  char dir[64];
  snprintf(dir, sizeof dir, "/tmp/bench_scale_tiles.%d", (int)getpid());
  double t0 = bench_wall_s();
  if (bench_tile_city_write(&city, dir, grid, 200.0, cells)) {
    fprintf(stderr, "%s: writing the tiles in %s failed\n", PROG, dir);
    return -1;
  }
  printf("tiles: %d x %d of 200 m, %zu triangles each (%zu in all), written in %.1f s\n\n", grid, grid,
         city.triangles, city.triangles * (size_t)grid * grid, bench_wall_s() - t0);
  double r[2][CHILD_RESULTS];
  for (int v = 0; v < 2; v++) {
    tiles_case tc = {&city, v};
    if (run_in_child(tiles_child, &tc, r[v])) {
      bench_tile_city_remove(&city);
      return -1;
    }
  }
  double d[2][CHILD_RESULTS];
  for (int v = 0; v < 2; v++) {
    tiles_case tc = {&city, 2 + v};
    if (run_in_child(drive_child, &tc, d[v])) {
      bench_tile_city_remove(&city);
      return -1;
    }
  }
  bench_tile_city_remove(&city);
  bench_row rows[2];
  const char *head[] = {"world", "tiles in the scene", "set-up + first capture ms", "capture ms", "RSS MiB"};
  for (int v = 0; v < 2; v++) {
    snprintf(rows[v].c[0], BENCH_CELL, "%s", v ? "tiles (sensim_tile_add)" : "every file loaded up front");
    snprintf(rows[v].c[1], BENCH_CELL, "%.0f of %d", r[v][3], grid * grid);
    snprintf(rows[v].c[2], BENCH_CELL, "%.0f", r[v][0]);
    snprintf(rows[v].c[3], BENCH_CELL, "%.2f", r[v][1]);
    snprintf(rows[v].c[4], BENCH_CELL, "%.1f", r[v][2]);
  }
  bench_print_table(1, "OS1-128 at the centre of a city of tiles", head, 5, rows, 2);
  printf("frames bit-identical: %s\n\n", r[0][4] == r[1][4] ? "yes" : "NO");
  const char *head2[] = {"tiles read", "tiles loaded", "worst advance ms (host thread)", "median capture advance ms"};
  for (int v = 0; v < 2; v++) {
    snprintf(rows[v].c[0], BENCH_CELL, "%s", v ? "when needed" : "ahead, on the tile reader's thread");
    snprintf(rows[v].c[1], BENCH_CELL, "%.0f", d[v][2]);
    snprintf(rows[v].c[2], BENCH_CELL, "%.1f", d[v][0]);
    snprintf(rows[v].c[3], BENCH_CELL, "%.2f", d[v][1]);
  }
  char title[128];
  snprintf(title, sizeof title, "OS1-128 on a car driving %.0f m/s across the tiles for %.0f s", DRIVE_SPEED, DRIVE_S);
  bench_print_table(1, title, head2, 4, rows, 2);
  printf("frames bit-identical: %s\n", d[0][3] == d[1][3] ? "yes" : "NO");
  return r[0][4] == r[1][4] && d[0][3] == d[1][3] ? 0 : -1;
}

static int parse_list(const char *s, int *out, int max) {
  int n = 0;
  while (*s && n < max) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v < 0) return -1;
    out[n++] = (int)v;
    s = *end == ',' ? end + 1 : end;
  }
  return n;
}

int main(int argc, char **argv) {
  int quick = 0, blocks = -1, moving[16] = {0, 10, 100, 1000}, nmoving = 4, nstatic = 10000, trees = 100000;
  int tiles = 8, cells = 120;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) quick = 1;
    else if (!strcmp(argv[i], "--blocks") && i + 1 < argc) blocks = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--moving") && i + 1 < argc) nmoving = parse_list(argv[++i], moving, 16);
    else if (!strcmp(argv[i], "--static") && i + 1 < argc) nstatic = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--trees") && i + 1 < argc) trees = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--parked")) g_parked = 1;
    else if (!strcmp(argv[i], "--tiles") && i + 1 < argc) tiles = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--quick] [--blocks B] [--moving M1,M2,...] [--static N] [--trees K] [--parked] [--tiles G]\n",
              PROG);
      return 2;
    }
  }
  if (nmoving < 1) return 2;
  if (quick) {
    nmoving = parse_list("0,10,100", moving, 16);
    nstatic = 300;
    trees = 1000;
    tiles = 3, cells = 20;
  }
  bench_flush_denormals();
  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  printf("%s on %s, 1 thread (the world's pool off)\n\n", PROG, cpu);

  bench_row rows[16];
  double mib1, mibk, ntri;
  if (run_trees(1, &mib1, &ntri) || run_trees(trees, &mibk, &ntri)) return 1;
  const char *head3[] = {"trees", "RSS after first capture, MiB", "per extra tree, bytes"};
  snprintf(rows[0].c[0], BENCH_CELL, "1 (%.0f triangles)", ntri);
  snprintf(rows[0].c[1], BENCH_CELL, "%.1f", mib1);
  snprintf(rows[0].c[2], BENCH_CELL, "-");
  snprintf(rows[1].c[0], BENCH_CELL, "%d", trees);
  snprintf(rows[1].c[1], BENCH_CELL, "%.1f", mibk);
  snprintf(rows[1].c[2], BENCH_CELL, "%.0f", (mibk - mib1) * 1024.0 * 1024.0 / (trees - 1 > 0 ? trees - 1 : 1));
  bench_print_table(1, "Instancing: one tree mesh placed as static bodies", head3, 3, rows, 2);
  printf("\n");
  /* Before the town: the children's memory then grows from a small heap. */
  if (tiles > 0) {
    if (run_tiles(tiles, cells)) return 1;
    printf("\n");
  }
  bench_town_params tp;
  if (quick) bench_town_params_quick(&tp);
  else bench_town_params_full(&tp);
  if (blocks > 0) tp.blocks = blocks;
  bench_town town;
  double t0 = bench_wall_s();
  if (bench_town_build(&tp, &town)) {
    fprintf(stderr, "%s: building the town failed\n", PROG);
    return 1;
  }
  printf("town: %d x %d blocks, %zu bodies, %zu triangles instanced (%zu unique), made in %.1f s\n\n", tp.blocks,
         tp.blocks, town.ninst, bench_town_instanced_triangles(&town), bench_town_unique_triangles(&town),
         bench_wall_s() - t0);
  const char *head1[] = {"moving bodies", "capture ms", "x static", "push + advance ms/step", "push ms/step",
                         "first-capture build ms", "RSS MiB"};
  double base = 0;
  for (int i = 0; i < nmoving; i++) {
    moving_row r;
    memset(&r, 0, sizeof r);
    if (run_moving(&town, &tp, moving[i], &r)) return 1;
    if (i == 0) base = r.capture_ms;
    snprintf(rows[i].c[0], BENCH_CELL, "%d", r.cars);
    snprintf(rows[i].c[1], BENCH_CELL, "%.2f", r.capture_ms);
    snprintf(rows[i].c[2], BENCH_CELL, "%.2f", base > 0 ? r.capture_ms / base : 0.0);
    snprintf(rows[i].c[3], BENCH_CELL, "%.3f", r.idle_step_ms);
    snprintf(rows[i].c[4], BENCH_CELL, "%.3f", r.push_ms);
    snprintf(rows[i].c[5], BENCH_CELL, "%.0f", r.build_ms);
    snprintf(rows[i].c[6], BENCH_CELL, "%.0f", r.rss);
    fflush(stdout);
  }
  bench_print_table(1, "OS1-128 (raw beams) in the town with moving cars", head1, 7, rows, nmoving);

  /* The same cases before and after the moving part's two changes, in
   * this run: built anew with every car (before), updated in place with
   * every car, and updated in place with the cars within the lidar's
   * reach (after: the table above). Each column's ratio is against its
   * own static city (0 cars). */
  static const unsigned variant[3] = {SENSIM_RT_REBUILD | SENSIM_RT_WHOLE_WORLD, SENSIM_RT_WHOLE_WORLD, 0};
  double vms[16][3], vbase[3] = {0, 0, 0};
  for (int i = 0; i < nmoving; i++)
    for (int v = 0; v < 3; v++) {
      moving_row r;
      memset(&r, 0, sizeof r);
      g_tuning = variant[v];
      if (run_moving(&town, &tp, moving[i], &r)) return 1;
      vms[i][v] = r.capture_ms;
      if (i == 0) vbase[v] = r.capture_ms;
    }
  g_tuning = 0;
  const char *head4[] = {"moving bodies", "rebuilt, every car: ms (x static)", "updated in place, every car",
                         "updated in place, cars in reach"};
  for (int i = 0; i < nmoving; i++) {
    snprintf(rows[i].c[0], BENCH_CELL, "%d", moving[i]);
    for (int v = 0; v < 3; v++)
      snprintf(rows[i].c[1 + v], BENCH_CELL, "%.2f (%.2f)", vms[i][v], vbase[v] > 0 ? vms[i][v] / vbase[v] : 0.0);
  }
  printf("\n");
  bench_print_table(1, "The moving part before and after (OS1-128 capture ms, x its static city)", head4, 4, rows,
                    nmoving);
  bench_town_free(&town);

  double ms_b, ms_m, f_b, f_m;
  if (run_static(nstatic, 0, &ms_b, &f_b) || run_static(nstatic, 1, &ms_m, &f_m)) return 1;
  const char *head2[] = {"world", "capture ms", "first capture ms"};
  snprintf(rows[0].c[0], BENCH_CELL, "%d static bodies of one box mesh", nstatic);
  snprintf(rows[0].c[1], BENCH_CELL, "%.2f (x%.2f)", ms_b, ms_b / ms_m);
  snprintf(rows[0].c[2], BENCH_CELL, "%.1f", f_b);
  snprintf(rows[1].c[0], BENCH_CELL, "one mesh of the same %d boxes", nstatic);
  snprintf(rows[1].c[1], BENCH_CELL, "%.2f", ms_m);
  snprintf(rows[1].c[2], BENCH_CELL, "%.1f", f_m);
  printf("\n");
  bench_print_table(1, "OS1-128 over a ground plane and boxes: bodies against one mesh", head2, 3, rows, 2);

  return 0;
}
