/* sensors/render/energy.h: how much light one GGX microfacet bounce
 * reflects, tabulated once per process, so the BSDF can give back what
 * single scattering loses (Kulla & Conty 2017, "Revisiting physically
 * based shading at Imageworks", SIGGRAPH course) and couple its diffuse
 * layer without creating or losing energy. Not installed.
 *
 * With Schlick's Fresnel F = F0 (1 - m5) + m5, m5 = (1 - o.h)^5, the
 * directional albedo of the single-scattering lobe is linear in F0:
 * E_F(mu) = F0 (E1(mu) - Em5(mu)) + Em5(mu), with E1 the albedo at F = 1
 * and Em5 the albedo weighted by m5 (Karis 2013's split of the same
 * integral). Both are tabulated over (cos theta_o, roughness); the
 * cosine-weighted averages E_avg = 2 int_0^1 E(mu) mu dmu are integrals of
 * the interpolated table itself, so layers built on them conserve energy
 * exactly up to the table's own Monte Carlo error (1024 stratified
 * visible-normal samples per node: below 0.1 %). */
#ifndef SENSIM_RENDER_ENERGY_H
#define SENSIM_RENDER_ENERGY_H

/* GGX alpha of a perceptual roughness, clamped away from 0 where the lobe
 * is a numerical spike (as the direct integrator does). */
static inline float sensim__ggx_alpha(float roughness) {
  const float a = roughness * roughness;
  return a < 1e-3f ? 1e-3f : a;
}

/* Build the tables (first call only; thread-safe; about 20 ms). */
void sensim__energy_init(void);

/* E1 and Em5 at cos theta_o = mu, roughness r (bilinear). Call
 * sensim__energy_init first. */
void sensim__energy_at(float mu, float r, float *e1, float *em5);

/* Their cosine-weighted hemispherical averages at roughness r. */
void sensim__energy_avg(float r, float *e1, float *em5);

#endif
