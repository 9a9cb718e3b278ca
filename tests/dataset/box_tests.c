/* tests/dataset/box_tests.c: boxes from the label plane. A hand-made plane
 * gives exact boxes; rendered scenes give boxes that must match the
 * projection of the objects' corners (the bounding box of a convex body's
 * silhouette is the bounding box of its projected vertices) to 1 px, and
 * an occluded object's box must end where its occluder's silhouette
 * begins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dataset/dataset_groups.h"
#include "support/testutil.h"
#include <sensim_tools/sensim_tools.h>

#define TMP SENSIM_TEST_TMP "/boxes"

static void test_label_boxes_of_a_hand_made_plane_are_exact(void **state) {
  (void)state;
  /* 6 x 4 plane: instance 7 (class 1) an L, instance 9 (class 2) two pixels,
   * instance 4 (class 3, not listed) one pixel. */
  enum { W = 6, H = 4 };
  sensim_label p[W * H];
  memset(p, 0, sizeof p);
  int l7[][2] = {{1, 0}, {1, 1}, {1, 2}, {2, 2}, {3, 2}};
  for (size_t i = 0; i < 5; i++) p[l7[i][1] * W + l7[i][0]] = (sensim_label){1, 7};
  p[0 * W + 5] = p[1 * W + 5] = (sensim_label){2, 9};
  p[3 * W + 0] = (sensim_label){3, 4};
  const uint16_t classes[] = {2, 1}; /* YOLO order: class 2 first */
  sensim_label_box *b = NULL;
  size_t n = 0;
  SENSIM_OK_OR_FAIL(sensim_label_boxes(p, W, H, classes, 2, 1, &b, &n));
  assert_int_equal(n, 2);
  /* first appearance, row major: instance 7 at (1,0), then 9 at (5,0) */
  assert_int_equal(b[0].instance_id, 7);
  assert_int_equal(b[0].yolo_class, 1);
  assert_int_equal(b[0].x0, 1);
  assert_int_equal(b[0].x1, 3);
  assert_int_equal(b[0].y0, 0);
  assert_int_equal(b[0].y1, 2);
  assert_int_equal(b[0].pixels, 5);
  assert_int_equal(b[1].instance_id, 9);
  assert_int_equal(b[1].yolo_class, 0);
  assert_int_equal(b[1].pixels, 2);
  char buf[256];
  FILE *fp = fmemopen(buf, sizeof buf, "w");
  assert_non_null(fp);
  SENSIM_OK_OR_FAIL(sensim_label_boxes_write_yolo(fp, b, n, W, H));
  fclose(fp);
  /* instance 7: columns 1..3 -> [1, 4) of 6: cx 2.5/6, w 3/6; rows [0, 3) of 4 */
  assert_string_equal(buf, "1 0.416667 0.375000 0.500000 0.750000\n0 0.916667 0.250000 0.166667 0.500000\n");
  free(b);
  /* the minimum visible-pixel rule drops instance 9 (2 pixels) */
  SENSIM_OK_OR_FAIL(sensim_label_boxes(p, W, H, classes, 2, 3, &b, &n));
  assert_int_equal(n, 1);
  assert_int_equal(b[0].instance_id, 7);
  free(b);
  assert_int_equal(sensim_label_boxes(NULL, W, H, classes, 2, 1, &b, &n), SENSIM_EINVAL);
  assert_int_equal(sensim_label_boxes(p, 0, H, classes, 2, 1, &b, &n), SENSIM_EINVAL);
}

/* The scene: a pinhole camera fixed at (0, 0, 1) looking along +X (its
 * sensor frame is the world's, shifted), a rotated box of class 1 and,
 * optionally, a box of class 2 in front of its right part, on a floor of
 * class 0 (never labelled). */
enum { CW = 160, CH = 120 };
static const double FX = 150, CX = 79.5, CY = 59.5;
static const double B1_SIZE[3] = {1.0, 1.2, 0.8}, B1_POS[3] = {6, 0.7, 1.2}, B1_RPY[3] = {0.2, 0.1, 0.5};
static const double B2_SIZE[3] = {0.4, 0.6, 2.0}, B2_POS[3] = {3.5, -0.05, 1.0}, B2_RPY[3] = {0, 0, 0.3};

static void write_scene(const char *path, int occluder) {
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  fprintf(fp,
          "{\"world\": {\"seed\": 3, \"threads\": 1, \"ambient\": 0.6}, \"duration\": 0.05,\n"
          " \"meshes\": [{\"name\": \"floor\", \"shape\": {\"kind\": \"plane\", \"size\": [40, 40, 0]}},\n"
          "   {\"name\": \"b1\", \"shape\": {\"kind\": \"box\", \"size\": [%g, %g, %g]}},\n"
          "   {\"name\": \"b2\", \"shape\": {\"kind\": \"box\", \"size\": [%g, %g, %g]}}],\n"
          " \"bodies\": [{\"name\": \"floor\", \"mesh\": \"floor\"},\n"
          "   {\"name\": \"one\", \"mesh\": \"b1\", \"class_id\": 1,\n"
          "    \"pose\": {\"position\": [%g, %g, %g], \"rpy\": [%g, %g, %g]}}%s\n",
          B1_SIZE[0], B1_SIZE[1], B1_SIZE[2], B2_SIZE[0], B2_SIZE[1], B2_SIZE[2], B1_POS[0], B1_POS[1], B1_POS[2],
          B1_RPY[0], B1_RPY[1], B1_RPY[2], occluder ? "," : "");
  if (occluder)
    fprintf(fp, "   {\"name\": \"two\", \"mesh\": \"b2\", \"class_id\": 2,\n"
                "    \"pose\": {\"position\": [%g, %g, %g], \"rpy\": [%g, %g, %g]}}\n",
            B2_POS[0], B2_POS[1], B2_POS[2], B2_RPY[0], B2_RPY[1], B2_RPY[2]);
  fprintf(fp,
          " ],\n \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"mount\": {\"position\": [0, 0, 1]},\n"
          "   \"width\": %d, \"height\": %d, \"fx\": %g, \"fy\": %g, \"cx\": %g, \"cy\": %g, \"samples\": 1,\n"
          "   \"filters\": [{\"name\": \"srgb8\"}], \"output\": {\"format\": \"png\"}}]}\n",
          CW, CH, FX, FX, CX, CY);
  fclose(fp);
}

/* Bounding box (pixel-centre coordinates) of a box body's 8 projected corners. */
static void projected_box(const double size[3], const double pos[3], const double rpy[3], double lo[2], double hi[2]) {
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = CW;
  cp.height = CH;
  cp.fx = cp.fy = FX;
  cp.cx = CX;
  cp.cy = CY;
  sensim_quat q = sensim_quat_from_ypr(rpy[2], rpy[1], rpy[0]);
  lo[0] = lo[1] = 1e300;
  hi[0] = hi[1] = -1e300;
  for (int k = 0; k < 8; k++) {
    sensim_vec3 c = {(k & 1 ? 0.5 : -0.5) * size[0], (k & 2 ? 0.5 : -0.5) * size[1], (k & 4 ? 0.5 : -0.5) * size[2]};
    sensim_vec3 r = sensim_quat_rotate(q, c);
    sensim_vec3 p = {r.x + pos[0], r.y + pos[1], r.z + pos[2] - 1.0};
    double u, v;
    SENSIM_OK_OR_FAIL(sensim_camera_project(&cp, p, &u, &v));
    if (u < lo[0]) lo[0] = u;
    if (u > hi[0]) hi[0] = u;
    if (v < lo[1]) lo[1] = v;
    if (v > hi[1]) hi[1] = v;
  }
}

/* The YOLO line of class `cls` in a label file as edges in pixel-centre
 * coordinates (left, top, right, bottom); 0 when absent. */
static int read_box(const char *path, int cls, double e[4]) {
  FILE *fp = fopen(path, "r");
  assert_non_null(fp);
  int c, found = 0;
  double cx, cy, w, h;
  while (fscanf(fp, "%d %lf %lf %lf %lf", &c, &cx, &cy, &w, &h) == 5)
    if (c == cls) {
      e[0] = (cx - w / 2) * CW - 0.5;
      e[2] = (cx + w / 2) * CW - 0.5;
      e[1] = (cy - h / 2) * CH - 0.5;
      e[3] = (cy + h / 2) * CH - 0.5;
      found++;
    }
  fclose(fp);
  return found;
}

static void make_dataset(int occluder, size_t min_pixels) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", TMP);
  assert_int_equal(system(cmd), 0);
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP));
  write_scene(TMP "/scene.json", occluder);
  sensim_dataset_options o;
  sensim_dataset_options_init(&o);
  sensim_ablation base = SENSIM_ABLATE_BASELINE;
  o.variants = &base;
  o.nvariants = 1;
  o.frames = 1;
  o.min_pixels = min_pixels;
  SENSIM_OK_OR_FAIL(sensim_dataset_run(TMP "/scene.json", TMP "/out", &o));
}

static void test_dataset_box_matches_projected_corners_to_1px(void **state) {
  (void)state;
  make_dataset(0, 20);
  double lo[2], hi[2], e[4];
  projected_box(B1_SIZE, B1_POS, B1_RPY, lo, hi);
  assert_int_equal(read_box(TMP "/out/baseline/labels/frame_000000.txt", 0, e), 1);
  /* Pixel edges lie half a pixel outside the outermost pixel centres. */
  assert_near(e[0], lo[0], 1.0);
  assert_near(e[1], lo[1], 1.0);
  assert_near(e[2], hi[0], 1.0);
  assert_near(e[3], hi[1], 1.0);
  char *classes = test_slurp(TMP "/out/classes.txt", NULL);
  assert_string_equal(classes, "b1\n"); /* class ids of the bodies: only 1; the floor's 0 is unlabelled */
  free(classes);
  char *csv = test_slurp(TMP "/out/baseline/content.csv", NULL);
  assert_non_null(strstr(csv, "image,frame,t_capture,x,y,z,roll_deg,pitch_deg,yaw_deg,seed,n_b1\n"
                              "frame_000000.png,0,0,0.000000,0.000000,1.000000,0.0000,0.0000,0.0000,3,1\n"));
  free(csv);
}

static void test_dataset_occluded_box_ends_at_the_occluders_edge(void **state) {
  (void)state;
  make_dataset(1, 20);
  double lo1[2], hi1[2], lo2[2], hi2[2], e1[4], e2[4];
  projected_box(B1_SIZE, B1_POS, B1_RPY, lo1, hi1);
  projected_box(B2_SIZE, B2_POS, B2_RPY, lo2, hi2);
  /* the occluder covers the right part of box 1 but not its left edge */
  assert_true(lo2[0] > lo1[0] + 5 && lo2[0] < hi1[0] - 5 && hi2[0] > hi1[0]);
  assert_int_equal(read_box(TMP "/out/baseline/labels/frame_000000.txt", 0, e1), 1);
  assert_int_equal(read_box(TMP "/out/baseline/labels/frame_000000.txt", 1, e2), 1);
  assert_near(e2[0], lo2[0], 1.0);
  assert_near(e2[2], hi2[0], 1.0);
  assert_near(e1[0], lo1[0], 1.0);
  assert_near(e1[2], lo2[0], 1.0); /* visible part ends where the occluder begins */
}

static void test_dataset_min_pixels_drops_small_objects(void **state) {
  (void)state;
  /* box 1 covers about (hi - lo) pixels squared at most; a floor above that drops it */
  make_dataset(0, (size_t)CW * CH);
  double e[4];
  assert_int_equal(read_box(TMP "/out/baseline/labels/frame_000000.txt", 0, e), 0);
}

int sensim_test_dataset_boxes(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_label_boxes_of_a_hand_made_plane_are_exact),
      cmocka_unit_test(test_dataset_box_matches_projected_corners_to_1px),
      cmocka_unit_test(test_dataset_occluded_box_ends_at_the_occluders_edge),
      cmocka_unit_test(test_dataset_min_pixels_drops_small_objects),
  };
  return cmocka_run_group_tests_name("dataset_boxes", tests, NULL, NULL);
}
