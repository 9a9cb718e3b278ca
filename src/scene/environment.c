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
}

static sensim_status check(const sensim_environment *e) {
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
  }
  return sensim__fail(SENSIM_EINVAL, "environment type %d is not one of none (0), uniform (1)", (int)e->type);
}

sensim_status sensim_world_set_environment(sensim_world *w, const sensim_environment *env) {
  if (!w || !env) return sensim__fail(SENSIM_EINVAL, "sensim_world_set_environment: NULL argument");
  sensim_status rc = check(env);
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
  for (size_t i = 0; i < w->nenvs; i++) free(w->envs[i]);
  free(w->envs);
  w->envs = NULL;
  w->nenvs = w->cap_envs = 0;
  w->env = NULL;
}

void sensim__env_uniform(sensim_env *e, const float L[3]) {
  sensim_environment_init(&e->desc);
  e->desc.type = SENSIM_ENVIRONMENT_UNIFORM;
  memcpy(e->desc.radiance, L, sizeof e->desc.radiance);
}

void sensim__env_radiance(const sensim_env *e, const float d[3], float L[3]) {
  (void)d;
  memcpy(L, e->desc.radiance, 3 * sizeof *L);
}

/* Uniform over the sphere (z = 1 - 2 u1, phi = 2 pi u2): density 1 / (4 pi). */
float sensim__env_sample(const sensim_env *e, float u1, float u2, float d[3], float L[3]) {
  const float z = 1.0f - 2.0f * u1, r = sqrtf(fmaxf(0.0f, 1.0f - z * z)), phi = 2.0f * (float)M_PI * u2;
  d[0] = r * cosf(phi), d[1] = r * sinf(phi), d[2] = z;
  sensim__env_radiance(e, d, L);
  return (float)(0.25 / M_PI);
}

float sensim__env_pdf(const sensim_env *e, const float d[3]) {
  (void)e, (void)d;
  return (float)(0.25 / M_PI);
}
