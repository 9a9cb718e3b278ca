/* sensors/render/microfacet.h: the GGX (Trowbridge-Reitz) microfacet
 * distribution in the local shading frame (+z the normal), with Smith's
 * height-correlated masking-shadowing and sampling of the visible
 * normals. Not installed.
 *
 * D (Walter, Marschner, Li & Torrance 2007, "Microfacet models for
 * refraction through rough surfaces", eq. 33); Lambda and the
 * height-correlated G2 = 1 / (1 + Lambda(o) + Lambda(i)) (Heitz 2014,
 * "Understanding the masking-shadowing function in microfacet-based
 * BRDFs", JCGT 3(2), eqs. 72 and 99); visible-normal sampling by
 * Heitz 2018 ("Sampling the GGX distribution of visible normals", JCGT
 * 7(4)), whose density is D_o(h) = G1(o) max(0, o.h) D(h) / o.z. */
#ifndef SENSIM_RENDER_MICROFACET_H
#define SENSIM_RENDER_MICROFACET_H

#include <math.h>
#include "sensors/render/sampling.h"

static inline float sensim__ggx_d(const float h[3], float alpha) {
  const float a2 = alpha * alpha, c2 = h[2] * h[2];
  const float q = c2 * (a2 - 1.0f) + 1.0f;
  return h[2] > 0.0f ? a2 / ((float)M_PI * q * q) : 0.0f;
}

/* Smith's Lambda for GGX in direction w (isotropic). */
static inline float sensim__ggx_lambda(const float w[3], float alpha) {
  const float c2 = w[2] * w[2], s2 = fmaxf(0.0f, 1.0f - c2);
  if (c2 <= 0.0f) return INFINITY;
  const float t2 = alpha * alpha * s2 / c2;
  return 0.5f * (sqrtf(1.0f + t2) - 1.0f);
}

static inline float sensim__ggx_g1(const float w[3], float alpha) {
  return 1.0f / (1.0f + sensim__ggx_lambda(w, alpha));
}

static inline float sensim__ggx_g2(const float o[3], const float i[3], float alpha) {
  return 1.0f / (1.0f + sensim__ggx_lambda(o, alpha) + sensim__ggx_lambda(i, alpha));
}

/* A visible normal for the view o (o.z > 0) from uniforms (u1, u2) (Heitz
 * 2018, listing 1). */
static inline void sensim__ggx_sample_vn(const float o[3], float alpha, float u1, float u2, float h[3]) {
  /* The view stretched to the hemisphere configuration. */
  float vh[3] = {alpha * o[0], alpha * o[1], o[2]};
  const float il = 1.0f / sqrtf(vh[0] * vh[0] + vh[1] * vh[1] + vh[2] * vh[2]);
  vh[0] *= il, vh[1] *= il, vh[2] *= il;
  const float lsq = vh[0] * vh[0] + vh[1] * vh[1];
  float t1[3] = {1.0f, 0.0f, 0.0f};
  if (lsq > 0.0f) {
    const float inv = 1.0f / sqrtf(lsq);
    t1[0] = -vh[1] * inv, t1[1] = vh[0] * inv, t1[2] = 0.0f;
  }
  const float t2[3] = {vh[1] * t1[2] - vh[2] * t1[1], vh[2] * t1[0] - vh[0] * t1[2], vh[0] * t1[1] - vh[1] * t1[0]};
  const float r = sqrtf(u1), phi = 2.0f * (float)M_PI * u2;
  const float p1 = r * cosf(phi);
  float p2 = r * sinf(phi);
  const float s = 0.5f * (1.0f + vh[2]);
  p2 = (1.0f - s) * sqrtf(fmaxf(0.0f, 1.0f - p1 * p1)) + s * p2;
  const float p3 = sqrtf(fmaxf(0.0f, 1.0f - p1 * p1 - p2 * p2));
  float n[3];
  for (int k = 0; k < 3; k++) n[k] = p1 * t1[k] + p2 * t2[k] + p3 * vh[k];
  h[0] = alpha * n[0], h[1] = alpha * n[1], h[2] = fmaxf(1e-7f, n[2]);
  const float ih = 1.0f / sqrtf(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
  h[0] *= ih, h[1] *= ih, h[2] *= ih;
}

/* Density of visible normal h for the view o: G1(o) max(0, o.h) D(h) / o.z. */
static inline float sensim__ggx_pdf_vn(const float o[3], const float h[3], float alpha) {
  const float oh = o[0] * h[0] + o[1] * h[1] + o[2] * h[2];
  if (oh <= 0.0f || o[2] <= 0.0f) return 0.0f;
  return sensim__ggx_g1(o, alpha) * oh * sensim__ggx_d(h, alpha) / o[2];
}

static inline float sensim__schlick5(float c) {
  const float m = 1.0f - c, m2 = m * m;
  return m2 * m2 * m;
}

#endif
