#include "support/testutil.h"
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

sensim_world *test_world(int threads, uint64_t seed) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = threads;
  p.seed = seed;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  return w;
}

sensim_mesh_desc test_mesh_desc(const float *v, size_t nv, const uint32_t *ix, size_t nt,
                                const sensim_material *m) {
  sensim_mesh_desc d;
  sensim_mesh_desc_init(&d);
  d.vertices = v, d.nvert = nv, d.indices = ix, d.ntri = nt, d.material = m;
  return d;
}

const sensim_gnss_params *test_gnss_defaults(void) {
  static sensim_gnss_params p;
  sensim_gnss_params_init(&p);
  return &p;
}

const sensim_imu_params *test_imu_defaults(void) {
  static sensim_imu_params p;
  sensim_imu_params_init(&p);
  return &p;
}

const char *test_path(const char *dir, const char *name) {
  static char buf[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

sensim_world *test_black_world(int threads, float ambient) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = threads;
  p.background[0] = p.background[1] = p.background[2] = 0.0f;
  p.ambient = ambient;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  return w;
}

sensim_body *test_static_shape(sensim_world *w, sensim_shape_kind kind, sensim_vec3 size, sensim_vec3 at) {
  sensim_material m;
  sensim_material_init(&m);
  sensim_shape sh = {kind, size, 16};
  sensim_mesh *mesh = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &m, &mesh));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh;
  bp.is_static = 1;
  bp.pose.pos = at;
  bp.class_id = 1;
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  return b;
}

sensim_body_state test_state_xyzyaw(double x, double y, double z, double yaw) {
  sensim_body_state s = {0};
  s.pose.pos.x = x;
  s.pose.pos.y = y;
  s.pose.pos.z = z;
  s.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, yaw);
  s.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
  return s;
}

int test_file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

char *test_slurp_if(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  assert_non_null(s);
  assert_int_equal(fread(s, 1, (size_t)n, fp), (size_t)n);
  s[n] = '\0';
  fclose(fp);
  if (len) *len = (size_t)n;
  return s;
}

char *test_slurp(const char *path, size_t *len) {
  char *s = test_slurp_if(path, len);
  if (!s) fail_msg("cannot open %s", path);
  return s;
}

void test_assert_no_temp_files(const char *dir) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  struct dirent *e;
  while ((e = readdir(d)))
    if (strstr(e->d_name, ".tmp-")) fail_msg("temporary file left behind: %s", e->d_name);
  closedir(d);
}

void test_remove_tree(const char *path) {
  struct stat sb;
  if (lstat(path, &sb) != 0) return;
  if (!S_ISDIR(sb.st_mode)) {
    unlink(path);
    return;
  }
  DIR *d = opendir(path);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
    test_remove_tree(sub);
  }
  closedir(d);
  rmdir(path);
}

int test_fresh_dir_with_file(const char *dir, const char *name, const char *text) {
  test_remove_tree(dir);
  if (sensim_mkdirs(dir) != SENSIM_OK) return -1;
  char path[512];
  if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) return -1;
  FILE *fp = fopen(path, "w");
  if (!fp) return -1;
  int bad = fputs(text, fp) < 0;
  return (fclose(fp) != 0 || bad) ? -1 : 0;
}
