/* tests/scene/mesh_import_tests.c: sensim_mesh_load (src/scene/
 * mesh_import.c) on small OBJ, PLY, STL and glTF files written at test
 * time: triangle counts, vertex bounds, winding (signed volume), node
 * transforms, materials, and the missing-file and malformed-file paths,
 * among them issue 14's binary PLY cut short. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "support/testutil.h"
#include "core/vecmath.h"
#include "scene/scene.h"

/* A box x in [0, 1], y in [0, 2], z in [0, 3] (distinct extents catch
 * swapped axes). Vertex i has x = i & 1, y = (i >> 1) & 1, z = i >> 2 (unit
 * corners, scaled); faces wind counter-clockwise seen from outside. */
static const float BOX_SCALE[3] = {1.0f, 2.0f, 3.0f};
static const int BOX_QUADS[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                    {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};

static void box_corner(int i, float out[3]) {
  out[0] = (float)(i & 1) * BOX_SCALE[0];
  out[1] = (float)((i >> 1) & 1) * BOX_SCALE[1];
  out[2] = (float)(i >> 2) * BOX_SCALE[2];
}

static void tmp_path(char *buf, size_t n, const char *name) {
  snprintf(buf, n, "%s/%s", SENSIM_TEST_TMP, name);
}

static FILE *open_tmp(const char *name, char *path, size_t n) {
  if (mkdir(SENSIM_TEST_TMP, 0755) != 0 && errno != EEXIST) fail_msg("cannot create %s", SENSIM_TEST_TMP);
  tmp_path(path, n, name);
  FILE *f = fopen(path, "wb");
  if (!f) fail_msg("cannot write %s", path);
  return f;
}

static double signed_volume(const sensim_mesh *m) {
  double v = 0;
  for (size_t t = 0; t < m->ntri; t++) {
    const uint32_t *ix = &m->indices[3 * t];
    sensim_vec3 p[3];
    for (int k = 0; k < 3; k++)
      p[k] = v3(m->vertices[3 * ix[k]], m->vertices[3 * ix[k] + 1], m->vertices[3 * ix[k] + 2]);
    v += v3_dot(p[0], v3_cross(p[1], p[2]));
  }
  return v / 6.0;
}

static void assert_bounds(const sensim_mesh *m, const float lo[3], const float hi[3]) {
  float l[3] = {INFINITY, INFINITY, INFINITY}, h[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (size_t i = 0; i < m->nvert; i++)
    for (int k = 0; k < 3; k++) {
      l[k] = fminf(l[k], m->vertices[3 * i + k]);
      h[k] = fmaxf(h[k], m->vertices[3 * i + k]);
    }
  for (int k = 0; k < 3; k++) {
    assert_near(l[k], lo[k], 1e-6);
    assert_near(h[k], hi[k], 1e-6);
  }
}

static const float BOX_LO[3] = {0, 0, 0}, BOX_HI[3] = {1, 2, 3};

/* Load and check a file describing the box: 12 triangles, bounds, and a
 * positive volume of 6 m^3 (outward winding survived the import). */
static sensim_mesh *load_box(sensim_world *w, const char *path) {
  size_t before = w->nmeshes;
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_load(w, path, NULL, &m));
  assert_int_equal(w->nmeshes, before + 1);
  assert_int_equal(sensim_mesh_triangle_count(m), 12);
  assert_bounds(m, BOX_LO, BOX_HI);
  assert_near(signed_volume(m), 6.0, 1e-5);
  return m;
}

/* The box as OBJ with quads and a material library naming one material. */
static void write_obj_box(char *path, size_t n) {
  char mtl[1024];
  FILE *f = open_tmp("mi_box.mtl", mtl, sizeof mtl);
  fputs("newmtl paint\nKd 0.2 0.4 0.6\n", f);
  fclose(f);
  f = open_tmp("mi_box.obj", path, n);
  fputs("# box for sensim tests\nmtllib mi_box.mtl\n", f);
  for (int i = 0; i < 8; i++) {
    float c[3];
    box_corner(i, c);
    fprintf(f, "v %g %g %g\n", c[0], c[1], c[2]);
  }
  fputs("usemtl paint\n", f);
  for (int q = 0; q < 6; q++) /* quads: the importer must triangulate them */
    fprintf(f, "f %d %d %d %d\n", BOX_QUADS[q][0] + 1, BOX_QUADS[q][1] + 1, BOX_QUADS[q][2] + 1,
            BOX_QUADS[q][3] + 1);
  fclose(f);
}

/* Fixtures: each test gets a fresh world, destroyed even when it fails. */
static int world_setup(void **state) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = 0;
  sensim_world *w = NULL;
  if (sensim_world_create(&p, &w) != SENSIM_OK) return -1;
  *state = w;
  return 0;
}

static int world_teardown(void **state) {
  sensim_world_destroy(*state);
  return 0;
}

static void test_obj_box_loads_with_counts_bounds_and_winding(void **state) {
  sensim_world *w = *state;
  char path[1024];
  write_obj_box(path, sizeof path);
  (void)load_box(w, path);
  /* A material given overrides the file's. */
  sensim_material mat;
  sensim_material_init(&mat);
  mat.base_color[0] = 0.9f;
  mat.reflectance = 0.7f;
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_load(w, path, &mat, &m));
  assert_near(m->material.base_color[0], 0.9, 1e-7);
  assert_near(m->material.reflectance, 0.7, 1e-7);
  /* An invalid material is refused and adds nothing. */
  mat.roughness = 3.0f;
  size_t before = w->nmeshes;
  assert_int_equal(sensim_mesh_load(w, path, &mat, &m), SENSIM_EINVAL);
  assert_int_equal(w->nmeshes, before);
}

/* No material given: the colour of the material the file assigns to its
 * faces ("usemtl paint", Kd 0.2 0.4 0.6) is used (world.h: "the file's
 * first material's diffuse colour"), not a default the importer adds. */
static void test_obj_material_colour_comes_from_the_file(void **state) {
  sensim_world *w = *state;
  char path[1024];
  write_obj_box(path, sizeof path);
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_load(w, path, NULL, &m));
  assert_near(m->material.base_color[0], 0.2, 1e-6);
  assert_near(m->material.base_color[1], 0.4, 1e-6);
  assert_near(m->material.base_color[2], 0.6, 1e-6);
}

static void test_ply_ascii_box_loads(void **state) {
  sensim_world *w = *state;
  char path[1024];
  FILE *f = open_tmp("mi_box.ply", path, sizeof path);
  fputs("ply\nformat ascii 1.0\ncomment sensim test box\nelement vertex 8\n"
        "property float x\nproperty float y\nproperty float z\n"
        "element face 6\nproperty list uchar int vertex_indices\nend_header\n",
        f);
  for (int i = 0; i < 8; i++) {
    float c[3];
    box_corner(i, c);
    fprintf(f, "%g %g %g\n", c[0], c[1], c[2]);
  }
  for (int q = 0; q < 6; q++)
    fprintf(f, "4 %d %d %d %d\n", BOX_QUADS[q][0], BOX_QUADS[q][1], BOX_QUADS[q][2], BOX_QUADS[q][3]);
  fclose(f);
  (void)load_box(w, path);
}

static void test_stl_ascii_box_loads(void **state) {
  sensim_world *w = *state;
  char path[1024];
  FILE *f = open_tmp("mi_box.stl", path, sizeof path);
  fputs("solid box\n", f);
  for (int q = 0; q < 6; q++)
    for (int h = 0; h < 2; h++) {
      int tri[3] = {BOX_QUADS[q][0], BOX_QUADS[q][1 + h], BOX_QUADS[q][2 + h]};
      fputs(" facet normal 0 0 0\n  outer loop\n", f);
      for (int k = 0; k < 3; k++) {
        float c[3];
        box_corner(tri[k], c);
        fprintf(f, "   vertex %g %g %g\n", c[0], c[1], c[2]);
      }
      fputs("  endloop\n endfacet\n", f);
    }
  fputs("endsolid box\n", f);
  fclose(f);
  (void)load_box(w, path);
}

/* RFC 4648 base64. */
static void base64(const unsigned char *in, size_t n, char *out) {
  static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned)in[i] << 16;
    if (i + 1 < n) v |= (unsigned)in[i + 1] << 8;
    if (i + 2 < n) v |= in[i + 2];
    out[o++] = tbl[(v >> 18) & 63];
    out[o++] = tbl[(v >> 12) & 63];
    out[o++] = i + 1 < n ? tbl[(v >> 6) & 63] : '=';
    out[o++] = i + 2 < n ? tbl[v & 63] : '=';
  }
  out[o] = '\0';
}

/* glTF 2.0 (Khronos spec): one triangle (0,0,0), (1,0,0), (0,2,0) in an
 * embedded buffer (36 bytes of float VEC3 positions, then 6 bytes of
 * uint16 indices), under a node translated by (0, 0, 5): the import must
 * apply the node transform. */
static void test_gltf_embedded_triangle_loads_with_node_transform(void **state) {
  sensim_world *w = *state;
  const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 2, 0};
  const uint16_t idx[3] = {0, 1, 2};
  unsigned char buf[42];
  /* glTF buffers are little-endian; write them byte by byte. */
  for (int i = 0; i < 9; i++) {
    uint32_t u;
    memcpy(&u, &pos[i], 4);
    for (int b = 0; b < 4; b++) buf[4 * i + b] = (unsigned char)(u >> (8 * b));
  }
  for (int i = 0; i < 3; i++) {
    buf[36 + 2 * i] = (unsigned char)(idx[i] & 0xFF);
    buf[36 + 2 * i + 1] = (unsigned char)(idx[i] >> 8);
  }
  char b64[64];
  base64(buf, sizeof buf, b64);
  char path[1024];
  FILE *f = open_tmp("mi_tri.gltf", path, sizeof path);
  fprintf(f,
          "{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}],\n"
          " \"nodes\": [{\"mesh\": 0, \"translation\": [0, 0, 5]}],\n"
          " \"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 0}, \"indices\": 1}]}],\n"
          " \"buffers\": [{\"byteLength\": 42, \"uri\": \"data:application/octet-stream;base64,%s\"}],\n"
          " \"bufferViews\": [{\"buffer\": 0, \"byteOffset\": 0, \"byteLength\": 36, \"target\": 34962},\n"
          "                 {\"buffer\": 0, \"byteOffset\": 36, \"byteLength\": 6, \"target\": 34963}],\n"
          " \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\",\n"
          "                  \"min\": [0, 0, 0], \"max\": [1, 2, 0]},\n"
          "                {\"bufferView\": 1, \"componentType\": 5123, \"count\": 3, \"type\": \"SCALAR\"}]}\n",
          b64);
  fclose(f);
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_load(w, path, NULL, &m));
  assert_int_equal(sensim_mesh_triangle_count(m), 1);
  assert_int_equal(m->nvert, 3);
  const float lo[3] = {0, 0, 5}, hi[3] = {1, 2, 5};
  assert_bounds(m, lo, hi);
  /* Counter-clockwise seen from +Z, as written. */
  const uint32_t *ix = m->indices;
  sensim_vec3 a = v3(m->vertices[3 * ix[0]], m->vertices[3 * ix[0] + 1], m->vertices[3 * ix[0] + 2]);
  sensim_vec3 b = v3(m->vertices[3 * ix[1]], m->vertices[3 * ix[1] + 1], m->vertices[3 * ix[1] + 2]);
  sensim_vec3 c = v3(m->vertices[3 * ix[2]], m->vertices[3 * ix[2] + 1], m->vertices[3 * ix[2] + 2]);
  sensim_vec3 n = v3_cross(v3_sub(b, a), v3_sub(c, a));
  assert_near(n.z, 2.0, 1e-6); /* twice the area, pointing up */
}

static void test_missing_and_malformed_files_fail_cleanly(void **state) {
  sensim_world *w = *state;
  sensim_mesh *m = NULL;
  char path[1024];
  tmp_path(path, sizeof path, "mi_does_not_exist.obj");
  remove(path);
  assert_int_equal(sensim_mesh_load(w, path, NULL, &m), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "mi_does_not_exist.obj"));
  assert_int_equal(w->nmeshes, 0);
  /* Garbage bytes behind an .obj extension. */
  FILE *f = open_tmp("mi_garbage.obj", path, sizeof path);
  sensim_rng r;
  sensim_rng_init(&r, 5, 0, 0, 0);
  for (int i = 0; i < 4096; i++) fputc((int)(sensim_rng_u32(&r) & 0xFF), f);
  fclose(f);
  assert_int_equal(sensim_mesh_load(w, path, NULL, &m), SENSIM_EPARSE);
  assert_true(sensim_last_error()[0] != '\0');
  assert_int_equal(w->nmeshes, 0);
  /* A well-formed file with no triangles (vertices only). */
  f = open_tmp("mi_points.obj", path, sizeof path);
  fputs("v 0 0 0\nv 1 0 0\nv 0 1 0\n", f);
  fclose(f);
  assert_int_equal(sensim_mesh_load(w, path, NULL, &m), SENSIM_EPARSE);
  assert_int_equal(w->nmeshes, 0);
  /* An empty STL. */
  f = open_tmp("mi_empty.stl", path, sizeof path);
  fclose(f);
  assert_int_equal(sensim_mesh_load(w, path, NULL, &m), SENSIM_EPARSE);
  assert_null(m);
  assert_int_equal(sensim_mesh_load(w, NULL, NULL, &m), SENSIM_EINVAL);
  assert_int_equal(w->nmeshes, 0);
  /* The world is still usable. */
  sensim_shape s = {SENSIM_SHAPE_BOX, {1, 1, 1}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &s, NULL, &m));
  assert_int_equal(w->nmeshes, 1);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
}

/* The box as binary little-endian PLY (Turk 1994): float x y z, then
 * quads as uchar-counted int lists; `bad_index` >= 0 replaces the first
 * face's last index. Returns the byte count written to buf. */
static size_t ply_binary_box(unsigned char *buf, size_t cap, int bad_index) {
  const char *hdr = "ply\nformat binary_little_endian 1.0\nelement vertex 8\nproperty float x\n"
                    "property float y\nproperty float z\nelement face 6\n"
                    "property list uchar int vertex_indices\nend_header\n";
  size_t n = strlen(hdr);
  assert_true(n + 8 * 12 + 6 * 17 <= cap);
  memcpy(buf, hdr, n);
  for (int i = 0; i < 8; i++) {
    float c[3];
    box_corner(i, c);
    for (int k = 0; k < 3; k++) {
      uint32_t u;
      memcpy(&u, &c[k], 4);
      for (int b = 0; b < 4; b++) buf[n++] = (unsigned char)(u >> (8 * b));
    }
  }
  for (int q = 0; q < 6; q++) {
    buf[n++] = 4;
    for (int k = 0; k < 4; k++) {
      uint32_t u = (uint32_t)(q == 0 && k == 3 && bad_index >= 0 ? bad_index : BOX_QUADS[q][k]);
      for (int b = 0; b < 4; b++) buf[n++] = (unsigned char)(u >> (8 * b));
    }
  }
  return n;
}

static void write_bytes(const char *name, const void *data, size_t n, char *path, size_t cap) {
  FILE *f = open_tmp(name, path, cap);
  if (fwrite(data, 1, n, f) != n) fail_msg("cannot write %s", path);
  fclose(f);
}

/* Issue 14: a binary PLY cut short used to hang Assimp's header parser
 * (cut in the header) or crash its Triangulate step (cut in the body:
 * faces of 0x0A0A0A0A indices). Every length short of the whole file is
 * now SENSIM_EPARSE naming the file, and the world is left as it was. */
static void test_binary_ply_cut_at_every_length_fails_cleanly(void **state) {
  sensim_world *w = *state;
  unsigned char ply[512];
  size_t n = ply_binary_box(ply, sizeof ply, -1);
  char path[1024];
  write_bytes("mi_box_le.ply", ply, n, path, sizeof path);
  (void)load_box(w, path);
  size_t before = w->nmeshes;
  for (size_t len = 0; len < n; len++) {
    write_bytes("mi_cut.ply", ply, len, path, sizeof path);
    sensim_mesh *m = NULL;
    sensim_status st = sensim_mesh_load(w, path, NULL, &m);
    if (st != SENSIM_EPARSE) fail_msg("cut at %zu of %zu: status %d (%s)", len, n, st, sensim_last_error());
    assert_non_null(strstr(sensim_last_error(), "mi_cut.ply"));
    assert_null(m);
    assert_int_equal(w->nmeshes, before);
  }
}

/* A face indexing past the vertex array is refused before any Assimp
 * step can follow it. */
static void test_face_index_out_of_range_is_refused_with_its_place(void **state) {
  sensim_world *w = *state;
  unsigned char ply[512];
  size_t n = ply_binary_box(ply, sizeof ply, 99);
  char path[1024];
  write_bytes("mi_bad_index.ply", ply, n, path, sizeof path);
  sensim_mesh *m = NULL;
  assert_int_equal(sensim_mesh_load(w, path, NULL, &m), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "mi_bad_index.ply"));
  assert_non_null(strstr(sensim_last_error(), "vertex 99 of 8"));
  assert_int_equal(w->nmeshes, 0);
}

/* Only the formats sensim checks reach Assimp: another extension would
 * let Assimp pick any of its readers by the bytes. */
static void test_unchecked_formats_are_refused(void **state) {
  sensim_world *w = *state;
  char obj[1024], path[1024];
  write_obj_box(obj, sizeof obj);
  static const char *const names[] = {"mi_box.dae", "mi_box.3ds", "mi_box", "mi_box.obj.txt"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    FILE *in = fopen(obj, "rb");
    assert_non_null(in);
    char text[2048];
    size_t n = fread(text, 1, sizeof text, in);
    fclose(in);
    write_bytes(names[i], text, n, path, sizeof path);
    sensim_mesh *m = NULL;
    assert_int_equal(sensim_mesh_load(w, path, NULL, &m), SENSIM_EPARSE);
    assert_non_null(strstr(sensim_last_error(), ".obj, .ply, .stl, .gltf, .glb"));
  }
  /* The extension is matched without regard to case. */
  char upper[1024];
  snprintf(upper, sizeof upper, "%s/MI_BOX.OBJ", SENSIM_TEST_TMP);
  assert_int_equal(rename(obj, upper), 0);
  (void)load_box(w, upper);
}

/* A glTF node that is its own ancestor would send Assimp's reader round
 * the cycle for ever. */
static void test_gltf_node_cycle_is_refused(void **state) {
  sensim_world *w = *state;
  char path[1024];
  FILE *f = open_tmp("mi_cycle.gltf", path, sizeof path);
  fputs("{\"asset\": {\"version\": \"2.0\"}, \"scenes\": [{\"nodes\": [0]}],\n"
        " \"nodes\": [{\"children\": [1]}, {\"children\": [2]}, {\"children\": [1]}]}\n",
        f);
  fclose(f);
  sensim_mesh *m = NULL;
  assert_int_equal(sensim_mesh_load(w, path, NULL, &m), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "more than one node"));
}

int sensim_test_mesh_import(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_obj_box_loads_with_counts_bounds_and_winding, world_setup,
                                      world_teardown),
      cmocka_unit_test_setup_teardown(test_obj_material_colour_comes_from_the_file, world_setup, world_teardown),
      cmocka_unit_test_setup_teardown(test_ply_ascii_box_loads, world_setup, world_teardown),
      cmocka_unit_test_setup_teardown(test_stl_ascii_box_loads, world_setup, world_teardown),
      cmocka_unit_test_setup_teardown(test_gltf_embedded_triangle_loads_with_node_transform, world_setup,
                                      world_teardown),
      cmocka_unit_test_setup_teardown(test_missing_and_malformed_files_fail_cleanly, world_setup, world_teardown),
      cmocka_unit_test_setup_teardown(test_binary_ply_cut_at_every_length_fails_cleanly, world_setup,
                                      world_teardown),
      cmocka_unit_test_setup_teardown(test_face_index_out_of_range_is_refused_with_its_place, world_setup,
                                      world_teardown),
      cmocka_unit_test_setup_teardown(test_unchecked_formats_are_refused, world_setup, world_teardown),
      cmocka_unit_test_setup_teardown(test_gltf_node_cycle_is_refused, world_setup, world_teardown),
  };
  return cmocka_run_group_tests_name("mesh_import", tests, NULL, NULL);
}
