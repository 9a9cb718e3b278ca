/* scene/mesh_gltf.c: glTF 2.0 metallic-roughness materials as Assimp 5.2
 * reads them, mapped onto sensim_material (world.h), with their textures
 * made in the world (PNG or JPEG): embedded (data URIs, buffer views:
 * Assimp's "*N" textures) or external files beside the glTF file.
 *
 * glTF 2.0 sec. 3.9 and 5.19 give each field; Assimp's glTF2 importer keeps
 * them under these keys: baseColorFactor AI_MATKEY_BASE_COLOR (RGBA),
 * metallicFactor / roughnessFactor AI_MATKEY_METALLIC_FACTOR /
 * AI_MATKEY_ROUGHNESS_FACTOR, emissiveFactor AI_MATKEY_COLOR_EMISSIVE,
 * KHR_materials_emissive_strength AI_MATKEY_EMISSIVE_INTENSITY (5.2.5
 * drops it: read_strengths takes it from the file's JSON instead),
 * alphaMode / alphaCutoff AI_MATKEY_GLTF_ALPHAMODE / _ALPHACUTOFF,
 * KHR_materials_transmission AI_MATKEY_TRANSMISSION_FACTOR,
 * KHR_materials_ior AI_MATKEY_REFRACTI, normalTexture.scale
 * AI_MATKEY_GLTF_TEXTURE_SCALE(NORMALS); textures under BASE_COLOR (or
 * DIFFUSE), the metallic-roughness slot (UNKNOWN, 0; METALNESS in some
 * versions), NORMALS and EMISSIVE. Values the file gives out of sensim's
 * ranges are refused by sensim__material_check with the file named, not
 * clamped: a negative ior is a broken file. Textures read only the first
 * uv set (TEXCOORD_0). */
#include <assimp/GltfMaterial.h>
#include <assimp/material.h>
#include <assimp/scene.h>
#include <assimp/texture.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/mesh_gltf.h"
#include "scene/scene.h"

/* The images already made during this import, by the path Assimp gives. */
typedef struct image_cache {
  char (*key)[1024];
  sensim_texture **tex;
  size_t n, cap;
} image_cache;

static int cache_find(const image_cache *c, const char *key, sensim_texture **out) {
  for (size_t i = 0; i < c->n; i++)
    if (strcmp(c->key[i], key) == 0) {
      *out = c->tex[i];
      return 1;
    }
  return 0;
}

static sensim_status cache_add(image_cache *c, const char *key, sensim_texture *t) {
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 8;
    char(*k)[1024] = realloc(c->key, cap * sizeof *k);
    if (!k) return sensim__fail(SENSIM_ENOMEM, "out of memory importing textures");
    c->key = k;
    sensim_texture **t2 = realloc(c->tex, cap * sizeof *t2);
    if (!t2) return sensim__fail(SENSIM_ENOMEM, "out of memory importing textures");
    c->tex = t2;
    c->cap = cap;
  }
  snprintf(c->key[c->n], sizeof c->key[c->n], "%s", key);
  c->tex[c->n++] = t;
  return SENSIM_OK;
}

/* An embedded texture: compressed bytes (mHeight 0: a PNG in memory) or
 * raw BGRA8 texels (aiTexel). */
static sensim_status embedded(sensim_world *w, const struct aiTexture *at, const char *name, sensim_texture **out) {
  if (!at->pcData) return sensim__fail(SENSIM_EPARSE, "texture '%s' has no data", name);
  if (at->mHeight == 0) {
    FILE *fp = at->mWidth > 0 ? fmemopen(at->pcData, at->mWidth, "rb") : NULL;
    if (!fp) return sensim__fail(SENSIM_EPARSE, "texture '%s' is empty or cannot be read", name);
    sensim_status rc = sensim__texture_from_png(w, fp, name, out);
    fclose(fp);
    return rc;
  }
  const size_t n = (size_t)at->mWidth * at->mHeight;
  if (at->mWidth > 65536 || at->mHeight > 65536)
    return sensim__fail(SENSIM_EPARSE, "texture '%s' of %ux%u texels is too large", name, at->mWidth, at->mHeight);
  float *rgba = malloc(n * 4 * sizeof *rgba);
  if (!rgba) return sensim__fail(SENSIM_ENOMEM, "out of memory for texture '%s'", name);
  for (size_t i = 0; i < n; i++) {
    const struct aiTexel *p = &at->pcData[i];
    rgba[4 * i] = p->r / 255.0f, rgba[4 * i + 1] = p->g / 255.0f, rgba[4 * i + 2] = p->b / 255.0f;
    rgba[4 * i + 3] = p->a / 255.0f;
  }
  sensim_status rc = sensim__texture_make(w, at->mWidth, at->mHeight, rgba, 4, 1, 1.0f, out);
  free(rgba);
  return rc;
}

/* The texture in slot (type, index) of `am`, or NULL if the slot is empty. */
static sensim_status slot(sensim_world *w, const struct aiScene *sc, const struct aiMaterial *am,
                          enum aiTextureType type, unsigned index, const char *dir, image_cache *cache,
                          const sensim_texture **out) {
  struct aiString path;
  if (aiGetMaterialTextureCount(am, type) <= index ||
      aiGetMaterialTexture(am, type, index, &path, NULL, NULL, NULL, NULL, NULL, NULL) != aiReturn_SUCCESS ||
      path.length == 0) {
    return SENSIM_OK;
  }
  sensim_texture *t = NULL;
  if (cache_find(cache, path.data, &t)) {
    *out = t;
    return SENSIM_OK;
  }
  sensim_status rc;
  if (path.data[0] == '*') {
    char *end = NULL;
    errno = 0;
    unsigned long i = strtoul(path.data + 1, &end, 10);
    if (errno || end == path.data + 1 || *end || i >= sc->mNumTextures || !sc->mTextures || !sc->mTextures[i])
      return sensim__fail(SENSIM_EPARSE, "embedded texture '%s' does not exist", path.data);
    char name[64];
    snprintf(name, sizeof name, "embedded image %lu", i);
    rc = embedded(w, sc->mTextures[i], name, &t);
  } else {
    /* A relative URI names a file beside the glTF file (glTF 2.0 sec.
     * 3.3.2); percent-escapes are not decoded. */
    char full[4096];
    if (path.data[0] == '/' || !dir[0])
      snprintf(full, sizeof full, "%s", path.data);
    else
      snprintf(full, sizeof full, "%s/%s", dir, path.data);
    /* A glTF naming an image that is not there is a broken file, as one
     * naming a missing buffer is (SENSIM_EPARSE, world.h). */
    FILE *fp = fopen(full, "rb");
    if (!fp) return sensim__fail(SENSIM_EPARSE, "texture '%s' cannot be opened: %s", full, strerror(errno));
    rc = sensim__texture_from_png(w, fp, full, &t);
    fclose(fp);
  }
  if (rc) return rc;
  rc = cache_add(cache, path.data, t);
  if (rc) return rc;
  *out = t;
  return SENSIM_OK;
}

static int get_float(const struct aiMaterial *am, const char *key, unsigned type, unsigned index, float *out) {
  ai_real v;
  unsigned max = 1;
  if (aiGetMaterialFloatArray(am, key, type, index, &v, &max) != aiReturn_SUCCESS || max < 1) return 0;
  *out = (float)v;
  return 1;
}

/* KHR_materials_emissive_strength, which Assimp 5.2 drops, read from the
 * file's own JSON (a .gltf whole, a .glb's first chunk: both checked by
 * sensim__mesh_check_file before Assimp read them): per JSON material its
 * emissiveStrength (1 where absent), and its name for matching Assimp's
 * materials, which its glTF 2 reader makes in the file's order. */
typedef struct strengths {
  size_t n;
  float *value;
  char **name; /* NULL where the material has none */
  cJSON *root;
} strengths;

static void strengths_free(strengths *st) {
  free(st->value);
  free(st->name);
  cJSON_Delete(st->root);
  memset(st, 0, sizeof *st);
}

static sensim_status read_strengths(const char *path, strengths *st) {
  memset(st, 0, sizeof *st);
  FILE *f = fopen(path, "rb");
  if (!f) return sensim__fail(SENSIM_EIO, "mesh file '%s' cannot be opened", path);
  unsigned char *b = NULL;
  long size = -1;
  if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
  if (size > 0 && size <= (1L << 30) && fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)size)) != NULL &&
      fread(b, 1, (size_t)size, f) != (size_t)size) {
    free(b);
    b = NULL;
  }
  fclose(f);
  if (!b) return sensim__fail(SENSIM_EIO, "mesh file '%s' cannot be read again", path);
  const char *json = (const char *)b;
  size_t n = (size_t)size;
  if (n >= 20 && memcmp(b, "glTF", 4) == 0) { /* GLB: the JSON chunk (glTF 2.0 sec. 4.4) */
    n = (size_t)b[12] | (size_t)b[13] << 8 | (size_t)b[14] << 16 | (size_t)b[15] << 24;
    json = (const char *)b + 20;
    if (n > (size_t)size - 20) n = 0;
  }
  st->root = cJSON_ParseWithLength(json, n);
  free(b);
  const cJSON *mats = cJSON_GetObjectItemCaseSensitive(st->root, "materials");
  const int count = cJSON_IsArray(mats) ? cJSON_GetArraySize(mats) : 0;
  if (count <= 0) return SENSIM_OK;
  st->value = malloc((size_t)count * sizeof *st->value);
  st->name = calloc((size_t)count, sizeof *st->name);
  if (!st->value || !st->name) {
    strengths_free(st);
    return sensim__fail(SENSIM_ENOMEM, "out of memory reading '%s'", path);
  }
  st->n = (size_t)count;
  size_t i = 0;
  for (const cJSON *m = mats->child; m; m = m->next, i++) {
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(m, "name");
    st->name[i] = cJSON_IsString(nm) ? nm->valuestring : NULL;
    const cJSON *ext = cJSON_GetObjectItemCaseSensitive(m, "extensions");
    const cJSON *es = cJSON_GetObjectItemCaseSensitive(ext, "KHR_materials_emissive_strength");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(es, "emissiveStrength");
    st->value[i] = 1.0f;
    if (!es) continue;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || !isfinite((float)v->valuedouble)) {
      strengths_free(st);
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s', material %zu: KHR_materials_emissive_strength."
                          "emissiveStrength must be a finite number >= 0", path, i);
    }
    st->value[i] = (float)v->valuedouble;
  }
  return SENSIM_OK;
}

/* One aiMaterial as a sensim_material. */
static sensim_status material(sensim_world *w, const struct aiScene *sc, const struct aiMaterial *am, const char *dir,
                              image_cache *cache, sensim_material *m) {
  sensim_material_init(m);
  /* Assimp's stand-in for primitives without a material (glTF 2.0 sec.
   * 3.9.6 says such a primitive is white); sensim's default, mid grey, is
   * its guess for an unknown surface, as for the other formats. */
  struct aiString name;
  if (aiGetMaterialString(am, AI_MATKEY_NAME, &name) == aiReturn_SUCCESS &&
      strcmp(name.data, AI_DEFAULT_MATERIAL_NAME) == 0)
    return SENSIM_OK;
  struct aiColor4D c;
  if (aiGetMaterialColor(am, AI_MATKEY_BASE_COLOR, &c) == aiReturn_SUCCESS ||
      aiGetMaterialColor(am, AI_MATKEY_COLOR_DIFFUSE, &c) == aiReturn_SUCCESS) {
    m->base_color[0] = c.r, m->base_color[1] = c.g, m->base_color[2] = c.b;
    m->alpha = c.a;
  }
  get_float(am, AI_MATKEY_METALLIC_FACTOR, &m->metallic);
  get_float(am, AI_MATKEY_ROUGHNESS_FACTOR, &m->roughness);
  float strength = 1.0f;
  get_float(am, AI_MATKEY_EMISSIVE_INTENSITY, &strength);
  if (aiGetMaterialColor(am, AI_MATKEY_COLOR_EMISSIVE, &c) == aiReturn_SUCCESS)
    m->emission[0] = c.r * strength, m->emission[1] = c.g * strength, m->emission[2] = c.b * strength;
  get_float(am, AI_MATKEY_TRANSMISSION_FACTOR, &m->transmission);
  get_float(am, AI_MATKEY_REFRACTI, &m->ior);
  get_float(am, AI_MATKEY_GLTF_TEXTURE_SCALE(aiTextureType_NORMALS, 0), &m->normal_scale);
  get_float(am, AI_MATKEY_GLTF_ALPHACUTOFF, &m->alpha_cutoff);
  struct aiString mode;
  if (aiGetMaterialString(am, AI_MATKEY_GLTF_ALPHAMODE, &mode) == aiReturn_SUCCESS) {
    if (strcmp(mode.data, "MASK") == 0)
      m->alpha_mode = SENSIM_ALPHA_MASK;
    else if (strcmp(mode.data, "BLEND") == 0)
      m->alpha_mode = SENSIM_ALPHA_BLEND;
    else if (strcmp(mode.data, "OPAQUE") != 0)
      return sensim__fail(SENSIM_EPARSE, "alphaMode '%s' is not OPAQUE, MASK or BLEND", mode.data);
  }
  sensim_status rc = slot(w, sc, am, aiTextureType_BASE_COLOR, 0, dir, cache, &m->texture);
  if (!rc && !m->texture) rc = slot(w, sc, am, aiTextureType_DIFFUSE, 0, dir, cache, &m->texture);
  if (!rc)
    rc = slot(w, sc, am, AI_MATKEY_GLTF_PBRMETALLICROUGHNESS_METALLICROUGHNESS_TEXTURE, dir, cache,
              &m->metallic_roughness_texture);
  if (!rc && !m->metallic_roughness_texture)
    rc = slot(w, sc, am, aiTextureType_METALNESS, 0, dir, cache, &m->metallic_roughness_texture);
  if (!rc) rc = slot(w, sc, am, aiTextureType_NORMALS, 0, dir, cache, &m->normal_texture);
  if (!rc) rc = slot(w, sc, am, aiTextureType_EMISSIVE, 0, dir, cache, &m->emissive_texture);
  if (rc) return rc;
  return sensim__material_check(w, m) ? SENSIM_EPARSE : SENSIM_OK;
}

sensim_status sensim__gltf_materials(sensim_world *w, const struct aiScene *sc, const char *path,
                                     sensim_material **out) {
  *out = NULL;
  strengths es;
  sensim_status rs = read_strengths(path, &es);
  if (rs) return rs;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = '\0';
  else
    dir[0] = '\0';
  sensim_material *mats = calloc(sc->mNumMaterials ? sc->mNumMaterials : 1, sizeof *mats);
  if (!mats) {
    strengths_free(&es);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for the materials of '%s'", path);
  }
  image_cache cache = {0};
  sensim_status rc = SENSIM_OK;
  for (unsigned i = 0; i < sc->mNumMaterials && !rc; i++) {
    rc = material(w, sc, sc->mMaterials[i], dir, &cache, &mats[i]);
    struct aiString an;
    const int has_name = aiGetMaterialString(sc->mMaterials[i], AI_MATKEY_NAME, &an) == aiReturn_SUCCESS;
    /* Where Assimp kept no strength (AI_MATKEY_EMISSIVE_INTENSITY), the
     * file's, for the JSON material of the same index and name. */
    float kept;
    if (!rc && i < es.n && es.value[i] != 1.0f &&
        !get_float(sc->mMaterials[i], AI_MATKEY_EMISSIVE_INTENSITY, &kept) &&
        (!es.name[i] || (has_name && strcmp(an.data, es.name[i]) == 0))) {
      for (int c = 0; c < 3; c++) mats[i].emission[c] *= es.value[i];
      if (sensim__material_check(w, &mats[i])) rc = SENSIM_EPARSE;
    }
    if (rc) {
      struct aiString name;
      const int named = aiGetMaterialString(sc->mMaterials[i], AI_MATKEY_NAME, &name) == aiReturn_SUCCESS;
      sensim__error_context("mesh file '%s', material %u%s%s%s", path, i, named ? " '" : "", named ? name.data : "",
                            named ? "'" : "");
    }
  }
  free(cache.key);
  free(cache.tex);
  strengths_free(&es);
  if (rc) {
    free(mats);
    return rc;
  }
  *out = mats;
  return SENSIM_OK;
}
