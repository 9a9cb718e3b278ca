/* filters/imu_units.c: every datasheet unit sensim's inertial and magnetic
 * noise filters accept, with its SI factor (docs/imu.md, "Units").
 *
 * Derivations (g0 = 9.80665 m/s^2 standard gravity; 1 h = 3600 s, so
 * sqrt(h) = 60 sqrt(s); 1 deg = pi/180 rad; 1/sqrt(Hz) = sqrt(s)):
 *   (deg/s)/sqrt(Hz)  -> rad/s/sqrt(Hz):   x pi/180
 *   deg/sqrt(h) (ARW) -> rad/s/sqrt(Hz):   x (pi/180) / 60
 *     since deg/sqrt(h) = (pi/180) rad / (60 sqrt(s)) = (pi/180)/60 rad/sqrt(s)
 *   deg/h/sqrt(Hz)    -> rad/s/sqrt(Hz):   x (pi/180) / 3600
 *   deg/h             -> rad/s:            x (pi/180) / 3600
 *   deg/s             -> rad/s:            x pi/180
 *   deg/h/sqrt(h) (RRW) -> rad/s^2/sqrt(Hz): x (pi/180) / 3600 / 60
 *   ug/sqrt(Hz)       -> m/s^2/sqrt(Hz):   x 1e-6 g0
 *   mg/sqrt(Hz)       -> m/s^2/sqrt(Hz):   x 1e-3 g0
 *   m/s/sqrt(h) (VRW) -> m/s^2/sqrt(Hz):   x 1/60
 *   (m/s^2)/sqrt(h)   -> m/s^3/sqrt(Hz):   x 1/60
 *   ug/sqrt(h)        -> m/s^3/sqrt(Hz):   x 1e-6 g0 / 60
 *   g, mg, ug         -> m/s^2:            x g0, 1e-3 g0, 1e-6 g0
 *   ppm, percent      -> ratio:            x 1e-6, 1e-2
 *   mrad, deg         -> rad:              x 1e-3, pi/180
 *   uT, nT, G, mG     -> T:                x 1e-6, 1e-9, 1e-4, 1e-7
 * The noise density / random walk correspondences (N in unit/s/sqrt(Hz) is
 * the angle or velocity random walk coefficient; K the rate random walk)
 * are those of IEEE Std 952-1997, Annex C, and O. Woodman, "An
 * introduction to inertial navigation", UCAM-CL-TR-696 (2007), sec. 4.2. */
#include <stdio.h>
#include <string.h>
#include "core/internal.h"
#include "filters/imu_units.h"

#define DEG (M_PI / 180.0)

typedef struct unit {
  const char *suffix;
  double factor;
} unit;

static const unit accel_units[] = {{"_g", SENSIM__G0}, {"_mg", 1e-3 * SENSIM__G0},
                                   {"_ug", 1e-6 * SENSIM__G0}, {NULL, 0}};
static const unit gyro_units[] = {{"_dps", DEG}, {"_deg_per_h", DEG / 3600.0}, {NULL, 0}};
static const unit accel_dens_units[] = {{"_ug_per_rthz", 1e-6 * SENSIM__G0},
                                        {"_mg_per_rthz", 1e-3 * SENSIM__G0},
                                        {"_mps_per_rth", 1.0 / 60.0},
                                        {NULL, 0}};
static const unit gyro_dens_units[] = {{"_dps_per_rthz", DEG},
                                       {"_deg_per_h_per_rthz", DEG / 3600.0},
                                       {"_deg_per_rth", DEG / 60.0},
                                       {NULL, 0}};
static const unit accel_walk_units[] = {{"_mps2_per_rth", 1.0 / 60.0},
                                        {"_ug_per_rth", 1e-6 * SENSIM__G0 / 60.0},
                                        {NULL, 0}};
static const unit gyro_walk_units[] = {{"_deg_per_h_per_rth", DEG / 3600.0 / 60.0},
                                       {"_dps_per_rth", DEG / 60.0},
                                       {NULL, 0}};
static const unit ratio_units[] = {{"_ppm", 1e-6}, {"_percent", 1e-2}, {NULL, 0}};
static const unit angle_units[] = {{"_mrad", 1e-3}, {"_deg", DEG}, {NULL, 0}};
static const unit time_units[] = {{"_h", 3600.0}, {NULL, 0}};
static const unit field_units[] = {
    {"_ut", 1e-6}, {"_nt", 1e-9}, {"_gauss", 1e-4}, {"_mgauss", 1e-7}, {NULL, 0}};

static const unit *units_of(sensim_unit_dim dim) {
  switch (dim) {
  case SENSIM_DIM_ACCEL: return accel_units;
  case SENSIM_DIM_GYRO: return gyro_units;
  case SENSIM_DIM_ACCEL_DENS: return accel_dens_units;
  case SENSIM_DIM_GYRO_DENS: return gyro_dens_units;
  case SENSIM_DIM_ACCEL_WALK: return accel_walk_units;
  case SENSIM_DIM_GYRO_WALK: return gyro_walk_units;
  case SENSIM_DIM_RATIO: return ratio_units;
  case SENSIM_DIM_ANGLE: return angle_units;
  case SENSIM_DIM_TIME: return time_units;
  case SENSIM_DIM_FIELD: return field_units;
  }
  return NULL;
}

size_t sensim__unit_match(const char *key, const char *base, sensim_unit_dim dim, double *factor) {
  size_t nb = strlen(base);
  if (!key || strncmp(key, base, nb) != 0) return 0;
  if (key[nb] == '\0') {
    *factor = 1.0;
    return nb;
  }
  const unit *u = units_of(dim);
  for (; u && u->suffix; u++) {
    if (strcmp(key + nb, u->suffix) == 0) {
      *factor = u->factor;
      return nb;
    }
  }
  return 0;
}

sensim_status sensim_unit_factor(sensim_unit_dim dim, const char *suffix, double *factor) {
  if (!suffix || !factor) return sensim__fail(SENSIM_EINVAL, "sensim_unit_factor: NULL argument");
  const unit *u = (int)dim >= 0 && (int)dim <= (int)SENSIM_DIM_FIELD ? units_of(dim) : NULL;
  if (!u) return sensim__fail(SENSIM_EINVAL, "sensim_unit_factor: dimension %d is not a sensim_unit_dim", (int)dim);
  if (!*suffix) {
    *factor = 1.0;
    return SENSIM_OK;
  }
  char list[256] = "";
  size_t used = 0;
  for (; u->suffix; u++) {
    /* The tables hold the suffix with its '_' as it follows a base name. */
    if (strcmp(u->suffix + 1, suffix) == 0) {
      *factor = u->factor;
      return SENSIM_OK;
    }
    int w = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", u->suffix + 1);
    if (w > 0 && (size_t)w < sizeof list - used) used += (size_t)w;
  }
  return sensim__fail(SENSIM_ENOTFOUND, "unit '%s' is not one of this dimension's (%s, or '' for SI)", suffix, list);
}

const char *const *sensim__unit_suffixes(sensim_unit_dim dim) {
  /* Built once per dimension from the tables above (at most 8 each). */
  static const char *lists[10][9];
  const unit *u = units_of(dim);
  const char **l = lists[(int)dim];
  size_t n = 0;
  for (; u && u->suffix && n < 8; u++) l[n++] = u->suffix;
  l[n] = NULL;
  return l;
}

double sensim__gm_avar_ratio(double x) {
  /* IEEE 952 Annex C (exponentially correlated noise) with q_c^2 = 2
   * sigma^2 / T: AVAR = (2 sigma^2 / x) [1 - (3 - 4 e^-x + e^-2x) / (2x)].
   * For small x the bracket cancels: its series 2x/3 - x^2/2 + ... is used
   * below x = 1e-3, where the closed form loses digits. */
  if (x < 1e-3) return 2.0 * x / 3.0 - 0.5 * x * x;
  double e = exp(-x);
  return (2.0 / x) * (1.0 - (3.0 - 4.0 * e + e * e) / (2.0 * x));
}

double sensim__gm_avar_peak(void) {
  /* Golden-section search on [0.5, 5] (the peak is at tau ~ 1.89 T, value
   * ~ 0.381 sigma^2; the function is unimodal there). */
  const double r = 0.5 * (sqrt(5.0) - 1.0);
  double a = 0.5, b = 5.0;
  double c = b - r * (b - a), d = a + r * (b - a);
  double fc = sensim__gm_avar_ratio(c), fd = sensim__gm_avar_ratio(d);
  for (int i = 0; i < 80; i++) {
    if (fc > fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - r * (b - a);
      fc = sensim__gm_avar_ratio(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + r * (b - a);
      fd = sensim__gm_avar_ratio(d);
    }
  }
  return sensim__gm_avar_ratio(0.5 * (a + b));
}
