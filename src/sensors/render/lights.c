/* sensors/render/lights.c: light sampling for next-event estimation. */
#include <math.h>
#include <string.h>
#include "sensors/render/lights.h"
#include "sensors/shading.h"

void sensim__light_set_init(sensim_light_set *ls, const sensim_snapshot *snap, const sensim_env *env) {
  ls->lights = snap->lights;
  ls->nlights = snap->nlights;
  ls->env = env;
  if (env && env->desc.type == SENSIM_ENVIRONMENT_UNIFORM && !(env->desc.radiance[0] > 0.0f) &&
      !(env->desc.radiance[1] > 0.0f) && !(env->desc.radiance[2] > 0.0f))
    ls->env = NULL; /* black: never worth a shadow ray */
  const size_t n = ls->nlights + (ls->env ? 1 : 0);
  ls->p_pick = n ? 1.0f / (float)n : 0.0f;
}

int sensim__light_set_sample(const sensim_light_set *ls, const float p[3], const float u[3], sensim_light_sample *out) {
  const size_t n = ls->nlights + (ls->env ? 1 : 0);
  if (!n) return 0;
  size_t k = (size_t)(u[0] * (float)n);
  if (k >= n) k = n - 1;
  if (k == ls->nlights) {
    const float pdf = sensim__env_sample(ls->env, u[1], u[2], out->wi, out->L);
    if (!(pdf > 0.0f)) return 0;
    out->pdf = pdf * ls->p_pick;
    out->dist = INFINITY;
    out->shadow = 1;
    for (int c = 0; c < 3; c++) out->L[c] /= out->pdf;
    return out->L[0] > 0.0f || out->L[1] > 0.0f || out->L[2] > 0.0f;
  }
  const sensim_light *l = &ls->lights[k];
  float irr;
  if (!sensim__light_at(l, p, out->wi, &irr, &out->dist)) return 0;
  out->pdf = 0.0f;
  out->shadow = l->cast_shadows;
  for (int c = 0; c < 3; c++) out->L[c] = l->color[c] * irr / ls->p_pick;
  return 1;
}

float sensim__light_set_env_pdf(const sensim_light_set *ls, const float d[3]) {
  return ls->env ? ls->p_pick * sensim__env_pdf(ls->env, d) : 0.0f;
}
