/* scene/weather.c: the world's weather (docs/weather.md): its ranges, the
 * extinction of light by fog, rain and snow, and the size distributions of
 * drops and flakes. One setting for every sensor: the camera and the lidar
 * read it from the capture's snapshot. */
#include <math.h>
#include "core/internal.h"
#include "scene/scene.h"
#include "scene/weather.h"

/* Koschmieder (1924): visibility V = -ln(eps) / beta at the contrast
 * threshold eps = 0.02, so beta = 3.912 / V. */
#define KOSCHMIEDER 3.912023005428146

sensim_status sensim__weather_check(const sensim_weather *w, const char *who) {
  if (!w) return sensim__fail(SENSIM_EINVAL, "%s: weather is NULL", who);
  if (!(w->fog_visibility == 0.0 || (w->fog_visibility >= 1.0 && w->fog_visibility <= 1e6)))
    return sensim__fail(SENSIM_EINVAL,
                        "%s.fog_visibility = %g m must be 0 (no fog) or in [1, 1e6] (denser than any fog below 1 m)",
                        who, w->fog_visibility);
  if (!(w->rain_rate >= 0.0 && w->rain_rate <= SENSIM_RAIN_RATE_MAX))
    return sensim__fail(SENSIM_EINVAL, "%s.rain_rate = %g mm/h must be in [0, %g] (0: no rain; %g is a cloudburst)",
                        who, w->rain_rate, SENSIM_RAIN_RATE_MAX, SENSIM_RAIN_RATE_MAX);
  if (!(w->snow_rate >= 0.0 && w->snow_rate <= SENSIM_SNOW_RATE_MAX))
    return sensim__fail(SENSIM_EINVAL,
                        "%s.snow_rate = %g mm/h of melted water must be in [0, %g] (0: no snow; the heaviest "
                        "snowfalls reach some 10)",
                        who, w->snow_rate, SENSIM_SNOW_RATE_MAX);
  return SENSIM_OK;
}

/* Marshall & Palmer (1948), "The distribution of raindrops with size",
 * J. Meteor. 5: N(D) = 8000 exp(-4.1 R^-0.21 D) m^-3 mm^-1, D the drop's
 * diameter, mm; R mm/h. A drop is a sphere: cross-section pi/4 D^2. Its
 * backscatter is the specular reflection of a water sphere (Fresnel at
 * normal incidence, n = 1.33: R0 = ((n - 1)/(n + 1))^2 = 0.020), spread
 * evenly over 4 pi sr: backscatter cross-section R0 A. A Lambertian disc of
 * area A and reflectance rho has 4 rho A, so a drop counts as rho = R0 / 4. */
void sensim__rain_particles(double rate, sensim_particles *p) {
  p->n0 = 8000.0;
  p->lambda = 4.1 * pow(rate, -0.21);
  p->area_k = M_PI / 4.0;
  p->area_e = 2.0;
  const double n = 1.33, r0 = (n - 1.0) * (n - 1.0) / ((n + 1.0) * (n + 1.0));
  p->albedo = r0 / 4.0;
}

/* Gunn & Marshall (1958), "The distribution with size of aggregate
 * snowflakes", J. Meteor. 15: N(D) = 3800 R^-0.87 exp(-2.55 R^-0.48 D)
 * m^-3 mm^-1, D the diameter of the flake melted, mm; R mm/h of water.
 * The flake itself is larger: Holroyd's (1971) density of aggregates,
 * rho_s = 0.17 / D_f g/cm^3 (D_f mm), with its mass rho_w D^3 gives
 * D_f^2 = D^3 / 0.17, so its cross-section is pi/4 D^3 / 0.17 mm^2. A flake
 * scatters like the snow it makes: a Lambertian disc of fresh snow's
 * near-infrared reflectance, 0.9 (Warren 1982, Rev. Geophys. 20, fig. 11). */
void sensim__snow_particles(double rate, sensim_particles *p) {
  p->n0 = 3800.0 * pow(rate, -0.87);
  p->lambda = 2.55 * pow(rate, -0.48);
  p->area_k = M_PI / (4.0 * 0.17);
  p->area_e = 3.0;
  p->albedo = 0.9;
}

/* Drops and flakes are thousands of wavelengths across: their extinction
 * efficiency is 2 (van de Hulst 1957, "Light Scattering by Small
 * Particles", sec. 8.22), the same at 550 nm and 905 nm. Over the
 * distribution, integral area_k D^e n0 exp(-lambda D) dD =
 * area_k n0 Gamma(e + 1) / lambda^(e + 1), mm^2/m^3 = 1e-6 / m. */
double sensim__particles_beta(const sensim_particles *p) {
  return 2.0 * p->area_k * p->n0 * tgamma(p->area_e + 1.0) / pow(p->lambda, p->area_e + 1.0) * 1e-6;
}

double sensim__rain_beta(double rate) {
  if (!(rate > 0.0)) return 0.0;
  sensim_particles p;
  sensim__rain_particles(rate, &p);
  return sensim__particles_beta(&p);
}

double sensim__snow_beta(double rate) {
  if (!(rate > 0.0)) return 0.0;
  sensim_particles p;
  sensim__snow_particles(rate, &p);
  return sensim__particles_beta(&p);
}

double sensim__weather_beta(const sensim_weather *w, double sensor_fog_visibility) {
  double v = sensor_fog_visibility > 0.0 ? sensor_fog_visibility : w->fog_visibility;
  double fog = v > 0.0 ? KOSCHMIEDER / v : 0.0;
  return fog + sensim__rain_beta(w->rain_rate) + sensim__snow_beta(w->snow_rate);
}

double sensim_weather_extinction(const sensim_weather *w, double fog_visibility) {
  if (!w || !(fog_visibility >= 0.0 && isfinite(fog_visibility))) return NAN;
  if (sensim__weather_check(w, "weather")) return NAN;
  return sensim__weather_beta(w, fog_visibility);
}

sensim_status sensim_world_set_weather(sensim_world *world, const sensim_weather *weather) {
  if (!world || !weather) return sensim__fail(SENSIM_EINVAL, "sensim_world_set_weather: NULL argument");
  sensim_status rc = sensim__weather_check(weather, "weather");
  if (rc) return rc;
  world->params.weather = *weather;
  return SENSIM_OK;
}
