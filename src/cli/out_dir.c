/* cli/out_dir.c: the output folder of `sensim run` and `sensim demo`.
 *
 * A run names its files by frame index (frame_000000.png, scan_000000.pcd)
 * in one folder per sensor, so a second run into the same folder, shorter
 * or of another scenario, would leave the first run's later frames beside
 * its own with nothing to tell them apart. A folder that already holds
 * anything is therefore refused, unless --force: then the folders of the
 * scenario's own sensors are removed first and other files are kept.
 * --force removes only what a run writes: regular files, and folders that
 * carry a run's mark (SENSIM_RUN_FOLDER_MARK) holding regular files. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"

/* What a mode is, for messages about what --force will not replace. */
static const char *mode_name(mode_t m) {
  return S_ISCHR(m)    ? "a character device"
         : S_ISBLK(m)  ? "a block device"
         : S_ISFIFO(m) ? "a FIFO"
         : S_ISSOCK(m) ? "a socket"
         : S_ISDIR(m)  ? "a folder"
                       : "not a regular file";
}

/* Whether --force may replace path: nothing there, a regular file, a
 * symbolic link (removed, never followed), or a folder a run made (it holds
 * SENSIM_RUN_FOLDER_MARK) with only regular files and links in it. A
 * device, FIFO or socket is never removed: deleting /dev/full's node, or a
 * FIFO another program reads, is not what replacing output means, and a
 * folder sensim did not make may hold anything. 0, or 1 after printing why. */
static int replaceable(const char *cmd, const char *path) {
  struct stat sb;
  if (lstat(path, &sb) != 0) {
    if (errno == ENOENT) return 0;
    fprintf(stderr, "sensim %s: --force: cannot inspect '%s': %s\n", cmd, path, strerror(errno));
    return 1;
  }
  if (S_ISREG(sb.st_mode) || S_ISLNK(sb.st_mode)) return 0;
  if (!S_ISDIR(sb.st_mode)) {
    fprintf(stderr,
            "sensim %s: --force: '%s' is %s; --force replaces only regular files and sensim's own output "
            "folders. Remove it yourself or choose another --out\n",
            cmd, path, mode_name(sb.st_mode));
    return 1;
  }
  size_t n = strlen(path) + 300;
  char *sub = malloc(n);
  if (!sub) {
    fprintf(stderr, "sensim %s: out of memory\n", cmd);
    return 1;
  }
  snprintf(sub, n, "%s/%s", path, SENSIM_RUN_FOLDER_MARK);
  struct stat mb;
  if (lstat(sub, &mb) != 0 || !S_ISREG(mb.st_mode)) {
    fprintf(stderr,
            "sensim %s: --force: '%s' is a folder sensim did not make (it has no %s): --force replaces only "
            "regular files and sensim's own output folders. Remove it yourself or choose another --out\n",
            cmd, path, SENSIM_RUN_FOLDER_MARK);
    free(sub);
    return 1;
  }
  DIR *d = opendir(path);
  int rc = d ? 0 : 1;
  if (!d) fprintf(stderr, "sensim %s: --force: cannot read '%s': %s\n", cmd, path, strerror(errno));
  for (struct dirent *e; rc == 0 && d && (e = readdir(d)) != NULL;) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    snprintf(sub, n, "%s/%s", path, e->d_name);
    if (lstat(sub, &sb) != 0 || S_ISREG(sb.st_mode) || S_ISLNK(sb.st_mode)) continue;
    fprintf(stderr,
            "sensim %s: --force: '%s' holds '%s', which is %s that sensim did not write; --force replaces "
            "only regular files and sensim's own output folders. Remove it yourself or choose another --out\n",
            cmd, path, e->d_name, mode_name(sb.st_mode));
    rc = 1;
  }
  if (d) closedir(d);
  free(sub);
  return rc;
}

/* Remove path, a regular file, a link or a folder of them that
 * replaceable() accepted. 0, or -1 with errno set. */
static int remove_output(const char *path) {
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
    rc = unlink(sub);
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
  /* Every sensor's path is checked before any is removed, so a refusal
   * leaves the folder as it was. */
  sensim_world *w = sensim_scenario_world(scn);
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < sensim_world_sensor_count(w); i++) {
      const char *name = sensim_sensor_name(sensim_world_sensor(w, i));
      size_t n = strlen(dir) + strlen(name) + 2;
      char *path = malloc(n);
      if (!path) {
        fprintf(stderr, "sensim %s: out of memory\n", cmd);
        return 1;
      }
      snprintf(path, n, "%s/%s", dir, name);
      int rc = pass == 0 ? replaceable(cmd, path) : remove_output(path);
      if (pass == 1 && rc != 0)
        fprintf(stderr, "sensim %s: --force: cannot remove '%s': %s\n", cmd, path, strerror(errno));
      free(path);
      if (rc != 0) return 1;
    }
  return 0;
}
