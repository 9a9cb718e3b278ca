/* scene/mesh_file_check.c: which formats sensim_mesh_load takes, and the
 * checks of a file's own structure before Assimp reads it (PLY in
 * scene/mesh_ply_check.c, STL in scene/mesh_stl_check.c, OBJ in
 * scene/mesh_obj_check.c, glTF here).
 *
 * Assimp picks its reader by extension, and when the readers claiming an
 * extension all decline the file it tries every reader it has on the
 * bytes (Assimp 5.2, Importer::ReadFile). .obj, .ply and .stl each have
 * one reader, which is then always the one used; .gltf and .glb have two
 * (glTF 1 and 2), which decline anything whose JSON or container does not
 * parse, so a broken glTF would reach any of Assimp's 48 readers. The
 * checks below make a glTF file that Assimp's glTF 2 reader would decline
 * an error here instead. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/mesh_check.h"

sensim__mesh_format sensim__mesh_format_of(const char *path) {
  static const struct {
    const char *ext;
    sensim__mesh_format fmt;
  } known[] = {{"obj", SENSIM__MESH_OBJ},   {"ply", SENSIM__MESH_PLY}, {"stl", SENSIM__MESH_STL},
               {"gltf", SENSIM__MESH_GLTF}, {"glb", SENSIM__MESH_GLB}};
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  if (!dot || (slash && dot < slash)) return SENSIM__MESH_UNSUPPORTED;
  char ext[8];
  size_t n = strlen(dot + 1);
  if (n == 0 || n >= sizeof ext) return SENSIM__MESH_UNSUPPORTED;
  for (size_t i = 0; i <= n; i++) {
    char c = dot[1 + i];
    ext[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
  }
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (strcmp(ext, known[i].ext) == 0) return known[i].fmt;
  return SENSIM__MESH_UNSUPPORTED;
}

int sensim__mesh_number(const char *w, size_t n, int integer) {
  size_t i = 0, digits = 0;
  if (i < n && (w[i] == '+' || w[i] == '-')) i++;
  while (i < n && w[i] >= '0' && w[i] <= '9') i++, digits++;
  if (integer) return digits && i == n;
  if (i < n && w[i] == '.') {
    i++;
    while (i < n && w[i] >= '0' && w[i] <= '9') i++, digits++;
  }
  if (!digits) return 0;
  if (i < n && (w[i] == 'e' || w[i] == 'E')) {
    size_t e = 0;
    i++;
    if (i < n && (w[i] == '+' || w[i] == '-')) i++;
    while (i < n && w[i] >= '0' && w[i] <= '9') i++, e++;
    if (!e) return 0;
  }
  return i == n;
}

static uint32_t le32(const unsigned char *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Node indices in range, each node under at most one parent, and no chain
 * deeper than SENSIM__MESH_MAX_DEPTH: Assimp's glTF 2 reader follows
 * "children" recursively and would recurse for ever round a cycle. */
static sensim_status check_nodes(const cJSON *root, const char *path) {
  const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(root, "nodes");
  if (!nodes) return SENSIM_OK;
  if (!cJSON_IsArray(nodes)) return sensim__fail(SENSIM_EPARSE, "mesh file '%s': glTF 'nodes' is not an array", path);
  int n = cJSON_GetArraySize(nodes);
  int *parent = malloc((size_t)(n > 0 ? n : 1) * sizeof *parent);
  if (!parent) return sensim__fail(SENSIM_ENOMEM, "mesh file '%s': out of memory checking it", path);
  for (int i = 0; i < n; i++) parent[i] = -1;
  sensim_status st = SENSIM_OK;
  int i = 0;
  for (const cJSON *node = nodes->child; node && !st; node = node->next, i++) {
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(node, "children");
    if (!ch) continue;
    if (!cJSON_IsArray(ch)) {
      st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': glTF node %d: 'children' is not an array", path, i);
      break;
    }
    for (const cJSON *c = ch->child; c; c = c->next) {
      double v = cJSON_IsNumber(c) ? c->valuedouble : -1.0;
      if (!(v >= 0 && v < n && v == (int)v)) {
        st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': glTF node %d has a child that is not a node index",
                          path, i);
        break;
      }
      int k = (int)v;
      if (parent[k] >= 0 || k == i) {
        st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': glTF node %d is the child of more than one node "
                          "(or of itself)", path, k);
        break;
      }
      parent[k] = i;
    }
  }
  /* With one parent each, a walk up from any node either reaches a root
   * or goes round a cycle; both show within n steps. */
  for (int k = 0; k < n && !st; k++) {
    int depth = 0;
    for (int p = parent[k]; p >= 0 && !st; p = parent[p])
      if (++depth > SENSIM__MESH_MAX_DEPTH || depth > n)
        st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': glTF node %d is in a cycle or more than %d levels "
                          "deep", path, k, SENSIM__MESH_MAX_DEPTH);
  }
  free(parent);
  return st;
}

/* RFC 4648 base64: whole quads of the alphabet, '=' only as the last one
 * or two. Assimp's decoder allocates its output first and throws on a
 * non-ASCII character, leaking the allocation. */
static int base64_ok(const char *s, size_t n) {
  if (n % 4) return 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    int alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
    if (!alpha && !(c == '=' && i + 2 >= n && (i + 1 == n || s[i + 1] == '='))) return 0;
  }
  return 1;
}

/* Every base64 data URI (RFC 2397) of the buffers and images. */
static sensim_status check_data_uris(const cJSON *root, const char *path) {
  static const char *const arrays[] = {"buffers", "images"};
  for (int a = 0; a < 2; a++) {
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, arrays[a]);
    int i = 0;
    for (const cJSON *e = cJSON_IsArray(arr) ? arr->child : NULL; e; e = e->next, i++) {
      const cJSON *uri = cJSON_GetObjectItemCaseSensitive(e, "uri");
      if (!cJSON_IsString(uri) || strncmp(uri->valuestring, "data:", 5) != 0) continue;
      const char *comma = strchr(uri->valuestring, ',');
      if (!comma)
        return sensim__fail(SENSIM_EPARSE, "mesh file '%s': glTF %s[%d]: data URI without ','", path, arrays[a], i);
      const char *b64 = strstr(uri->valuestring, ";base64");
      if (b64 && b64 < comma && !base64_ok(comma + 1, strlen(comma + 1)))
        return sensim__fail(SENSIM_EPARSE, "mesh file '%s': glTF %s[%d]: data URI is not valid base64", path,
                            arrays[a], i);
    }
  }
  return SENSIM_OK;
}

/* The JSON of a glTF 2.0 asset: an object whose asset.version is 2.x
 * (what Assimp's glTF 2 reader asks before it takes the file), with
 * nothing but white space after it. */
static sensim_status check_gltf_json(const char *json, size_t n, const char *path) {
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(json, n, &end, 0);
  if (!root) {
    size_t at = end && end >= json ? (size_t)(end - json) : 0;
    return sensim__fail(SENSIM_EPARSE, "mesh file '%s': glTF JSON does not parse (near byte %zu)", path, at);
  }
  sensim_status st = SENSIM_OK;
  for (const char *p = end; p < json + n && !st; p++)
    if (!(*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
      st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': glTF JSON is followed by other bytes", path);
  const cJSON *asset = cJSON_GetObjectItemCaseSensitive(root, "asset");
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive(asset, "version");
  if (!st && (!cJSON_IsObject(root) || !cJSON_IsString(ver) || ver->valuestring[0] != '2' ||
              (ver->valuestring[1] != '.' && ver->valuestring[1] != '\0')))
    st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': not glTF 2.0 (no asset.version \"2.x\")", path);
  if (!st) st = check_nodes(root, path);
  if (!st) st = check_data_uris(root, path);
  cJSON_Delete(root);
  return st;
}

/* GLB (glTF 2.0, section 4.4): a 12-byte header (magic "glTF", version 2,
 * total length), a JSON chunk, and optionally a BIN chunk; each chunk is
 * its length, its type and its data, lengths within the total. */
static sensim_status check_glb(const unsigned char *b, size_t size, const char *path) {
  if (size < 20 || memcmp(b, "glTF", 4) != 0)
    return sensim__fail(SENSIM_EPARSE, "mesh file '%s': not a GLB file (no 'glTF' header)", path);
  uint32_t version = le32(b + 4), length = le32(b + 8), json_len = le32(b + 12);
  if (version != 2)
    return sensim__fail(SENSIM_EPARSE, "mesh file '%s': GLB version %u (sensim reads 2)", path, version);
  if (length > size || length < 20)
    return sensim__fail(SENSIM_EPARSE, "mesh file '%s': GLB header gives %u bytes, the file has %zu (cut "
                        "short?)", path, length, size);
  if (le32(b + 16) != 0x4E4F534Au || json_len > length - 20)
    return sensim__fail(SENSIM_EPARSE, "mesh file '%s': GLB's first chunk is not JSON within the file", path);
  /* Chunks start on 4-byte boundaries. */
  uint64_t bin = 20 + (((uint64_t)json_len + 3) & ~(uint64_t)3);
  if (bin + 8 <= length) {
    if (le32(b + bin + 4) != 0x004E4942u || le32(b + bin) > length - bin - 8)
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': GLB's second chunk is not BIN within the file",
                          path);
  } else if (bin < length && bin + 8 > length) {
    return sensim__fail(SENSIM_EPARSE, "mesh file '%s': GLB ends inside a chunk header", path);
  }
  return check_gltf_json((const char *)b + 20, json_len, path);
}

/* The whole file, for formats whose check parses it. */
static sensim_status read_all(FILE *f, uint64_t size, const char *path, unsigned char **out) {
  /* Assimp reads these whole too; beyond 1 GiB a mesh is not what the file
 * holds. */
  if (size > ((uint64_t)1 << 30))
    return sensim__fail(SENSIM_EPARSE, "mesh file '%s': %llu bytes is too large for a text mesh", path,
                        (unsigned long long)size);
  unsigned char *b = malloc((size_t)size + 1);
  if (!b) return sensim__fail(SENSIM_ENOMEM, "mesh file '%s': out of memory reading it", path);
  if (fread(b, 1, (size_t)size, f) != (size_t)size) {
    free(b);
    return sensim__fail(SENSIM_EIO, "mesh file '%s': read error", path);
  }
  b[size] = 0;
  *out = b;
  return SENSIM_OK;
}

sensim_status sensim__mesh_check_file(const char *path, sensim__mesh_format fmt) {
  FILE *f = fopen(path, "rb");
  if (!f) return sensim__fail(SENSIM_EIO, "mesh file '%s' cannot be opened", path);
  sensim_status st = SENSIM_OK;
  off_t size = -1;
  if (fseeko(f, 0, SEEK_END) == 0) size = ftello(f);
  if (size < 0 || fseeko(f, 0, SEEK_SET) != 0) st = sensim__fail(SENSIM_EIO, "mesh file '%s': cannot seek", path);
  else if (size == 0) st = sensim__fail(SENSIM_EPARSE, "mesh file '%s' is empty", path);
  if (!st && fmt == SENSIM__MESH_PLY) {
    st = sensim__mesh_check_ply(f, (uint64_t)size, path);
  } else if (!st && fmt == SENSIM__MESH_STL) {
    st = sensim__mesh_check_stl(f, (uint64_t)size, path);
  } else if (!st) {
    unsigned char *b = NULL;
    st = read_all(f, (uint64_t)size, path, &b);
    if (!st && fmt == SENSIM__MESH_GLB) st = check_glb(b, (size_t)size, path);
    else if (!st && fmt == SENSIM__MESH_OBJ) st = sensim__mesh_check_obj((const char *)b, (size_t)size, path);
    else if (!st) st = check_gltf_json((const char *)b, (size_t)size, path);
    free(b);
  }
  fclose(f);
  return st;
}
