/* filters/params.c: reading built-in filters' JSON parameters strictly. */
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "filters/chain.h"

sensim_status sensim__param_number(const cJSON *params, const char *key, double *v) {
  const cJSON *it = params ? cJSON_GetObjectItemCaseSensitive(params, key) : NULL;
  if (!it) return SENSIM_OK; /* keep the default */
  if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
    return sensim__fail(SENSIM_EINVAL, "parameter '%s' must be a finite number", key);
  *v = it->valuedouble;
  return SENSIM_OK;
}

sensim_status sensim__param_vec3(const cJSON *params, const char *key, double v[3]) {
  const cJSON *it = params ? cJSON_GetObjectItemCaseSensitive(params, key) : NULL;
  if (!it) return SENSIM_OK;
  if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 3)
    return sensim__fail(SENSIM_EINVAL, "parameter '%s' must be an array of 3 numbers", key);
  double tmp[3];
  for (int i = 0; i < 3; i++) {
    const cJSON *e = cJSON_GetArrayItem(it, i);
    if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
      return sensim__fail(SENSIM_EINVAL, "parameter '%s'[%d] must be a finite number", key, i);
    tmp[i] = e->valuedouble;
  }
  memcpy(v, tmp, sizeof tmp);
  return SENSIM_OK;
}

sensim_status sensim__param_number_or_vec3(const cJSON *params, const char *key, double v[3]) {
  const cJSON *it = params ? cJSON_GetObjectItemCaseSensitive(params, key) : NULL;
  if (!it) return SENSIM_OK;
  if (cJSON_IsNumber(it)) {
    if (!isfinite(it->valuedouble))
      return sensim__fail(SENSIM_EINVAL, "parameter '%s' must be a finite number", key);
    v[0] = v[1] = v[2] = it->valuedouble;
    return SENSIM_OK;
  }
  if (!cJSON_IsArray(it))
    return sensim__fail(SENSIM_EINVAL, "parameter '%s' must be a number or an array of 3 numbers", key);
  return sensim__param_vec3(params, key, v);
}

sensim_status sensim__param_only(const cJSON *params, const char *filter, const char *const *known) {
  if (!params) return SENSIM_OK;
  for (const cJSON *it = params->child; it; it = it->next) {
    int ok = 0;
    for (const char *const *k = known; *k && !ok; k++) ok = strcmp(*k, it->string) == 0;
    if (!ok) {
      char hint[96];
      return sensim__fail(SENSIM_EINVAL, "filter '%s' has no parameter '%s'%s", filter, it->string,
                          sensim__did_you_mean(hint, sizeof hint, it->string, known));
    }
  }
  return SENSIM_OK;
}
