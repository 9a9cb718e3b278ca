/* scene/shapes.c: tessellated primitive shapes, built into ordinary meshes.
 * Triangles wind counter-clockwise seen from outside. */
#include <math.h>
#include <stdlib.h>
#include "core/internal.h"
#include "scene/scene.h"

typedef struct builder {
  float *v, *uv;
  uint32_t *ix;
  size_t nv, nt, cap_v, cap_uv, cap_t;
  sensim_status rc;
} builder;

/* A vertex with texture coordinates (u across, v down from the top). */
static uint32_t vert_uv(builder *b, double x, double y, double z, double u, double v) {
  if (b->rc || sensim__grow((void **)&b->v, &b->cap_v, 3 * (b->nv + 1), sizeof *b->v) ||
      sensim__grow((void **)&b->uv, &b->cap_uv, 2 * (b->nv + 1), sizeof *b->uv)) {
    b->rc = SENSIM_ENOMEM;
    return 0;
  }
  b->v[3 * b->nv] = (float)x;
  b->v[3 * b->nv + 1] = (float)y;
  b->v[3 * b->nv + 2] = (float)z;
  b->uv[2 * b->nv] = (float)u;
  b->uv[2 * b->nv + 1] = (float)v;
  return (uint32_t)b->nv++;
}

static void tri(builder *b, uint32_t a, uint32_t c, uint32_t d) {
  if (b->rc || sensim__grow((void **)&b->ix, &b->cap_t, 3 * (b->nt + 1), sizeof *b->ix)) {
    b->rc = SENSIM_ENOMEM;
    return;
  }
  b->ix[3 * b->nt] = a;
  b->ix[3 * b->nt + 1] = c;
  b->ix[3 * b->nt + 2] = d;
  b->nt++;
}

static void quad(builder *b, uint32_t a, uint32_t c, uint32_t d, uint32_t e) {
  tri(b, a, c, d);
  tri(b, a, d, e);
}

static void box(builder *b, double hx, double hy, double hz) {
  /* Each face gets its own four vertices so flat normals stay flat. */
  static const int faces[6][4][3] = {
      {{1, -1, -1}, {1, 1, -1}, {1, 1, 1}, {1, -1, 1}},     {{-1, 1, -1}, {-1, -1, -1}, {-1, -1, 1}, {-1, 1, 1}},
      {{1, 1, -1}, {-1, 1, -1}, {-1, 1, 1}, {1, 1, 1}},     {{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1}},
      {{-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},     {{-1, 1, -1}, {1, 1, -1}, {1, -1, -1}, {-1, -1, -1}}};
  for (int f = 0; f < 6; f++) {
    uint32_t q[4];
    /* Each face shows the whole texture, corners in the order listed. */
    static const double fu[4] = {0, 1, 1, 0}, fv[4] = {1, 1, 0, 0};
    for (int i = 0; i < 4; i++)
      q[i] = vert_uv(b, faces[f][i][0] * hx, faces[f][i][1] * hy, faces[f][i][2] * hz, fu[i], fv[i]);
    quad(b, q[0], q[1], q[2], q[3]);
  }
}

static void sphere(builder *b, double r, int seg) {
  int rings = seg / 2 < 2 ? 2 : seg / 2;
  uint32_t base = (uint32_t)b->nv;
  for (int i = 0; i <= rings; i++) {
    double th = M_PI * i / rings; /* from the north pole */
    for (int j = 0; j <= seg; j++) {
      double ph = 2.0 * M_PI * j / seg;
      vert_uv(b, r * sin(th) * cos(ph), r * sin(th) * sin(ph), r * cos(th), (double)j / seg, (double)i / rings);
    }
  }
  uint32_t row = (uint32_t)seg + 1;
  for (int i = 0; i < rings; i++)
    for (int j = 0; j < seg; j++) {
      uint32_t a = base + i * row + j, c = a + row;
      if (i != 0) tri(b, a, c, a + 1);
      if (i != rings - 1) tri(b, a + 1, c, c + 1);
    }
}

/* A cylinder (top radius rt = r) or cone (rt = 0) on z in [0, h]. */
static void lathe(builder *b, double r, double rt, double h, int seg) {
  /* Sides wrap the texture once around (u) from the top (v = 0) down. */
  uint32_t cb = vert_uv(b, 0, 0, 0, 0.5, 1), ct = vert_uv(b, 0, 0, h, 0.5, 0);
  for (int j = 0; j < seg; j++) {
    double p0 = 2.0 * M_PI * j / seg, p1 = 2.0 * M_PI * (j + 1) / seg;
    double u0 = (double)j / seg, u1 = (double)(j + 1) / seg;
    uint32_t b0 = vert_uv(b, r * cos(p0), r * sin(p0), 0, u0, 1), b1 = vert_uv(b, r * cos(p1), r * sin(p1), 0, u1, 1);
    tri(b, cb, b1, b0);
    if (rt > 0) {
      uint32_t t0 = vert_uv(b, rt * cos(p0), rt * sin(p0), h, u0, 0), t1 = vert_uv(b, rt * cos(p1), rt * sin(p1), h, u1, 0);
      quad(b, b0, b1, t1, t0);
      tri(b, ct, t0, t1);
    } else {
      tri(b, b0, b1, ct);
    }
  }
}

/* A shape's vertices lie at most this far from its origin along any axis:
 * they are world coordinates once placed (world.h, SENSIM_COORD_MAX). */
static sensim_status check_reach(const char *kind, double reach) {
  if (reach <= SENSIM_COORD_MAX) return SENSIM_OK;
  return sensim__fail(SENSIM_EINVAL,
                      "%s reaches %g m from its origin, beyond the world coordinate limit of %.0f m (SENSIM_COORD_MAX)",
                      kind, reach, SENSIM_COORD_MAX);
}

sensim_status sensim_mesh_create_shape(sensim_world *w, const sensim_shape *s,
                                       const sensim_material *material, sensim_mesh **out) {
  if (!w || !s || !out) return sensim__fail(SENSIM_EINVAL, "sensim_mesh_create_shape: NULL argument");
  int seg = s->segments ? s->segments : 32;
  if (seg < 3 || seg > 4096) return sensim__fail(SENSIM_EINVAL, "shape segments %d must be in [3, 4096]", seg);
  sensim_vec3 z = s->size;
  builder b = {0};
  switch (s->kind) {
    case SENSIM_SHAPE_BOX:
      if (!(z.x > 0 && z.y > 0 && z.z > 0 && sensim__finite3(z)))
        return sensim__fail(SENSIM_EINVAL, "box size (%g, %g, %g) must be finite and > 0", z.x, z.y, z.z);
      if (check_reach("box", fmax(z.x, fmax(z.y, z.z)) / 2)) return SENSIM_EINVAL;
      box(&b, z.x / 2, z.y / 2, z.z / 2);
      break;
    case SENSIM_SHAPE_SPHERE:
      if (!(z.x > 0 && isfinite(z.x))) return sensim__fail(SENSIM_EINVAL, "sphere radius %g must be > 0", z.x);
      if (check_reach("sphere", z.x)) return SENSIM_EINVAL;
      sphere(&b, z.x, seg);
      break;
    case SENSIM_SHAPE_CYLINDER:
    case SENSIM_SHAPE_CONE:
      if (!(z.x > 0 && z.z > 0 && isfinite(z.x) && isfinite(z.z)))
        return sensim__fail(SENSIM_EINVAL, "%s radius %g and height %g must be > 0",
                            s->kind == SENSIM_SHAPE_CONE ? "cone" : "cylinder", z.x, z.z);
      if (check_reach(s->kind == SENSIM_SHAPE_CONE ? "cone" : "cylinder", fmax(z.x, z.z))) return SENSIM_EINVAL;
      lathe(&b, z.x, s->kind == SENSIM_SHAPE_CONE ? 0.0 : z.x, z.z, seg);
      break;
    case SENSIM_SHAPE_PLANE: {
      if (!(z.x > 0 && z.y > 0 && isfinite(z.x) && isfinite(z.y)))
        return sensim__fail(SENSIM_EINVAL, "plane size (%g, %g) must be > 0", z.x, z.y);
      if (check_reach("plane", fmax(z.x, z.y) / 2)) return SENSIM_EINVAL;
      /* The texture spans the plane once, its top row at +Y. */
      uint32_t a = vert_uv(&b, -z.x / 2, -z.y / 2, 0, 0, 1), c = vert_uv(&b, z.x / 2, -z.y / 2, 0, 1, 1);
      uint32_t d = vert_uv(&b, z.x / 2, z.y / 2, 0, 1, 0), e = vert_uv(&b, -z.x / 2, z.y / 2, 0, 0, 0);
      quad(&b, a, c, d, e);
      break;
    }
    default:
      return sensim__fail(SENSIM_EINVAL, "unknown shape kind %d", (int)s->kind);
  }
  sensim_mesh_desc d;
  sensim_mesh_desc_init(&d);
  d.vertices = b.v, d.uvs = b.uv, d.nvert = b.nv;
  d.indices = b.ix, d.ntri = b.nt, d.material = material;
  sensim_status rc = b.rc ? sensim__fail(SENSIM_ENOMEM, "out of memory tessellating a shape")
                          : sensim_mesh_create(w, &d, out);
  free(b.v);
  free(b.uv);
  free(b.ix);
  return rc;
}
