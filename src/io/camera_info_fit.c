/* io/camera_info_fit.c: a ROS distortion model fitted to a lens ROS has
 * no model for (sensim's FOV and division lenses), for the consumers that
 * know only plumb_bob and equidistant (image_geometry, image_proc,
 * camera_calibration_parsers), with the fitting error stated.
 *
 * Both ROS models are radial polynomials of the ray's angle theta from
 * the optical axis (sensor_msgs/distortion_models.hpp; OpenCV's
 * projectPoints and fisheye::projectPoints define them):
 *   plumb_bob    rho = r (1 + k1 r^2 + k2 r^4 + k3 r^6), r = tan theta
 *                (p1 = p2 = 0: both lenses are radially symmetric);
 *   equidistant  rho = theta (1 + k1 theta^2 + k2 theta^4 + k3 theta^6
 *                + k4 theta^8) (Kannala and Brandt, IEEE TPAMI 28(8),
 *                2006, eq. 6),
 * rho the distorted normalised radius, |((u - cx) / fx, (v - cy) / fy)|.
 * For each of a grid of pixels over the image, the exact lens gives the
 * ray (sensim_camera_pixel_ray) and so (theta, rho); the coefficients are
 * the linear least-squares fit of rho on the odd powers, the first
 * coefficient scaling the focal lengths (K's principal point kept). The error of a pixel is how far the fitted model
 * images its ray from it, in pixels; the model with the smaller largest
 * error wins (plumb_bob only where every ray is less than 80 deg off the
 * axis, as tan theta grows without bound). */
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "io/camera_info.h"

#define GRID 48        /* samples along the image's longer side */
#define MAX_TERMS 5

/* Solve the n x n system A x = b (row-major, destroyed) by Gaussian
 * elimination with partial pivoting; 0 when singular. */
static int solve(double *A, double *b, int n) {
  for (int c = 0; c < n; c++) {
    int piv = c;
    for (int r = c + 1; r < n; r++)
      if (fabs(A[r * n + c]) > fabs(A[piv * n + c])) piv = r;
    if (!(fabs(A[piv * n + c]) > 1e-300)) return 0;
    if (piv != c) {
      for (int k = 0; k < n; k++) {
        double t = A[c * n + k];
        A[c * n + k] = A[piv * n + k];
        A[piv * n + k] = t;
      }
      double t = b[c];
      b[c] = b[piv];
      b[piv] = t;
    }
    for (int r = c + 1; r < n; r++) {
      double f = A[r * n + c] / A[c * n + c];
      for (int k = c; k < n; k++) A[r * n + k] -= f * A[c * n + k];
      b[r] -= f * b[c];
    }
  }
  for (int c = n - 1; c >= 0; c--) {
    double s = b[c];
    for (int k = c + 1; k < n; k++) s -= A[c * n + k] * b[k];
    b[c] = s / A[c * n + c];
  }
  return 1;
}

typedef struct sample {
  double theta;  /* angle of the pixel's ray from the optical axis, rad */
  double rho;    /* its distorted normalised radius */
  double cu, cv; /* d(u, v) / d rho: fx cos(phi), fy sin(phi) */
} sample;

/* The fitted radius for a ray at theta: sum of c[i] x^(2i+1), x = theta
 * or tan theta. */
static double model_rho(int equidistant, const double *c, int n, double theta) {
  double x = equidistant ? theta : tan(theta), x2 = x * x, p = x, s = 0;
  for (int i = 0; i < n; i++, p *= x2) s += c[i] * p;
  return s;
}

/* Fit one model to the samples: c[0] the scale of the focal lengths (the
 * lens's K need not be the model's: sensim's FOV law's slope at the axis
 * is not 1), c[1..] its coefficients times c[0]; its errors in pixels. 0
 * when it cannot be fitted (a ray too far off axis for plumb_bob, a
 * singular system). */
static int fit_model(int equidistant, const sample *s, size_t ns, double *c, double *rms, double *maxe) {
  const int n = equidistant ? 5 : 4;
  double A[MAX_TERMS * MAX_TERMS] = {0}, b[MAX_TERMS] = {0};
  for (size_t i = 0; i < ns; i++) {
    if (!equidistant && !(s[i].theta < 80 * M_PI / 180)) return 0;
    double x = equidistant ? s[i].theta : tan(s[i].theta), x2 = x * x, f[MAX_TERMS], p = x;
    for (int j = 0; j < n; j++, p *= x2) f[j] = p;
    for (int r = 0; r < n; r++) {
      for (int q = 0; q < n; q++) A[r * n + q] += f[r] * f[q];
      b[r] += f[r] * s[i].rho;
    }
  }
  if (!solve(A, b, n) || !(b[0] > 0)) return 0;
  double sum = 0, worst = 0;
  for (size_t i = 0; i < ns; i++) {
    double d = model_rho(equidistant, b, n, s[i].theta) - s[i].rho;
    double e = fabs(d) * hypot(s[i].cu, s[i].cv);
    sum += e * e;
    worst = fmax(worst, e);
  }
  memset(c, 0, MAX_TERMS * sizeof *c);
  memcpy(c, b, (size_t)n * sizeof *b);
  *rms = sqrt(sum / (double)ns);
  *maxe = worst;
  return 1;
}

sensim_status sensim__camera_info_fit(const sensim_camera_params *cp, sensim__camera_info *out, double *rms_px,
                                      double *max_px) {
  if (!cp || !out || !rms_px || !max_px) return sensim__fail(SENSIM_EINVAL, "camera info fit: NULL argument");
  sensim__camera_info ci;
  sensim_status st = sensim__camera_info_from_params(cp, &ci);
  if (st) return st;
  if (cp->lens != SENSIM_LENS_FOV && cp->lens != SENSIM_LENS_DIVISION)
    return sensim__fail(SENSIM_EINVAL, "camera info fit: the %s model is ROS's own; nothing to fit", ci.model);
  const double fx = ci.K[0], fy = ci.K[4], cx = ci.K[2], cy = ci.K[5];
  const uint32_t W = cp->width, H = cp->height, big = W > H ? W : H;
  const int nu = W < 2 ? 1 : (int)fmax(2, round((double)GRID * W / big)),
            nv = H < 2 ? 1 : (int)fmax(2, round((double)GRID * H / big));
  sample s[GRID * GRID];
  size_t ns = 0;
  for (int j = 0; j < nv; j++)
    for (int i = 0; i < nu; i++) {
      /* from pixel edge to pixel edge: the corners are the worst */
      double u = nu > 1 ? -0.5 + (double)W * i / (nu - 1) : cx, v = nv > 1 ? -0.5 + (double)H * j / (nv - 1) : cy;
      sensim_vec3 d;
      if (sensim_camera_pixel_ray(cp, u, v, &d) != SENSIM_OK) continue; /* outside the lens's image */
      /* optical frame: z = X, x = -Y, y = -Z (camera.h) */
      double theta = atan2(hypot(d.y, d.z), d.x);
      double xn = (u - cx) / fx, yn = (v - cy) / fy, rho = hypot(xn, yn);
      if (!(rho > 1e-9)) continue;
      s[ns++] = (sample){theta, rho, fx * xn / rho, fy * yn / rho};
    }
  if (ns < 8) return sensim__fail(SENSIM_EINVAL, "camera info fit: the lens images too few of the %ux%u pixels", W, H);
  double kp[MAX_TERMS], ke[MAX_TERMS], rp = 0, mp = INFINITY, re = 0, me = INFINITY;
  int okp = fit_model(0, s, ns, kp, &rp, &mp), oke = fit_model(1, s, ns, ke, &re, &me);
  if (!okp && !oke) return sensim__fail(SENSIM_EINVAL, "camera info fit: no model could be fitted");
  *out = ci;
  memset(out->D, 0, sizeof out->D);
  const int plumb = okp && (!oke || mp <= me);
  const double *c = plumb ? kp : ke;
  /* rho_K = c0 (x + (c1 / c0) x^3 + ...): focal lengths scaled by c0, the
   * model's coefficients c_i / c0, the principal point kept. */
  out->K[0] = out->P[0] = ci.K[0] * c[0];
  out->K[4] = out->P[5] = ci.K[4] * c[0];
  if (plumb) {
    out->model = "plumb_bob";
    out->nd = 5;
    out->D[0] = c[1] / c[0], out->D[1] = c[2] / c[0], out->D[4] = c[3] / c[0]; /* k1 k2 p1 p2 k3 */
    *rms_px = rp, *max_px = mp;
  } else {
    out->model = "equidistant";
    out->nd = 4;
    for (int i = 0; i < 4; i++) out->D[i] = c[i + 1] / c[0];
    *rms_px = re, *max_px = me;
  }
  return SENSIM_OK;
}
