/* tests/ablate/ablate_groups.h: the camera-stage ablation test binary's
 * groups (tests/test_ablate.c runs them) and the helpers they share
 * (tests/ablate/ablate_util.c). */
#ifndef SENSIM_TESTS_ABLATE_GROUPS_H
#define SENSIM_TESTS_ABLATE_GROUPS_H

#include <sensim_tools/sensim_tools.h>

int sensim_test_augment_distort(void);
int sensim_test_augment_noise(void);
int sensim_test_augment_mosaic(void);
int sensim_test_augment_color(void);
int sensim_test_image_report(void);
int sensim_test_ablate_scenario(void);
int sensim_test_ablate_view_variants(void);
int sensim_test_ablate_cli(void);
int sensim_test_ablate_summary(void);

#define ABLATE_TMP SENSIM_TEST_TMP

/* A new image with every value 0; fails the test on ENOMEM. */
sensim_image ablate_image(uint32_t w, uint32_t h, int channels);
/* A copy of an image. */
sensim_image ablate_image_copy(const sensim_image *img);
/* Uniform values in [lo, hi) from a sensim_rng stream keyed by seed. */
void ablate_image_fill_random(sensim_image *img, uint64_t seed, float lo, float hi);
/* Remove a file or folder tree (missing is fine). */
void ablate_remove_tree(const char *path);
/* A fresh empty folder. */
void ablate_fresh_dir(const char *path);
/* Write a text file. */
void ablate_write_text(const char *path, const char *text);
/* Sorted *.png names of a folder (without the folder) joined by '\n'. */
char *ablate_png_names(const char *dir);

#endif
