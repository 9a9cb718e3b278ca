/* scene/texture.c: base-colour textures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/scene.h"

/* A texture of values in [0, max]. */
static sensim_status create(sensim_world *w, uint32_t width, uint32_t height, const float *rgb, float max,
                            sensim_texture **out) {
  if (!w || !rgb || !out) return sensim__fail(SENSIM_EINVAL, "sensim_texture_create: NULL argument");
  if (width < 1 || height < 1 || width > 65536 || height > 65536)
    return sensim__fail(SENSIM_EINVAL, "texture size %ux%u must be within 1..65536", width, height);
  size_t n = (size_t)width * height * 3;
  char what[64];
  snprintf(what, sizeof what, "a %ux%u texture", width, height);
  if (sensim__check_bytes((double)n * sizeof(float), what)) return SENSIM_EINVAL;
  for (size_t i = 0; i < n; i++)
    if (!(rgb[i] >= 0.0f && rgb[i] <= max))
      return max == 1.0f ? sensim__fail(SENSIM_EINVAL, "texture value %zu = %g is not in [0, 1]", i, rgb[i])
                         : sensim__fail(SENSIM_EINVAL, "HDR texture value %zu = %g must be finite and >= 0", i,
                                        rgb[i]);
  sensim_status rc = sensim__grow((void **)&w->textures, &w->cap_textures, w->ntextures + 1, sizeof *w->textures);
  if (rc) return rc;
  sensim_texture *t = calloc(1, sizeof *t);
  float *copy = malloc(n * sizeof *copy);
  if (!t || !copy) {
    free(t);
    free(copy);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for a %ux%u texture", width, height);
  }
  memcpy(copy, rgb, n * sizeof *copy);
  t->world = w;
  t->width = width;
  t->height = height;
  t->rgb = copy;
  w->textures[w->ntextures++] = t;
  *out = t;
  return SENSIM_OK;
}

sensim_status sensim_texture_create(sensim_world *w, uint32_t width, uint32_t height, const float *rgb,
                                    sensim_texture **out) {
  return create(w, width, height, rgb, 1.0f, out);
}

sensim_status sensim_texture_create_hdr(sensim_world *w, uint32_t width, uint32_t height, const float *rgb,
                                        sensim_texture **out) {
  return create(w, width, height, rgb, 3.4028235e38f, out);
}

static uint32_t wrap(long i, uint32_t n) {
  long m = i % (long)n;
  return (uint32_t)(m < 0 ? m + (long)n : m);
}

void sensim__texture_sample(const sensim_texture *t, float u, float v, float rgb[3]) {
  /* Texel centres at (i + 0.5) / width, as GPUs and glTF sample. */
  double x = (double)u * t->width - 0.5, y = (double)v * t->height - 0.5;
  double fx = floor(x), fy = floor(y);
  double ax = x - fx, ay = y - fy;
  uint32_t x0 = wrap((long)fx, t->width), x1 = wrap((long)fx + 1, t->width);
  uint32_t y0 = wrap((long)fy, t->height), y1 = wrap((long)fy + 1, t->height);
  const float *p00 = t->rgb + 3 * ((size_t)y0 * t->width + x0), *p10 = t->rgb + 3 * ((size_t)y0 * t->width + x1);
  const float *p01 = t->rgb + 3 * ((size_t)y1 * t->width + x0), *p11 = t->rgb + 3 * ((size_t)y1 * t->width + x1);
  for (int c = 0; c < 3; c++)
    rgb[c] = (float)((1 - ay) * ((1 - ax) * p00[c] + ax * p10[c]) + ay * ((1 - ax) * p01[c] + ax * p11[c]));
}
