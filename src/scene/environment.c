/* scene/environment.c: the world's environment: its checks, its storage
 * (every environment built stays until the world goes, since snapshots of
 * captures in flight point to it) and its radiance and sampling. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/environment.h"

void sensim_environment_init(sensim_environment *env) {
  if (!env) return;
  memset(env, 0, sizeof *env);
  env->type = SENSIM_ENVIRONMENT_NONE;
  env->radiance[0] = env->radiance[1] = env->radiance[2] = 1.0f;
  env->sun_elevation = M_PI / 4;
  env->sun_azimuth = M_PI;
  env->turbidity = 3.0;
  env->sun = 1;
  env->map = NULL;
  env->scale = 1.0f;
}

static sensim_status check(const sensim_world *w, const sensim_environment *e) {
  static const char *rad[3] = {"radiance[0]", "radiance[1]", "radiance[2]"};
  switch (e->type) {
  case SENSIM_ENVIRONMENT_NONE:
    return SENSIM_OK;
  case SENSIM_ENVIRONMENT_UNIFORM:
    for (int c = 0; c < 3; c++)
      if (!(e->radiance[c] >= 0.0f && isfinite(e->radiance[c])))
        return sensim__fail(SENSIM_EINVAL, "environment %s = %g must be finite and >= 0 (W/(sr m^2))", rad[c],
                            (double)e->radiance[c]);
    return SENSIM_OK;
  case SENSIM_ENVIRONMENT_SKY:
    if (!(e->sun_elevation >= -M_PI / 2 && e->sun_elevation <= M_PI / 2))
      return sensim__fail(SENSIM_EINVAL, "environment sun_elevation %g rad must be in [-pi/2, pi/2]",
                          e->sun_elevation);
    if (!isfinite(e->sun_azimuth))
      return sensim__fail(SENSIM_EINVAL, "environment sun_azimuth %g rad must be finite", e->sun_azimuth);
    if (!(e->turbidity >= 1.7 && e->turbidity <= 10.0))
      return sensim__fail(SENSIM_EINVAL, "environment turbidity %g must be in [1.7, 10] (Preetham's model)",
                          e->turbidity);
    return SENSIM_OK;
  case SENSIM_ENVIRONMENT_MAP:
    if (!e->map) return sensim__fail(SENSIM_EINVAL, "environment map is NULL (a texture of the world)");
    if (e->map->world != w) return sensim__fail(SENSIM_EINVAL, "environment map belongs to another world");
    if (!(e->scale >= 0.0f && isfinite(e->scale)))
      return sensim__fail(SENSIM_EINVAL, "environment scale %g must be finite and >= 0", (double)e->scale);
    return SENSIM_OK;
  }
  return sensim__fail(SENSIM_EINVAL, "environment type %d is not one of none (0), uniform (1), sky (2), map (3)",
                      (int)e->type);
}

sensim_status sensim_world_set_environment(sensim_world *w, const sensim_environment *env) {
  if (!w || !env) return sensim__fail(SENSIM_EINVAL, "sensim_world_set_environment: NULL argument");
  sensim_status rc = check(w, env);
  if (rc) return rc;
  if (w->nenvs == w->cap_envs) {
    size_t cap = w->cap_envs ? 2 * w->cap_envs : 4;
    sensim_env **a = realloc(w->envs, cap * sizeof *a);
    if (!a) return sensim__fail(SENSIM_ENOMEM, "out of memory for the world's environments");
    w->envs = a;
    w->cap_envs = cap;
  }
  sensim_env *e = calloc(1, sizeof *e);
  if (!e) return sensim__fail(SENSIM_ENOMEM, "out of memory for an environment");
  e->desc = *env;
  if (env->type == SENSIM_ENVIRONMENT_SKY || env->type == SENSIM_ENVIRONMENT_MAP) {
    if (env->type == SENSIM_ENVIRONMENT_SKY) sensim__sky_init(e);
    if ((rc = sensim__env_tabulate(e))) {
      free(e);
      return rc;
    }
  }
  w->envs[w->nenvs++] = e;
  w->env = env->type == SENSIM_ENVIRONMENT_NONE ? NULL : e;
  return SENSIM_OK;
}

sensim_status sensim_world_get_environment(const sensim_world *w, sensim_environment *out) {
  if (!w || !out) return sensim__fail(SENSIM_EINVAL, "sensim_world_get_environment: NULL argument");
  if (w->env)
    *out = w->env->desc;
  else
    sensim_environment_init(out);
  return SENSIM_OK;
}

void sensim__env_free_all(sensim_world *w) {
  for (size_t i = 0; i < w->nenvs; i++) {
    if (w->envs[i]->tabulated) sensim__distrib2d_free(&w->envs[i]->dist);
    free(w->envs[i]);
  }
  free(w->envs);
  w->envs = NULL;
  w->nenvs = w->cap_envs = 0;
  w->env = NULL;
}

void sensim__env_uniform(sensim_env *e, const float L[3]) {
  memset(e, 0, sizeof *e);
  sensim_environment_init(&e->desc);
  e->desc.type = SENSIM_ENVIRONMENT_UNIFORM;
  memcpy(e->desc.radiance, L, sizeof e->desc.radiance);
}

/* The map's texel in direction d (nearest: a constant over its cell, as
 * the sampling table is). */
static const float *map_texel(const sensim_texture *t, const float d[3]) {
  const float z = fminf(1.0f, fmaxf(-1.0f, d[2]));
  float ph = atan2f(d[1], d[0]);
  if (ph < 0.0f) ph += 2.0f * (float)M_PI;
  uint32_t x = (uint32_t)(ph * (float)(0.5 / M_PI) * (float)t->width);
  uint32_t y = (uint32_t)(acosf(z) * (float)(1.0 / M_PI) * (float)t->height);
  if (x >= t->width) x = t->width - 1;
  if (y >= t->height) y = t->height - 1;
  return t->linear + 4 * ((size_t)y * t->width + x);
}

void sensim__env_radiance(const sensim_env *e, const float d[3], float L[3]) {
  if (e->desc.type == SENSIM_ENVIRONMENT_SKY) {
    sensim__sky_radiance(e, d, L);
    return;
  }
  if (e->desc.type == SENSIM_ENVIRONMENT_MAP) {
    const float *p = map_texel(e->desc.map, d);
    for (int c = 0; c < 3; c++) L[c] = p[c] * e->desc.scale;
    return;
  }
  memcpy(L, e->desc.radiance, 3 * sizeof *L);
}

/* The tabulation grid: 128 azimuths x 64 zenith angles. */
#define TAB_U 128
#define TAB_V 64

sensim_status sensim__env_tabulate(sensim_env *e) {
  const sensim_texture *t = e->desc.type == SENSIM_ENVIRONMENT_MAP ? e->desc.map : NULL;
  const size_t nu = t ? t->width : TAB_U, nv = t ? t->height : TAB_V;
  float *f = malloc(nu * nv * sizeof *f);
  if (!f) return sensim__fail(SENSIM_ENOMEM, "out of memory for an environment's %zu x %zu table", nu, nv);
  for (size_t v = 0; v < nv; v++) {
    const double th = (v + 0.5) * M_PI / (double)nv, st = sin(th);
    for (size_t u = 0; u < nu; u++) {
      float L[3];
      if (t) {
        memcpy(L, t->linear + 4 * (v * nu + u), sizeof L);
      } else {
        const double ph = (u + 0.5) * 2.0 * M_PI / (double)nu;
        const float d[3] = {(float)(st * cos(ph)), (float)(st * sin(ph)), (float)cos(th)};
        sensim__env_radiance(e, d, L);
      }
      /* Luminance (Rec. 709) x the cell's solid angle, which goes as sin theta. */
      f[v * nu + u] = (0.2126f * L[0] + 0.7152f * L[1] + 0.0722f * L[2]) * (float)st;
    }
  }
  sensim_status rc = sensim__distrib2d_init(&e->dist, f, nu, nv);
  free(f);
  e->tabulated = rc == SENSIM_OK;
  return rc;
}

/* Tabulated: (u, v) from the table, density over the sphere
 * pdf_uv / (2 pi^2 sin theta) (the equirectangular map's Jacobian).
 * Otherwise uniform over the sphere (z = 1 - 2 u1, phi = 2 pi u2):
 * density 1 / (4 pi). */
float sensim__env_sample(const sensim_env *e, float u1, float u2, float d[3], float L[3]) {
  if (e->tabulated) {
    float uv[2];
    const float p = sensim__distrib2d_sample(&e->dist, u1, u2, uv);
    const float th = uv[1] * (float)M_PI, ph = uv[0] * 2.0f * (float)M_PI, st = sinf(th);
    if (!(p > 0.0f) || !(st > 0.0f)) return 0.0f;
    d[0] = st * cosf(ph), d[1] = st * sinf(ph), d[2] = cosf(th);
    sensim__env_radiance(e, d, L);
    return p / (2.0f * (float)(M_PI * M_PI) * st);
  }
  const float z = 1.0f - 2.0f * u1, r = sqrtf(fmaxf(0.0f, 1.0f - z * z)), phi = 2.0f * (float)M_PI * u2;
  d[0] = r * cosf(phi), d[1] = r * sinf(phi), d[2] = z;
  sensim__env_radiance(e, d, L);
  return (float)(0.25 / M_PI);
}

float sensim__env_pdf(const sensim_env *e, const float d[3]) {
  if (e->tabulated) {
    const float z = fminf(1.0f, fmaxf(-1.0f, d[2]));
    const float th = acosf(z), st = sqrtf(fmaxf(0.0f, 1.0f - z * z));
    if (!(st > 0.0f)) return 0.0f;
    float ph = atan2f(d[1], d[0]);
    if (ph < 0.0f) ph += 2.0f * (float)M_PI;
    const float uv[2] = {ph * (float)(0.5 / M_PI), th * (float)(1.0 / M_PI)};
    return sensim__distrib2d_pdf(&e->dist, uv) / (2.0f * (float)(M_PI * M_PI) * st);
  }
  return (float)(0.25 / M_PI);
}
