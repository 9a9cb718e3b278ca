/* tools/image_files.c: the image files the augmentation and statistics
 * commands read and write (sensim_tools/image_files.h): a folder's PNG
 * files in name order, and a float image written as an 8- or 16-bit PNG
 * through sensim's writer (sensim_write_png). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "tools/tools_internal.h"

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void sensim_free_paths(char **paths, size_t count) {
  if (!paths) return;
  for (size_t i = 0; i < count; i++) free(paths[i]);
  free(paths);
}

sensim_status sensim_list_pngs(const char *dir, char ***paths, size_t *count) {
  if (!dir || !paths || !count) return sensim_error_set(SENSIM_EINVAL, "sensim_list_pngs: NULL argument");
  *paths = NULL;
  *count = 0;
  DIR *d = opendir(dir);
  if (!d) {
    int e = errno;
    return sensim_error_set(e == ENOENT || e == ENOTDIR ? SENSIM_ENOTFOUND : SENSIM_EIO, "folder '%s': %s", dir,
                        strerror(e));
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  sensim_status st = SENSIM_OK;
  struct dirent *e;
  while (st == SENSIM_OK && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len <= 4 || strcasecmp(e->d_name + len - 4, ".png") != 0) continue;
    if ((st = sensim_tools__grow((void **)&names, &cap, n + 1, sizeof *names)) != SENSIM_OK) break;
    if (!(names[n] = sensim_tools__strdup(e->d_name))) {
      st = SENSIM_ENOMEM;
      break;
    }
    n++;
  }
  closedir(d);
  /* Sorted by the name alone, then made into paths. */
  if (st == SENSIM_OK && n) qsort(names, n, sizeof *names, cmp_names);
  for (size_t i = 0; st == SENSIM_OK && i < n; i++) {
    char *full = malloc(strlen(dir) + strlen(names[i]) + 2);
    if (!full) {
      st = sensim_error_set(SENSIM_ENOMEM, "folder '%s': out of memory", dir);
      break;
    }
    sprintf(full, "%s/%s", dir, names[i]);
    free(names[i]);
    names[i] = full;
  }
  if (st != SENSIM_OK) {
    sensim_free_paths(names, n);
    return st;
  }
  *paths = names;
  *count = n;
  return SENSIM_OK;
}

/* Round half up after clamping to [0, 1]; NaN reads 0 (the "quantize"
 * filter's rule, docs/camera_pipeline.md). */
static unsigned quant(float v, double full) {
  double x = v;
  if (!(x > 0)) return 0;
  if (x > 1) x = 1;
  return (unsigned)floor(x * full + 0.5);
}

sensim_status sensim_image_write_png(const char *path, const sensim_image *img, int bits) {
  if (!path || !img || !img->data) return sensim_error_set(SENSIM_EINVAL, "sensim_image_write_png: NULL argument");
  if (bits != 8 && bits != 16) return sensim_error_set(SENSIM_EINVAL, "PNG '%s': bits %d must be 8 or 16", path, bits);
  if (img->channels != 1 && img->channels != 3)
    return sensim_error_set(SENSIM_EINVAL, "PNG '%s': %d channels (1 or 3)", path, img->channels);
  if (img->width == 0 || img->height == 0)
    return sensim_error_set(SENSIM_EINVAL, "PNG '%s': empty %u x %u image", path, img->width, img->height);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  sensim_payload type = img->channels == 1 ? (bits == 8 ? SENSIM_PAYLOAD_GRAY8 : SENSIM_PAYLOAD_GRAY16)
                                           : (bits == 8 ? SENSIM_PAYLOAD_RGBA8 : SENSIM_PAYLOAD_RGB16);
  sensim_status st = sensim_frame_alloc(&f, type, img->width, img->height);
  if (st) return st;
  size_t n = (size_t)img->width * img->height;
  const float *v = img->data;
  double full = bits == 8 ? 255.0 : 65535.0;
  if (type == SENSIM_PAYLOAD_GRAY8) {
    uint8_t *o = f.data;
    for (size_t i = 0; i < n; i++) o[i] = (uint8_t)quant(v[i], full);
  } else if (type == SENSIM_PAYLOAD_GRAY16) {
    uint16_t *o = f.data;
    for (size_t i = 0; i < n; i++) o[i] = (uint16_t)quant(v[i], full);
  } else if (type == SENSIM_PAYLOAD_RGBA8) {
    /* io's 8-bit colour payload carries alpha: written opaque. */
    uint8_t *o = f.data;
    for (size_t i = 0; i < n; i++) {
      for (int c = 0; c < 3; c++) o[4 * i + c] = (uint8_t)quant(v[3 * i + c], full);
      o[4 * i + 3] = 255;
    }
  } else {
    uint16_t *o = f.data;
    for (size_t i = 0; i < 3 * n; i++) o[i] = (uint16_t)quant(v[i], full);
  }
  st = sensim_write_png(path, &f);
  sensim_frame_release(&f);
  return st;
}
