/* tests/sweep/sweep_util.c: helpers the sweep groups share. */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "sweep/sweep_groups.h"
#include "support/testutil.h"

const char kSweepScenario[] =
    "{\"world\": {\"seed\": 1}, \"duration\": 0.3,"
    " \"meshes\": [{\"name\": \"ground\", \"shape\": {\"kind\": \"plane\", \"size\": [20, 20, 0]}}],"
    " \"bodies\": [{\"name\": \"ground\", \"mesh\": \"ground\", \"static\": true},"
    "  {\"name\": \"cart\", \"motion\": {\"type\": \"line\", \"start\": [0, 0, 0], \"velocity\": [1, 0, 0]}}],"
    " \"sensors\": ["
    "  {\"name\": \"gnss\", \"type\": \"gnss\", \"body\": \"cart\", \"rate\": 10,"
    "   \"filters\": [{\"name\": \"gnss_noise\", \"params\": {\"sigma\": [0.5, 0.5, 1.0]}}],"
    "   \"output\": {\"format\": \"csv\"}},"
    "  {\"name\": \"imu\", \"type\": \"imu\", \"body\": \"cart\", \"rate\": 100,"
    "   \"filters\": [{\"name\": \"imu_noise\"}], \"output\": {\"format\": \"csv\"}}]}";

char *sweep_textf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  assert_true(n >= 0);
  char *out = malloc((size_t)n + 1);
  assert_non_null(out);
  va_start(ap, fmt);
  vsnprintf(out, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return out;
}

sensim_sweep *sweep_load_ok(const char *json, const char *source) {
  sensim_sweep *s = NULL;
  sensim_status st = sensim_sweep_load_string(json, source, NULL, &s);
  if (st != SENSIM_OK) fail_msg("sweep load -> %d: %s", st, sensim_last_error());
  assert_non_null(s);
  return s;
}

void sweep_assert_contains(const char *text, const char *needle) {
  if (!text || !strstr(text, needle)) fail_msg("'%s' does not contain '%s'", text ? text : "(null)", needle);
}

void sweep_load_fails(const char *json, sensim_status want, const char *const *needles) {
  sensim_sweep *s = (sensim_sweep *)&s; /* a sentinel: failure must not touch *out */
  sensim_status st = sensim_sweep_load_string(json, "bad.json", NULL, &s);
  if (st != want) {
    if (st == SENSIM_OK) sensim_sweep_destroy(s);
    fail_msg("load -> %d, expected %d: %s", st, want, sensim_last_error());
  }
  assert_ptr_equal(s, (sensim_sweep *)&s);
  for (size_t i = 0; needles && needles[i]; i++) sweep_assert_contains(sensim_last_error(), needles[i]);
}

void sweep_write_text(const char *path, const char *text) {
  FILE *fp = fopen(path, "w");
  if (!fp) fail_msg("cannot write %s", path);
  fputs(text, fp);
  assert_int_equal(fclose(fp), 0);
}

void sweep_fresh_dir(const char *path) {
  test_remove_tree(path);
  SENSIM_OK_OR_FAIL(sensim_mkdirs(path));
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Relative paths of the regular files under root/rel into *paths. */
static void list_files(const char *root, const char *rel, char ***paths, size_t *n, size_t *cap) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
  DIR *d = opendir(dir);
  assert_non_null(d);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char sub[1024], full[2048];
    snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
    snprintf(full, sizeof full, "%s/%s", root, sub);
    struct stat sb;
    assert_int_equal(lstat(full, &sb), 0);
    if (S_ISDIR(sb.st_mode)) {
      list_files(root, sub, paths, n, cap);
      continue;
    }
    if (*n == *cap) {
      *cap = *cap ? 2 * *cap : 32;
      *paths = realloc(*paths, *cap * sizeof **paths);
      assert_non_null(*paths);
    }
    (*paths)[(*n)++] = strdup(sub);
  }
  closedir(d);
}

char *sweep_tree(const char *root, size_t *len) {
  char **paths = NULL;
  size_t n = 0, cap = 0;
  list_files(root, "", &paths, &n, &cap);
  qsort(paths, n, sizeof *paths, cmp_str);
  size_t used = 0, size = 1;
  char *out = malloc(size);
  assert_non_null(out);
  for (size_t i = 0; i < n; i++) {
    char full[2048];
    snprintf(full, sizeof full, "%s/%s", root, paths[i]);
    size_t flen = 0;
    char *bytes = test_slurp(full, &flen);
    char head[1200];
    int h = snprintf(head, sizeof head, "%s\n%zu:", paths[i], flen);
    out = realloc(out, used + (size_t)h + flen + 2);
    assert_non_null(out);
    memcpy(out + used, head, (size_t)h);
    memcpy(out + used + h, bytes, flen);
    used += (size_t)h + flen;
    out[used++] = '\n';
    free(bytes);
    free(paths[i]);
  }
  free(paths);
  out[used] = '\0';
  if (len) *len = used;
  return out;
}

sensim_sweep_totals sweep_run_all(const sensim_sweep *s, const char *out_dir, const size_t *order) {
  size_t n = sensim_sweep_run_count(s);
  char **recs = calloc(n, sizeof *recs);
  assert_non_null(recs);
  SENSIM_OK_OR_FAIL(sensim_sweep_prepare(s, out_dir));
  for (size_t j = 0; j < n; j++) {
    size_t i = order ? order[j] : j;
    SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, i, out_dir, &recs[i]));
  }
  sensim_sweep_totals t = {0, 0, 0, 0};
  SENSIM_OK_OR_FAIL(sensim_sweep_reduce(s, out_dir, recs, &t));
  for (size_t i = 0; i < n; i++) free(recs[i]);
  free(recs);
  return t;
}

cJSON *sweep_parse(const char *text) {
  cJSON *j = cJSON_Parse(text);
  if (!j) fail_msg("does not parse as JSON: %s", text);
  return j;
}
