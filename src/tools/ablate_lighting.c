/* tools/ablate_lighting.c: the "lighting_flat" edit of the camera-stage
 * ablation: the scene's lights removed and what the directional ones gave
 * level ground (irradiance I cos(theta), theta the sun's zenith angle; a
 * light's tint by its mean) added to the world's ambient irradiance, which
 * reaches every surface alike (docs/scenario.md, world.ambient). What
 * stays is the scene's albedo under a uniform sky: no shading by the
 * surface's angle to a light, no specular highlights, no shadows, at the
 * brightness open level ground had. Point and spot lights are dropped
 * with a note: their irradiance depends on where a surface is, so no
 * uniform sky stands for them. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tools/ablate_internal.h"

/* A number array member of n elements, or the default. */
static int vec_or(const cJSON *obj, const char *key, int n, const double *dflt, double *out) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
  for (int i = 0; i < n; i++) out[i] = dflt[i];
  if (!a) return 1;
  if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n) return 0;
  for (int i = 0; i < n; i++) {
    const cJSON *v = cJSON_GetArrayItem(a, i);
    if (!cJSON_IsNumber(v)) return 0;
    out[i] = v->valuedouble;
  }
  return 1;
}

sensim_status sensim_tools__ablate_flat_lighting(cJSON *root, sensim_tools__ablate_notes *n) {
  cJSON *lights = cJSON_GetObjectItemCaseSensitive(root, "lights");
  if (lights && !cJSON_IsArray(lights)) return sensim_error_set(SENSIM_EPARSE, "ablation: 'lights' is not an array");
  double added = 0;
  int directional = 0, dropped = 0, i = 0;
  for (const cJSON *l = lights ? lights->child : NULL; l; l = l->next, i++) {
    const cJSON *kind = cJSON_IsObject(l) ? cJSON_GetObjectItemCaseSensitive(l, "kind") : NULL;
    if (!cJSON_IsString(kind)) return sensim_error_set(SENSIM_EPARSE, "ablation: lights[%d] has no \"kind\"", i);
    if (strcmp(kind->valuestring, "directional") != 0) {
      dropped++;
      continue;
    }
    static const double down[3] = {0, 0, -1}, white[3] = {1, 1, 1};
    double d[3], c[3];
    if (!vec_or(l, "direction", 3, down, d) || !vec_or(l, "color", 3, white, c))
      return sensim_error_set(SENSIM_EPARSE, "ablation: lights[%d]: a direction or color of 3 numbers", i);
    const cJSON *iv = cJSON_GetObjectItemCaseSensitive(l, "intensity");
    if (iv && !cJSON_IsNumber(iv)) return sensim_error_set(SENSIM_EPARSE, "ablation: lights[%d]: intensity", i);
    double in = iv ? iv->valuedouble : 1.0; /* docs/scenario.md's default */
    double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(len > 0) || !isfinite(len) || !(in >= 0))
      return sensim_error_set(SENSIM_EINVAL, "ablation: lights[%d]: a zero direction or a negative intensity", i);
    double cos_zenith = -d[2] / len; /* the light travels along d; level ground faces +Z */
    added += in * (c[0] + c[1] + c[2]) / 3.0 * (cos_zenith > 0 ? cos_zenith : 0.0);
    directional++;
  }
  cJSON *world = cJSON_GetObjectItemCaseSensitive(root, "world");
  if (!world) {
    world = cJSON_CreateObject();
    if (!world || !cJSON_AddItemToObject(root, "world", world)) {
      cJSON_Delete(world);
      return sensim_error_set(SENSIM_ENOMEM, "ablation: out of memory");
    }
  } else if (!cJSON_IsObject(world)) {
    return sensim_error_set(SENSIM_EPARSE, "ablation: 'world' is not an object");
  }
  const cJSON *amb = cJSON_GetObjectItemCaseSensitive(world, "ambient");
  double ambient = cJSON_IsNumber(amb) ? amb->valuedouble : 0.1; /* docs/scenario.md's default */
  sensim_status st = sensim_tools__ablate_set_number(world, "ambient", ambient + added);
  if (st) return st;
  cJSON_DeleteItemFromObjectCaseSensitive(root, "lights");
  char msg[256];
  snprintf(msg, sizeof msg, "%d directional light%s removed (%.6g on level ground), ambient %.6g -> %.6g%s", directional,
           directional == 1 ? "" : "s", added, ambient, ambient + added,
           dropped ? "; point and spot lights dropped (no uniform sky stands for them)" : "");
  sensim_tools__ablate_note(n, "lights", msg);
  return SENSIM_OK;
}
