/* sensors/render/bsdf.h: the path integrator's surface scattering model,
 * glTF 2.0's metallic-roughness material made energy-correct, in the local
 * shading frame (+z the normal, turned towards the viewer). Not installed.
 *
 * f = (1 - metallic) [(1 - transmission) f_layer + transmission f_glass]
 *     + metallic f_metal
 *  - f_layer: a GGX specular layer with Fresnel F = specular x Schlick's
 *    at F0 = ((ior - 1) / (ior + 1))^2 (KHR_materials_ior and
 *    KHR_materials_specular) over a Lambertian base whose
 *    energy is what the layer does not reflect, on the way in and on the way
 *    out: rho (1 - E_F(mu_o)) (1 - E_F(mu_i)) / (pi (1 - E_F,avg))
 *    (Kulla & Conty 2017's energy-conserving layering): its albedo is
 *    E_F(mu_o) + rho (1 - E_F(mu_o)), exactly 1 at rho = 1.
 *  - f_metal: GGX with Schlick's Fresnel at F0 = base colour, plus Kulla
 *    and Conty's multiple-scattering lobe
 *    (1 - E(mu_o)) (1 - E(mu_i)) / (pi (1 - E_avg)) x
 *    F_avg^2 E_avg / (1 - F_avg (1 - E_avg)), F_avg = (20 F0 + 1) / 21,
 *    so a white metal reflects everything at every roughness.
 *  - f_glass: a smooth dielectric interface (a delta lobe): reflection
 *    with the Fresnel equations for unpolarised light, refraction by
 *    Snell's law with the radiance scaled by 1 / eta^2 and tinted by the
 *    base colour (KHR_materials_transmission); thin-walled: straight
 *    through, with the slab's reflectance R' = 2R / (1 + R) of its two
 *    faces' incoherent interreflections.
 * Sampling: the glass lobe with its weight, else GGX visible normals or
 * the cosine lobe in proportion to their albedo at the view. */
#ifndef SENSIM_RENDER_BSDF_H
#define SENSIM_RENDER_BSDF_H

typedef struct sensim_bsdf {
  float base[3];      /* base colour */
  float rough, alpha; /* perceptual roughness; GGX alpha */
  float metal;        /* metallic */
  float f0d;          /* the layer's reflectance at normal incidence, ((ior - 1) / (ior + 1))^2 */
  float ks;           /* the layer's strength (KHR_materials_specular): F = ks Schlick(f0d) */
  float glass;        /* weight of the delta glass lobe, (1 - metallic) transmission */
  float eta;          /* ior of the side the light enters over the viewer's side */
  int thin;           /* thin-walled glass */
  /* Filled by sensim__bsdf_prepare for the view: */
  float mu_o;
  float kd;           /* (1 - metal)(1 - transmission)(1 - E_F(mu_o)) / (pi (1 - E_F,avg)) */
  float kms[3];       /* metal (1 - E(mu_o)) F_ms / (pi (1 - E_avg)) per channel */
  float p_spec;       /* of the non-glass lobes, the chance of sampling GGX */
  float w_layer;      /* (1 - metal)(1 - transmission) */
} sensim_bsdf;

/* Set b's material. `entering`: the viewer is on the front (outer) side of
 * the surface, whose ior is 1 (air); else inside the material. */
void sensim__bsdf_init(sensim_bsdf *b, const float base[3], float roughness, float metallic, float specular,
                       float ior, float transmission, int thin, int entering);

/* Precompute what depends on the view o (local, o.z > 0). */
void sensim__bsdf_prepare(sensim_bsdf *b, const float o[3]);

/* f(o, i) |i.z| (fc) and the density (solid angle) with which
 * sensim__bsdf_sample draws i, for the non-delta lobes. */
void sensim__bsdf_eval(const sensim_bsdf *b, const float o[3], const float i[3], float fc[3], float *pdf);

/* Draw i from the uniforms u[0..2]: weight = f |i.z| / pdf (the
 * throughput factor), pdf its density (0 for a delta lobe, *delta = 1).
 * Returns 0 where nothing is drawn (the path ends). */
int sensim__bsdf_sample(const sensim_bsdf *b, const float o[3], const float u[3], float i[3], float weight[3],
                        float *pdf, int *delta);

/* The Fresnel reflectance of a smooth dielectric interface for unpolarised
 * light at cos_i (> 0) with relative ior eta = n_t / n_i; 1 beyond the
 * critical angle. *cos_t gets the refracted cosine (0 then). */
float sensim__fresnel_dielectric(float cos_i, float eta, float *cos_t);

#endif
