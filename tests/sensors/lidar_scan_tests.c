/* Lidar scan patterns: preset tables against their datasheets, the
 * rolling-scan cylinder experiment against its closed form, and the
 * "deskew" filter. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "filters/chain.h"
#include "support/testutil.h"


#define DEG (M_PI / 180.0)

/* ---- presets ------------------------------------------------------------
 * Expected tables typed from the datasheets (not from the library's
 * arrays): elevations in firing order, degrees. */

/* VLP-16 User Manual 63-9243, table 9-1. */
static const double vlp16_deg[16] = {-15, 1, -13, 3, -11, 5, -9, 7, -7, 9, -5, 11, -3, 13, -1, 15};
/* HDL-32E User Manual, laser firing order and vertical angles. */
static const double hdl32_deg[32] = {-30.67, -9.33, -29.33, -8.00, -28.00, -6.67, -26.67, -5.33,
                                     -25.33, -4.00, -24.00, -2.67, -22.67, -1.33, -21.33, 0.00,
                                     -20.00, 1.33,  -18.67, 2.67,  -17.33, 4.00,  -16.00, 5.33,
                                     -14.67, 6.67,  -13.33, 8.00,  -12.00, 9.33,  -10.67, 10.67};
/* HDL-64E S3 manual, nominal: upper block +2 .. -8.33 (1/3 deg), lower
 * block -8.83 .. -24.33 (1/2 deg), each from the top down. */
static const double hdl64_deg[64] = {
    2.00, 1.67, 1.33, 1.00, 0.67, 0.33, 0.00, -0.33, -0.67, -1.00, -1.33,
    -1.67, -2.00, -2.33, -2.67, -3.00, -3.33, -3.67, -4.00, -4.33, -4.67, -5.00,
    -5.33, -5.67, -6.00, -6.33, -6.67, -7.00, -7.33, -7.67, -8.00, -8.33, -8.83,
    -9.33, -9.83, -10.33, -10.83, -11.33, -11.83, -12.33, -12.83, -13.33, -13.83, -14.33,
    -14.83, -15.33, -15.83, -16.33, -16.83, -17.33, -17.83, -18.33, -18.83, -19.33, -19.83,
    -20.33, -20.83, -21.33, -21.83, -22.33, -22.83, -23.33, -23.83, -24.33};

static void check_table(const char *name, const double *got, const double *want_deg, int n, double tol_deg) {
  for (int c = 0; c < n; c++)
    if (!(fabs(got[c] / DEG - want_deg[c]) <= tol_deg))
      fail_msg("%s channel %d: elevation %.4f deg, datasheet %.2f deg", name, c, got[c] / DEG, want_deg[c]);
}

static void test_lidar_presets_match_datasheet_tables(void **state) {
  (void)state;
  sensim_lidar_params p;
  SENSIM_OK_OR_FAIL(sensim_lidar_preset("VLP-16", &p));
  assert_int_equal(p.channels, 16);
  assert_int_equal(p.pattern, SENSIM_LIDAR_SPINNING);
  check_table("VLP-16", p.elevations, vlp16_deg, 16, 1e-9);
  assert_non_null(p.firing_offsets);
  for (int c = 0; c < 16; c++) assert_near(p.firing_offsets[c], c * 2.304e-6, 1e-12); /* manual 8.1 */
  assert_int_equal(p.columns, 1800); /* 0.2 deg at 600 rpm (manual 8.3.1) */
  assert_near(p.max_range, 100.0, 0);
  assert_near(p.detection_range, 100.0, 0);
  assert_near(p.div_h, 3.0e-3, 1e-12);
  assert_near(p.div_v, 1.5e-3, 1e-12);
  assert_int_equal(p.intensity_bits, 8);
  assert_int_equal(p.clockwise, 1);
  assert_int_equal(p.subrays, 1);
  assert_near(p.hfov, 2 * M_PI, 1e-12);

  SENSIM_OK_OR_FAIL(sensim_lidar_preset("HDL-32E", &p));
  assert_int_equal(p.channels, 32);
  check_table("HDL-32E", p.elevations, hdl32_deg, 32, 1e-9);
  for (int c = 0; c < 32; c++) assert_near(p.firing_offsets[c], c * 1.152e-6, 1e-12);
  /* One column per 46.08 us firing cycle at 10 Hz. */
  assert_int_equal(p.columns, (int)(0.1 / 46.08e-6));
  assert_null(p.azimuth_offsets);

  SENSIM_OK_OR_FAIL(sensim_lidar_preset("HDL-64E", &p));
  assert_int_equal(p.channels, 64);
  check_table("HDL-64E", p.elevations, hdl64_deg, 64, 0.005);
  /* Upper and lower blocks fire together: laser k of each at one instant. */
  for (int c = 0; c < 32; c++) assert_near(p.firing_offsets[c], p.firing_offsets[c + 32], 0);
  assert_near(p.detection_range, 120.0, 0); /* 120 m for cars and foliage */

  const char *os1[2] = {"OS1-64", "OS1-128"};
  const int os1_n[2] = {64, 128};
  const double os1_step_deg[2] = {0.7, 0.35}; /* datasheet vertical resolution (rounded) */
  const double os1_fwhm_deg[2] = {0.13, 0.18}; /* datasheet beam divergence, FWHM */
  for (int k = 0; k < 2; k++) {
    SENSIM_OK_OR_FAIL(sensim_lidar_preset(os1[k], &p));
    int n = os1_n[k];
    assert_int_equal(p.channels, n);
    /* 45 deg vertical field, +22.5 .. -22.5 deg, uniform, channel 0 on top. */
    assert_near(p.elevations[0] / DEG, 22.5, 1e-9);
    assert_near(p.elevations[n - 1] / DEG, -22.5, 1e-9);
    for (int c = 1; c < n; c++)
      assert_near((p.elevations[c - 1] - p.elevations[c]) / DEG, os1_step_deg[k], 0.015);
    /* Flash column: every channel fires at once. */
    for (int c = 0; c < n; c++) assert_near(p.firing_offsets[c], 0.0, 0);
    /* Calibration beam_azimuth_angles +4.2, +1.4, -1.4, -4.2 deg (Ouster's
     * sign: subtracted from the encoder angle) repeat every 4 channels. */
    const double az_deg[4] = {4.2, 1.4, -1.4, -4.2};
    for (int c = 0; c < n; c++) assert_near(-p.azimuth_offsets[c] / DEG, az_deg[c % 4], 1e-9);
    assert_int_equal(p.columns, 1024);
    /* As the 1/e^2 full angle of a Gaussian beam: 1.699 FWHM. */
    assert_near(p.div_h / DEG, 1.6986 * os1_fwhm_deg[k], 1e-4);
    assert_near(p.min_range, 0.8, 0);
    assert_near(p.detection_range, 120.0, 0);
  }
}

static void test_lidar_preset_names_resolve_in_any_case(void **state) {
  (void)state;
  const char *const *names = sensim_lidar_preset_names();
  const char *want[] = {"VLP-16", "HDL-32E", "HDL-64E", "OS1-64", "OS1-128"};
  int n = 0;
  while (names[n]) {
    assert_true(n < 5);
    assert_string_equal(names[n], want[n]);
    sensim_lidar_params p;
    SENSIM_OK_OR_FAIL(sensim_lidar_preset(names[n], &p));
    n++;
  }
  assert_int_equal(n, 5);
  sensim_lidar_params a, b;
  SENSIM_OK_OR_FAIL(sensim_lidar_preset("hdl-32e", &a));
  SENSIM_OK_OR_FAIL(sensim_lidar_preset("HDL-32E", &b));
  assert_int_equal(a.channels, b.channels);
  assert_ptr_equal(a.elevations, b.elevations); /* the library's static table */
}

static void test_lidar_unknown_preset_is_enotfound_and_lists_names(void **state) {
  (void)state;
  sensim_lidar_params p, before;
  sensim_lidar_params_init(&p);
  p.channels = 7;
  before = p;
  assert_int_equal(sensim_lidar_preset("VLP-17", &p), SENSIM_ENOTFOUND);
  const char *msg = sensim_last_error();
  assert_non_null(strstr(msg, "VLP-17"));
  assert_non_null(strstr(msg, "VLP-16"));
  assert_non_null(strstr(msg, "OS1-128"));
  assert_memory_equal(&p, &before, sizeof p); /* untouched */
  assert_int_equal(sensim_lidar_preset("", &p), SENSIM_ENOTFOUND);
  assert_int_equal(sensim_lidar_preset(NULL, &p), SENSIM_EINVAL);
  assert_int_equal(sensim_lidar_preset("VLP-16", NULL), SENSIM_EINVAL);
  SENSIM_OK_OR_FAIL(sensim_lidar_preset("VLP-16", &p)); /* still usable */
}

/* Every preset builds a lidar whose first frame has the documented layout:
 * columns x channels beams, rings ranking the elevations (0 lowest). */
static void test_lidar_every_preset_creates_a_valid_lidar(void **state) {
  (void)state;
  for (const char *const *nm = sensim_lidar_preset_names(); *nm; nm++) {
    sensim_world *w = test_world(0, 1);
    sensim_lidar_params lp;
    SENSIM_OK_OR_FAIL(sensim_lidar_preset(*nm, &lp));
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.name = *nm;
    sensim_sensor *s = NULL;
    SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
    assert_non_null(f);
    assert_int_equal(f->type, SENSIM_PAYLOAD_BEAMS);
    assert_int_equal(f->returns, 1);
    assert_int_equal(f->count, (size_t)lp.columns * lp.channels);
    const sensim_beam *b = f->data;
    for (int c = 0; c < lp.channels; c++) {
      int rank = 0;
      for (int k = 0; k < lp.channels; k++) rank += lp.elevations[k] < lp.elevations[c];
      assert_int_equal(b[c].ring, rank);
      assert_near(b[c].elevation, lp.elevations[c], 1e-6);
    }
    for (size_t i = 0; i < f->count; i++) assert_true(b[i].time_offset <= 0 && b[i].time_offset >= -0.1 - 1e-6);
    sensim_world_destroy(w);
  }
}

/* Run the registered "deskew" filter on a frame, as a chain would. */
static sensim_status run_deskew(sensim_frame *f) {
  const sensim_builtin_filter *d = sensim__filter_find("deskew");
  assert_non_null(d);
  assert_int_equal(d->def.in, SENSIM_PAYLOAD_POINTS);
  assert_int_equal(d->def.out, SENSIM_PAYLOAD_POINTS);
  void *user = NULL;
  SENSIM_OK_OR_FAIL(d->create(NULL, &user));
  sensim_filter_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  sensim_status rc = d->def.apply(user, f, &ctx);
  if (d->def.destroy) d->def.destroy(user);
  return rc;
}

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

/* ---- deskew on hand-made frames ----------------------------------------- */

static sensim_pose pose_xyzyaw(double x, double y, double z, double yaw) {
  sensim_pose p = {{x, y, z}, sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, yaw)};
  return p;
}

/* p in frame b expressed in frame a, both given in the world. */
static sensim_vec3 rebase(sensim_pose a, sensim_pose b, sensim_vec3 p) {
  sensim_vec3 w = sensim_pose_apply(b, p);
  sensim_vec3 d = {w.x - a.pos.x, w.y - a.pos.y, w.z - a.pos.z};
  sensim_quat ai = {a.rot.w, -a.rot.x, -a.rot.y, -a.rot.z};
  return sensim_quat_rotate(ai, d);
}

static sensim_frame points_frame(sensim_point *pts, size_t n, sensim_pose *traj, uint32_t ntraj, double window) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_POINTS;
  f.data = pts;
  f.count = n;
  f.width = (uint32_t)n;
  f.height = 1;
  f.t_capture = 1.0;
  f.window = window;
  f.trajectory = traj;
  f.ntraj = ntraj;
  if (ntraj) f.pose = traj[ntraj - 1];
  return f;
}


/* Poses at -0.1, -0.05, 0 s: turning and translating. A point fired at
 * time t is mapped by T(t_c)^-1 T(t), with T(t) interpolated linearly in
 * position and by slerp in rotation (computed here with the public slerp). */
static void test_deskew_interpolates_pose_at_firing_time(void **state) {
  (void)state;
  sensim_pose traj[3] = {pose_xyzyaw(0, 0, 0, 0), pose_xyzyaw(1, 0.5, 0, 0.2), pose_xyzyaw(2, 0, 0.2, 0.5)};
  traj[2].rot = sensim_pose_compose(traj[2], (sensim_pose){{0, 0, 0}, sensim_quat_from_ypr(0, 0.1, -0.05)}).rot;
  const double toff[5] = {-0.075, -0.02, 0.0, -0.1, -0.3};
  sensim_point pts[6];
  memset(pts, 0, sizeof pts);
  for (int i = 0; i < 5; i++) {
    pts[i].x = 3.0f + i;
    pts[i].y = -1.0f + 0.5f * i;
    pts[i].z = 0.25f * i;
    pts[i].time_offset = (float)toff[i];
  }
  pts[5].x = NAN, pts[5].y = NAN, pts[5].z = NAN, pts[5].time_offset = -0.05f; /* missing point */
  sensim_point orig[6];
  memcpy(orig, pts, sizeof pts);
  sensim_frame f = points_frame(pts, 6, traj, 3, 0.1);
  SENSIM_OK_OR_FAIL(run_deskew(&f));
  for (int i = 0; i < 5; i++) {
    double t = toff[i] < -0.1 ? -0.1 : toff[i]; /* before the window: its start */
    double u = (t + 0.1) / 0.05;
    int k = u >= 2 ? 1 : (int)u;
    double s = u - k;
    sensim_pose at;
    at.pos.x = traj[k].pos.x + s * (traj[k + 1].pos.x - traj[k].pos.x);
    at.pos.y = traj[k].pos.y + s * (traj[k + 1].pos.y - traj[k].pos.y);
    at.pos.z = traj[k].pos.z + s * (traj[k + 1].pos.z - traj[k].pos.z);
    at.rot = sensim_quat_slerp(traj[k].rot, traj[k + 1].rot, s);
    sensim_vec3 want = rebase(traj[2], at, (sensim_vec3){orig[i].x, orig[i].y, orig[i].z});
    assert_near(pts[i].x, want.x, 2e-6 * 10);
    assert_near(pts[i].y, want.y, 2e-6 * 10);
    assert_near(pts[i].z, want.z, 2e-6 * 10);
    assert_near(pts[i].time_offset, orig[i].time_offset, 0);
    assert_int_equal(pts[i].ring, orig[i].ring);
  }
  /* A point fired at the capture is already in its frame. */
  assert_near(pts[2].x, orig[2].x, 1e-5);
  assert_true(isnan(pts[5].x) && isnan(pts[5].y) && isnan(pts[5].z));
}

static void test_deskew_leaves_static_sensor_cloud_unchanged(void **state) {
  (void)state;
  sensim_pose traj[5];
  for (int i = 0; i < 5; i++) traj[i] = pose_xyzyaw(3, 4, 1, 0.7);
  sensim_point pts[50], orig[50];
  for (int i = 0; i < 50; i++) {
    memset(&pts[i], 0, sizeof pts[i]);
    pts[i].x = (float)(10 * cos(i * 0.4));
    pts[i].y = (float)(10 * sin(i * 0.4));
    pts[i].z = (float)(0.1 * i - 2);
    pts[i].time_offset = (float)(-0.1 * i / 49.0);
    pts[i].ring = (uint16_t)(i % 16);
  }
  memcpy(orig, pts, sizeof pts);
  sensim_frame f = points_frame(pts, 50, traj, 5, 0.1);
  SENSIM_OK_OR_FAIL(run_deskew(&f));
  for (int i = 0; i < 50; i++) {
    assert_near(pts[i].x, orig[i].x, 1e-5);
    assert_near(pts[i].y, orig[i].y, 1e-5);
    assert_near(pts[i].z, orig[i].z, 1e-5);
  }
  /* One pose (a sensor that cannot move): untouched, bit for bit. */
  memcpy(pts, orig, sizeof pts);
  f = points_frame(pts, 50, traj, 1, 0.1);
  SENSIM_OK_OR_FAIL(run_deskew(&f));
  assert_memory_equal(pts, orig, sizeof pts);
}

/* End to end: the cloud of a lidar on a body held still (a trajectory of
 * equal poses) is the same with and without "deskew" in its chain. */
static void test_deskew_in_chain_keeps_static_lidar_cloud(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 4);
  sensim_shape sh = {SENSIM_SHAPE_BOX, {2, 20, 4}, 0};
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, NULL, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){6, 0, 0};
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_lidar_params lp;
  SENSIM_OK_OR_FAIL(sensim_lidar_preset("VLP-16", &lp));
  sensim_body_params cp;
  sensim_body_params_init(&cp);
  sensim_body *carrier = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &cp, &carrier));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = carrier;
  sp.mount = (sensim_pose){{0.2, 0, 0.5}, sensim_quat_from_ypr(0.3, 0.05, 0)};
  sensim_sensor *a = NULL, *d = NULL;
  sp.name = "plain";
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &a));
  sp.name = "deskewed";
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &d));
  /* deskew takes points, not beams: refused, chain unchanged. */
  assert_int_equal(sensim_sensor_add_filter(d, "deskew", NULL), SENSIM_ETYPE);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(a, "points", NULL));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(d, "points", NULL));
  assert_int_equal(sensim_sensor_add_filter(d, "deskew", "{\"to\": 0}"), SENSIM_EINVAL);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(d, "deskew", NULL));
  for (int i = 0; i <= 20; i++) {
    sensim_body_state st = test_state_xyzyaw(-1, 0.5, 0.6, 0.2);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(carrier, i * 0.01, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, i * 0.01));
  }
  for (int k = 0; k < 3; k++) {
    const sensim_frame *fa = NULL, *fd = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(a, &fa));
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(d, &fd));
    assert_non_null(fa);
    assert_non_null(fd);
    assert_true(fa->count > 1000);
    assert_int_equal(fa->count, fd->count);
    if (k > 0) assert_true(fd->ntraj >= 2); /* frame 0's window starts before the first state */
    const sensim_point *pa = fa->data, *pd = fd->data;
    for (size_t i = 0; i < fa->count; i++) {
      assert_near(pd[i].x, pa[i].x, 1e-5);
      assert_near(pd[i].y, pa[i].y, 1e-5);
      assert_near(pd[i].z, pa[i].z, 1e-5);
    }
  }
  sensim_world_destroy(w);
}

static void test_deskew_without_trajectory_is_etype(void **state) {
  (void)state;
  sensim_point pts[2];
  memset(pts, 0, sizeof pts);
  pts[0].x = 1.0f;
  pts[1].time_offset = -0.05f;
  sensim_point orig[2];
  memcpy(orig, pts, sizeof pts);
  sensim_frame f = points_frame(pts, 2, NULL, 0, 0.1);
  assert_int_equal(run_deskew(&f), SENSIM_ETYPE);
  assert_non_null(strstr(sensim_last_error(), "deskew needs the lidar's trajectory"));
  assert_memory_equal(pts, orig, sizeof pts);
  /* A trajectory with a NaN pose: refused, points untouched. */
  sensim_pose traj[2] = {pose_xyzyaw(0, 0, 0, 0), pose_xyzyaw(NAN, 0, 0, 0)};
  f = points_frame(pts, 2, traj, 2, 0.1);
  assert_int_equal(run_deskew(&f), SENSIM_EINVAL);
  assert_memory_equal(pts, orig, sizeof pts);
  /* Unknown parameters are refused at creation. */
  const sensim_builtin_filter *d = sensim__filter_find("deskew");
  cJSON *params = cJSON_Parse("{\"window\": 1}");
  void *user = NULL;
  assert_int_equal(d->create(params, &user), SENSIM_EINVAL);
  cJSON_Delete(params);
}

int sensim_test_lidar_scan(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_presets_match_datasheet_tables),
      cmocka_unit_test(test_lidar_preset_names_resolve_in_any_case),
      cmocka_unit_test(test_lidar_unknown_preset_is_enotfound_and_lists_names),
      cmocka_unit_test(test_lidar_every_preset_creates_a_valid_lidar),
      cmocka_unit_test(test_lidar_rolling_scan_cylinders_match_closed_form),
      cmocka_unit_test(test_lidar_deskew_gives_both_rows_the_true_length),
      cmocka_unit_test(test_deskew_interpolates_pose_at_firing_time),
      cmocka_unit_test(test_deskew_leaves_static_sensor_cloud_unchanged),
      cmocka_unit_test(test_deskew_in_chain_keeps_static_lidar_cloud),
      cmocka_unit_test(test_deskew_without_trajectory_is_etype),
  };
  return cmocka_run_group_tests_name("lidar_scan", tests, NULL, NULL);
}
