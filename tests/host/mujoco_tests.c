/* Cross-checks against MuJoCo's own sensors on the same sites, through a
 * 6 s drive of the rover in examples/mujoco/rover.xml (1 kHz-class
 * dynamics: 2 ms steps). Built with MuJoCo only (cmake/mujoco.cmake);
 * without it the group reports itself skipped. */
#include "host/host_groups.h"
#include "support/testutil.h"

#ifndef SENSIM_HAVE_MUJOCO
int sensim_test_host_mujoco(void) {
  print_message("host_mujoco: MuJoCo not found at configure time, cross-checks skipped\n");
  return 0;
}
#else
#include <stdlib.h>
#include <string.h>
#include "mujoco_bridge.h"

#define NRF 4
static const char *const rf_names[NRF] = {"rf_down", "rf_fwd", "rf_left", "rf_right"};

typedef struct step_rec {
  double t;
  double acc[3], gyro[3]; /* MuJoCo accelerometer and gyro, site frame */
  double rf[NRF];         /* MuJoCo rangefinders, m (-1: nothing) */
  int rf_geom_type[NRF];  /* type of the geom hit (mj_ray), -1 none */
  double rf_cos[NRF];     /* 1 for flat geoms; -|cos(incidence)| on curved ones */
} step_rec;

typedef struct mj_fixture {
  mjModel *m;
  mjData *d;
  sensim_world *w;
  mjb_bridge br;
  sensim_sensor *imu, *beam[NRF];
} mj_fixture;

static void fixture_open(mj_fixture *fx) {
  memset(fx, 0, sizeof *fx);
  char err[512] = "";
  fx->m = mj_loadXML(SENSIM_MUJOCO_MODEL, NULL, err, sizeof err);
  if (!fx->m) fail_msg("mj_loadXML(%s): %s", SENSIM_MUJOCO_MODEL, err);
  fx->d = mj_makeData(fx->m);
  mj_forward(fx->m, fx->d);
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 2;
  wp.gravity = -fx->m->opt.gravity[2];
  SENSIM_OK_OR_FAIL(sensim_world_create(&wp, &fx->w));
  SENSIM_OK_OR_FAIL(mjb_create(fx->m, fx->d, fx->w, &fx->br));
  int chassis = mj_name2id(fx->m, mjOBJ_BODY, "chassis");
  assert_true(chassis > 0);

  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "imu";
  sp.body = fx->br.frame[chassis];
  sp.mount = mjb_site_mount(fx->m, mj_name2id(fx->m, mjOBJ_SITE, "imu"));
  sp.rate = 100;
  sp.window = 0; /* an instantaneous sample, as MuJoCo's sensors are */
  SENSIM_OK_OR_FAIL(sensim_imu_create(fx->w, &sp, test_imu_defaults(), &fx->imu));

  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 1;
  lp.elev_min = lp.elev_max = 0.0;
  lp.columns = 1;
  lp.hfov = 1e-3;
  lp.start_azimuth = 0.0;
  lp.min_range = 1e-3;
  lp.max_range = 100.0;
  lp.detection_range = 1e4; /* every hit is a return, as for the rangefinder */
  /* The beam runs along the sensor's +X; a rangefinder along its site's
   * +Z: turn the mount by -90 deg about Y, which takes +X to +Z. */
  sensim_quat x_to_z = sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, -M_PI / 2);
  for (int i = 0; i < NRF; i++) {
    sensim_sensor_params_init(&sp);
    sp.name = rf_names[i];
    sp.body = fx->br.frame[chassis];
    sensim_pose site = mjb_site_mount(fx->m, mj_name2id(fx->m, mjOBJ_SITE, rf_names[i]));
    sensim_pose turn = {{0, 0, 0}, x_to_z};
    sp.mount = sensim_pose_compose(site, turn);
    sp.rate = 50;
    sp.window = 0;
    SENSIM_OK_OR_FAIL(sensim_lidar_create(fx->w, &sp, &lp, &fx->beam[i]));
  }
}

static void fixture_close(mj_fixture *fx) {
  sensim_world_destroy(fx->w);
  mjb_free(&fx->br);
  mj_deleteData(fx->d);
  mj_deleteModel(fx->m);
}

static void record_step(const mj_fixture *fx, double t, step_rec *r) {
  const mjModel *m = fx->m;
  const mjData *d = fx->d;
  r->t = t;
  int acc = mj_name2id(m, mjOBJ_SENSOR, "acc"), gyro = mj_name2id(m, mjOBJ_SENSOR, "gyro");
  for (int k = 0; k < 3; k++) {
    r->acc[k] = d->sensordata[m->sensor_adr[acc] + k];
    r->gyro[k] = d->sensordata[m->sensor_adr[gyro] + k];
  }
  for (int i = 0; i < NRF; i++) {
    int sid = mj_name2id(m, mjOBJ_SENSOR, rf_names[i]);
    r->rf[i] = d->sensordata[m->sensor_adr[sid]];
    /* Which geom the rangefinder saw, by the same ray query it makes. */
    int site = m->sensor_objid[sid];
    const mjtNum *p = d->site_xpos + 3 * site, *R = d->site_xmat + 9 * site;
    mjtNum dir[3] = {R[2], R[5], R[8]};
    int gid = -1;
    mjtNum x = mj_ray(m, d, p, dir, NULL, 1, m->site_bodyid[site], &gid);
    r->rf_geom_type[i] = x >= 0 && gid >= 0 ? m->geom_type[gid] : -1;
    r->rf_cos[i] = 1.0;
    int type = r->rf_geom_type[i];
    if (type == mjGEOM_SPHERE || type == mjGEOM_CAPSULE || type == mjGEOM_CYLINDER || type == mjGEOM_ELLIPSOID) {
      /* Surface normal at the hit, in the geom's frame, from the shape's
       * implicit equation; |cos| of the angle between it and the ray. */
      const mjtNum *c = d->geom_xpos + 3 * gid, *G = d->geom_xmat + 9 * gid, *sz = m->geom_size + 3 * gid;
      mjtNum hit[3], q[3], n[3];
      for (int k = 0; k < 3; k++) hit[k] = p[k] + x * dir[k] - c[k];
      mju_mulMatTVec(q, G, hit, 3, 3);
      if (type == mjGEOM_ELLIPSOID) {
        for (int k = 0; k < 3; k++) n[k] = q[k] / (sz[k] * sz[k]);
      } else if (type == mjGEOM_SPHERE) {
        mju_copy3(n, q);
      } else {
        double h = sz[1], zc = q[2] > h ? h : q[2] < -h ? -h : q[2];
        n[0] = q[0], n[1] = q[1], n[2] = q[2] - zc; /* capsule: from the axis segment */
        if (type == mjGEOM_CYLINDER && fabs(q[2]) > h - 1e-9 && q[0] * q[0] + q[1] * q[1] < sz[0] * sz[0] * 0.999)
          n[0] = n[1] = 0, n[2] = q[2]; /* a flat cap */
      }
      mjtNum dl[3];
      mju_mulMatTVec(dl, G, dir, 3, 3);
      r->rf_cos[i] = -fabs(mju_dot3(n, dl) / (mju_norm3(n) * mju_norm3(dl))); /* < 0 marks curved */
    }
  }
}

/* Drive for `steps` steps; every sensim frame is compared with the MuJoCo
 * record of the step at its capture time. */
static void test_host_mujoco_imu_and_beams_match_mujoco_sensors(void **state) {
  (void)state;
  mj_fixture fx;
  fixture_open(&fx);
  const int steps = 3000; /* 6 s */
  const double dt = fx.m->opt.timestep;
  step_rec *rec = calloc((size_t)steps, sizeof *rec);
  assert_non_null(rec);
  int nimu = 0, nbeam = 0, nhit = 0, ncurved = 0, ngrazing = 0;
  double max_da = 0, max_dg = 0, max_dr = 0, max_a = 0;
  for (int i = 0; i < steps; i++) {
    double t = fx.d->time;
    mjb_rover_control(fx.m, fx.d);
    mj_step(fx.m, fx.d);
    /* After mj_step the kinematics and sensor values are those of time t
     * (mujoco_bridge.h). */
    record_step(&fx, t, &rec[i]);
    SENSIM_OK_OR_FAIL(mjb_push(&fx.br, fx.d, t));
    SENSIM_OK_OR_FAIL(sensim_world_advance(fx.w, t));
    const sensim_frame *f;
    while (sensim_sensor_poll(fx.imu, &f) == SENSIM_OK && f) {
      long j = lround(f->t_capture / dt);
      assert_true(j >= 0 && j <= i);
      assert_near(rec[j].t, f->t_capture, 1e-9);
      const sensim_imu_sample *s = f->data;
      for (int k = 0; k < 3; k++) {
        max_da = fmax(max_da, fabs(s->accel[k] - rec[j].acc[k]));
        max_dg = fmax(max_dg, fabs(s->gyro[k] - rec[j].gyro[k]));
        max_a = fmax(max_a, fabs(rec[j].acc[k]));
      }
      nimu++;
    }
    for (int b = 0; b < NRF; b++)
      while (sensim_sensor_poll(fx.beam[b], &f) == SENSIM_OK && f) {
        long j = lround(f->t_capture / dt);
        assert_true(j >= 0 && j <= i);
        const sensim_beam *beam = f->data;
        double mj = rec[j].rf[b], ss = beam[0].range > 0 ? beam[0].range : -1.0;
        nbeam++;
        if (rec[j].rf_cos[b] < 0.0) {
          /* Curved geoms are tessellated in sensim, 48 facets around and
           * pi / 24 rad per latitude band: a triangle of one such quad
           * lies up to r (1 - cos(sqrt(2) pi / 48)) = 4.3e-3 r inside the
           * surface (its centre is half a diagonal from the corners), r <=
           * 0.6 m here, which moves a hit along a beam meeting the surface
           * at angle theta to its normal by that over cos(theta). Beams
           * within 15 deg of grazing (cos < 0.25) are not compared. */
          double cosi = -rec[j].rf_cos[b];
          if (cosi < 0.25) {
            ngrazing++;
            continue;
          }
          ncurved++;
          double tol = 4.3e-3 * 0.6 / cosi + 1e-4;
          if (!(ss > 0 && fabs(ss - mj) <= tol))
            fail_msg("beam %s at t = %.3f: sensim %.6f m, MuJoCo %.6f m (curved geom type %d, cos %.3f)", rf_names[b],
                     f->t_capture, ss, mj, rec[j].rf_geom_type[b], cosi);
          continue;
        }
        if (mj < 0) {
          if (ss > 0) fail_msg("beam %s at t = %.3f: sensim hit at %.6f m, MuJoCo nothing", rf_names[b], f->t_capture, ss);
          continue;
        }
        nhit++;
        /* Planes, boxes and meshes are exact in both; sensim traces in
         * single precision (Embree), relative error ~ 1e-6 of the range
         * plus the float vertex positions (~1e-6 m at 40 m). */
        double d = fabs(ss - mj);
        max_dr = fmax(max_dr, d);
        if (!(d <= 1e-4 + 1e-5 * mj))
          fail_msg("beam %s at t = %.3f: sensim %.6f m, MuJoCo %.6f m", rf_names[b], f->t_capture, ss, mj);
      }
  }
  print_message("mujoco cross-check: %d IMU samples, max |d accel| %.3g m/s^2 (max |accel| %.3g), max |d gyro| %.3g rad/s; "
                "%d beams, %d hits on flat geoms, max |d range| %.3g m, %d on curved geoms, %d grazing ones skipped\n",
                nimu, max_da, max_a, max_dg, nbeam, nhit, max_dr, ncurved, ngrazing);
  /* Both compute a_p = a + alpha x r + omega x (omega x r) - g from the same
   * rigid-body state in double precision. What separates them: the capture
   * time k / 100 and MuJoCo's d->time (a sum of 2 ms steps, off by up to
   * ~1e-13 s after 3000 additions) differ, so sensim interpolates between
   * neighbouring keyframes with a weight up to ~1e-10, times the change of
   * a reading over one step (up to ~100 m/s^2 and ~1 rad/s at the wheel
   * impacts here): 1e-8 m/s^2 and 1e-10 rad/s. Bounds: 1e-9 of the largest
   * acceleration seen (0.14 um/s^2 at 139 m/s^2) and 1e-9 rad/s. Leaving
   * out the omega x v term of the bridge (file comment of mujoco_bridge.c)
   * or gravity's sign would miss by > 0.1 m/s^2. */
  assert_true(nimu == 600);
  assert_true(max_da <= 1e-9 * fmax(1.0, max_a));
  assert_true(max_dg <= 1e-9);
  assert_true(nbeam == 4 * 300);
  assert_true(nhit > 600);
  free(rec);
  fixture_close(&fx);
}

int sensim_test_host_mujoco(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_host_mujoco_imu_and_beams_match_mujoco_sensors),
  };
  return cmocka_run_group_tests_name("host_mujoco", tests, NULL, NULL);
}
#endif
