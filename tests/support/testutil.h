/* tests/support/testutil.h: what several test binaries share. */
#ifndef SENSIM_TESTS_TESTUTIL_H
#define SENSIM_TESTS_TESTUTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "sensim/sensim.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Fail the test with sensim_last_error() if `expr` is not SENSIM_OK. */
#define SENSIM_OK_OR_FAIL(expr)                                                     \
  do {                                                                              \
    sensim_status st__ = (expr);                                                    \
    if (st__ != SENSIM_OK) fail_msg("%s -> %d: %s", #expr, st__, sensim_last_error()); \
  } while (0)

/* A world with `threads` workers and the given seed; fails the test on error. */
sensim_world *test_world(int threads, uint64_t seed);

/* A world with `threads` workers, a black background and no light but an
 * ambient irradiance (0: nothing lit): a camera then sees each surface's
 * albedo times `ambient` from every angle. */
sensim_world *test_black_world(int threads, float ambient);
/* Body state at rest at pose (x, y, z, yaw). */
sensim_body_state test_state_xyzyaw(double x, double y, double z, double yaw);
/* A mesh description of the arrays, with no uvs or per-triangle
 * reflectances; `m` may be NULL (the default material). */
sensim_mesh_desc test_mesh_desc(const float *v, size_t nv, const uint32_t *ix, size_t nt,
                                const sensim_material *m);
/* sensim_gnss_params_init's receiver (10 satellites, HDOP 0.9, VDOP 1.5). */
const sensim_gnss_params *test_gnss_defaults(void);
/* sensim_imu_params_init's IMU (an inertial world). */
const sensim_imu_params *test_imu_defaults(void);
/* A static body of a primitive shape (default material, 16 segments,
 * class 1) standing at `at`, unrotated. */
sensim_body *test_static_shape(sensim_world *w, sensim_shape_kind kind, sensim_vec3 size, sensim_vec3 at);

/* Absolute-tolerance comparison with a message naming both values. */
#define assert_near(a, b, tol)                                                      \
  do {                                                                              \
    double a__ = (a), b__ = (b), t__ = (tol);                                       \
    if (!(fabs(a__ - b__) <= t__))                                                  \
      fail_msg("%s = %.12g, expected %s = %.12g within %.3g", #a, a__, #b, b__, t__); \
  } while (0)

/* Whether a file (or folder) exists at path. */
int test_file_exists(const char *path);
/* "dir/name" in one of four rotating static buffers (so up to four may be
 * in use at once, as in one call's arguments). */
const char *test_path(const char *dir, const char *name);
/* A whole file, NUL-terminated (free() it); *len gets its size unless len
 * is NULL. test_slurp fails the test when the file cannot be opened,
 * test_slurp_if returns NULL then. */
char *test_slurp(const char *path, size_t *len);
char *test_slurp_if(const char *path, size_t *len);
/* Remove a file, or a folder and everything under it (links not
 * followed); quiet when it does not exist. */
void test_remove_tree(const char *path);
/* Remove dir, make it anew and write `text` into dir/name: a test group's
 * setup around one input file. 0, or -1 on any failure. */
int test_fresh_dir_with_file(const char *dir, const char *name, const char *text);
/* Fail if a writer left a temporary file (".tmp-") in folder dir. */
void test_assert_no_temp_files(const char *dir);

/* Group runners: each tests/<module>/<group>.c defines one, returning the
 * number of failed tests (cmocka_run_group_tests). */
int sensim_test_math(void);
int sensim_test_rng(void);
int sensim_test_pool(void);
int sensim_test_fork(void);
int sensim_test_stash(void);
int sensim_test_capture_ctx(void);
int sensim_test_runtime_registry(void);
int sensim_test_handover(void);
int sensim_test_frame_pool(void);
int sensim_test_geodesy(void);
int sensim_test_payload(void);
int sensim_test_error(void);
int sensim_test_suggest(void);
int sensim_test_keyframes(void);
int sensim_test_world(void);
int sensim_test_mesh_import(void);
int sensim_test_materials(void);
int sensim_test_gltf_materials(void);
int sensim_test_schedule(void);
int sensim_test_rt_instances(void);
int sensim_test_rt(void);
int sensim_test_rt_steps(void);
int sensim_test_rt_alpha(void);
int sensim_test_rt_tiles(void);
int sensim_test_scenario_tiles(void);
int sensim_test_camera(void);
int sensim_test_camera_render(void);
int sensim_test_camera_materials(void);
int sensim_test_optics(void);
int sensim_test_lens_table(void);
int sensim_test_optics_models(void);
int sensim_test_camera_dof(void);
int sensim_test_lidar(void);
int sensim_test_lidar_speed(void);
int sensim_test_lidar_footprint(void);
int sensim_test_lidar_returns(void);
int sensim_test_lidar_noise(void);
int sensim_test_lidar_presets(void);
int sensim_test_lidar_rolling_scan(void);
int sensim_test_lidar_deskew(void);
int sensim_test_lidar_semantic(void);
int sensim_test_weather(void);
int sensim_test_weather_camera(void);
int sensim_test_gnss(void);
int sensim_test_imu(void);
int sensim_test_chain(void);
int sensim_test_standalone_chain(void);
int sensim_test_noise_filters(void);
int sensim_test_isp(void);
int sensim_test_isp_color(void);
int sensim_test_image_noise(void);
int sensim_test_image_sensor(void);
int sensim_test_writers(void);
int sensim_test_payload_golden(void);
int sensim_test_payload_formats(void);
int sensim_test_scenario(void);
int sensim_test_scenario_motion(void);
int sensim_test_scenario_camera(void);
int sensim_test_scenario_lidar(void);
int sensim_test_scenario_weather(void);
int sensim_test_scenario_instances(void);
int sensim_test_scenario_api(void);
int sensim_test_png_read(void);
int sensim_test_ply(void);
int sensim_test_pcd(void);
int sensim_test_lidar_outputs(void);
int sensim_test_texture_png(void);
int sensim_test_doc_examples(void);
int sensim_test_record_files(void);
int sensim_test_record(void);
int sensim_test_disk_full(void);
int sensim_test_record_ros(void);
int sensim_test_record_frames(void);
int sensim_test_record_crash(void);
int sensim_test_noise_calib(void);
int sensim_test_allan(void);
int sensim_test_plot(void);
int sensim_test_colormap(void);
int sensim_test_preview(void);
int sensim_test_contact_sheet(void);
int sensim_test_birdseye(void);
int sensim_test_table(void);
int sensim_test_cli(void);
int sensim_test_pictures_cli(void);
int sensim_test_cli_help(void);
int sensim_test_cli_run_output(void);
int sensim_test_cli_record(void);
int sensim_test_cli_sweep(void);

#endif
