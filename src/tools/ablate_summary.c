/* tools/ablate_summary.c: what `sensim ablate` prints after rendering
 * (sensim_tools/ablate.h, docs/ablation.md): per variant, the distance of
 * its images to the baseline's that sensim computes without a detector,
 * beside what the camera component study says of the same component
 * (tools/published.c), then the study's own block.
 *
 * The distance: for every camera folder of DIR/baseline, the first
 * Wasserstein distance between the pixel values of all its frames and
 * those of the same camera in DIR/<variant> (sensim_image_set_w1: 64
 * histogram bins over [0, 1], the PNG code values as stored), averaged
 * over the channels and then over the cameras. 0 for identical frames; the
 * shift when every value moves by the same amount (to the bins' 1/64). It
 * sees global changes (colour, brightness, what is in view) and hardly
 * local ones (noise, demosaicing artefacts at edges move few values far). */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tools/tools_internal.h"

#define SUMMARY_BINS 64

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sub-folders of `dir` (not starting with '.'), sorted; SENSIM_ENOTFOUND
 * when `dir` cannot be opened. */
static sensim_status list_subdirs(const char *dir, char ***names, size_t *count) {
  DIR *d = opendir(dir);
  if (!d) return sensim_error_set(SENSIM_ENOTFOUND, "ablation summary: no folder '%s'", dir);
  char **v = NULL;
  size_t n = 0, cap = 0;
  sensim_status st = SENSIM_OK;
  struct dirent *e;
  while (st == SENSIM_OK && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    struct stat sb;
    int len = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (len < 0 || (size_t)len >= sizeof path || stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) continue;
    st = sensim_tools__grow((void **)&v, &cap, n + 1, sizeof *v);
    if (st == SENSIM_OK && !(v[n] = sensim_tools__strdup(e->d_name))) st = SENSIM_ENOMEM;
    if (st == SENSIM_OK) n++;
  }
  closedir(d);
  if (st != SENSIM_OK) {
    sensim_free_paths(v, n);
    return st;
  }
  if (n) qsort(v, n, sizeof *v, cmp_names);
  *names = v;
  *count = n;
  return SENSIM_OK;
}

/* The baseline's cameras and their statistics. */
typedef struct baseline_set {
  char **cameras;
  size_t ncameras;
  sensim_image_set_stats *stats;
} baseline_set;

static void baseline_free(baseline_set *b) {
  sensim_free_paths(b->cameras, b->ncameras);
  free(b->stats);
  *b = (baseline_set){0};
}

static sensim_status baseline_load(const char *out_dir, baseline_set *b) {
  *b = (baseline_set){0};
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/%s", out_dir, sensim_ablation_name(SENSIM_ABLATE_BASELINE));
  sensim_status st = list_subdirs(dir, &b->cameras, &b->ncameras);
  if (st != SENSIM_OK) return st;
  if (b->ncameras == 0) st = sensim_error_set(SENSIM_EINVAL, "ablation summary: '%s' holds no camera folder", dir);
  if (st == SENSIM_OK && !(b->stats = malloc(b->ncameras * sizeof *b->stats)))
    st = sensim_error_set(SENSIM_ENOMEM, "ablation summary: out of memory");
  for (size_t i = 0; st == SENSIM_OK && i < b->ncameras; i++) {
    char cam[4200];
    snprintf(cam, sizeof cam, "%s/%s", dir, b->cameras[i]);
    st = sensim_image_set_stats_dir(cam, SUMMARY_BINS, &b->stats[i]);
  }
  if (st != SENSIM_OK) baseline_free(b);
  return st;
}

/* Mean over cameras of the channel-mean W1 of variant `a` to the baseline. */
static sensim_status distance_to(const char *out_dir, const baseline_set *b, sensim_ablation a, double *w1) {
  const char *name = sensim_ablation_name(a);
  if (!name) return sensim_error_set(SENSIM_EINVAL, "ablation summary: %d is not a variant", (int)a);
  sensim_image_set_stats s;
  double sum = 0;
  for (size_t i = 0; i < b->ncameras; i++) {
    char cam[4200];
    snprintf(cam, sizeof cam, "%s/%s/%s", out_dir, name, b->cameras[i]);
    sensim_status st = sensim_image_set_stats_dir(cam, SUMMARY_BINS, &s);
    if (st != SENSIM_OK) {
      sensim_error_prefix("ablation summary: variant %s", name);
      return st;
    }
    int nc = b->stats[i].channels == 3 || s.channels == 3 ? 3 : 1;
    double w = 0;
    for (int c = 0; c < nc; c++) w += sensim_image_set_w1(&b->stats[i], &s, c) / nc;
    sum += w / (double)b->ncameras;
  }
  *w1 = sum;
  return SENSIM_OK;
}

sensim_status sensim_ablate_distance(const char *out_dir, sensim_ablation a, double *w1) {
  if (!out_dir || !w1) return sensim_error_set(SENSIM_EINVAL, "sensim_ablate_distance: NULL argument");
  baseline_set b;
  sensim_status st = baseline_load(out_dir, &b);
  if (st != SENSIM_OK) return st;
  st = distance_to(out_dir, &b, a, w1);
  baseline_free(&b);
  return st;
}

sensim_status sensim_ablate_summary(FILE *out, const char *out_dir, const sensim_ablation *variants, size_t n) {
  if (!out || !out_dir || (!variants && n))
    return sensim_error_set(SENSIM_EINVAL, "sensim_ablate_summary: NULL argument");
  if (!variants) n = SENSIM_ABLATE_COUNT;
  int has_baseline = 0;
  for (size_t i = 0; i < n; i++) {
    sensim_ablation a = variants ? variants[i] : (sensim_ablation)i;
    if (!sensim_ablation_name(a)) return sensim_error_set(SENSIM_EINVAL, "ablation summary: %d is not a variant", (int)a);
    has_baseline |= a == SENSIM_ABLATE_BASELINE;
  }
  baseline_set b = {0};
  sensim_status st = has_baseline ? baseline_load(out_dir, &b) : SENSIM_OK;
  if (st != SENSIM_OK) return st;
  const sensim_published *paper = sensim_published_camera_components();
  fprintf(out, "summary: each variant's W1 to the baseline (pixel values, mean over channels and cameras)\n"
               "beside the camera component study's component and what its abstract says of it\n");
  if (!has_baseline) fprintf(out, "(the baseline was not rendered in this run: no W1; add baseline to --variants)\n");
  fprintf(out, "%-17s %9s  %s\n", "variant", "W1", "the study");
  for (size_t i = 0; st == SENSIM_OK && i < n; i++) {
    sensim_ablation a = variants ? variants[i] : (sensim_ablation)i;
    const char *name = sensim_ablation_name(a);
    char w[32] = "-";
    double d = 0;
    if (has_baseline && (st = distance_to(out_dir, &b, a, &d)) == SENSIM_OK) snprintf(w, sizeof w, "%.5f", d);
    const sensim_published_variant *pv = sensim_published_variant_of(paper, name);
    if (st == SENSIM_OK)
      fprintf(out, "%-17s %9s  %s: %s\n", name, w, pv ? pv->paper : "not in the study",
              pv && pv->finding ? pv->finding : "its own result not read");
  }
  baseline_free(&b);
  if (st != SENSIM_OK) return st;
  st = sensim_published_print(out, paper, NULL);
  if (st == SENSIM_OK)
    fprintf(out, "sensim's detector-based numbers: `sensim dataset SCENARIO --out D`, then "
                 "`sensim judge train D` and `sensim judge test D` (docs/judge.md)\n");
  if (st == SENSIM_OK && ferror(out)) st = sensim_error_set(SENSIM_EIO, "ablation summary: writing failed");
  return st;
}
