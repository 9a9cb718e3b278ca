/* tools/ablate_scene.c: the ablation variants of the camera component
 * study (issue 28) that edit what the camera sees rather than the camera's
 * stages:
 *
 *   reflections_off  each camera's "max_bounces" -> 0: no mirror
 *                    reflections are traced, so a mirroring floor (the
 *                    study's reflective floor; in sensim any material of
 *                    roughness below 0.1, shading.h) shows its own shaded
 *                    colour and highlights but no longer the scene in it.
 *                    The materials are left alone, so nothing else changes.
 *   light_single     the scene lit by one light, the study's "single
 *                    light" (not the ambient-only lighting_flat): of the
 *                    directional lights, the one giving level ground the
 *                    most irradiance (I x mean tint x cos zenith, as
 *                    ablate_lighting.c computes it) is kept, or the first
 *                    light when there is no directional one; the others
 *                    are removed and the ambient sky is unchanged, so the
 *                    kept light's shading and shadows stay as they were. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tools/ablate_internal.h"

/* Names of the meshes whose material mirrors the scene, into buf. */
static int mirroring_meshes(const cJSON *root, char *buf, size_t size) {
  int count = 0;
  if (size) buf[0] = '\0';
  const cJSON *meshes = cJSON_GetObjectItemCaseSensitive(root, "meshes");
  int i = 0;
  for (const cJSON *m = cJSON_IsArray(meshes) ? meshes->child : NULL; m; m = m->next, i++) {
    const cJSON *mat = cJSON_IsObject(m) ? cJSON_GetObjectItemCaseSensitive(m, "material") : NULL;
    const cJSON *r = cJSON_IsObject(mat) ? cJSON_GetObjectItemCaseSensitive(mat, "roughness") : NULL;
    if (!cJSON_IsNumber(r) || !((float)r->valuedouble < 0.1f)) continue; /* shading.h's threshold, in float */
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(m, "name");
    size_t l = strlen(buf);
    if (cJSON_IsString(nm))
      snprintf(buf + l, size - l, "%s%s", count ? ", " : "", nm->valuestring);
    else
      snprintf(buf + l, size - l, "%smeshes[%d]", count ? ", " : "", i);
    count++;
  }
  return count;
}

sensim_status sensim_tools__ablate_no_reflections(const cJSON *root, cJSON *cam, const char *name,
                                                  sensim_tools__ablate_notes *n) {
  const cJSON *mb = cJSON_GetObjectItemCaseSensitive(cam, "max_bounces");
  double before = cJSON_IsNumber(mb) ? mb->valuedouble : 1.0; /* docs/scenario.md's default */
  char mirrors[200], msg[320];
  int nm = mirroring_meshes(root, mirrors, sizeof mirrors);
  if (before == 0) {
    sensim_tools__ablate_note(n, name, "max_bounces is already 0: unchanged");
    return SENSIM_OK;
  }
  if (nm)
    snprintf(msg, sizeof msg, "max_bounces %g -> 0: no mirror reflections (mirroring: %s)", before, mirrors);
  else
    snprintf(msg, sizeof msg, "max_bounces %g -> 0: no mirror reflections (no material of roughness < 0.1 "
             "in the scene: renders as the baseline)", before);
  sensim_tools__ablate_note(n, name, msg);
  return sensim_tools__ablate_set_number(cam, "max_bounces", 0);
}

/* Irradiance a directional light gives level ground, or -1 for another
 * kind; -2 for a malformed light. */
static double level_irradiance(const cJSON *l) {
  const cJSON *kind = cJSON_IsObject(l) ? cJSON_GetObjectItemCaseSensitive(l, "kind") : NULL;
  if (!cJSON_IsString(kind)) return -2;
  if (strcmp(kind->valuestring, "directional") != 0) return -1;
  double d[3] = {0, 0, -1}, c[3] = {1, 1, 1}, in = 1.0; /* docs/scenario.md's defaults */
  const cJSON *dir = cJSON_GetObjectItemCaseSensitive(l, "direction");
  const cJSON *col = cJSON_GetObjectItemCaseSensitive(l, "color");
  const cJSON *iv = cJSON_GetObjectItemCaseSensitive(l, "intensity");
  for (int k = 0; k < 3; k++) {
    if (dir) {
      const cJSON *e = cJSON_IsArray(dir) && cJSON_GetArraySize(dir) == 3 ? cJSON_GetArrayItem(dir, k) : NULL;
      if (!cJSON_IsNumber(e)) return -2;
      d[k] = e->valuedouble;
    }
    if (col) {
      const cJSON *e = cJSON_IsArray(col) && cJSON_GetArraySize(col) == 3 ? cJSON_GetArrayItem(col, k) : NULL;
      if (!cJSON_IsNumber(e)) return -2;
      c[k] = e->valuedouble;
    }
  }
  if (iv) {
    if (!cJSON_IsNumber(iv)) return -2;
    in = iv->valuedouble;
  }
  double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  if (!(len > 0) || !isfinite(len) || !(in >= 0)) return -2;
  double cz = -d[2] / len;
  return in * (c[0] + c[1] + c[2]) / 3.0 * (cz > 0 ? cz : 0.0);
}

sensim_status sensim_tools__ablate_single_light(cJSON *root, sensim_tools__ablate_notes *n) {
  cJSON *lights = cJSON_GetObjectItemCaseSensitive(root, "lights");
  if (lights && !cJSON_IsArray(lights)) return sensim_error_set(SENSIM_EPARSE, "ablation: 'lights' is not an array");
  int count = lights ? cJSON_GetArraySize(lights) : 0;
  if (count == 0) {
    sensim_tools__ablate_note(n, "lights", "no light in the scene: unchanged (ambient only)");
    return SENSIM_OK;
  }
  int keep = 0, i = 0;
  double best = -1;
  for (const cJSON *l = lights->child; l; l = l->next, i++) {
    double e = level_irradiance(l);
    if (e == -2)
      return sensim_error_set(SENSIM_EPARSE, "ablation: lights[%d]: a kind, a direction or color of 3 numbers, "
                              "an intensity >= 0", i);
    if (e > best) {
      best = e;
      keep = i;
    }
  }
  char msg[256];
  if (count == 1) {
    sensim_tools__ablate_note(n, "lights", "one light already: unchanged");
    return SENSIM_OK;
  }
  for (int k = count - 1; k >= 0; k--)
    if (k != keep) cJSON_DeleteItemFromArray(lights, k);
  if (best >= 0)
    snprintf(msg, sizeof msg, "kept lights[%d], the directional light giving level ground the most (%.6g); "
             "%d other light%s removed, ambient unchanged", keep, best, count - 1, count == 2 ? "" : "s");
  else
    snprintf(msg, sizeof msg, "kept lights[0] (no directional light); %d other light%s removed, ambient unchanged",
             count - 1, count == 2 ? "" : "s");
  sensim_tools__ablate_note(n, "lights", msg);
  return SENSIM_OK;
}
