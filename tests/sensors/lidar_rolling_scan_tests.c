/* tests/sensors/lidar_rolling_scan_tests.c: the rolling scan of a moving
 * lidar. The raw points of a lidar driving between two rows of cylinders
 * stretch or shrink them by the closed form, and the "deskew" filter gives
 * both rows their true length on the static cylinders
 * (examples/lidar_cylinders.json runs the same experiment). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "sensors/lidar_fixtures.h"

#define DEG (M_PI / 180.0)

/* ---- the rolling-scan cylinder experiment -------------------------------
 * A lidar with HDL-32E parameters spinning counter-clockwise at f = 20 Hz
 * moves at v = 20 m/s along +x between two rows of cylinders (radius
 * a = 0.5 m, axes d = 4 m left and right of the path, 2 m apart along x).
 *
 * Closed form. The beam's azimuth grows at omega = 2 pi f. Take a cylinder
 * abeam on the left (y > 0). Its silhouette, seen from the sensor, spans
 * the chord between its tangent points, L = 2 a sqrt(1 - a^2/d^2), at the
 * lateral distance r = d - a^2/d. Where the beam crosses the line y = r
 * (sensor frame) it moves at dx/dt = -r omega / sin^2(phi) ~ -r omega near
 * phi = 90 deg (counter-clockwise: towards -x), while the cylinder, in
 * the sensor frame, moves at -v. The beam crosses the cylinder at the
 * relative speed r omega - v, taking T = L / (r omega - v); in that time
 * it sweeps r omega T in the sensor frame, which is where the raw points
 * (sensor frame at each point's firing time) lie:
 *
 *   L' = L r omega / (r omega - v)   left (the beam runs with the motion),
 *   L' = L r omega / (r omega + v)   right (against it: azimuth -90 deg,
 *                                    the beam moves towards +x).
 *
 * With these numbers r omega = 494.8 m/s: the left cylinders are 4.2 %
 * longer, the right ones 3.6 % shorter. (Taking r = d instead changes L'
 * by under 1 mm; the cylinder's angular rate varies by 0.1 % over its
 * crossing; both are inside the tolerance below.)
 *
 * Measurement. Each raw point is projected along its own beam onto the
 * line y = +-r (x r / |y|: the beam's position there), which removes the
 * silhouette's depth profile the closed form is not about. The extent of
 * one ring over one cylinder samples the swept length at the column
 * spacing s = r dphi (dphi = 2 pi / columns): each edge loses between 0
 * and s, so the extent lies in (L' - 2 s, L'], and over sampling phases
 * spread uniformly over a column its mean is L' - s (each edge loses s/2
 * on average). NPHASE lidars with start azimuths j / NPHASE of a column
 * apart sample NPHASE such phases, so their mean lies within s / NPHASE
 * of L' - s. */
#define NPHASE 8
#define CYL_A 0.5
#define CYL_D 4.0
#define SPEED 20.0
#define RATE 20.0
#define HEIGHT 1.0
#define NCYL 10
#define CYL_M0 (-3) /* cylinders m = CYL_M0 .. CYL_M0 + NCYL - 1 */
/* Row origins: the beam passes azimuth +90 deg 3/4 of a scan into it and
 * -90 deg 1/4 in (start azimuth -180 deg, counter-clockwise); the sensor
 * is then 0.25 m and 0.75 m short of its position at the capture, so in
 * frames k = 2, 4, ... a cylinder of each row is exactly abeam. */
static double row_x0(int side) { return side > 0 ? -0.25 : -0.75; }

typedef struct cyl_rig {
  sensim_world *w;
  sensim_body *carrier;
  sensim_sensor *lid[NPHASE];
  int columns;
} cyl_rig;

static void cyl_rig_make(cyl_rig *r) {
  memset(r, 0, sizeof *r);
  r->w = test_world(2, 9);
  sensim_material mat;
  sensim_material_init(&mat);
  mat.reflectance = 0.8f;
  sensim_shape sh = {SENSIM_SHAPE_CYLINDER, {CYL_A, 0, 3.0}, 256};
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(r->w, &sh, &mat, &m));
  for (int side = -1; side <= 1; side += 2)
    for (int k = 0; k < NCYL; k++) {
      sensim_body_params bp;
      sensim_body_params_init(&bp);
      bp.mesh = m;
      bp.is_static = 1;
      bp.pose.pos = (sensim_vec3){row_x0(side) + 2.0 * (CYL_M0 + k), side * CYL_D, 0};
      sensim_body *b = NULL;
      SENSIM_OK_OR_FAIL(sensim_body_create(r->w, &bp, &b));
    }
  sensim_body_params cp;
  sensim_body_params_init(&cp);
  cp.pose.pos = (sensim_vec3){0, 0, HEIGHT};
  SENSIM_OK_OR_FAIL(sensim_body_create(r->w, &cp, &r->carrier));
  /* HDL-32E: one column per 46.08 us firing cycle, so 1085 columns at 20 Hz. */
  r->columns = (int)(1.0 / RATE / 46.08e-6);
  for (int j = 0; j < NPHASE; j++) {
    sensim_lidar_params lp;
    SENSIM_OK_OR_FAIL(sensim_lidar_preset("HDL-32E", &lp));
    lp.columns = r->columns;
    lp.clockwise = 0;
    lp.start_azimuth = -M_PI + (2 * M_PI / r->columns) * j / NPHASE;
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.body = r->carrier;
    sp.rate = RATE;
    SENSIM_OK_OR_FAIL(sensim_lidar_create(r->w, &sp, &lp, &r->lid[j]));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(r->lid[j], "points", NULL));
  }
}

/* Carrier state at t: straight line along +x at SPEED. */
static void cyl_rig_push(cyl_rig *r, double t) {
  sensim_body_state s = test_state_xyzyaw(SPEED * t, 0, HEIGHT, 0);
  s.lin_vel.x = SPEED;
  SENSIM_OK_OR_FAIL(sensim_body_push_state(r->carrier, t, &s));
}

/* Extent statistics of one ring over one cylinder. */
typedef struct ring_ext {
  double lo, hi, tsum;
  int n;
} ring_ext;

typedef struct cyl_meas {
  ring_ext e[2][NCYL][32]; /* [side 0 right, 1 left][cylinder][ring] */
  double max_surface_err;  /* m: largest |distance to the axis - a| */
} cyl_meas;

/* Sort the points of one frame onto the cylinders and take, per ring, the
 * extent of the beams' crossings of the row's tangent line. Raw points are
 * in the sensor frame at their firing time, deskewed ones in the sensor
 * frame at the capture; the sensor's x in the world is SPEED t. */
static void cyl_measure(const sensim_frame *f, int deskewed, cyl_meas *m) {
  memset(m, 0, sizeof *m);
  const double r_t = CYL_D - CYL_A * CYL_A / CYL_D;
  const sensim_point *p = f->data;
  for (size_t i = 0; i < f->count; i++) {
    /* Where the beam was fired from, in the frame the point is in: the
     * origin for raw points, the sensor's position at the firing time for
     * deskewed ones (frame at the capture). */
    double ox = deskewed ? SPEED * p[i].time_offset : 0.0;
    double el = atan2(p[i].z, hypot(p[i].x - ox, p[i].y));
    if (fabs(el) > 11.0 * DEG) continue; /* rings whose whole chord hits the side */
    double tfire = deskewed ? 0.0 : p[i].time_offset;
    double sx = SPEED * (f->t_capture + tfire);
    double xw = sx + p[i].x, yw = p[i].y;
    int side = yw > 0;
    double x0 = row_x0(side ? 1 : -1);
    int k = (int)lround((xw - x0) / 2.0) - CYL_M0;
    if (k < 0 || k >= NCYL) continue;
    double cx = x0 + 2.0 * (CYL_M0 + k), cy = side ? CYL_D : -CYL_D;
    double err = fabs(hypot(xw - cx, yw - cy) - CYL_A);
    if (err > 0.3) continue;
    if (err > m->max_surface_err) m->max_surface_err = err;
    if (p[i].ring >= 32) continue;
    /* The beam's crossing of the tangent line, in the frame the point is in. */
    double xp = ox + (p[i].x - ox) * r_t / fabs(p[i].y);
    ring_ext *e = &m->e[side][k][p[i].ring];
    if (e->n == 0 || xp < e->lo) e->lo = xp;
    if (e->n == 0 || xp > e->hi) e->hi = xp;
    e->tsum += p[i].time_offset;
    e->n++;
  }
}

/* Mean extent over the NPHASE lidars of every (frame, side, ring) of the
 * abeam cylinders; checks each single extent lies in (want - 2 s, want]. */
static void cyl_run(int deskew, double mean_out[2], double *surface_err) {
  cyl_rig r;
  cyl_rig_make(&r);
  const double r_t = CYL_D - CYL_A * CYL_A / CYL_D;
  const double omega = 2 * M_PI * RATE, L = 2 * CYL_A * sqrt(1 - CYL_A * CYL_A / (CYL_D * CYL_D));
  const double s = r_t * 2 * M_PI / r.columns;
  double want[2], spacing[2];
  for (int side = 0; side < 2; side++) {
    /* Raw: the closed form. Deskewed: the true chord, sampled at the
     * spacing on the object, s (r omega -+ v) / (r omega). */
    double rel = side ? r_t * omega - SPEED : r_t * omega + SPEED;
    want[side] = deskew ? L : L * r_t * omega / rel;
    spacing[side] = deskew ? s * rel / (r_t * omega) : s;
  }
  /* Edges lose up to one spacing each, plus 1.6 % at |phi - 90 deg| = 7 deg
   * (the 1 / sin^2 of the spacing), plus the closed form's first-order
   * terms and float rounding: 3 mm. */
  const double eps = 3e-3;
  double sum[2][6][32];
  int cnt[2][6][32];
  memset(sum, 0, sizeof sum);
  memset(cnt, 0, sizeof cnt);
  *surface_err = 0;
  cyl_meas *m = malloc(sizeof *m);
  assert_non_null(m);
  for (int step = 0; step <= 300; step++) {
    double t = step * 1e-3;
    cyl_rig_push(&r, t);
    SENSIM_OK_OR_FAIL(sensim_world_advance(r.w, t));
    for (int j = 0; j < NPHASE; j++) {
      const sensim_frame *f = NULL;
      SENSIM_OK_OR_FAIL(sensim_sensor_poll(r.lid[j], &f));
      if (!f || f->index == 0 || f->index % 2) continue;
      int fi = (int)f->index / 2;
      assert_true(fi < 6);
      if (deskew) {
        /* Deskew a copy through the registered filter, as a chain would. */
        sensim_frame g = *f;
        assert_non_null(g.data = malloc(f->count * sizeof(sensim_point)));
        memcpy(g.data, f->data, f->count * sizeof(sensim_point));
        assert_true(f->trajectory && f->ntraj >= 2);
        SENSIM_OK_OR_FAIL(run_deskew(&g));
        /* Deskewed points are in the sensor frame at the capture. */
        assert_near(f->pose.pos.x, SPEED * f->t_capture, 1e-6);
        cyl_measure(&g, 1, m);
        free(g.data);
      } else {
        cyl_measure(f, 0, m);
      }
      if (m->max_surface_err > *surface_err) *surface_err = m->max_surface_err;
      for (int side = 0; side < 2; side++)
        for (int k = 0; k < NCYL; k++) {
          int nring = 0;
          double tsum = 0;
          for (int c = 0; c < 32; c++) nring += m->e[side][k][c].n, tsum += m->e[side][k][c].tsum;
          if (nring < 20) continue;
          /* Is it the abeam one? Sensor x at the mean firing time vs axis. */
          double sx = SPEED * (f->t_capture + tsum / nring);
          double cx = row_x0(side ? 1 : -1) + 2.0 * (CYL_M0 + k);
          if (fabs(cx - sx) > 0.5) continue;
          if (fabs(cx - sx) > 0.05)
            fail_msg("cylinder at x = %.2f crossed %.3f m off abeam: beam timing is not "
                     "column j at t_capture - window + window j / columns", cx, cx - sx);
          for (int c = 0; c < 32; c++) {
            const ring_ext *e = &m->e[side][k][c];
            if (e->n < 5) continue;
            double ext = e->hi - e->lo;
            if (!(ext > want[side] - 2 * spacing[side] * 1.016 - eps && ext <= want[side] + eps))
              fail_msg("%s %s side, frame %d, ring %d: extent %.4f m outside (%.4f, %.4f]",
                       deskew ? "deskewed" : "raw", side ? "left" : "right", (int)f->index, c, ext,
                       want[side] - 2 * spacing[side], want[side]);
            sum[side][fi][c] += ext;
            cnt[side][fi][c]++;
          }
        }
    }
  }
  for (int side = 0; side < 2; side++) {
    double tot = 0;
    int ntot = 0;
    for (int fi = 0; fi < 6; fi++)
      for (int c = 0; c < 32; c++) {
        if (!cnt[side][fi][c]) continue;
        assert_int_equal(cnt[side][fi][c], NPHASE);
        double mean = sum[side][fi][c] / NPHASE;
        /* Stratified phases: the mean loss is one spacing, to s / NPHASE. */
        assert_near(mean, want[side] - spacing[side], spacing[side] * 1.016 / NPHASE + eps);
        tot += mean;
        ntot++;
      }
    if (ntot < 3 * 10) /* three frames, at least ten full rings each */
      fail_msg("%s: only %d full rings on the %s row's abeam cylinders", deskew ? "deskewed" : "raw", ntot,
               side ? "left" : "right");
    mean_out[side] = tot / ntot + spacing[side];
  }
  free(m);
  sensim_world_destroy(r.w);
}

static void test_lidar_rolling_scan_cylinders_match_closed_form(void **state) {
  (void)state;
  double mean[2], surf;
  cyl_run(0, mean, &surf);
  const double r_t = CYL_D - CYL_A * CYL_A / CYL_D, w = 2 * M_PI * RATE;
  const double L = 2 * CYL_A * sqrt(1 - CYL_A * CYL_A / (CYL_D * CYL_D));
  /* Counter-clockwise: left (y > 0) longer, right shorter. */
  assert_near(mean[1], L * r_t * w / (r_t * w - SPEED), 5e-3);
  assert_near(mean[0], L * r_t * w / (r_t * w + SPEED), 5e-3);
  assert_true(mean[1] - mean[0] > 0.07);
}

static void test_lidar_deskew_gives_both_rows_the_true_length(void **state) {
  (void)state;
  double mean[2], surf;
  cyl_run(1, mean, &surf);
  const double L = 2 * CYL_A * sqrt(1 - CYL_A * CYL_A / (CYL_D * CYL_D));
  assert_near(mean[1], L, 5e-3);
  assert_near(mean[0], L, 5e-3);
  /* Deskewed points, taken to the world with the capture pose alone, lie
   * on the static cylinders (facets: 0.04 mm; float rounding at 10 m:
   * ~1 um); without deskewing they would be off by v |time_offset|, up to
   * 1 m. */
  assert_true(surf < 1e-3);
}

int sensim_test_lidar_rolling_scan(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_rolling_scan_cylinders_match_closed_form),
      cmocka_unit_test(test_lidar_deskew_gives_both_rows_the_true_length),
  };
  return cmocka_run_group_tests_name("lidar_rolling_scan", tests, NULL, NULL);
}
