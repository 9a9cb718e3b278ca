/* cli/out_dir.c: the output folder of `sensim run` and `sensim demo`.
 *
 * A run names its files by frame index (frame_000000.png, scan_000000.pcd)
 * in one folder per sensor, so a second run into the same folder, shorter
 * or of another scenario, would leave the first run's later frames beside
 * its own with nothing to tell them apart. A folder that already holds
 * anything is therefore refused, unless --force: then the folders of the
 * scenario's own sensors are removed first and other files are kept. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"

/* Remove path and, for a folder, everything under it. Symbolic links are
 * removed, never followed. 0, or -1 with errno set. */
static int remove_tree(const char *path) {
  struct stat sb;
  if (lstat(path, &sb) != 0) return errno == ENOENT ? 0 : -1;
  if (!S_ISDIR(sb.st_mode)) return unlink(path);
  DIR *d = opendir(path);
  if (!d) return -1;
  int rc = 0;
  struct dirent *e;
  while (rc == 0 && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    size_t n = strlen(path) + strlen(e->d_name) + 2;
    char *sub = malloc(n);
    if (!sub) {
      errno = ENOMEM;
      rc = -1;
      break;
    }
    snprintf(sub, n, "%s/%s", path, e->d_name);
    rc = remove_tree(sub);
    free(sub);
  }
  int saved = errno;
  closedir(d);
  if (rc != 0) {
    errno = saved;
    return -1;
  }
  return rmdir(path);
}

/* Whether dir exists as a folder with at least one entry. A missing path,
 * or one that is not a folder, counts as empty: the run then creates it,
 * or reports why it cannot. */
static int has_entries(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int any = 0;
  struct dirent *e;
  while (!any && (e = readdir(d)) != NULL)
    any = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  return any;
}

int sensim__cli_prepare_out(const char *cmd, const char *dir, sensim_scenario *scn, int force) {
  if (!has_entries(dir)) return 0;
  if (!force) {
    fprintf(stderr,
            "sensim %s: output folder '%s' is not empty: this run's frames would mix with the "
            "files already there (frames are named by index). Choose another --out, or give "
            "--force to replace the scenario's sensor folders in it.\n",
            cmd, dir);
    return 1;
  }
  sensim_world *w = sensim_scenario_world(scn);
  for (size_t i = 0; i < sensim_world_sensor_count(w); i++) {
    const char *name = sensim_sensor_name(sensim_world_sensor(w, i));
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path) {
      fprintf(stderr, "sensim %s: out of memory\n", cmd);
      return 1;
    }
    snprintf(path, n, "%s/%s", dir, name);
    if (remove_tree(path) != 0) {
      fprintf(stderr, "sensim %s: --force: cannot remove '%s': %s\n", cmd, path, strerror(errno));
      free(path);
      return 1;
    }
    free(path);
  }
  return 0;
}
