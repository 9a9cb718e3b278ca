/* The bad-input matrix, part 3: scenario texts a new user might write:
 * malformed JSON, values out of their domain, runs with no bound (issue
 * 14's {"duration": 1e17, "step": 1e16}), geometry and motions beyond the
 * coordinate limit, and a run whose sensor would deliver nothing. Each
 * must fail at load (or at the start of the run) with nothing left
 * allocated; the fixture's world, untouched, must still work. */
#include <stddef.h>
#include "robust/robust_groups.h"
#include "support/testutil.h"

static sensim_status load(robust_fx *fx, const robust_case *c) {
  (void)fx;
  sensim_scenario *scn = (sensim_scenario *)1;
  sensim_status st = sensim_scenario_load_string(c->ptr, NULL, &scn);
  if (st == SENSIM_OK) {
    sensim_scenario_destroy(scn);
  } else if (scn != NULL) {
    return sensim_error_set(SENSIM_EBACKEND, "a failed load left *out = %p", (void *)scn);
  }
  return st;
}

/* Load (which must succeed), then run without output. */
static sensim_status load_and_run(robust_fx *fx, const robust_case *c) {
  (void)fx;
  sensim_scenario *scn = NULL;
  sensim_status st = sensim_scenario_load_string(c->ptr, NULL, &scn);
  if (st != SENSIM_OK) return sensim_error_set(SENSIM_EBACKEND, "load failed: %s", sensim_last_error());
  sensim_run_summary sum;
  st = sensim_scenario_run(scn, NULL, NULL, NULL, &sum);
  sensim_scenario_destroy(scn);
  return st;
}

static sensim_status body_get_out_of_range(robust_fx *fx, const robust_case *c) {
  (void)fx, (void)c;
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string("{\"duration\": 1}", NULL, &scn));
  sensim_scenario_body_info info;
  sensim_status st = sensim_scenario_body_get(scn, 0, &info);
  sensim_scenario_destroy(scn);
  return st;
}

static sensim_status step_back(robust_fx *fx, const robust_case *c) {
  (void)fx;
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string("{\"duration\": 1}", NULL, &scn));
  SENSIM_OK_OR_FAIL(sensim_scenario_step_to(scn, 0.5));
  sensim_status st = sensim_scenario_step_to(scn, c->value);
  sensim_scenario_destroy(scn);
  return st;
}

static sensim_status run_after_step(robust_fx *fx, const robust_case *c) {
  (void)fx, (void)c;
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string("{\"duration\": 1}", NULL, &scn));
  SENSIM_OK_OR_FAIL(sensim_scenario_step_to(scn, 0.5));
  sensim_status st = sensim_scenario_run(scn, NULL, NULL, NULL, NULL);
  sensim_scenario_destroy(scn);
  return st;
}

static sensim_status scenario_nulls(robust_fx *fx, const robust_case *c) {
  (void)fx;
  sensim_scenario *scn = NULL;
  switch ((int)c->value) {
    case 0: return sensim_scenario_load_string(NULL, NULL, &scn);
    case 1: return sensim_scenario_load_string("{\"duration\": 1}", NULL, NULL);
    case 2: return sensim_scenario_load(NULL, &scn);
    case 3: return sensim_scenario_load("/nonexistent/robust.json", &scn);
    case 4: return sensim_scenario_run(NULL, NULL, NULL, NULL, NULL);
    case 5: return sensim_scenario_step_to(NULL, 0);
    default: return sensim_scenario_body_get(NULL, 0, NULL);
  }
}

/* A GNSS receiver with the given keys; EPH names the shipped ephemeris. */
#define GSAT(keys) "\"sensors\": [{\"name\": \"g\", \"type\": \"gnss\", " keys "}]"
#define EPH "\"ephemeris\": \"" SENSIM_TEST_DATA "/gnss/brdc1820.10_0000_gps.rnx\""
#define S(text, code, sub) {"scenario " text, load, code, sub, 0, 0, 0, 0, 0, text}
#define RUN(text, code, sub) {"run " text, load_and_run, code, sub, 0, 0, 0, 0, 0, text}
#define CALLV(fn, v, code, sub) {#fn "(" #v ")", fn, code, sub, 0, 0, 0, 0, (double)(v), NULL}
#define EINV SENSIM_EINVAL
#define EPARSE SENSIM_EPARSE

/* A body "car" on a line and an IMU on it, for the motion and sensor rows. */
#define IMU_ON(extra) "\"sensors\": [{\"name\": \"imu\", \"type\": \"imu\", \"body\": \"car\"" extra "}]"
#define CAR(motion) "\"bodies\": [{\"name\": \"car\", \"motion\": " motion "}]"

const robust_case robust_scenario_cases[] = {
    S("", EPARSE, "scenario"),
    S("{", EPARSE, "scenario:1"),
    S("[]", EPARSE, "object"),
    S("{}", EPARSE, "duration"),
    S("{\"duration\": 1} trailing", EPARSE, "scenario"),
    S("{\"duration\": 1, /* never closed", EPARSE, "comment"),
    S("{\"duration\": \"1 s\"}", EPARSE, "duration"),
    S("{\"duration\": 1, \"duration\": 2}", EPARSE, "duration"),
    S("{\"duration\": 1, \"durration\": 2}", EPARSE, "durration"),
    S("{\"duration\": -1}", EINV, "duration"),
    S("{\"duration\": 0}", EINV, "duration"),
    S("{\"duration\": 1e999}", EINV, "duration"),
    S("{\"duration\": 1, \"step\": 0}", EINV, "step"),
    S("{\"duration\": 1, \"step\": -0.001}", EINV, "step"),
    /* Issue 14's run that ran until killed. */
    S("{\"duration\": 1e17, \"step\": 1e16}", EINV, "SENSIM_TIME_MAX"),
    S("{\"duration\": 4294967297}", EINV, "SENSIM_TIME_MAX"),
    S("{\"duration\": 1e9, \"step\": 1}", EINV, "SENSIM_SCENARIO_MAX_STEPS"),
    S("{\"duration\": 200000, \"step\": 0.001}", EINV, "SENSIM_SCENARIO_MAX_STEPS"),
    S("{\"duration\": 1, \"step\": 1e-9}", EINV, "SENSIM_SCENARIO_MAX_STEPS"),
    S("{\"duration\": 1e5, \"step\": 10, " CAR("{\"type\": \"line\", \"velocity\": [0, 0, 0]}") ", "
      IMU_ON(", \"rate\": 1e4") "}", EINV, "SENSIM_SCENARIO_MAX_FRAMES"),
    S("{\"duration\": 1e6, \"step\": 100, \"sensors\": [{\"name\": \"g\", \"type\": \"gnss\", \"rate\": 1000}]}", EINV,
      "SENSIM_SCENARIO_MAX_FRAMES"),
    /* The GNSS satellites mode's keys (docs/gnss.md). */
    S("{\"duration\": 1, " GSAT("\"mode\": \"satelite\"") "}", EINV, "satellites"),
    S("{\"duration\": 1, " GSAT("\"mode\": \"satellites\", " EPH ", \"hdop\": 1") "}", EINV, "hdop"),
    S("{\"duration\": 1, " GSAT(EPH) "}", EINV, "ephemeris"),
    S("{\"duration\": 1, " GSAT("\"mode\": \"satellites\", \"ephemeris\": \"/nonexistent/nav.rnx\"") "}",
      SENSIM_ENOTFOUND, "nav.rnx"),
    S("{\"duration\": 1, " GSAT("\"mode\": \"satellites\", " EPH ", \"utc_start\": \"2010-07-01\"") "}", EINV,
      "utc_start"),
    S("{\"duration\": 1, " GSAT("\"mode\": \"satellites\", " EPH ", \"utc_start\": \"2020-07-01T00:00:00Z\"") "}",
      EINV, "valid"),
    S("{\"duration\": 1, " GSAT("\"mode\": \"satellites\", " EPH ", \"elevation_mask_deg\": 95") "}", EINV,
      "elevation_mask_deg"),
    S("{\"duration\": 1, " GSAT("\"mode\": \"satellites\", " EPH ", \"window\": 0.05") "}", EINV, "window"),
    S("{\"duration\": 1, " GSAT("\"mode\": \"satellites\", " EPH ", \"humidity\": \"wet\"") "}", EPARSE,
      "humidity"),
    S("{\"duration\": 1, \"world\": {\"threads\": -1}}", EINV, "threads"),
    S("{\"duration\": 1, \"world\": {\"origin\": [91, 0, 0]}}", EINV, "origin"),
    S("{\"duration\": 1, \"world\": {\"gravity\": 1e3}}", EINV, "gravity"),
    S("{\"duration\": 1, \"world\": {\"origin\": [0, 0, 1e9]}}", EINV, "origin_height"),
    S("{\"duration\": 1, \"world\": {\"seed\": -1}}", EINV, "seed"),

    S("{\"duration\": 1, \"meshes\": [{\"name\": \"b\", \"shape\": {\"kind\": \"box\", \"size\": [1e8, 1, 1]}}]}", EINV,
      "SENSIM_COORD_MAX"),
    S("{\"duration\": 1, \"meshes\": [{\"name\": \"b\", \"shape\": {\"kind\": \"blob\", \"size\": [1, 1, 1]}}]}", EINV,
      "blob"),
    S("{\"duration\": 1, \"meshes\": [{\"name\": \"b\", \"shape\": {\"kind\": \"box\", \"size\": [0, 1, 1]}}]}", EINV,
      "size"),
    S("{\"duration\": 1, \"meshes\": [{\"name\": \"b\", \"file\": \"missing.obj\"}]}", SENSIM_ENOTFOUND, "missing.obj"),
    S("{\"duration\": 1, \"meshes\": [{\"name\": \"b\"}]}", EPARSE, "shape"),
    S("{\"duration\": 1, \"lights\": [{\"kind\": \"point\", \"position\": [0, 0, 1e18]}]}", EINV,
      "SENSIM_COORD_MAX"),
    S("{\"duration\": 1, \"lights\": [{\"kind\": \"directional\", \"direction\": [0, 0, 0]}]}", EINV, "direction"),
    S("{\"duration\": 1, \"lights\": [{\"kind\": \"laser\"}]}", EINV, "laser"),
    S("{\"duration\": 1, \"bodies\": [{\"name\": \"b\", \"pose\": {\"position\": [1e18, 0, 0]}}]}", EINV,
      "SENSIM_COORD_MAX"),
    S("{\"duration\": 1, \"bodies\": [{\"name\": \"b\", \"pose\": {\"quaternion\": [0, 0, 0, 0]}}]}", EINV,
      "quaternion"),
    S("{\"duration\": 1, \"bodies\": [{\"name\": \"b\", \"mesh\": \"nothing\"}]}", SENSIM_ENOTFOUND, "nothing"),
    S("{\"duration\": 1, \"bodies\": [{\"name\": \"b/c\"}]}", EINV, "name"),
    /* Scripted motions beyond the coordinate limit, at load rather than
     * half-way through the run. */
    S("{\"duration\": 1, " CAR("{\"type\": \"line\", \"velocity\": [1e17, 0, 0]}") "}", EINV, "SENSIM_COORD_MAX"),
    S("{\"duration\": 1000, " CAR("{\"type\": \"line\", \"velocity\": [0, 2e4, 0]}") "}", EINV, "velocity"),
    S("{\"duration\": 1, " CAR("{\"type\": \"line\", \"start\": [0, 0, 1e18], \"velocity\": [0, 0, 0]}") "}", EINV,
      "SENSIM_COORD_MAX"),
    S("{\"duration\": 1, " CAR("{\"type\": \"circle\", \"radius\": 1e18, \"speed\": 1}") "}", EINV,
      "SENSIM_COORD_MAX"),
    S("{\"duration\": 1, " CAR("{\"type\": \"circle\", \"center\": [2e7, 0, 0], \"radius\": 1, \"speed\": 1}") "}",
      EINV, "SENSIM_COORD_MAX"),
    S("{\"duration\": 1, " CAR("{\"type\": \"circle\", \"radius\": 1, \"speed\": 1e5}") "}", EINV, "acceleration"),
    S("{\"duration\": 1, " CAR("{\"type\": \"circle\", \"radius\": 1e-300, \"speed\": 1}") "}", EINV, "speed"),
    S("{\"duration\": 1, " CAR("{\"type\": \"circle\", \"radius\": -1, \"speed\": 1}") "}", EINV, "radius"),
    S("{\"duration\": 1, " CAR("{\"type\": \"stadium\", \"length\": 1e8, \"radius\": 1, \"speed\": 1}") "}", EINV,
      "SENSIM_COORD_MAX"),
    S("{\"duration\": 1, " CAR("{\"type\": \"stadium\", \"length\": 10, \"radius\": 1, \"speed\": -1}") "}", EINV,
      "speed"),
    S("{\"duration\": 1, " CAR("{\"type\": \"waypoints\", \"points\": [[0, 0, 0, 0, 0], [1, 1e19, 0, 0, 0]]}") "}",
      EINV, "points[1]"),
    S("{\"duration\": 1, " CAR("{\"type\": \"waypoints\", \"points\": [[0, 0, 0, 0, 0], [0, 1, 0, 0, 0]]}") "}", EINV,
      "after the previous"),
    S("{\"duration\": 1, " CAR("{\"type\": \"waypoints\", \"points\": [[0, 0, 0, 0]]}") "}", EPARSE, "points"),
    S("{\"duration\": 1, " CAR("{\"type\": \"teleport\"}") "}", EINV, "teleport"),
    S("{\"duration\": 1, \"bodies\": [{\"name\": \"car\", \"pose\": {\"position\": [0, 0, 1.6777e7]}, "
      "\"motion\": {\"type\": \"circle\", \"radius\": 1000, \"speed\": 1}}]}",
      EINV, "SENSIM_COORD_MAX"),

    S("{\"duration\": 1, " CAR("{\"type\": \"line\", \"velocity\": [1, 0, 0]}") ", " IMU_ON(", \"rate\": 0") "}", EINV,
      "rate"),
    S("{\"duration\": 1, " CAR("{\"type\": \"line\", \"velocity\": [1, 0, 0]}") ", " IMU_ON(", \"rate\": 5e-324") "}",
      EINV, "rate"),
    S("{\"duration\": 1, " CAR("{\"type\": \"line\", \"velocity\": [1, 0, 0]}") ", " IMU_ON(", \"phase\": -1") "}", EINV,
      "phase"),
    S("{\"duration\": 1, " CAR("{\"type\": \"line\", \"velocity\": [1, 0, 0]}") ", " IMU_ON(", \"lag\": 1e4") "}", EINV,
      "SENSIM_SENSOR_MAX_WAITING"),
    S("{\"duration\": 1, " CAR("{\"type\": \"line\", \"velocity\": [1, 0, 0]}") ", " IMU_ON(", \"window\": 5") "}", EINV,
      "window"),
    S("{\"duration\": 1, " CAR("{\"type\": \"line\", \"velocity\": [1, 0, 0]}") ", "
      IMU_ON(", \"mount\": {\"position\": [1e18, 0, 0]}") "}", EINV, "SENSIM_COORD_MAX"),
    S("{\"duration\": 1, " IMU_ON("") "}", SENSIM_ENOTFOUND, "car"),
    S("{\"duration\": 1, \"sensors\": [{\"name\": \"x\", \"type\": \"sonar\"}]}", EINV, "sonar"),
    S("{\"duration\": 1, \"sensors\": [{\"name\": \"c\", \"type\": \"camera\", \"width\": 0}]}", EINV, "width"),
    S("{\"duration\": 1, \"sensors\": [{\"name\": \"c\", \"type\": \"camera\", \"filters\": [{\"name\": \"points\"}]}]}",
      SENSIM_ETYPE, "points"),
    S("{\"duration\": 1, \"sensors\": [{\"name\": \"c\", \"type\": \"camera\", \"filters\": [{\"name\": \"nope\"}]}]}",
      SENSIM_ENOTFOUND, "nope"),
    /* The random walk's published pull-back (issue 28): out of range, or
     * given with the linear one on the same axis. */
    S("{\"duration\": 1, \"sensors\": [{\"name\": \"g\", \"type\": \"gnss\", \"filters\": [{\"name\": "
      "\"gnss_random_walk\", \"params\": {\"pullback_ratio\": -1}}]}]}",
      EINV, "pullback_ratio"),
    S("{\"duration\": 1, \"sensors\": [{\"name\": \"g\", \"type\": \"gnss\", \"filters\": [{\"name\": "
      "\"gnss_random_walk\", \"params\": {\"pullback_ratio\": 0.05, \"pullback\": 1}}]}]}",
      EINV, "pullback"),
    S("{\"duration\": 1, \"sensors\": [{\"name\": \"c\", \"type\": \"camera\", \"output\": {\"format\": \"pcd\"}}]}",
      SENSIM_ETYPE, "pcd"),
    S("{\"duration\": 1, \"sensors\": [{\"name\": \"l\", \"type\": \"lidar\", \"channels\": 300}]}", EINV, "channels"),
    S("{\"duration\": 1, \"sensors\": [{\"name\": \"l\", \"type\": \"lidar\", \"preset\": \"VLP-17\"}]}",
      SENSIM_ENOTFOUND, "VLP-17"),
    S("{\"duration\": 1, \"sensors\": [{\"name\": \"a\", \"type\": \"imu\"}, {\"name\": \"a\", \"type\": \"imu\"}]}",
      EINV, "already"),

    /* Light transport (issue 26): the path integrator, the environment and
     * the material keys it reads. */
    S("{\"duration\": 1, \"sensors\": [{\"name\": \"c\", \"type\": \"camera\", \"integrator\": \"pth\"}]}", EINV,
      "integrator"),
    S("{\"duration\": 1, \"sensors\": [{\"name\": \"c\", \"type\": \"camera\", \"max_bounces\": 9}]}", EINV,
      "max_bounces"),
    S("{\"duration\": 1, \"sensors\": [{\"name\": \"c\", \"type\": \"camera\", \"integrator\": \"path\", "
      "\"max_bounces\": 65}]}",
      EINV, "max_bounces"),
    S("{\"duration\": 1, \"world\": {\"environment\": {\"type\": \"skye\"}}}", EINV, "world.environment.type"),
    S("{\"duration\": 1, \"world\": {\"environment\": {\"type\": \"uniform\"}}}", EPARSE, "radiance"),
    S("{\"duration\": 1, \"world\": {\"environment\": {\"type\": \"uniform\", \"radiance\": [1, -1, 1]}}}", EINV,
      "radiance[1]"),
    S("{\"duration\": 1, \"world\": {\"environment\": {\"type\": \"none\", \"radiance\": [1, 1, 1]}}}", EPARSE,
      "radiance"),
    S("{\"duration\": 1, \"world\": {\"environment\": 3}}", EPARSE, "world.environment"),
    S("{\"duration\": 1, \"meshes\": [{\"name\": \"m\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]}, "
      "\"material\": {\"ior\": 0}}]}",
      EINV, "ior"),
    S("{\"duration\": 1, \"meshes\": [{\"name\": \"m\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]}, "
      "\"material\": {\"emission\": [1, -2, 0]}}]}",
      EINV, "emission[1]"),
    S("{\"duration\": 1, \"meshes\": [{\"name\": \"m\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]}, "
      "\"material\": {\"transmission\": 2}}]}",
      EINV, "transmission"),
    S("{\"duration\": 1, \"meshes\": [{\"name\": \"m\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]}, "
      "\"material\": {\"specular\": -1}}]}",
      EINV, "specular"),

    S("{\"duration\": 1, \"lights\": [{\"kind\": \"rect\", \"edge_u\": [1, 0, 0]}]}", EINV, "edge_u and edge_v"),
    S("{\"duration\": 1, \"lights\": [{\"kind\": \"rect\", \"edge_u\": [1, 0, 0], \"edge_v\": [2, 0, 0]}]}", EINV,
      "lights[0]"),
    S("{\"duration\": 1, \"lights\": [{\"kind\": \"disc\", \"direction\": [0, 0, -1]}]}", EINV, "radius"),
    S("{\"duration\": 1, \"lights\": [{\"kind\": \"point\", \"radius\": -1}]}", EINV, "radius"),
    S("{\"duration\": 1, \"lights\": [{\"kind\": \"point\", \"angular_diameter_deg\": 0.5}]}", EINV,
      "angular_diameter_deg"),
    S("{\"duration\": 1, \"lights\": [{\"kind\": \"directional\", \"angular_diameter_deg\": 40}]}", EINV,
      "angular_diameter_deg"),
    S("{\"duration\": 1, \"lights\": [{\"kind\": \"spot\", \"edge_u\": [1, 0, 0]}]}", EINV, "edge_u"),
    S("{\"duration\": 1, \"lights\": [{\"kind\": \"rectangle\"}]}", EINV, "rect"),

    /* The first frame due after the last step: refused before the run. */
    RUN("{\"duration\": 1, \"sensors\": [{\"name\": \"late\", \"type\": \"imu\", \"lag\": 2}]}", EINV,
        "would deliver none"),
    RUN("{\"duration\": 1, \"sensors\": [{\"name\": \"late\", \"type\": \"gnss\", \"phase\": 1.5}]}", EINV,
        "would deliver none"),
    CALLV(body_get_out_of_range, 0, EINV, "body 0 of 0"),
    CALLV(step_back, 0.25, SENSIM_ESTATE, "before"),
    CALLV(step_back, NAN, EINV, "not finite"),
    CALLV(step_back, 4294967297.0, EINV, "SENSIM_TIME_MAX"),
    CALLV(run_after_step, 0, SENSIM_ESTATE, "runs once"),
    CALLV(scenario_nulls, 0, EINV, "NULL"),
    CALLV(scenario_nulls, 1, EINV, "NULL"),
    CALLV(scenario_nulls, 2, EINV, "NULL"),
    CALLV(scenario_nulls, 3, SENSIM_ENOTFOUND, "robust.json"),
    CALLV(scenario_nulls, 4, EINV, "NULL"),
    CALLV(scenario_nulls, 5, EINV, "NULL"),
    CALLV(scenario_nulls, 6, EINV, "NULL"),
};
const size_t robust_scenario_case_count = sizeof robust_scenario_cases / sizeof robust_scenario_cases[0];
