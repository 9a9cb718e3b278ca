/* tests/ablate/ablate_util.c: helpers of the ablation tests. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ablate/ablate_groups.h"
#include "support/testutil.h"

sensim_image ablate_image(uint32_t w, uint32_t h, int channels) {
  sensim_image img = {w, h, channels, calloc((size_t)w * h * (size_t)channels, sizeof(float))};
  assert_non_null(img.data);
  return img;
}

sensim_image ablate_image_copy(const sensim_image *img) {
  sensim_image c = ablate_image(img->width, img->height, img->channels);
  memcpy(c.data, img->data, (size_t)img->width * img->height * (size_t)img->channels * sizeof(float));
  return c;
}

void ablate_image_fill_random(sensim_image *img, uint64_t seed, float lo, float hi) {
  sensim_rng r;
  sensim_rng_init(&r, seed, 77, 0, 0);
  size_t n = (size_t)img->width * img->height * (size_t)img->channels;
  for (size_t i = 0; i < n; i++) img->data[i] = lo + (hi - lo) * (float)sensim_rng_uniform(&r);
}

void ablate_remove_tree(const char *path) {
  DIR *d = opendir(path);
  if (!d) {
    unlink(path);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
    ablate_remove_tree(sub);
  }
  closedir(d);
  rmdir(path);
}

void ablate_fresh_dir(const char *path) {
  ablate_remove_tree(path);
  SENSIM_OK_OR_FAIL(sensim_mkdirs(path));
}

void ablate_write_text(const char *path, const char *text) {
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  fputs(text, fp);
  fclose(fp);
}

char *ablate_png_names(const char *dir) {
  char **paths = NULL;
  size_t n = 0;
  SENSIM_OK_OR_FAIL(sensim_list_pngs(dir, &paths, &n));
  size_t len = 1;
  for (size_t i = 0; i < n; i++) len += strlen(paths[i]) + 1;
  char *s = calloc(len, 1);
  assert_non_null(s);
  for (size_t i = 0; i < n; i++) {
    const char *b = strrchr(paths[i], '/');
    strcat(s, b ? b + 1 : paths[i]);
    strcat(s, "\n");
  }
  sensim_free_paths(paths, n);
  return s;
}
