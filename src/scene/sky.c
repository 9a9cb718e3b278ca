/* scene/sky.c: the clear sky of A. J. Preetham, P. Shirley and B. Smits,
 * "A practical analytic model for daylight", SIGGRAPH 1999 (appendix A.2):
 * luminance Y and chromaticity x, y at the zenith as polynomials in the
 * turbidity T and the sun's zenith angle, spread over the sky by Perez et
 * al.'s all-weather function F(theta, gamma) = (1 + A e^(B / cos theta))
 * (1 + C e^(D gamma) + E cos^2 gamma) normalised at the zenith; xyY to
 * linear sRGB by the IEC 61966-2-1 matrix.
 *
 * Why Preetham and not Hosek-Wilkie 2012: Hosek-Wilkie needs its fitted
 * data tables (tens of thousands of coefficients), which no Debian package
 * ships and which we cannot vendor; Preetham is closed form. It is known
 * to be too bright near the horizon at high turbidity and wrong below
 * 0 deg of solar elevation (where we make the sky dark).
 *
 * The sun: extraterrestrial illuminance E0 = 133.8 klx (Darula, Kittler &
 * Gueymard 2005, "Reference luminous solar constant and solar luminance
 * for illuminance calculations", Solar Energy 79) as a disc of 0.53 deg,
 * attenuated per channel by Rayleigh scattering, tau_R = 0.008735
 * lambda^-4.08 (Leckner 1978, lambda in um), and aerosols after Angstrom,
 * tau_A = beta lambda^-1.3 with beta = 0.04608 T - 0.04586 (Preetham et
 * al. 1999, A.1), over the Kasten & Young (1989) air mass; ozone and water
 * vapour are left out. Channel wavelengths 0.61, 0.55, 0.465 um. */
#include <math.h>
#include "core/vecmath.h"
#include "scene/environment.h"

#define EFFICACY 683.0 /* lm/W: luminous efficacy at 555 nm (SI definition of the candela) */
#define SUN_E0 133800.0 /* lx */
#define SUN_DIAMETER (0.53 * M_PI / 180.0)

static double perez(const double c[5], double cos_theta, double gamma) {
  const double cg = cos(gamma);
  return (1.0 + c[0] * exp(c[1] / cos_theta)) * (1.0 + c[2] * exp(c[3] * gamma) + c[4] * cg * cg);
}

void sensim__sky_init(sensim_env *e) {
  const double T = e->desc.turbidity, el = e->desc.sun_elevation, az = e->desc.sun_azimuth;
  e->sun_dir[0] = cos(el) * sin(az);
  e->sun_dir[1] = cos(el) * cos(az);
  e->sun_dir[2] = sin(el);
  e->up = el > 0.0;
  e->has_sun = 0;
  if (!e->up) return;
  const double ts = M_PI / 2 - el, ts2 = ts * ts, ts3 = ts2 * ts;
  /* Zenith luminance, kcd/m^2 (Preetham A.2). */
  const double chi = (4.0 / 9.0 - T / 120.0) * (M_PI - 2.0 * ts);
  const double Yz = (4.0453 * T - 4.9710) * tan(chi) - 0.2155 * T + 2.4192;
  const double xz = (0.00166 * ts3 - 0.00375 * ts2 + 0.00209 * ts) * T * T +
                    (-0.02903 * ts3 + 0.06377 * ts2 - 0.03202 * ts + 0.00394) * T +
                    (0.11693 * ts3 - 0.21196 * ts2 + 0.06052 * ts + 0.25886);
  const double yz = (0.00275 * ts3 - 0.00610 * ts2 + 0.00317 * ts) * T * T +
                    (-0.04214 * ts3 + 0.08970 * ts2 - 0.04153 * ts + 0.00516) * T +
                    (0.15346 * ts3 - 0.26756 * ts2 + 0.06670 * ts + 0.26688);
  e->zen[0] = Yz * 1000.0 / EFFICACY;
  e->zen[1] = xz;
  e->zen[2] = yz;
  const double c[3][5] = {
      {0.1787 * T - 1.4630, -0.3554 * T + 0.4275, -0.0227 * T + 5.3251, 0.1206 * T - 2.5771, -0.0670 * T + 0.3703},
      {-0.0193 * T - 0.2592, -0.0665 * T + 0.0008, -0.0004 * T + 0.2125, -0.0641 * T - 0.8989, -0.0033 * T + 0.0452},
      {-0.0167 * T - 0.2608, -0.0950 * T + 0.0092, -0.0079 * T + 0.2102, -0.0441 * T - 1.6537, -0.0109 * T + 0.0529}};
  for (int q = 0; q < 3; q++) {
    for (int k = 0; k < 5; k++) e->perez[q][k] = c[q][k];
    e->f0[q] = perez(c[q], 1.0, ts);
  }
  if (!e->desc.sun) return;
  /* The sun through the atmosphere. */
  const double zd = ts * 180.0 / M_PI;
  const double m = 1.0 / (cos(ts) + 0.50572 * pow(96.07995 - zd, -1.6364));
  const double beta = 0.04608 * T - 0.04586;
  const double lam[3] = {0.61, 0.55, 0.465};
  const double h = 0.5 * SUN_DIAMETER, sh = sin(h);
  const double L0 = SUN_E0 / (M_PI * sh * sh) / EFFICACY;
  for (int k = 0; k < 3; k++) {
    const double tau = 0.008735 * pow(lam[k], -4.08) + beta * pow(lam[k], -1.3);
    e->sun_L[k] = (float)(L0 * exp(-m * tau));
    e->sun_to[k] = (float)e->sun_dir[k];
  }
  e->sun_cos = (float)cos(h);
  e->sun_omega = (float)(4.0 * M_PI * sin(0.5 * h) * sin(0.5 * h));
  e->has_sun = 1;
}

void sensim__sky_radiance(const sensim_env *e, const float d[3], float L[3]) {
  L[0] = L[1] = L[2] = 0.0f;
  if (!e->up || !(d[2] > 0.0f)) return; /* no sky below the horizon: the ground is the scene's */
  const double ct = d[2] > 1e-3f ? d[2] : 1e-3;
  double cg = d[0] * e->sun_dir[0] + d[1] * e->sun_dir[1] + d[2] * e->sun_dir[2];
  if (cg > 1.0) cg = 1.0;
  if (cg < -1.0) cg = -1.0;
  const double g = acos(cg);
  double v[3];
  for (int q = 0; q < 3; q++) v[q] = e->zen[q] * perez(e->perez[q], ct, g) / e->f0[q];
  const double Y = v[0], x = v[1], y = v[2];
  if (!(Y > 0.0) || !(y > 0.0)) return;
  const double X = x / y * Y, Z = (1.0 - x - y) / y * Y;
  const double rgb[3] = {3.2406 * X - 1.5372 * Y - 0.4986 * Z, -0.9689 * X + 1.8758 * Y + 0.0415 * Z,
                         0.0557 * X - 0.2040 * Y + 1.0570 * Z};
  for (int k = 0; k < 3; k++) L[k] = rgb[k] > 0.0 ? (float)rgb[k] : 0.0f;
}
