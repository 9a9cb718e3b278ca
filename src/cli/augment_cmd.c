/* cli/augment_cmd.c: `sensim augment`, camera stages applied to a folder of
 * images (sensim_tools/augment.h, docs/ablation.md). Exit codes as main.c:
 * 0 success, 1 failure, 2 bad usage. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

enum { EXIT_FAILED = 1 };

static const char usage_text[] =
    "usage: sensim augment IN_DIR OUT_DIR --stages S,S,... [options]\n"
    "  apply camera stages, in the order given, to every *.png of IN_DIR and\n"
    "  write each result under the same name in OUT_DIR. Stages:\n"
    "    distort     lens distortion by remapping (needs --lens); the input is\n"
    "                taken as a pinhole image with the lens's intrinsics\n"
    "    noise       x + sqrt(s1^2 x + s2^2) n, n ~ N(0, 1) (--s1, --sigma)\n"
    "    mosaic      Bayer colour filter array, then demosaicing (--pattern,\n"
    "                --demosaic)\n"
    "    wb          white balance: gray-world gains of the --calib set\n"
    "    brightness  per-channel mean and std matched to the --calib set\n"
    "options:\n"
    "  --calib DIR       calibration images (*.png) for wb and brightness\n"
    "  --lens JSON       lens as a scenario camera's keys, inline or a file:\n"
    "                    '{\"lens\": \"brown_conrady\", \"fx\": 300, \"fy\": 300,\n"
    "                      \"cx\": 159.5, \"cy\": 119.5, \"dist\": [-0.2, 0.05]}'\n"
    "  --fill V          value of pixels the lens sees outside the input [0]\n"
    "  --sigma S         noise s2, value units [0.01]\n"
    "  --s1 S            noise s1, sqrt(value units) [0]\n"
    "  --seed N          noise seed [1]; image k (in name order) uses stream k\n"
    "  --pattern P       RGGB, BGGR, GRBG or GBRG [RGGB]\n"
    "  --demosaic M      bilinear or mhc [mhc]\n"
    "  --per-image       brightness: match each image alone (default: one map\n"
    "                    for the whole input set, from its statistics)\n"
    "  --bits B          output PNG depth, 8 or 16 [8]\n"
    "example:\n"
    "  sensim augment clean/ out/aug --stages noise,mosaic,wb --sigma 0.02 --calib real/\n"
    "exit status: 0 success, 1 failure, 2 bad usage\n";

typedef enum stage { ST_DISTORT, ST_NOISE, ST_MOSAIC, ST_WB, ST_BRIGHTNESS, ST_COUNT } stage;
static const char *const kStages[ST_COUNT + 1] = {"distort", "noise", "mosaic", "wb", "brightness", NULL};

typedef struct aug {
  stage stages[ST_COUNT];
  size_t nstages;
  const char *calib, *lens_json, *pattern, *method;
  char *lens_text; /* the lens JSON, read once */
  double fill, s1, s2;
  unsigned long long seed;
  int per_image, bits;
  /* derived */
  sensim_distort_map *map;
  uint32_t map_w, map_h;
  double cal_mean[3], cal_std[3];  /* per channel, calibration set */
  double cal_ymean, cal_ystd;      /* Rec. 709 luminance, for grey inputs */
  double wb_gains[3];
  double set_mean[3], set_std[3];  /* input set before the brightness stage */
} aug;

static int usage(const char *what, const char *arg) { return sensim__cli_usage("augment", what, arg); }

static int fail(const char *what) {
  fprintf(stderr, "sensim augment: %s: %s\n", what, sensim_last_error());
  return EXIT_FAILED;
}

static int parse_double(const char *s, double lo, double *v) {
  char *end = NULL;
  errno = 0;
  double x = strtod(s, &end);
  if (errno || end == s || *end || !isfinite(x) || x < lo) return -1;
  *v = x;
  return 0;
}

static int parse_stages(const char *s, aug *a) {
  char buf[256];
  if (strlen(s) >= sizeof buf) return -1;
  strcpy(buf, s);
  a->nstages = 0;
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    int k = -1;
    for (int i = 0; i < ST_COUNT; i++)
      if (strcmp(tok, kStages[i]) == 0) k = i;
    const char *near = k < 0 ? sensim_suggest(tok, kStages) : NULL;
    if (near) fprintf(stderr, "sensim augment: unknown stage '%s'; did you mean '%s'?\n", tok, near);
    if (k < 0) return -1;
    for (size_t i = 0; i < a->nstages; i++)
      if (a->stages[i] == (stage)k) return -1;
    a->stages[a->nstages++] = (stage)k;
  }
  return a->nstages ? 0 : -1;
}

static int has_stage(const aug *a, stage s) {
  for (size_t i = 0; i < a->nstages; i++)
    if (a->stages[i] == s) return 1;
  return 0;
}

/* The --lens value: inline JSON when it starts with '{', else a file (up
 * to 64 kB); NULL with a message on failure. */
static char *lens_text(const char *arg) {
  const char *p = arg;
  while (*p == ' ' || *p == '\t' || *p == '\n') p++;
  if (*p == '{') return strdup(arg);
  FILE *fp = fopen(arg, "rb");
  if (!fp) {
    fprintf(stderr, "sensim augment: --lens '%s': %s\n", arg, strerror(errno));
    return NULL;
  }
  char *buf = malloc(1 << 16);
  size_t n = buf ? fread(buf, 1, (1 << 16) - 1, fp) : 0;
  fclose(fp);
  if (buf) buf[n] = '\0';
  return buf;
}

static sensim_status distort(aug *a, sensim_image *img) {
  if (!a->map || a->map_w != img->width || a->map_h != img->height) {
    sensim_distort_map_destroy(a->map);
    a->map = NULL;
    sensim_camera_params cp;
    sensim_status st = sensim_lens_params_from_json(a->lens_text, img->width, img->height, &cp);
    if (!st) st = sensim_distort_map_create(&cp, &a->map);
    if (st) return st;
    a->map_w = img->width;
    a->map_h = img->height;
  }
  return sensim_distort_apply(a->map, img, (float)a->fill, img);
}

static sensim_status brightness(const aug *a, sensim_image *img) {
  double mean[3], std[3];
  if (a->per_image) {
    sensim_status st = sensim_image_moments(img, mean, std);
    if (st) return st;
  } else {
    memcpy(mean, a->set_mean, sizeof mean);
    memcpy(std, a->set_std, sizeof std);
  }
  if (img->channels == 1) {
    double rm = a->cal_ymean, rs = a->cal_ystd;
    return sensim_augment_match_stats(img, mean, std, &rm, &rs);
  }
  return sensim_augment_match_stats(img, mean, std, a->cal_mean, a->cal_std);
}

/* The first `upto` stages on image number `index`. */
static sensim_status apply(aug *a, sensim_image *img, size_t index, size_t upto) {
  sensim_status st = SENSIM_OK;
  for (size_t i = 0; st == SENSIM_OK && i < upto; i++) {
    switch (a->stages[i]) {
      case ST_DISTORT: st = distort(a, img); break;
      case ST_NOISE: st = sensim_augment_noise(img, a->s1, a->s2, a->seed, (uint32_t)index); break;
      case ST_MOSAIC: st = sensim_augment_mosaic(img, a->pattern, a->method); break;
      case ST_WB: st = sensim_augment_gains(img, a->wb_gains); break;
      default: st = brightness(a, img); break;
    }
  }
  return st;
}

static sensim_status calibrate(aug *a) {
  char **paths = NULL;
  size_t n = 0;
  sensim_status st = sensim_list_pngs(a->calib, &paths, &n);
  if (st) return st;
  static const double y709[3] = {0.2126, 0.7152, 0.0722};
  if (n == 0) {
    sensim_free_paths(paths, n);
    fprintf(stderr, "sensim augment: calibration folder '%s' holds no PNG file\n", a->calib);
    return SENSIM_EINVAL;
  }
  st = sensim_image_stats_pngs((const char *const *)paths, n, a->cal_mean, a->cal_std);
  if (!st) st = sensim_image_stats_pngs_weighted((const char *const *)paths, n, y709, &a->cal_ymean, &a->cal_ystd);
  sensim_free_paths(paths, n);
  if (!st && has_stage(a, ST_WB)) st = sensim_gray_world_gains(a->cal_mean, a->wb_gains);
  return st;
}

/* Statistics of the input set after the stages before "brightness". */
static sensim_status set_statistics(aug *a, char **paths, size_t n) {
  size_t upto = 0;
  while (a->stages[upto] != ST_BRIGHTNESS) upto++;
  double cnt = 0, mean[3] = {0, 0, 0}, m2[3] = {0, 0, 0};
  int channels = 0;
  for (size_t k = 0; k < n; k++) {
    sensim_image img;
    sensim_status st = sensim_read_png(paths[k], &img);
    if (!st) st = apply(a, &img, k, upto);
    double m[3], s[3];
    if (!st) st = sensim_image_moments(&img, m, s);
    if (!st && channels && img.channels != channels) {
      fprintf(stderr, "sensim augment: %s: %d channel(s) where the first image has %d (use --per-image)\n", paths[k],
              img.channels, channels);
      st = SENSIM_EINVAL;
    }
    if (st) {
      sensim_image_free(&img);
      return st;
    }
    channels = img.channels;
    /* Chan, Golub & LeVeque (1983) pairwise merge of the image's moments. */
    double nb = (double)img.width * img.height, nt = cnt + nb;
    for (int c = 0; c < channels; c++) {
      double d = m[c] - mean[c];
      mean[c] += d * nb / nt;
      m2[c] += s[c] * s[c] * nb + d * d * cnt * nb / nt;
    }
    cnt = nt;
    sensim_image_free(&img);
  }
  for (int c = 0; c < 3; c++) {
    a->set_mean[c] = mean[c];
    a->set_std[c] = cnt > 0 ? sqrt(m2[c] / cnt) : 0;
  }
  return SENSIM_OK;
}

static int run(aug *a, const char *in_dir, const char *out_dir) {
  char **paths = NULL;
  size_t n = 0;
  if (sensim_list_pngs(in_dir, &paths, &n) != SENSIM_OK) return fail(in_dir);
  if (n == 0) {
    fprintf(stderr, "sensim augment: input folder '%s' holds no PNG file\n", in_dir);
    sensim_free_paths(paths, n);
    return EXIT_FAILED;
  }
  int rc = 0;
  if ((has_stage(a, ST_WB) || has_stage(a, ST_BRIGHTNESS)) && calibrate(a) != SENSIM_OK) rc = fail(a->calib);
  if (!rc && has_stage(a, ST_BRIGHTNESS) && !a->per_image && set_statistics(a, paths, n) != SENSIM_OK)
    rc = fail(in_dir);
  if (!rc && sensim_mkdirs(out_dir) != SENSIM_OK) rc = fail(out_dir);
  for (size_t k = 0; !rc && k < n; k++) {
    sensim_image img = {0, 0, 0, NULL};
    const char *base = strrchr(paths[k], '/');
    base = base ? base + 1 : paths[k];
    char *dst = malloc(strlen(out_dir) + strlen(base) + 2);
    sensim_status st = dst ? sensim_read_png(paths[k], &img) : SENSIM_ENOMEM;
    if (!st) st = apply(a, &img, k, a->nstages);
    if (!st) {
      sprintf(dst, "%s/%s", out_dir, base);
      st = sensim_image_write_png(dst, &img, a->bits);
    }
    if (st) rc = fail(paths[k]);
    sensim_image_free(&img);
    free(dst);
  }
  if (!rc) printf("augmented %zu images from %s into %s\n", n, in_dir, out_dir);
  sensim_free_paths(paths, n);
  return rc;
}

int sensim__cli_augment(int argc, char **argv) {
  aug a;
  memset(&a, 0, sizeof a);
  a.s2 = 0.01;
  a.seed = 1;
  a.bits = 8;
  const char *in_dir = NULL, *out_dir = NULL;
  int have_stages = 0;
  for (int i = 2; i < argc; i++) {
    const char *o = argv[i];
    if (sensim__cli_is_help(o)) {
      fputs(usage_text, stdout);
      return 0;
    }
    if (strcmp(o, "--per-image") == 0) {
      a.per_image = 1;
      continue;
    }
    static const char *const with_value[] = {"--stages", "--calib", "--lens", "--fill", "--sigma", "--s1",
                                             "--seed",   "--pattern", "--demosaic", "--bits", NULL};
    int known = 0;
    for (const char *const *w = with_value; *w; w++) known |= strcmp(o, *w) == 0;
    if (known) {
      if (i + 1 >= argc) return usage("option needs a value:", o);
      const char *v = argv[++i];
      double d;
      if (strcmp(o, "--stages") == 0) {
        if (parse_stages(v, &a)) return usage("--stages: unknown or repeated stage in", v);
        have_stages = 1;
      } else if (strcmp(o, "--calib") == 0) {
        a.calib = v;
      } else if (strcmp(o, "--lens") == 0) {
        a.lens_json = v;
      } else if (strcmp(o, "--pattern") == 0) {
        a.pattern = v;
      } else if (strcmp(o, "--demosaic") == 0) {
        a.method = v;
      } else if (strcmp(o, "--fill") == 0) {
        if (parse_double(v, -INFINITY, &a.fill)) return usage("--fill: expected a finite number, got", v);
      } else if (strcmp(o, "--sigma") == 0) {
        if (parse_double(v, 0, &a.s2)) return usage("--sigma: expected a finite number >= 0, got", v);
      } else if (strcmp(o, "--s1") == 0) {
        if (parse_double(v, 0, &a.s1)) return usage("--s1: expected a finite number >= 0, got", v);
      } else if (strcmp(o, "--seed") == 0) {
        if (parse_double(v, 0, &d) || d != floor(d) || d > 9007199254740992.0)
          return usage("--seed: expected an integer in 0..2^53, got", v);
        a.seed = (unsigned long long)d;
      } else {
        if (strcmp(v, "8") == 0)
          a.bits = 8;
        else if (strcmp(v, "16") == 0)
          a.bits = 16;
        else
          return usage("--bits: expected 8 or 16, got", v);
      }
    } else if (o[0] == '-' && o[1] != '\0') {
      static const char *const all[] = {"--stages", "--calib", "--lens", "--fill", "--sigma",
                                        "--s1", "--seed", "--pattern", "--demosaic", "--bits",
                                        "--per-image", "--help", NULL};
      return sensim__cli_unknown_option("augment", o, all);
    } else if (!in_dir) {
      in_dir = o;
    } else if (!out_dir) {
      out_dir = o;
    } else {
      return usage("unexpected argument", o);
    }
  }
  if (!in_dir || !out_dir) return usage("needs IN_DIR and OUT_DIR", NULL);
  if (!have_stages) return usage("--stages is required (distort, noise, mosaic, wb, brightness)", NULL);
  if ((has_stage(&a, ST_WB) || has_stage(&a, ST_BRIGHTNESS)) && !a.calib)
    return usage("stages wb and brightness need --calib DIR", NULL);
  if (has_stage(&a, ST_DISTORT) && !a.lens_json) return usage("stage distort needs --lens JSON", NULL);
  if (strcmp(in_dir, out_dir) == 0) return usage("OUT_DIR must differ from IN_DIR:", out_dir);
  if (a.lens_json && !(a.lens_text = lens_text(a.lens_json))) return EXIT_FAILED;
  int rc = run(&a, in_dir, out_dir);
  sensim_distort_map_destroy(a.map);
  free(a.lens_text);
  return rc;
}
