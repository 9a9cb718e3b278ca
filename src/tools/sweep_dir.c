/* tools/sweep_dir.c: a sweep's output folder: taking it (sweep.json marks
 * it as a sweep's, so a sweep never writes among other files), telling a
 * complete run from one to do (its manifest says "ok" and carries the
 * digest the run has now), and emptying a run's folder before it runs. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tools/sweep_internal.h"
#include "tools/json_text.h"
#include "tools/tools_internal.h"

sensim_status sensim_tools__remove_tree(const char *path) {
  struct stat sb;
  if (lstat(path, &sb) != 0)
    return errno == ENOENT ? SENSIM_OK : sensim_error_set(SENSIM_EIO, "%s: %s", path, strerror(errno));
  if (S_ISDIR(sb.st_mode)) {
    DIR *d = opendir(path);
    if (!d) return sensim_error_set(SENSIM_EIO, "%s: %s", path, strerror(errno));
    sensim_status st = SENSIM_OK;
    struct dirent *e;
    while (st == SENSIM_OK && (e = readdir(d)) != NULL) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      size_t n = strlen(path) + strlen(e->d_name) + 2;
      char *child = malloc(n);
      if (!child) {
        st = sensim_error_set(SENSIM_ENOMEM, "out of memory");
        break;
      }
      snprintf(child, n, "%s/%s", path, e->d_name);
      st = sensim_tools__remove_tree(child);
      free(child);
    }
    closedir(d);
    if (st != SENSIM_OK) return st;
    if (rmdir(path) != 0) return sensim_error_set(SENSIM_EIO, "%s: %s", path, strerror(errno));
    return SENSIM_OK;
  }
  if (unlink(path) != 0) return sensim_error_set(SENSIM_EIO, "%s: %s", path, strerror(errno));
  return SENSIM_OK;
}

/* The "name" of the sweep.json in out_dir, malloc'd; NULL when there is
 * none or it does not read as a sweep's. */
static char *marked_name(const char *path) {
  char *text = NULL;
  if (sensim_read_text_file(path, "sweep", &text) != SENSIM_OK) return NULL;
  cJSON *j = cJSON_Parse(text);
  free(text);
  const cJSON *nm = cJSON_IsObject(j) ? cJSON_GetObjectItemCaseSensitive(j, "name") : NULL;
  char *out = cJSON_IsString(nm) ? sensim_tools__strdup(nm->valuestring) : NULL;
  cJSON_Delete(j);
  return out;
}

sensim_status sensim_sweep_prepare(const sensim_sweep *s, const char *out_dir) {
  if (!s || !out_dir || !*out_dir) return sensim_error_set(SENSIM_EINVAL, "sensim_sweep_prepare: NULL argument");
  sensim_status st = sensim_mkdirs(out_dir);
  if (st != SENSIM_OK) return st;
  DIR *d = opendir(out_dir);
  if (!d) return sensim_error_set(SENSIM_EIO, "%s: %s", out_dir, strerror(errno));
  char first[256] = "";
  int marked = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (strcmp(e->d_name, "sweep.json") == 0) marked = 1;
    else if (!first[0]) snprintf(first, sizeof first, "%s", e->d_name);
  }
  closedir(d);
  size_t n = strlen(out_dir) + 16;
  char *path = malloc(n);
  if (!path) return sensim_error_set(SENSIM_ENOMEM, "out of memory");
  snprintf(path, n, "%s/sweep.json", out_dir);
  if (marked) {
    char *name = marked_name(path);
    if (!name || strcmp(name, s->name) != 0) {
      st = sensim_error_set(SENSIM_ESTATE,
                            "%s holds %s%s%s, not sweep '%s': choose another folder (a rerun of a sweep goes into its "
                            "own folder, where complete runs are skipped)",
                            out_dir, name ? "sweep '" : "a sweep.json that does not read as a sweep's",
                            name ? name : "", name ? "'" : "", s->name);
      free(name);
      free(path);
      return st;
    }
    free(name);
  } else if (first[0]) {
    free(path);
    return sensim_error_set(SENSIM_ESTATE,
                            "%s is not empty ('%s', ...) and holds no sweep: a sweep writes into a new or empty "
                            "folder, or its own",
                            out_dir, first);
  }
  /* The sweep as loaded, its name filled in: the folder's mark, and what
   * made its runs. */
  char *text = sensim_tools__json_print(s->spec, 1);
  sensim_atomic_file *af = NULL;
  st = text ? sensim_atomic_file_open(path, &af) : sensim_error_set(SENSIM_ENOMEM, "out of memory");
  if (st == SENSIM_OK) {
    fprintf(sensim_atomic_file_stream(af), "%s\n", text);
    st = sensim_atomic_file_commit(af);
  }
  free(text);
  free(path);
  return st;
}

/* out_dir/run_NNNN[/leaf], malloc'd. */
char *sensim_tools__sweep_run_path(const char *out_dir, size_t i, const char *leaf) {
  char dir[32];
  if (sensim_sweep_run_dir(i, dir, sizeof dir) != SENSIM_OK) return NULL;
  size_t n = strlen(out_dir) + strlen(dir) + (leaf ? strlen(leaf) : 0) + 3;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s%s%s", out_dir, dir, leaf ? "/" : "", leaf ? leaf : "");
  return p;
}

int sensim_sweep_run_complete(const sensim_sweep *s, const char *out_dir, size_t i, char **record) {
  if (!s || !out_dir || i >= s->nruns) return 0;
  char *path = sensim_tools__sweep_run_path(out_dir, i, "manifest.json");
  char *text = NULL;
  struct stat sb;
  int done = 0;
  if (path && stat(path, &sb) == 0 && sensim_read_text_file(path, "manifest", &text) == SENSIM_OK) {
    cJSON *m = cJSON_Parse(text);
    done = sensim_tools__sweep_record_matches(s, i, m) && sensim_tools__sweep_record_ok(m);
    cJSON_Delete(m);
  }
  free(path);
  if (done && record)
    *record = text;
  else
    free(text);
  return done;
}
