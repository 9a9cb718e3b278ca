/* tests/dataset/run_tests.c: a dataset per ablation variant (the variant
 * list is the ablation table's) and the refusals: a folder that is not
 * empty (its files untouched), an unknown camera, a scenario with nothing
 * to label, a chain that drops the label plane (no variant folder left
 * behind), and the command's bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "dataset/dataset_groups.h"
#include "support/testutil.h"
#include <sensim_tools/sensim_tools.h>

#define TMP SENSIM_TEST_TMP "/run"

static const char kScene[] =
    "{\"world\": {\"seed\": 5, \"threads\": 1, \"ambient\": 0.6}, \"duration\": 0.25,\n"
    " \"meshes\": [{\"name\": \"cone\", \"shape\": {\"kind\": \"cone\", \"size\": [0.3, 0, 0.7]}}],\n"
    " \"lights\": [{\"kind\": \"directional\", \"direction\": [0.3, 0.2, -1], \"intensity\": 2}],\n"
    " \"bodies\": [{\"name\": \"c1\", \"mesh\": \"cone\", \"class_id\": %d, \"pose\": {\"position\": [4, 0.3, 0]}},\n"
    "   {\"name\": \"c2\", \"mesh\": \"cone\", \"class_id\": 2, \"pose\": {\"position\": [5, -0.6, 0]}},\n"
    "   {\"name\": \"rig\", \"motion\": {\"type\": \"line\", \"start\": [0, 0, 0.6], \"velocity\": [0.5, 0, 0]}}],\n"
    " \"sensors\": [{\"name\": \"imu\", \"type\": \"imu\", \"body\": \"rig\"},\n"
    "   {\"name\": \"cam\", \"type\": \"camera\", \"body\": \"rig\", \"width\": 48, \"height\": 32, \"rate\": 10,\n"
    "    \"hfov_deg\": 80, \"lens\": \"brown_conrady\", \"fx\": 30, \"fy\": 30, \"cx\": 23.5, \"cy\": 15.5,\n"
    "    \"dist\": [-0.2, 0.04, 0, 0, 0], \"samples\": 1,\n"
    "    \"filters\": [{\"name\": \"image_sensor\", \"params\": {\"qe\": [0.45, 0.6, 0.4]}}, %s\n"
    "      {\"name\": \"cfa\"}, {\"name\": \"adc\"}, {\"name\": \"demosaic\"}, {\"name\": \"white_balance\"}, {\"name\": \"auto_exposure\"},\n"
    "      {\"name\": \"tone\"}, {\"name\": \"quantize\"}], \"output\": {\"format\": \"png\"}}]}\n";

static void write_scene(const char *path, int class1, const char *extra_filter) {
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  fprintf(fp, kScene, class1, extra_filter);
  fclose(fp);
}

static void fresh(void) {
  assert_int_equal(system("rm -rf '" TMP "'"), 0);
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP));
}

static void test_dataset_writes_every_variant_of_the_ablation_table(void **state) {
  (void)state;
  fresh();
  write_scene(TMP "/scene.json", 1, "{\"name\": \"noise_emva1288\"},");
  sensim_dataset_options o;
  sensim_dataset_options_init(&o);
  o.frames = 2;
  o.min_pixels = 1;
  SENSIM_OK_OR_FAIL(sensim_dataset_run(TMP "/scene.json", TMP "/out", &o));
  /* Every entry of the table, whatever it holds today, is a dataset. */
  for (int a = 0; a < SENSIM_ABLATE_COUNT; a++) {
    char dir[512];
    const char *v = sensim_ablation_name((sensim_ablation)a);
    snprintf(dir, sizeof dir, TMP "/out/%s/images/frame_000001.png", v);
    assert_true(test_file_exists(dir));
    snprintf(dir, sizeof dir, TMP "/out/%s/labels/frame_000001.txt", v);
    assert_true(test_file_exists(dir));
    snprintf(dir, sizeof dir, TMP "/out/%s/content.csv", v);
    char *csv = test_slurp(dir, NULL);
    size_t rows = 0;
    for (const char *c = csv; *c; c++) rows += *c == '\n';
    assert_int_equal(rows, 3); /* header and 2 images */
    free(csv);
  }
  char *classes = test_slurp(TMP "/out/classes.txt", NULL);
  assert_string_equal(classes, "cone\nclass_2\n"); /* a mesh names one class only */
  free(classes);
}

static void test_dataset_refuses_a_folder_that_is_not_empty_and_keeps_its_files(void **state) {
  (void)state;
  fresh();
  write_scene(TMP "/scene.json", 1, "");
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP "/out"));
  FILE *fp = fopen(TMP "/out/mine.txt", "w");
  assert_non_null(fp);
  fputs("keep me\n", fp);
  fclose(fp);
  assert_int_equal(sensim_dataset_run(TMP "/scene.json", TMP "/out", NULL), SENSIM_ESTATE);
  assert_non_null(strstr(sensim_last_error(), TMP "/out is not empty"));
  char *kept = test_slurp(TMP "/out/mine.txt", NULL);
  assert_string_equal(kept, "keep me\n");
  free(kept);
  assert_false(test_file_exists(TMP "/out/baseline"));
  assert_false(test_file_exists(TMP "/out/classes.txt"));
}

static void test_dataset_refuses_unknown_camera_and_nothing_to_label(void **state) {
  (void)state;
  fresh();
  write_scene(TMP "/scene.json", 1, "");
  sensim_dataset_options o;
  sensim_dataset_options_init(&o);
  o.camera = "front";
  assert_int_equal(sensim_dataset_run(TMP "/scene.json", TMP "/out", &o), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "no camera named 'front'"));
  assert_false(test_file_exists(TMP "/out"));
  const uint16_t zero = 0;
  sensim_dataset_options_init(&o);
  o.classes = &zero;
  o.nclasses = 1;
  assert_int_equal(sensim_dataset_run(TMP "/scene.json", TMP "/out", &o), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "class id 0"));
  assert_int_equal(sensim_dataset_run(TMP "/missing.json", TMP "/out", NULL), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "missing.json"));
}

static void test_dataset_refuses_a_chain_without_label_plane_and_leaves_no_variant(void **state) {
  (void)state;
  fresh();
  write_scene(TMP "/scene.json", 1, "{\"name\": \"downsample\"},");
  sensim_dataset_options o;
  sensim_dataset_options_init(&o);
  sensim_ablation v[] = {SENSIM_ABLATE_BASELINE, SENSIM_ABLATE_NOISE};
  o.variants = v;
  o.nvariants = 2;
  assert_int_equal(sensim_dataset_run(TMP "/scene.json", TMP "/out", &o), SENSIM_ETYPE);
  assert_non_null(strstr(sensim_last_error(), "dataset variant baseline"));
  assert_non_null(strstr(sensim_last_error(), "camera 'cam' delivers no label plane"));
  assert_false(test_file_exists(TMP "/out/baseline"));
  assert_false(test_file_exists(TMP "/out/noise_off"));
}

static int run_cli(const char *args) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "'%s' dataset %s >/dev/null 2>" TMP "/err.txt", SENSIM_CLI_PATH, args);
  int rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void test_dataset_command_usage_and_failures(void **state) {
  (void)state;
  fresh();
  write_scene(TMP "/scene.json", 1, "");
  assert_int_equal(run_cli(TMP "/scene.json"), 2); /* no --out */
  assert_int_equal(run_cli(TMP "/scene.json --out " TMP "/o --variants baseline,nosie_off"), 2);
  char *err = test_slurp(TMP "/err.txt", NULL);
  assert_non_null(strstr(err, "did you mean 'noise_off'"));
  free(err);
  assert_int_equal(run_cli(TMP "/scene.json --out " TMP "/o --classes 1,1"), 2);
  assert_int_equal(run_cli(TMP "/scene.json --out " TMP "/o --min-pixels 0"), 2);
  assert_int_equal(run_cli(TMP "/scene.json --out " TMP "/o --frame 3"), 2);
  assert_int_equal(run_cli(TMP "/scene.json --out " TMP "/o --camera imu"), 1);
  err = test_slurp(TMP "/err.txt", NULL);
  assert_non_null(strstr(err, "no camera named 'imu'"));
  free(err);
  assert_int_equal(run_cli(TMP "/scene.json --out " TMP "/o --variants baseline --frames 2 --classes 2"), 0);
  char *labels = test_slurp(TMP "/o/baseline/labels/frame_000001.txt", NULL);
  for (const char *c = labels; *c; c = strchr(c, '\n') + 1) assert_int_equal(c[0], '0'); /* class 2 alone, as 0 */
  free(labels);
}

int sensim_test_dataset_run(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dataset_writes_every_variant_of_the_ablation_table),
      cmocka_unit_test(test_dataset_refuses_a_folder_that_is_not_empty_and_keeps_its_files),
      cmocka_unit_test(test_dataset_refuses_unknown_camera_and_nothing_to_label),
      cmocka_unit_test(test_dataset_refuses_a_chain_without_label_plane_and_leaves_no_variant),
      cmocka_unit_test(test_dataset_command_usage_and_failures),
  };
  return cmocka_run_group_tests_name("dataset_run", tests, NULL, NULL);
}
