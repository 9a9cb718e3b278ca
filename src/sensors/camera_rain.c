/* sensors/camera_rain.c: rain streaks in a camera's image (docs/weather.md,
 * "Camera: rain streaks").
 *
 * A simple model after Garg & Nayar (2006), "Photorealistic rendering of
 * rain streaks" (SIGGRAPH): during the exposure T each drop near the camera
 * falls at its terminal velocity
 *   v(D) = 9.65 - 10.3 exp(-0.6 D) m/s   (D mm; Atlas, Srivastava & Sekhon
 *   1973, Rev. Geophys. 11, fitting Gunn & Kinzer 1949)
 * and its image sweeps a streak of length |proj(p + v T g) - proj(p)|
 * pixels: v T f / z for a level pinhole camera, z the drop's depth. A drop
 * of image diameter d = f D / z px lays (pi/4) d^2 px of itself on the
 * image over the exposure (its area, time-averaged), spread along the
 * streak, so each pixel of a streak drawn one pixel wide takes the weight
 *   a = min(1, (pi/4) d^2 / max(L + d, 1))
 * of the drop's radiance: a drop refracts a wide cone of the sky behind the
 * camera and shows roughly its radiance whatever lies behind it (Garg &
 * Nayar 2004, "Vision and rain"), here the world's background. With T = 0
 * drops are frozen: dots of weight (pi/4) d^2.
 *
 * Which drops: Marshall-Palmer's N(D) (scene/weather.c) fills the camera's
 * frustum; a drop is drawn when its weight reaches 1/256 (an 8-bit step
 * of the sky): a = (pi/4) f D^2 / (z (v T + D)) falls as 1/z; and while
 * its image is at least a pixel wide, z <= f D: farther drops "are not
 * individually visible" and act together as fog (Garg & Nayar 2004), which
 * the extinction already holds. So a drop of size D is drawn out to
 *   z_max(D) = min(f D, (pi/4) f D^2 / ((v T + D) / 256)),
 * and nearer than 0.1 m none (inside the lens hood, out of focus). The drops
 * drawn are a Poisson process of intensity
 *   n(D) = N(D) (4 tx ty / 3) (z_max(D)^3 - z_near^3)   per mm of D
 * (the frustum's volume to z_max, tx, ty its half-width tangents), placed
 * uniformly in that volume (z with density z^2). Farther drops are the
 * extinction's (the camera's visibility): the aggregate of many faint ones. */
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "scene/weather.h"
#include "sensim/rng.h"
#include "sensors/camera_rain.h"
#include "sensors/optics_lens.h"

#define RAIN_D_MAX 8.0       /* mm: drops break up beyond about 6 mm; N(D) there is negligible */
#define RAIN_Z_NEAR 0.1      /* m */
#define RAIN_MIN_WEIGHT (1.0 / 256.0)
#define RAIN_TAN_MAX 5.67    /* tan(80 deg): a wider lens's edges get no drops */
#define RAIN_MAX_DROPS 200000 /* per frame, the nearest sizes first: bounds a cloudburst's cost */

double sensim__rain_fall_speed(double d_mm) {
  double v = 9.65 - 10.3 * exp(-0.6 * d_mm);
  return v > 0.0 ? v : 0.0;
}

static double focal(const lens *L) { return L->sx; }

double sensim__rain_zmax(double f_px, double exposure, double d_mm) {
  const double D = d_mm * 1e-3, vt = sensim__rain_fall_speed(d_mm) * exposure;
  if (!(D > 0.0)) return 0.0;
  const double seen = M_PI / 4.0 * f_px * D * D / ((vt + D) * RAIN_MIN_WEIGHT);
  return seen < f_px * D ? seen : f_px * D;
}

/* Half-width tangents of the frustum holding the image: the widest
 * optical-frame directions of the border pixels. */
static void frustum(const lens *L, double *tx, double *ty) {
  *tx = *ty = 0.0;
  const int n = 64;
  for (int i = 0; i <= n; i++)
    for (int e = 0; e < 4; e++) {
      double s = (double)i / n, u, v, o[3];
      u = e < 2 ? s * (L->W - 1) : (e == 2 ? 0.0 : L->W - 1);
      v = e < 2 ? (e == 0 ? 0.0 : L->H - 1) : s * (L->H - 1);
      /* Half a pixel beyond the border: a streak may start outside. */
      u += u <= 0.0 ? -0.5 : (u >= L->W - 1 ? 0.5 : 0.0);
      v += v <= 0.0 ? -0.5 : (v >= L->H - 1 ? 0.5 : 0.0);
      double x = RAIN_TAN_MAX, y = RAIN_TAN_MAX;
      if (sensim__lens_inverse(L, u, v, o) && o[2] > 0.0) {
        x = fmin(fabs(o[0] / o[2]), RAIN_TAN_MAX);
        y = fmin(fabs(o[1] / o[2]), RAIN_TAN_MAX);
      }
      if (x > *tx) *tx = x;
      if (y > *ty) *ty = y;
    }
}

/* n(D) on a grid of RAIN_GRID intervals over [0, RAIN_D_MAX], and its
 * running integral (trapezoids). */
#define RAIN_GRID 2048
typedef struct rain_table {
  double n[RAIN_GRID + 1], cum[RAIN_GRID + 1];
  double n0, lambda, f, exposure, tx, ty;
} rain_table;

static double drops_per_mm(const rain_table *t, double d) {
  double zm = sensim__rain_zmax(t->f, t->exposure, d);
  if (!(zm > RAIN_Z_NEAR)) return 0.0;
  const double zn3 = RAIN_Z_NEAR * RAIN_Z_NEAR * RAIN_Z_NEAR;
  return t->n0 * exp(-t->lambda * d) * 4.0 * t->tx * t->ty / 3.0 * (zm * zm * zm - zn3);
}

static void table_init(rain_table *t, const lens *L, double rate, double exposure) {
  sensim_particles q;
  sensim__rain_particles(rate, &q);
  t->n0 = q.n0;
  t->lambda = q.lambda;
  t->f = focal(L);
  t->exposure = exposure;
  frustum(L, &t->tx, &t->ty);
  const double h = RAIN_D_MAX / RAIN_GRID;
  for (int i = 0; i <= RAIN_GRID; i++) {
    t->n[i] = drops_per_mm(t, i * h);
    t->cum[i] = i ? t->cum[i - 1] + 0.5 * (t->n[i - 1] + t->n[i]) * h : 0.0;
  }
}

sensim_status sensim__rain_expected(const sensim_camera_params *cp, double rate, double *out) {
  lens L;
  sensim_status rc = sensim__lens_init(cp, &L);
  if (rc) return rc;
  rain_table t;
  table_init(&t, &L, rate, cp->exposure_time);
  *out = t.cum[RAIN_GRID];
  return SENSIM_OK;
}

sensim_status sensim__rain_streak(const sensim_camera_params *cp, const double p[3], const double fall[3], double d_mm,
                                  double uv[4]) {
  lens L;
  sensim_status rc = sensim__lens_init(cp, &L);
  if (rc) return rc;
  const double s = sensim__rain_fall_speed(d_mm) * cp->exposure_time;
  const double q[3] = {p[0] + s * fall[0], p[1] + s * fall[1], p[2] + s * fall[2]};
  if (sensim__lens_forward(&L, p, &uv[0], &uv[1]) || sensim__lens_forward(&L, q, &uv[2], &uv[3]))
    return sensim__fail(SENSIM_EINVAL, "rain drop outside the lens's field");
  return SENSIM_OK;
}

/* The drop's distance as the depth plane measures it: along the optical
 * axis, or along the ray. */
static double drop_depth(const double o[3], int along_ray) {
  return along_ray ? sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]) : o[2];
}

/* One streak from pixel (u0, v0) to (u1, v1), drawn one pixel wide with
 * weight a towards the sky radiance, behind nothing nearer than depth z. */
static void draw(const sensim_camera_params *cp, float *rgb, const float *depth, double u0, double v0, double u1,
                 double v1, double a, double z, const float sky[3]) {
  const double len = hypot(u1 - u0, v1 - v0);
  const int n = len > 1.0 ? (int)ceil(len) : 1;
  long last = -1;
  for (int k = 0; k <= n; k++) {
    double s = n > 0 ? (double)k / n : 0.0;
    long x = lround(u0 + s * (u1 - u0)), y = lround(v0 + s * (v1 - v0));
    if (x < 0 || y < 0 || x >= (long)cp->width || y >= (long)cp->height) continue;
    long px = y * (long)cp->width + x;
    if (px == last) continue;
    last = px;
    if (depth && depth[px] > 0.0f && depth[px] < z) continue; /* behind a surface */
    float *c = rgb + 3 * px;
    for (int ch = 0; ch < 3; ch++) c[ch] = (float)((1.0 - a) * c[ch] + a * sky[ch]);
  }
}

sensim_status sensim__rain_draw(const sensim_camera_params *cp, double rate, const float sky[3], sensim_pose pose,
                                sensim_rng *rng, float *rgb, const float *depth, size_t *ndrops) {
  *ndrops = 0;
  if (!(rate > 0.0)) return SENSIM_OK;
  lens L;
  sensim_status rc = sensim__lens_init(cp, &L);
  if (rc) return rc;
  rain_table *t = sensim__frame_buffer(sizeof *t, 0);
  if (!t) return sensim__fail(SENSIM_ENOMEM, "out of memory for a camera's rain table");
  table_init(t, &L, rate, cp->exposure_time);
  /* World down (-Z) in the optical frame (x right, y down, z forward):
   * the sensor frame's (X forward, Y left, Z up) is (z, -x, -y). */
  sensim_quat inv = {pose.rot.w, -pose.rot.x, -pose.rot.y, -pose.rot.z};
  sensim_vec3 g = sensim_quat_rotate(inv, (sensim_vec3){0.0, 0.0, -1.0});
  const double fall[3] = {-g.y, -g.z, g.x};
  const double total = t->cum[RAIN_GRID], h = RAIN_D_MAX / RAIN_GRID;
  const double zn3 = RAIN_Z_NEAR * RAIN_Z_NEAR * RAIN_Z_NEAR;
  double arrival = 0.0;
  int i = 0;
  size_t drawn = 0;
  while (drawn < RAIN_MAX_DROPS) {
    arrival -= log(1.0 - sensim_rng_uniform(rng));
    if (!(arrival < total)) break;
    while (i < RAIN_GRID - 1 && t->cum[i + 1] <= arrival) i++;
    /* Size: invert the piecewise-linear n(D) in interval i. */
    double a0 = t->n[i], b0 = t->n[i + 1], sres = arrival - t->cum[i];
    double disc = a0 * a0 + 2.0 * (b0 - a0) * sres / h;
    double x = disc > 0.0 ? 2.0 * sres / (a0 + sqrt(disc)) : h;
    if (x > h) x = h;
    const double d = i * h + (x > 0.0 ? x : 0.0);
    double u1 = sensim_rng_uniform(rng), u2 = sensim_rng_uniform(rng), u3 = sensim_rng_uniform(rng);
    drawn++;
    double zm = sensim__rain_zmax(t->f, cp->exposure_time, d);
    if (!(zm > RAIN_Z_NEAR)) continue;
    double z = cbrt(zn3 + u1 * (zm * zm * zm - zn3));
    double o[3] = {(2.0 * u2 - 1.0) * t->tx * z, (2.0 * u3 - 1.0) * t->ty * z, z};
    double uv[4];
    const double s = sensim__rain_fall_speed(d) * cp->exposure_time;
    const double q[3] = {o[0] + s * fall[0], o[1] + s * fall[1], o[2] + s * fall[2]};
    if (sensim__lens_forward(&L, o, &uv[0], &uv[1]) || sensim__lens_forward(&L, q, &uv[2], &uv[3])) continue;
    const double dp = t->f * d * 1e-3 / z, len = hypot(uv[2] - uv[0], uv[3] - uv[1]);
    double a = M_PI / 4.0 * dp * dp / fmax(len + dp, 1.0);
    if (a > 1.0) a = 1.0;
    draw(cp, rgb, depth, uv[0], uv[1], uv[2], uv[3], a, drop_depth(o, cp->depth_along_ray), sky);
  }
  *ndrops = drawn;
  sensim__frame_buffer_free(t);
  return SENSIM_OK;
}
