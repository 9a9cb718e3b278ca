/* tests/robust/robust_groups.h: issue 14, "no input crashes sensim": the
 * bad-input matrix over the public API, the limits' derivations and the
 * clean-up of temporary files. The matrix's fixture and runner live in
 * robust_fixture.c; its tables in matrix_*.c. */
#ifndef SENSIM_TESTS_ROBUST_GROUPS_H
#define SENSIM_TESTS_ROBUST_GROUPS_H

#include <stddef.h>
#include "sensim/sensim.h"

int sensim_test_robust_matrix(void);
int sensim_test_robust_limits(void);
int sensim_test_robust_scenario_limits(void);
int sensim_test_robust_temp_files(void);

/* A small world every case disturbs: a box wall 3 m ahead of a car (a
 * dynamic body) carrying a 16 x 12 camera at 10 Hz and an IMU at 100 Hz,
 * and a spare dynamic body nothing rides. The car's state at t = 0 is
 * pushed; `advanced` worlds are also advanced to t = 0 (frame 0 of each
 * sensor taken). */
typedef struct robust_fx {
  sensim_world *world;
  sensim_mesh *box;
  sensim_body *wall, *car, *spare;
  sensim_sensor *cam, *imu;
  int advanced;
} robust_fx;

void robust_fx_build(robust_fx *fx, int advanced);
void robust_fx_free(robust_fx *fx);

/* One bad call. `call` makes it on the fixture (for table-driven cases
 * `c` carries the case's own data) and returns its status. The runner
 * asserts the status is `expect`, that sensim_last_error() is non-empty
 * and holds `substr`, and that the world still works: no sensor or body
 * was added, and stepping to t = 0.1 s gives camera and IMU frames
 * bit-identical to those of an undisturbed fixture. */
typedef struct robust_case robust_case;
struct robust_case {
  const char *name;
  sensim_status (*call)(robust_fx *fx, const robust_case *c);
  sensim_status expect;
  const char *substr;
  int advanced;         /* build the fixture advanced to t = 0 */
  /* data for table-driven calls */
  int target;           /* what the call mutates (matrix_params.c) */
  size_t off;           /* offset of the field mutated */
  int ftype;            /* its type */
  double value;         /* the value written */
  const void *ptr;      /* other data (a JSON text, a frame) */
};

/* Run the cases; returns the number that failed, printing each failure. */
int robust_run_cases(const robust_case *cases, size_t n);

/* The tables (matrix_*.c) and their sizes. */
extern const robust_case robust_param_cases[];
extern const size_t robust_param_case_count;
extern const robust_case robust_call_cases[];
extern const size_t robust_call_case_count;
extern const robust_case robust_scenario_cases[];
extern const size_t robust_scenario_case_count;
extern const robust_case robust_io_cases[];
extern const size_t robust_io_case_count;

#endif
