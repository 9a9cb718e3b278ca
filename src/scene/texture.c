/* scene/texture.c: textures as their texels were given (RGBA), decoded per
 * use: colour uses (base colour, emission) read them as linear light,
 * data uses (metallic-roughness, normal maps) read the stored values
 * (glTF 2.0, sec. 3.9.2-3.9.5: baseColorTexture and emissiveTexture are
 * sRGB-encoded, the others linear). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/scene.h"

float sensim__srgb_decode(float c) {
  /* IEC 61966-2-1:1999, the sRGB electro-optical transfer function. */
  return c <= 0.04045f ? c / 12.92f : (float)pow((c + 0.055) / 1.055, 2.4);
}

sensim_status sensim__texture_make(sensim_world *w, uint32_t width, uint32_t height, const float *texels, int nch,
                                   int srgb, float max, sensim_texture **out) {
  if (width < 1 || height < 1 || width > 65536 || height > 65536)
    return sensim__fail(SENSIM_EINVAL, "texture size %ux%u must be within 1..65536", width, height);
  size_t n = (size_t)width * height;
  char what[64];
  snprintf(what, sizeof what, "a %ux%u texture", width, height);
  if (sensim__check_bytes((double)n * 4 * sizeof(float) * (srgb ? 2 : 1), what)) return SENSIM_EINVAL;
  for (size_t i = 0; i < n * (size_t)nch; i++)
    if (!(texels[i] >= 0.0f && texels[i] <= max))
      return max == 1.0f ? sensim__fail(SENSIM_EINVAL, "texture value %zu = %g is not in [0, 1]", i, texels[i])
                         : sensim__fail(SENSIM_EINVAL, "HDR texture value %zu = %g must be finite and >= 0", i,
                                        texels[i]);
  sensim_status rc = sensim__grow((void **)&w->textures, &w->cap_textures, w->ntextures + 1, sizeof *w->textures);
  if (rc) return rc;
  sensim_texture *t = calloc(1, sizeof *t);
  float *stored = malloc(n * 4 * sizeof *stored);
  float *linear = srgb ? malloc(n * 4 * sizeof *linear) : stored;
  if (!t || !stored || !linear) {
    free(t);
    if (linear != stored) free(linear);
    free(stored);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for a %ux%u texture", width, height);
  }
  int alpha = 0;
  for (size_t i = 0; i < n; i++) {
    const float *p = texels + i * (size_t)nch;
    float *s = stored + 4 * i;
    s[0] = p[0];
    s[1] = nch >= 3 ? p[1] : p[0];
    s[2] = nch >= 3 ? p[2] : p[0];
    s[3] = nch == 4 ? p[3] : nch == 2 ? p[1] : 1.0f;
    alpha |= s[3] < 1.0f;
  }
  if (srgb) {
    for (size_t i = 0; i < 4 * n; i++) linear[i] = (i & 3) == 3 ? stored[i] : sensim__srgb_decode(stored[i]);
  }
  t->world = w;
  t->width = width;
  t->height = height;
  t->stored = stored;
  t->linear = linear;
  t->srgb = srgb;
  t->has_alpha = alpha;
  w->textures[w->ntextures++] = t;
  *out = t;
  return SENSIM_OK;
}

sensim_status sensim_texture_create(sensim_world *w, uint32_t width, uint32_t height, const float *rgb,
                                    sensim_texture **out) {
  if (!w || !rgb || !out) return sensim__fail(SENSIM_EINVAL, "sensim_texture_create: NULL argument");
  return sensim__texture_make(w, width, height, rgb, 3, 0, 1.0f, out);
}

sensim_status sensim_texture_create_hdr(sensim_world *w, uint32_t width, uint32_t height, const float *rgb,
                                        sensim_texture **out) {
  if (!w || !rgb || !out) return sensim__fail(SENSIM_EINVAL, "sensim_texture_create_hdr: NULL argument");
  return sensim__texture_make(w, width, height, rgb, 3, 0, 3.4028235e38f, out);
}

sensim_status sensim_texture_create_rgba(sensim_world *w, uint32_t width, uint32_t height, const float *rgba,
                                         int srgb, sensim_texture **out) {
  if (!w || !rgba || !out) return sensim__fail(SENSIM_EINVAL, "sensim_texture_create_rgba: NULL argument");
  return sensim__texture_make(w, width, height, rgba, 4, srgb != 0, 1.0f, out);
}

void sensim__texture_free(sensim_texture *t) {
  if (!t) return;
  if (t->linear != t->stored) free(t->linear);
  free(t->stored);
  free(t);
}

void sensim__texture_rollback(sensim_world *w, size_t n) {
  while (w->ntextures > n) sensim__texture_free(w->textures[--w->ntextures]);
}

static uint32_t wrap(long i, uint32_t n) {
  long m = i % (long)n;
  return (uint32_t)(m < 0 ? m + (long)n : m);
}

void sensim__texture_sample4(const sensim_texture *t, float u, float v, int use, float out[4]) {
  const float *tx = use == SENSIM__TEX_COLOR ? t->linear : t->stored;
  /* Texel centres at (i + 0.5) / width, as GPUs and glTF sample; colour
   * is filtered as linear light (decoded before blending). */
  double x = (double)u * t->width - 0.5, y = (double)v * t->height - 0.5;
  if (!isfinite(x) || !isfinite(y)) x = y = 0.0;
  double fx = floor(x), fy = floor(y);
  double ax = x - fx, ay = y - fy;
  fx = fmod(fx, (double)t->width), fy = fmod(fy, (double)t->height); /* no long overflow for huge uvs */
  uint32_t x0 = wrap((long)fx, t->width), x1 = wrap((long)fx + 1, t->width);
  uint32_t y0 = wrap((long)fy, t->height), y1 = wrap((long)fy + 1, t->height);
  const float *p00 = tx + 4 * ((size_t)y0 * t->width + x0), *p10 = tx + 4 * ((size_t)y0 * t->width + x1);
  const float *p01 = tx + 4 * ((size_t)y1 * t->width + x0), *p11 = tx + 4 * ((size_t)y1 * t->width + x1);
  for (int c = 0; c < 4; c++)
    out[c] = (float)((1 - ay) * ((1 - ax) * p00[c] + ax * p10[c]) + ay * ((1 - ax) * p01[c] + ax * p11[c]));
}

void sensim__texture_sample(const sensim_texture *t, float u, float v, float rgb[3]) {
  float c[4];
  sensim__texture_sample4(t, u, v, SENSIM__TEX_COLOR, c);
  rgb[0] = c[0], rgb[1] = c[1], rgb[2] = c[2];
}
