/* sensors/render/sampling.h: turning uniform numbers into directions and
 * points, and weighing two sampling strategies against each other. Single
 * precision, as the renderer's hit data. Not installed. */
#ifndef SENSIM_RENDER_SAMPLING_H
#define SENSIM_RENDER_SAMPLING_H

#include <math.h>
#include <stdint.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Uniform in [0, 1) from a random word's top 24 bits (exact in float). */
static inline float sensim__u01f(uint32_t w) { return (float)(w >> 8) * 0x1p-24f; }

/* Cosine-weighted direction about +z (Malley's method: a uniform point of
 * the unit disc lifted to the hemisphere; Pharr, Jakob & Humphreys,
 * "Physically Based Rendering", 4th ed., sec. A.5.3); density cos / pi. */
static inline void sensim__cosine_hemisphere(float u1, float u2, float d[3]) {
  const float r = sqrtf(u1), phi = 2.0f * (float)M_PI * u2;
  d[0] = r * cosf(phi), d[1] = r * sinf(phi);
  d[2] = sqrtf(fmaxf(0.0f, 1.0f - u1));
}

/* Uniform point of the unit disc, Shirley & Chiu's concentric map ("A low
 * distortion map between disk and square", JGT 1997). */
static inline void sensim__concentric_disc(float u1, float u2, float *x, float *y) {
  const float a = 2.0f * u1 - 1.0f, b = 2.0f * u2 - 1.0f;
  if (a == 0.0f && b == 0.0f) {
    *x = *y = 0.0f;
    return;
  }
  float r, phi;
  if (fabsf(a) > fabsf(b))
    r = a, phi = (float)(M_PI / 4) * (b / a);
  else
    r = b, phi = (float)(M_PI / 2) - (float)(M_PI / 4) * (a / b);
  *x = r * cosf(phi), *y = r * sinf(phi);
}

/* Uniform direction in the cone of half-angle acos(cos_max) about +z;
 * density 1 / (2 pi (1 - cos_max)). */
static inline void sensim__uniform_cone(float u1, float u2, float cos_max, float d[3]) {
  const float c = 1.0f - u1 * (1.0f - cos_max), s = sqrtf(fmaxf(0.0f, 1.0f - c * c)),
              phi = 2.0f * (float)M_PI * u2;
  d[0] = s * cosf(phi), d[1] = s * sinf(phi), d[2] = c;
}

/* Veach's power heuristic with beta = 2 for one sample of each strategy
 * ("Optimally combining sampling techniques for Monte Carlo rendering",
 * SIGGRAPH 1995): the weight of the strategy whose density is a. */
static inline float sensim__power_heuristic(float a, float b) {
  const float a2 = a * a, b2 = b * b;
  return a2 > 0.0f ? a2 / (a2 + b2) : 0.0f;
}

/* An orthonormal basis (t, b, n) about the unit vector n, branch-free
 * (Duff et al., "Building an orthonormal basis, revisited", JCGT 2017). */
static inline void sensim__onb(const float n[3], float t[3], float b[3]) {
  const float s = copysignf(1.0f, n[2]);
  const float a = -1.0f / (s + n[2]), c = n[0] * n[1] * a;
  t[0] = 1.0f + s * n[0] * n[0] * a, t[1] = s * c, t[2] = -s * n[0];
  b[0] = c, b[1] = s + n[1] * n[1] * a, b[2] = -n[1];
}

static inline float sensim__luminance(const float c[3]) {
  /* Rec. 709 / sRGB primaries, D65 (ITU-R BT.709-6). */
  return 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2];
}

#endif
