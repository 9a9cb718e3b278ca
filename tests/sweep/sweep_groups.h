/* tests/sweep/sweep_groups.h: the sweep test binary's groups
 * (tests/test_sweep.c runs them) and the helpers they share
 * (tests/sweep/sweep_util.c). */
#ifndef SENSIM_TESTS_SWEEP_GROUPS_H
#define SENSIM_TESTS_SWEEP_GROUPS_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include <sensim_tools/sweep.h>

int sensim_test_sweep_json_pointer(void);
int sensim_test_sweep_load(void);
int sensim_test_sweep_bad_input(void);
int sensim_test_sweep_exec(void);
int sensim_test_sweep_determinism(void);
int sensim_test_sweep_vepd(void);

#define SWEEP_TMP SENSIM_TEST_TMP

/* A plane, a body driving east at 1 m/s, a GNSS (10 Hz, gnss_noise) and an
 * IMU (100 Hz, imu_noise) on it, csv output, 0.3 s, world seed 1: as a
 * JSON object text to put after "scenario": in a sweep. sensors/0 is the
 * GNSS, sensors/1 the IMU. */
extern const char kSweepScenario[];
/* Frames the tiny scenario delivers in its 0.3 s. */
enum { SWEEP_GNSS_FRAMES = 4, SWEEP_IMU_FRAMES = 31 };

/* printf into a malloc'd text (free() it): sweep texts around
 * kSweepScenario. */
char *sweep_textf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Load a sweep from text (source `source`, base dir NULL); fails the test
 * with sensim_last_error() unless SENSIM_OK. */
sensim_sweep *sweep_load_ok(const char *json, const char *source);
/* Load text that must fail with `want`, the message holding every one of
 * the NULL-terminated `needles`; fails the test otherwise (and if *out is
 * touched). */
void sweep_load_fails(const char *json, sensim_status want, const char *const *needles);
/* Assert that the text holds `needle`, naming both on failure. */
void sweep_assert_contains(const char *text, const char *needle);
/* Write a text file (fails the test on error). */
void sweep_write_text(const char *path, const char *text);
/* A fresh empty folder. */
void sweep_fresh_dir(const char *path);
/* Every regular file under root as "relative/path\n<size>:<bytes>\n",
 * sorted by path (malloc'd): two trees are byte-identical when these are. */
char *sweep_tree(const char *root, size_t *len);
/* Prepare out_dir, execute every run in the order `order` gives (NULL:
 * 0, 1, ...), reduce, and free the records; returns the totals. */
sensim_sweep_totals sweep_run_all(const sensim_sweep *s, const char *out_dir, const size_t *order);
/* A record's parsed JSON (fails the test when it does not parse). */
cJSON *sweep_parse(const char *text);

#endif
