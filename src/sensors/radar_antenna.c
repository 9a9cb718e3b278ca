/* sensors/radar_antenna.c: the radar antenna's gain across its field of
 * view. Each axis has the power pattern of a uniformly illuminated linear
 * aperture,
 *
 *     g(theta) = [sin(pi x) / (pi x)]^2,   x = 2 X3 theta / theta_3dB,
 *
 * (Balanis, "Antenna Theory", 3rd ed., 2005, sec. 6.3 and table 6.1:
 * first side lobe -13.26 dB, half power at pi x = 1.39156), with
 * X3 = 0.4429465 the half-power point of sinc^2 so that g(theta_3dB / 2)
 * = 1/2; theta_3dB the data sheet's full 3 dB beam width. Azimuth and
 * elevation patterns multiply (a separable planar array). A beam width of
 * 0 means a uniform gain. The gain at boresight is antenna_gain; this is
 * the one-way power relative to it, and an echo's power carries it twice
 * (out and back). */
#include <math.h>
#include "core/internal.h"
#include "sensors/radar_internal.h"
#include "sensors/radar_trig.h"

#define X3 0.4429464706894523

static double axis(double theta, double width) {
  if (!(width > 0)) return 1.0;
  const double x = M_PI * 2.0 * X3 * theta / width;
  if (fabs(x) < 1e-8) return 1.0;
  double sn, cs; /* (cs unused: one call serves both) */
  sensim__radar_sincos(x, &sn, &cs);
  const double s = sn / x;
  return s * s;
}

double sensim__radar_gain(const sensim_radar_params *p, double az, double el) {
  return axis(az, p->beam_width_az) * axis(el, p->beam_width_el);
}
