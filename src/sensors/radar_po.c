/* sensors/radar_po.c: the physical-optics integral of a flat triangle in
 * closed form, I = int exp(j w . (r - c)) dA over the facet, w the
 * in-plane gradient of the two-way phase (radar_facets.c).
 *
 * W. B. Gordon, "Far-field approximations to the Kirchhoff-Helmholtz
 * representations of scattered fields", IEEE Trans. Antennas Propag.
 * 23(4):590-592, 1975, from the divergence theorem in the facet's plane:
 *
 *   I = (1 / (j |w|^2)) sum_edges (w . (b - a) x n)
 *                       exp(j w . m_ab) sinc(w . (b - a) / 2),
 *
 * edges a -> b counter-clockwise about n, m_ab their midpoints relative to
 * the centroid c, sinc x = sin x / x; I = area when |w| times the facet's
 * size is below 1e-3 (the formula's limit; its next term is of order
 * (|w| size)^2). */
#include <math.h>
#include "core/vecmath.h"
#include "sensors/radar_internal.h"
#include "sensors/radar_trig.h"

static double sinc(double x) { return fabs(x) < 1e-8 ? 1.0 - x * x / 6.0 : sin(x) / x; }

void sensim__radar_po_triangle(const sensim_vec3 v[3], sensim_vec3 w, double *re, double *im) {
  const sensim_vec3 nn = v3_cross(v3_sub(v[1], v[0]), v3_sub(v[2], v[0]));
  const double twice_area = v3_norm(nn);
  *re = *im = 0.0;
  if (!(twice_area > 0)) return;
  const sensim_vec3 n = v3_scale(nn, 1.0 / twice_area);
  w = v3_sub(w, v3_scale(n, v3_dot(w, n))); /* only the in-plane part carries phase */
  const double w2 = v3_dot(w, w);
  double size2 = 0.0; /* the largest |v|^2 */
  for (int i = 0; i < 3; i++) {
    const double r2 = v3_dot(v[i], v[i]);
    size2 = r2 > size2 ? r2 : size2;
  }
  if (w2 * size2 < 1e-6) {
    /* exp(j w . (r - c)) = 1 + j w . (r - c) + O((w size)^2); the linear
     * term integrates to zero about the centroid. */
    *re = 0.5 * twice_area;
    return;
  }
  /* Each edge's term flux sinc(d/2) exp(j m), d = w . (b - a) and
   * m = w . (a + b) / 2 its phases' difference and mean, is
   * flux (exp(j w . b) - exp(j w . a)) / (j d): three vertex phasors serve
   * all edges (three sincos instead of six sines and cosines). Where d is
   * small the difference cancels (relative error ~ 1e-16 / |d|), so below
   * |d| = 1e-2 the sinc form stands. */
  double cr[3], ci[3];
  for (int i = 0; i < 3; i++) sensim__radar_sincos(v3_dot(w, v[i]), &ci[i], &cr[i]);
  double sr = 0.0, si = 0.0;
  for (int i = 0; i < 3; i++) {
    const int j = (i + 1) % 3;
    const sensim_vec3 e = v3_sub(v[j], v[i]);
    const double flux = v3_dot(w, v3_cross(e, n));
    const double d = v3_dot(w, e);
    if (fabs(d) >= 1e-2) {
      /* flux (E_b - E_a) / (j d) = (flux / d) (Im, -Re) of E_b - E_a */
      const double f = flux / d;
      sr += f * (ci[j] - ci[i]);
      si -= f * (cr[j] - cr[i]);
    } else {
      double sp, cp;
      sensim__radar_sincos(0.5 * (v3_dot(w, v[i]) + v3_dot(w, v[j])), &sp, &cp);
      const double s = flux * sinc(0.5 * d);
      sr += s * cp;
      si += s * sp;
    }
  }
  /* divided by j |w|^2: (sr + j si) / j = si - j sr */
  *re = si / w2;
  *im = -sr / w2;
}
