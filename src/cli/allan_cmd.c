/* cli/allan_cmd.c: `sensim allan IMU.csv [--column NAME ...] [--out PNG]`:
 * the overlapping Allan deviation (sensim_tools/allan.h) of each column of a recorded IMU
 * CSV (sensim_csv_open's layout: t,ax,ay,az,gx,gy,gz; the first column is
 * time, in the unit its name gives), the white-noise and
 * random-walk coefficients N and K read off its fitted slope -1/2 and +1/2
 * lines (IEEE Std 952-1997 Annex C, tools/allan_fit.c), and a log-log plot
 * with those lines dashed. docs/imu.md, "Allan deviation".
 * Exit codes as main.c: 0 success, 1 failure (file, data, plot), 2 bad
 * usage (including a --column the file does not have). */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

enum { EXIT_FAILED = 1, MAX_COLS = 64, MAX_M = 128 };

static const char help[] =
    "usage: sensim allan IMU.csv [--column NAME ...] [--out PLOT.png]\n"
    "  overlapping Allan deviation of each column of an IMU CSV (t,ax,ay,az,gx,gy,gz,\n"
    "  as `sensim run` writes it; evenly spaced t), with the white-noise N\n"
    "  (slope -1/2, value at tau = 1 s) and random-walk K (slope +1/2, value at\n"
    "  tau = 3 s) coefficients of IEEE Std 952 Annex C\n"
    "arguments:\n"
    "  IMU.csv        the recording; its first column is time, in the unit its\n"
    "                 name gives: t_s, t_ms, t_us, t_ns (any name ending _UNIT),\n"
    "                 'time [ms]', 't (us)'; seconds without a unit (t, time)\n"
    "options:\n"
    "  --column NAME  a column to analyse (repeatable; default: all but t)\n"
    "  --out FILE     write a log-log PNG plot with the fitted lines dashed\n"
    "example:\n"
    "  sensim allan out/cart/imu/imu.csv --column gz --out allan_gz.png\n"
    "exit status: 0 success, 1 unreadable file or data, 2 bad usage\n";

static int usage(const char *what, const char *arg) { return sensim__cli_usage("allan", what, arg); }

/* The IMU CSV as a numeric table (sensim_tools/table.h); EXIT_FAILED with
 * a message on error. */
static int read_csv(const char *path, sensim_table *t) {
  sensim_status st = sensim_table_read(path, 0, t);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim allan: %s\n", sensim_last_error());
    return EXIT_FAILED;
  }
  if (t->ncols < 2) {
    fprintf(stderr, "sensim allan: %s: header names fewer than 2 columns\n", path);
    return EXIT_FAILED;
  }
  return 0;
}

/* Seconds per unit of a time column named `name`: the unit in brackets or
 * parentheses at its end ("time [ms]", "t (us)"), else the part after its
 * last '_' when that is a unit ("t_ms", "stamp_ns"; "t_capture" is not),
 * else seconds (sensim's own CSVs: "t", "t_capture"). *unit gets the unit's
 * spelling; -1 for a bracketed unit that is not known. */
static int time_unit(const char *name, double *scale, char *unit, size_t n) {
  static const struct {
    const char *name;
    double scale;
  } units[] = {{"s", 1.0},     {"sec", 1.0},    {"ms", 1e-3}, {"msec", 1e-3},
               {"us", 1e-6},   {"usec", 1e-6},  {"\xc2\xb5s", 1e-6}, /* U+00B5 MICRO SIGN */
               {"\xce\xbcs", 1e-6}, /* U+03BC GREEK SMALL LETTER MU */
               {"ns", 1e-9},   {"nsec", 1e-9}};
  char u[32] = "";
  size_t len = strlen(name);
  while (len && name[len - 1] == ' ') len--;
  int bracketed = len && (name[len - 1] == ']' || name[len - 1] == ')');
  if (bracketed) {
    char open = name[len - 1] == ']' ? '[' : '(';
    size_t b = len - 1;
    while (b > 0 && name[b - 1] != open) b--;
    if (b == 0) bracketed = 0;
    else {
      size_t s = b, e = len - 1;
      while (s < e && name[s] == ' ') s++;
      while (e > s && name[e - 1] == ' ') e--;
      snprintf(u, sizeof u, "%.*s", (int)(e - s), name + s);
    }
  }
  if (!bracketed) {
    const char *us = strrchr(name, '_');
    if (us) snprintf(u, sizeof u, "%s", us + 1);
  }
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (strcmp(u, units[i].name) == 0) {
      *scale = units[i].scale;
      snprintf(unit, n, "%s", u);
      return 0;
    }
  snprintf(unit, n, "%s", bracketed ? u : "s");
  *scale = 1.0;
  return bracketed ? -1 : 0;
}

static void print_lines(const char *name, const sensim_allan_lines *l) {
  /* Datasheet units for gyro (g*) and accel (a*) columns, with the noise
   * filters' own factors (sensim/units.h). */
  double fn = 1.0, fk = 1.0;
  const char *un = "", *uk = "";
  if (name[0] == 'g' && sensim_unit_factor(SENSIM_DIM_GYRO_DENS, "deg_per_rth", &fn) == SENSIM_OK &&
      sensim_unit_factor(SENSIM_DIM_GYRO_WALK, "deg_per_h_per_rth", &fk) == SENSIM_OK) {
    un = "deg/sqrt(h)", uk = "deg/h/sqrt(h)";
  } else if (name[0] == 'a' && sensim_unit_factor(SENSIM_DIM_ACCEL_DENS, "mps_per_rth", &fn) == SENSIM_OK &&
             sensim_unit_factor(SENSIM_DIM_ACCEL_WALK, "mps2_per_rth", &fk) == SENSIM_OK) {
    un = "m/s/sqrt(h)", uk = "m/s^2/sqrt(h)";
  } else {
    fn = fk = 1.0;
  }
  if (isfinite(l->n))
    printf("%s: N = %.6g unit*sqrt(s)%s%.6g %s (slope %.3f around tau = %.3g s)\n", name, l->n,
           *un ? " = " : "", *un ? l->n / fn : 0.0, un, l->slope_n, l->tau_n);
  else
    printf("%s: N not found (no slope -1/2 region)\n", name);
  if (isfinite(l->k))
    printf("%s: K = %.6g unit/sqrt(s)%s%.6g %s (slope %.3f around tau = %.3g s)\n", name, l->k,
           *uk ? " = " : "", *uk ? l->k / fk : 0.0, uk, l->slope_k, l->tau_k);
  else
    printf("%s: K not found (no slope +1/2 region)\n", name);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int analyse(const char *path, const sensim_table *t, const size_t *cols, size_t ncols,
                   const char *out) {
  size_t n = t->nrows;
  if (n < 3) {
    fprintf(stderr, "sensim allan: %s: %zu samples, need at least 3\n", path, n);
    return EXIT_FAILED;
  }
  double scale;
  char unit[32];
  if (time_unit(t->names[0], &scale, unit, sizeof unit) != 0) {
    fprintf(stderr, "sensim allan: %s: time column '%s': unknown unit '%s' (s, ms, us, ns)\n",
            path, t->names[0], unit);
    return EXIT_FAILED;
  }
  /* The sample period is the median time step; every step must match it
   * to 1e-6 relative (sensim prints times losslessly), or to what doubles
   * hold of the times (4 ulp: epoch timestamps in ns keep ~256 ns). */
  double *steps = malloc((n - 1) * sizeof *steps);
  if (!steps) {
    fprintf(stderr, "sensim allan: out of memory for %zu samples\n", n);
    return EXIT_FAILED;
  }
  double tmax = 0.0;
  for (size_t i = 0; i < n; i++) tmax = fmax(tmax, fabs(t->v[i * t->ncols]));
  for (size_t i = 1; i < n; i++) steps[i - 1] = t->v[i * t->ncols] - t->v[(i - 1) * t->ncols];
  qsort(steps, n - 1, sizeof *steps, cmp_double);
  double step = steps[(n - 1) / 2]; /* in the column's unit */
  free(steps);
  if (!(step > 0.0)) {
    fprintf(stderr, "sensim allan: %s: time column does not increase\n", path);
    return EXIT_FAILED;
  }
  double tol = fmax(1e-6 * step, 4.0 * DBL_EPSILON * tmax);
  for (size_t i = 1; i < n; i++) {
    double d = t->v[i * t->ncols] - t->v[(i - 1) * t->ncols];
    if (fabs(d - step) > tol) {
      fprintf(stderr, "sensim allan: %s: samples not evenly spaced: t[%zu] - t[%zu] = %.9g %s, "
              "the median step is %.9g %s (a dropped frame?)\n", path, i, i - 1, d, unit, step, unit);
      return EXIT_FAILED;
    }
  }
  /* Every step matches: the mean step is then the period, exact to an ulp
   * of the span over n - 1 steps where a single step is exact to an ulp of
   * the times. */
  double tau0 = (t->v[(n - 1) * t->ncols] - t->v[0]) / (double)(n - 1) * scale;
  size_t ms[MAX_M];
  size_t nm = sensim_allan_log_factors(n, 10, ms, MAX_M);
  double *y = malloc(n * sizeof *y), *ad = malloc(ncols * nm * sizeof *ad), tau[MAX_M];
  sensim_allan_lines *lines = malloc(ncols * sizeof *lines);
  int rc = 0;
  if (!y || !ad || !lines) {
    fprintf(stderr, "sensim allan: out of memory for %zu samples\n", n);
    rc = EXIT_FAILED;
  }
  for (size_t j = 0; j < nm; j++) tau[j] = (double)ms[j] * tau0;
  for (size_t c = 0; c < ncols && !rc; c++) {
    for (size_t i = 0; i < n; i++) y[i] = t->v[i * t->ncols + cols[c]];
    if (sensim_allan_deviation(y, n, tau0, ms, nm, ad + c * nm) != SENSIM_OK ||
        sensim_allan_fit_lines(tau, ad + c * nm, nm, &lines[c]) != SENSIM_OK) {
      fprintf(stderr, "sensim allan: %s: column %s: %s\n", path, t->names[cols[c]], sensim_last_error());
      rc = EXIT_FAILED;
    }
  }
  if (!rc) {
    printf("allan deviation of %s: %zu samples, tau0 = %.9g s (time column '%s' in %s)\n%-12s",
           path, n, tau0, t->names[0], unit, "tau_s");
    for (size_t c = 0; c < ncols; c++) printf(" %-13s", t->names[cols[c]]);
    printf("\n");
    for (size_t j = 0; j < nm; j++) {
      printf("%-12.6g", tau[j]);
      for (size_t c = 0; c < ncols; c++) printf(" %-13.6g", ad[c * nm + j]);
      printf("\n");
    }
    for (size_t c = 0; c < ncols; c++) print_lines(t->names[cols[c]], &lines[c]);
  }
  if (!rc && out) {
    static const uint8_t pal[6][3] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44},
                                      {214, 39, 40},  {148, 103, 189}, {140, 86, 75}};
    sensim_plot *p = NULL;
    sensim_status st = sensim_plot_create(800, 600, "Allan deviation (dashed: fitted N, K lines)",
                                           "tau (s)", "ADEV (column units)", 1, 1, &p);
    double fx[2], fy[2];
    for (size_t c = 0; c < ncols && st == SENSIM_OK; c++) {
      sensim_plot_style s = {{pal[c % 6][0], pal[c % 6][1], pal[c % 6][2]}, 0, 1, t->names[cols[c]]};
      st = sensim_plot_line(p, tau, ad + c * nm, nm, &s);
      s.dashed = 1, s.marker = 0, s.legend = NULL;
      /* Each line is drawn over the data's tau range, but only down to a
       * third of the column's smallest deviation, so the lines do not
       * stretch the axis far below the data. */
      double lo = INFINITY;
      for (size_t j = 0; j < nm; j++)
        if (ad[c * nm + j] > 0.0 && ad[c * nm + j] < lo) lo = ad[c * nm + j];
      lo /= 3.0;
      if (st == SENSIM_OK && isfinite(lines[c].n) && isfinite(lo)) {
        double n2 = lines[c].n / lo;
        fx[0] = tau[0], fx[1] = fmin(tau[nm - 1], n2 * n2);
        fy[0] = lines[c].n / sqrt(fx[0]), fy[1] = lines[c].n / sqrt(fx[1]);
        if (fx[1] > fx[0]) st = sensim_plot_line(p, fx, fy, 2, &s);
      }
      if (st == SENSIM_OK && isfinite(lines[c].k) && isfinite(lo)) {
        double k2 = lo / lines[c].k;
        fx[0] = fmax(tau[0], 3.0 * k2 * k2), fx[1] = tau[nm - 1];
        fy[0] = lines[c].k * sqrt(fx[0] / 3.0), fy[1] = lines[c].k * sqrt(fx[1] / 3.0);
        if (fx[1] > fx[0]) st = sensim_plot_line(p, fx, fy, 2, &s);
      }
    }
    if (st == SENSIM_OK) st = sensim_plot_write_png(p, out);
    sensim_plot_destroy(p);
    if (st != SENSIM_OK) {
      fprintf(stderr, "sensim allan: plot '%s': %s\n", out, sensim_last_error());
      rc = EXIT_FAILED;
    } else {
      printf("plot written to %s\n", out);
    }
  }
  free(y);
  free(ad);
  free(lines);
  return rc;
}

int sensim__cli_allan(int argc, char **argv) {
  const char *file = NULL, *out = NULL, *want[MAX_COLS];
  size_t nwant = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (sensim__cli_is_help(a)) {
      fputs(help, stdout);
      return 0;
    } else if (strcmp(a, "--column") == 0 || strcmp(a, "--out") == 0) {
      if (i + 1 >= argc) return usage("option needs a value:", a);
      if (a[2] == 'o') out = argv[++i];
      else if (nwant == MAX_COLS) return usage("too many --column options", NULL);
      else want[nwant++] = argv[++i];
    } else if (a[0] == '-' && a[1] != '\0') {
      static const char *const known[] = {"--column", "--out", "--help", NULL};
      return sensim__cli_unknown_option("allan", a, known);
    } else if (!file) {
      file = a;
    } else {
      return usage("unexpected argument", a);
    }
  }
  if (!file) return usage("needs an IMU CSV file", NULL);
  sensim_table t;
  memset(&t, 0, sizeof t);
  int rc = read_csv(file, &t);
  size_t cols[MAX_COLS], ncols = 0;
  for (size_t w = 0; w < nwant && !rc; w++) {
    size_t c = 1;
    while (c < t.ncols && strcmp(t.names[c], want[w]) != 0) c++;
    if (c == t.ncols) {
      rc = usage("no such column (the first, time, cannot be analysed):", want[w]);
      break;
    }
    cols[ncols++] = c;
  }
  if (!rc && nwant == 0)
    for (size_t c = 1; c < t.ncols; c++) cols[ncols++] = c;
  if (!rc) rc = analyse(file, &t, cols, ncols, out);
  sensim_table_free(&t);
  return rc;
}
