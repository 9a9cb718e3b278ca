/* sensors/render/bsdf.c: the BSDF of bsdf.h: evaluation, density and
 * sampling. Formulas and sources in bsdf.h and docs/rendering.md. */
#include <math.h>
#include "sensors/render/bsdf.h"
#include "sensors/render/energy.h"
#include "sensors/render/microfacet.h"
#include "sensors/render/sampling.h"

/* Below this, 1 - E_avg is Monte Carlo noise of the table (a near-perfect
 * mirror loses nothing): no multiple-scattering or coupled diffuse term. */
#define MIN_LOSS 1e-4f

float sensim__fresnel_dielectric(float cos_i, float eta, float *cos_t) {
  /* Fresnel's equations (Born & Wolf, "Principles of Optics", sec. 1.5.2):
   * r_s = (cos_i - eta cos_t) / (cos_i + eta cos_t),
   * r_p = (eta cos_i - cos_t) / (eta cos_i + cos_t), R = (r_s^2 + r_p^2) / 2. */
  const float s2 = (1.0f - cos_i * cos_i) / (eta * eta);
  if (s2 >= 1.0f) {
    *cos_t = 0.0f;
    return 1.0f;
  }
  const float ct = sqrtf(1.0f - s2);
  const float rs = (cos_i - eta * ct) / (cos_i + eta * ct), rp = (eta * cos_i - ct) / (eta * cos_i + ct);
  *cos_t = ct;
  return 0.5f * (rs * rs + rp * rp);
}

void sensim__bsdf_init(sensim_bsdf *b, const float base[3], float roughness, float metallic, float specular,
                       float ior, float transmission, int thin, int entering) {
  for (int c = 0; c < 3; c++) b->base[c] = base[c];
  b->rough = roughness;
  b->alpha = sensim__ggx_alpha(roughness);
  b->metal = metallic;
  const float q = (ior - 1.0f) / (ior + 1.0f);
  b->f0d = q * q;
  b->ks = specular;
  b->glass = (1.0f - metallic) * transmission;
  b->w_layer = (1.0f - metallic) * (1.0f - transmission);
  b->thin = thin;
  b->eta = thin ? 1.0f : entering ? ior : 1.0f / ior;
}

/* The layer's specular albedo E_F = F0 (E1 - Em5) + Em5. */
static float layer_albedo(float f0, float e1, float em5) { return f0 * (e1 - em5) + em5; }

void sensim__bsdf_prepare(sensim_bsdf *b, const float o[3]) {
  sensim__energy_init();
  b->mu_o = o[2];
  float e1, em5, a1, a5;
  sensim__energy_at(o[2], b->rough, &e1, &em5);
  sensim__energy_avg(b->rough, &a1, &a5);
  const float es = b->ks * layer_albedo(b->f0d, e1, em5), es_avg = b->ks * layer_albedo(b->f0d, a1, a5);
  b->kd = 1.0f - es_avg > MIN_LOSS ? b->w_layer * (1.0f - es) / ((float)M_PI * (1.0f - es_avg)) : 0.0f;
  const float ms = 1.0f - a1 > MIN_LOSS ? b->metal * (1.0f - e1) / ((float)M_PI * (1.0f - a1)) : 0.0f;
  float wms = 0.0f;
  for (int c = 0; c < 3; c++) {
    const float favg = (20.0f * b->base[c] + 1.0f) / 21.0f;
    b->kms[c] = ms * favg * favg * a1 / (1.0f - favg * (1.0f - a1));
  }
  /* Each lobe's share of the albedo at this view: GGX's single
   * scattering, and the cosine lobes' (diffuse and multiple scattering). */
  const float lb = sensim__luminance(b->base);
  const float ws = b->w_layer * es + b->metal * e1 * (lb + (1.0f - lb) * em5 / (e1 > 0.0f ? e1 : 1.0f));
  wms = b->kd * (float)M_PI * (1.0f - es_avg) * lb + sensim__luminance(b->kms) * (float)M_PI * (1.0f - a1);
  b->p_spec = ws + wms > 0.0f ? ws / (ws + wms) : 0.5f;
}

/* The non-delta lobes' f |i.z| and density, reflection only. */
void sensim__bsdf_eval(const sensim_bsdf *b, const float o[3], const float i[3], float fc[3], float *pdf) {
  fc[0] = fc[1] = fc[2] = 0.0f;
  *pdf = 0.0f;
  if (o[2] <= 0.0f || i[2] <= 0.0f) return;
  float h[3] = {o[0] + i[0], o[1] + i[1], o[2] + i[2]};
  const float ih = 1.0f / sqrtf(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
  h[0] *= ih, h[1] *= ih, h[2] *= ih;
  const float oh = o[0] * h[0] + o[1] * h[1] + o[2] * h[2];
  const float D = sensim__ggx_d(h, b->alpha);
  const float spec = D * sensim__ggx_g2(o, i, b->alpha) / (4.0f * o[2] * i[2]);
  const float m5 = sensim__schlick5(oh);
  float e1, em5;
  sensim__energy_at(i[2], b->rough, &e1, &em5);
  const float out_d = b->kd * (1.0f - b->ks * layer_albedo(b->f0d, e1, em5));
  const float out_ms = 1.0f - e1;
  const float fd = b->ks * (b->f0d + (1.0f - b->f0d) * m5);
  for (int c = 0; c < 3; c++) {
    const float fm = b->base[c] + (1.0f - b->base[c]) * m5;
    const float f = b->w_layer * fd * spec + b->base[c] * out_d + b->metal * fm * spec + b->kms[c] * out_ms;
    fc[c] = f * i[2];
  }
  const float p_vn = sensim__ggx_pdf_vn(o, h, b->alpha) / (4.0f * oh);
  *pdf = (1.0f - b->glass) * (b->p_spec * p_vn + (1.0f - b->p_spec) * i[2] * (float)(1.0 / M_PI));
}

int sensim__bsdf_sample(const sensim_bsdf *b, const float o[3], const float u[3], float i[3], float weight[3],
                        float *pdf, int *delta) {
  *delta = 0;
  float u0 = u[0];
  if (u0 < b->glass) {
    /* The glass lobe, chosen with its own weight: the throughput factor
     * is 1 for reflection and the tint / eta^2 for refraction, each
     * chosen with its Fresnel probability. */
    u0 /= b->glass;
    float ct;
    float R = sensim__fresnel_dielectric(o[2], b->eta, &ct);
    if (b->thin && R < 1.0f) R = 2.0f * R / (1.0f + R);
    *delta = 1;
    *pdf = 0.0f;
    if (u0 < R) {
      i[0] = -o[0], i[1] = -o[1], i[2] = o[2];
      weight[0] = weight[1] = weight[2] = 1.0f;
      return 1;
    }
    if (b->thin) {
      i[0] = -o[0], i[1] = -o[1], i[2] = -o[2];
      for (int c = 0; c < 3; c++) weight[c] = b->base[c];
      return 1;
    }
    const float ie = 1.0f / b->eta;
    i[0] = -o[0] * ie, i[1] = -o[1] * ie, i[2] = -ct;
    for (int c = 0; c < 3; c++) weight[c] = b->base[c] * ie * ie;
    return 1;
  }
  u0 = b->glass > 0.0f ? (u0 - b->glass) / (1.0f - b->glass) : u0;
  if (u0 < b->p_spec) {
    float h[3];
    sensim__ggx_sample_vn(o, b->alpha, u[1], u[2], h);
    const float oh = o[0] * h[0] + o[1] * h[1] + o[2] * h[2];
    for (int k = 0; k < 3; k++) i[k] = 2.0f * oh * h[k] - o[k];
  } else {
    sensim__cosine_hemisphere(u[1], u[2], i);
  }
  if (i[2] <= 0.0f) return 0;
  float fc[3];
  sensim__bsdf_eval(b, o, i, fc, pdf);
  if (!(*pdf > 0.0f)) return 0;
  for (int c = 0; c < 3; c++) weight[c] = fc[c] / *pdf;
  return 1;
}
