/* fuzz/fuzz.h: the fuzzing entry points, shared by the libFuzzer targets
 * (built with -DSENSIM_BUILD_FUZZ=ON) and the corpus replay in the test
 * suite (tests/fuzz/), so a crash the fuzzer finds is a test case as soon
 * as its input is in tests/data/fuzz/. docs/fuzzing.md says how to run
 * them. */
#ifndef SENSIM_FUZZ_FUZZ_H
#define SENSIM_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include "sensim/status.h"

/* sensim_mesh_load on `data`: its first byte picks the file's extension
 * ('o' .obj, 'p' .ply, 's' .stl, 'g' .gltf, 'b' .glb; any other byte
 * those five by its value mod 5), the rest is the file, written to a
 * scratch folder and loaded into a fresh world. Returns the load's
 * status; aborts if the load broke its contract (a status other than OK,
 * SENSIM_EPARSE or SENSIM_ENOMEM for a file that exists, a world changed
 * by a failed load, a message without the file's name, a mesh with
 * indices out of range or coordinates not finite). */
sensim_status sensim_fuzz_mesh(const uint8_t *data, size_t size);

/* sensim_scenario_load_string_ex on `data` as text (cut at its first NUL),
 * with relative paths resolved in SENSIM_FUZZ_BASE_DIR and no worker
 * threads; the scenario is destroyed again, nothing runs or is written.
 * Returns the load's status; aborts if the load broke its contract (a
 * status outside sensim_status, a scenario on failure or none on success,
 * a failure without a message). */
sensim_status sensim_fuzz_scenario(const uint8_t *data, size_t size);

/* sensim_gnss_create in the satellites mode (ionosphere off) with `data`
 * as its navigation file, written to a scratch folder, in a fresh world;
 * if the receiver is made, one capture at t = 0. Returns the create's
 * status; aborts if it broke its contract (a status other than OK,
 * SENSIM_EPARSE, SENSIM_EINVAL or SENSIM_ENOMEM, a sensor made by a failed
 * create, a message without the file's name, unsound records from an
 * accepted file, a capture that fails or delivers no fix). */
sensim_status sensim_fuzz_nav(const uint8_t *data, size_t size);

/* Report a broken contract and abort, which libFuzzer records as a crash
 * and the replay test as a failed test. */
void sensim_fuzz_violation(const char *what, const uint8_t *data, size_t size);

#endif
