/* bench/town.c: the procedural town of the kernel benchmark (see town.h).
 *
 * Sizes are those of a European inner-city district: 60 m blocks, 16 m
 * streets, 3.2 m storeys, 3 m facade bays, 8 m street lights, 6-10 m trees.
 * Triangle counts come from the tessellation, not from any file, and are
 * tuned so that the full town holds about 2 million instanced triangles. */
#include "town.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TOWN_PI 3.14159265358979323846

enum { CLASS_ROAD = 1, CLASS_BUILDING, CLASS_POLE, CLASS_TREE, CLASS_CAR, CLASS_CONE };

void bench_town_params_full(bench_town_params *p) {
  p->seed = 20240611u;
  p->blocks = 8;
  p->block_size = 60.0;
  p->street_width = 16.0;
  p->building_types = 16;
  p->facade_cell = 3.0;
  p->segments = 32;
  p->tree_spacing = 30.0;
  p->pole_spacing = 60.0;
  p->ground_cell = 4.0;
}

void bench_town_params_quick(bench_town_params *p) {
  bench_town_params_full(p);
  p->blocks = 2;
  p->building_types = 4;
  p->facade_cell = 6.0;
  p->segments = 12;
  p->ground_cell = 16.0;
}

/* ---- mesh assembly ------------------------------------------------------ */

typedef struct vec3f {
  double x, y, z;
} vec3f;

static vec3f v(double x, double y, double z) {
  vec3f r = {x, y, z};
  return r;
}
static vec3f vadd(vec3f a, vec3f b) { return v(a.x + b.x, a.y + b.y, a.z + b.z); }
static vec3f vscale(vec3f a, double s) { return v(a.x * s, a.y * s, a.z * s); }
static vec3f vcross(vec3f a, vec3f b) {
  return v(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

typedef struct builder {
  bench_town_mesh *m;
  int failed;
} builder;

static int reserve(builder *b, size_t nv, size_t nt) {
  bench_town_mesh *m = b->m;
  if (b->failed) return -1;
  if (m->nvert + nv > m->cap_vert) {
    size_t cap = m->cap_vert ? m->cap_vert : 256;
    while (cap < m->nvert + nv) cap *= 2;
    float *p = realloc(m->vertices, cap * 3 * sizeof *p);
    if (!p) return b->failed = 1, -1;
    m->vertices = p;
    m->cap_vert = cap;
  }
  if (m->ntri + nt > m->cap_tri) {
    size_t cap = m->cap_tri ? m->cap_tri : 256;
    while (cap < m->ntri + nt) cap *= 2;
    uint32_t *p = realloc(m->indices, cap * 3 * sizeof *p);
    if (!p) return b->failed = 1, -1;
    m->indices = p;
    m->cap_tri = cap;
  }
  return 0;
}

static uint32_t put_vertex(builder *b, vec3f p) {
  bench_town_mesh *m = b->m;
  float *d = m->vertices + 3 * m->nvert;
  d[0] = (float)p.x;
  d[1] = (float)p.y;
  d[2] = (float)p.z;
  return (uint32_t)m->nvert++;
}

static void put_tri(builder *b, uint32_t i0, uint32_t i1, uint32_t i2) {
  uint32_t *d = b->m->indices + 3 * b->m->ntri++;
  d[0] = i0;
  d[1] = i1;
  d[2] = i2;
}

/* A planar grid of nu x nv quads spanning o + s eu + t ev, s, t in [0, 1];
 * its front (counter-clockwise side) faces eu x ev. */
static void grid(builder *b, vec3f o, vec3f eu, vec3f ev, int nu, int nv) {
  if (nu < 1) nu = 1;
  if (nv < 1) nv = 1;
  if (reserve(b, (size_t)(nu + 1) * (size_t)(nv + 1), 2 * (size_t)nu * (size_t)nv)) return;
  uint32_t base = (uint32_t)b->m->nvert;
  for (int j = 0; j <= nv; j++)
    for (int i = 0; i <= nu; i++)
      put_vertex(b, vadd(o, vadd(vscale(eu, (double)i / nu), vscale(ev, (double)j / nv))));
  for (int j = 0; j < nv; j++)
    for (int i = 0; i < nu; i++) {
      uint32_t a = base + (uint32_t)(j * (nu + 1) + i);
      uint32_t c = a + (uint32_t)(nu + 1);
      put_tri(b, a, a + 1, c + 1);
      put_tri(b, a, c + 1, c);
    }
}

static void quad(builder *b, vec3f o, vec3f eu, vec3f ev) { grid(b, o, eu, ev, 1, 1); }

/* An axis-aligned box [lo, hi] with each face split into `sub` x `sub`
 * quads; the bottom face is left out when `bottom` is 0 (it stands on
 * something). */
static void box(builder *b, vec3f lo, vec3f hi, int sub, int bottom) {
  vec3f ex = v(hi.x - lo.x, 0, 0), ey = v(0, hi.y - lo.y, 0), ez = v(0, 0, hi.z - lo.z);
  if (bottom) grid(b, lo, ey, ex, sub, sub);                     /* -Z */
  grid(b, v(lo.x, lo.y, hi.z), ex, ey, sub, sub);                /* +Z */
  grid(b, lo, ex, ez, sub, sub);                                 /* -Y */
  grid(b, v(lo.x, hi.y, lo.z), ez, ex, sub, sub);                /* +Y */
  grid(b, lo, ez, ey, sub, sub);                                 /* -X */
  grid(b, v(hi.x, lo.y, lo.z), ey, ez, sub, sub);                /* +X */
}

/* A frustum around `axis` from radius r0 at its base c to r1 at height h,
 * `seg` facets around and `rings` bands along; e1, e2 span the base with
 * e1 x e2 = axis. r1 = 0 closes at an apex. Caps are fans. */
static void frustum(builder *b, vec3f c, vec3f e1, vec3f e2, double r0, double r1, double h,
                    int seg, int rings, int cap0, int cap1) {
  vec3f axis = vcross(e1, e2);
  if (seg < 3) seg = 3;
  if (rings < 1) rings = 1;
  int apex = r1 <= 0.0;
  int nring = apex ? rings : rings + 1; /* vertex rings, the apex apart */
  size_t nv = (size_t)seg * (size_t)nring + 3;
  size_t nt = 2 * (size_t)seg * (size_t)rings + 2 * (size_t)seg;
  if (reserve(b, nv, nt)) return;
  uint32_t base = (uint32_t)b->m->nvert;
  for (int j = 0; j < nring; j++) {
    double s = (double)j / rings;
    double r = r0 + (r1 - r0) * s;
    for (int i = 0; i < seg; i++) {
      double a = 2.0 * TOWN_PI * i / seg;
      vec3f d = vadd(vscale(e1, cos(a) * r), vscale(e2, sin(a) * r));
      put_vertex(b, vadd(vadd(c, vscale(axis, h * s)), d));
    }
  }
  /* Side: tangent (increasing angle) x axis points outwards, so quads are
   * wound (i, i+1) along the ring, then up. */
  for (int j = 0; j + 1 < nring; j++)
    for (int i = 0; i < seg; i++) {
      uint32_t a = base + (uint32_t)(j * seg + i);
      uint32_t a1 = base + (uint32_t)(j * seg + (i + 1) % seg);
      put_tri(b, a, a1, a1 + (uint32_t)seg);
      put_tri(b, a, a1 + (uint32_t)seg, a + (uint32_t)seg);
    }
  if (apex) {
    uint32_t top = put_vertex(b, vadd(c, vscale(axis, h)));
    uint32_t ring = base + (uint32_t)((nring - 1) * seg);
    for (int i = 0; i < seg; i++) put_tri(b, ring + (uint32_t)i, ring + (uint32_t)((i + 1) % seg), top);
  } else if (cap1) {
    uint32_t mid = put_vertex(b, vadd(c, vscale(axis, h)));
    uint32_t ring = base + (uint32_t)((nring - 1) * seg);
    for (int i = 0; i < seg; i++) put_tri(b, ring + (uint32_t)i, ring + (uint32_t)((i + 1) % seg), mid);
  }
  if (cap0) {
    uint32_t mid = put_vertex(b, c);
    for (int i = 0; i < seg; i++) put_tri(b, base + (uint32_t)((i + 1) % seg), base + (uint32_t)i, mid);
  }
}

/* ---- object kinds -------------------------------------------------------- */

/* One facade wall from corner p (bottom left seen from outside) along `along`
 * (unit, length len) up to height h; outward normal along x up. Plain walls
 * are split into half-bay quads per half storey; detailed walls get one
 * recessed window per bay and storey: a 3 x 3 split of the bay whose centre
 * is pushed 0.25 m in, with the four reveal faces. */
static void facade(builder *b, vec3f p, vec3f along, double len, double h, double cell,
                   int detailed) {
  vec3f up = v(0, 0, 1);
  vec3f out = vcross(along, up);
  int ncol = (int)fmax(1.0, floor(len / cell + 0.5));
  int nrow = (int)fmax(1.0, floor(h / 3.2 + 0.5));
  if (!detailed) {
    grid(b, p, vscale(along, len), vscale(up, h), 2 * ncol, 2 * nrow);
    return;
  }
  double cw = len / ncol, ch = h / nrow;
  /* Window opening inside a bay: [0.25, 0.75] of its width, [0.3, 0.85] of its height. */
  const double us[4] = {0.0, 0.25, 0.75, 1.0};
  const double vs[4] = {0.0, 0.30, 0.85, 1.0};
  vec3f in = vscale(out, -0.25);
  for (int r = 0; r < nrow; r++)
    for (int c = 0; c < ncol; c++) {
      vec3f o = vadd(p, vadd(vscale(along, c * cw), vscale(up, r * ch)));
      for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
          vec3f q = vadd(o, vadd(vscale(along, us[i] * cw), vscale(up, vs[j] * ch)));
          vec3f eu = vscale(along, (us[i + 1] - us[i]) * cw);
          vec3f ev = vscale(up, (vs[j + 1] - vs[j]) * ch);
          if (i == 1 && j == 1) {
            quad(b, vadd(q, in), eu, ev);                    /* glass, recessed */
            quad(b, vadd(q, in), vscale(in, -1), eu);        /* sill, facing up */
            quad(b, vadd(vadd(q, ev), in), eu, vscale(in, -1)); /* lintel, facing down */
            quad(b, vadd(q, in), ev, vscale(in, -1));        /* left reveal */
            quad(b, vadd(vadd(q, eu), in), vscale(in, -1), ev); /* right reveal */
          } else {
            quad(b, q, eu, ev);
          }
        }
    }
}

static void building(builder *b, double w, double d, double h, double cell, int detailed) {
  double x0 = -0.5 * w, y0 = -0.5 * d;
  /* Walls counter-clockwise seen from above, so `along x up` points out. */
  facade(b, v(x0, y0, 0), v(1, 0, 0), w, h, cell, detailed);
  facade(b, v(-x0, y0, 0), v(0, 1, 0), d, h, cell, detailed);
  facade(b, v(-x0, -y0, 0), v(-1, 0, 0), w, h, cell, detailed);
  facade(b, v(x0, -y0, 0), v(0, -1, 0), d, h, cell, detailed);
  int nu = (int)fmax(1.0, floor(w / cell + 0.5)), nv = (int)fmax(1.0, floor(d / cell + 0.5));
  grid(b, v(x0, y0, h), v(w, 0, 0), v(0, d, 0), nu, nv);
  if (detailed) {
    /* A stair house and a parapet-less machine room on the roof. */
    box(b, v(x0 + 0.2 * w, y0 + 0.2 * d, h), v(x0 + 0.4 * w, y0 + 0.45 * d, h + 3.0), 2, 0);
    box(b, v(-x0 - 0.35 * w, -y0 - 0.3 * d, h), v(-x0 - 0.1 * w, -y0 - 0.1 * d, h + 1.5), 2, 0);
  }
}

static void street_light(builder *b, int seg) {
  frustum(b, v(0, 0, 0), v(1, 0, 0), v(0, 1, 0), 0.14, 0.09, 8.0, seg, 4, 0, 1);
  box(b, v(0, -0.05, 7.7), v(1.6, 0.05, 7.85), 2, 1);
  box(b, v(1.3, -0.15, 7.55), v(1.9, 0.15, 7.7), 2, 1);
}

static void tree(builder *b, double h, int seg) {
  frustum(b, v(0, 0, 0), v(1, 0, 0), v(0, 1, 0), 0.18, 0.14, 0.35 * h, seg / 2, 2, 0, 0);
  /* A conifer: three stacked cones, each 45 % of the height. */
  for (int k = 0; k < 3; k++) {
    double z = (0.25 + 0.22 * k) * h;
    double r = (0.30 - 0.07 * k) * h;
    frustum(b, v(0, 0, z), v(1, 0, 0), v(0, 1, 0), r, 0.0, 0.45 * h, seg, 4, 1, 0);
  }
}

static void car(builder *b, int seg) {
  box(b, v(-2.25, -0.9, 0.3), v(2.25, 0.9, 1.0), 2, 1);
  box(b, v(-1.2, -0.8, 1.0), v(1.1, 0.8, 1.5), 2, 0);
  for (int k = 0; k < 4; k++) {
    double x = k < 2 ? -1.4 : 1.4;
    double y = (k % 2) ? 0.75 : -0.95;
    /* Wheel axis along +Y: e1 = Z, e2 = X, Z x X = Y. */
    frustum(b, v(x, y, 0.33), v(0, 0, 1), v(1, 0, 0), 0.33, 0.33, 0.2, seg / 2, 1, 1, 1);
  }
}

static void traffic_cone(builder *b, int seg) {
  box(b, v(-0.2, -0.2, 0), v(0.2, 0.2, 0.04), 1, 0);
  frustum(b, v(0, 0, 0.04), v(1, 0, 0), v(0, 1, 0), 0.16, 0.0, 0.7, seg, 3, 0, 0);
}

/* ---- layout -------------------------------------------------------------- */

static bench_town_mesh *new_mesh(bench_town *t, const char *name, uint16_t class_id,
                                 float r, float g, float bl, float refl) {
  bench_town_mesh *m = &t->meshes[t->nmeshes++];
  memset(m, 0, sizeof *m);
  m->name = name;
  m->class_id = class_id;
  sensim_material_init(&m->material);
  m->material.base_color[0] = r;
  m->material.base_color[1] = g;
  m->material.base_color[2] = bl;
  m->material.reflectance = refl;
  return m;
}

static int place(bench_town *t, int mesh, double x, double y, double z, double yaw) {
  if (t->ninst == t->cap_inst) {
    size_t cap = t->cap_inst ? 2 * t->cap_inst : 256;
    bench_town_instance *p = realloc(t->inst, cap * sizeof *p);
    if (!p) return -1;
    t->inst = p;
    t->cap_inst = cap;
  }
  bench_town_instance *in = &t->inst[t->ninst++];
  in->mesh = mesh;
  in->pose.pos.x = x;
  in->pose.pos.y = y;
  in->pose.pos.z = z;
  in->pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, yaw);
  return 0;
}

int bench_town_build(const bench_town_params *p, bench_town *t) {
  memset(t, 0, sizeof *t);
  if (p->blocks < 1 || p->building_types < 1 || !(p->block_size > 0) || !(p->street_width > 0) ||
      !(p->facade_cell > 0) || p->segments < 3 || !(p->tree_spacing > 0) ||
      !(p->pole_spacing > 0) || !(p->ground_cell > 0))
    return -1;
  enum { TREE_TYPES = 3 };
  size_t nm = 1 + (size_t)p->building_types + 1 + TREE_TYPES + 2;
  t->meshes = calloc(nm, sizeof *t->meshes);
  if (!t->meshes) return -1;

  sensim_rng rng;
  sensim_rng_init(&rng, p->seed, 0, 0, 0);
  int failed = 0;
  double pitch = p->block_size + p->street_width;
  double extent = p->blocks * pitch + p->street_width;

  /* Ground: asphalt, one grid over the whole town. */
  int ground = (int)t->nmeshes;
  {
    builder b = {new_mesh(t, "ground", CLASS_ROAD, 0.08f, 0.08f, 0.09f, 0.15f), 0};
    int n = (int)ceil(extent / p->ground_cell);
    grid(&b, v(-0.5 * extent, -0.5 * extent, 0), v(extent, 0, 0), v(0, extent, 0), n, n);
    failed |= b.failed;
  }
  int first_building = (int)t->nmeshes;
  for (int k = 0; k < p->building_types; k++) {
    double w = 14.0 + 12.0 * sensim_rng_uniform(&rng);
    double d = 14.0 + 12.0 * sensim_rng_uniform(&rng);
    int storeys = 3 + (int)(16.0 * sensim_rng_uniform(&rng));
    int detailed = k % 2;
    float shade = (float)(0.35 + 0.4 * sensim_rng_uniform(&rng));
    builder b = {new_mesh(t, detailed ? "building (windows)" : "building (plain)", CLASS_BUILDING,
                          shade, shade * 0.9f, shade * 0.8f, 0.4f), 0};
    building(&b, w, d, storeys * 3.2, p->facade_cell, detailed);
    failed |= b.failed;
  }
  int pole = (int)t->nmeshes;
  {
    builder b = {new_mesh(t, "street light", CLASS_POLE, 0.3f, 0.3f, 0.32f, 0.6f), 0};
    street_light(&b, p->segments);
    failed |= b.failed;
  }
  int first_tree = (int)t->nmeshes;
  for (int k = 0; k < TREE_TYPES; k++) {
    builder b = {new_mesh(t, "tree", CLASS_TREE, 0.1f, 0.35f, 0.1f, 0.3f), 0};
    tree(&b, 6.0 + 2.0 * k, p->segments);
    failed |= b.failed;
  }
  int carm = (int)t->nmeshes;
  {
    builder b = {new_mesh(t, "car", CLASS_CAR, 0.6f, 0.1f, 0.1f, 0.8f), 0};
    car(&b, p->segments);
    failed |= b.failed;
  }
  int cone = (int)t->nmeshes;
  {
    builder b = {new_mesh(t, "traffic cone", CLASS_CONE, 0.9f, 0.35f, 0.05f, 0.9f), 0};
    traffic_cone(&b, p->segments);
    failed |= b.failed;
  }
  if (failed) return -1;

  if (place(t, ground, 0, 0, 0, 0)) return -1;
  const double quarter = 0.5 * TOWN_PI;
  for (int by = 0; by < p->blocks; by++)
    for (int bx = 0; bx < p->blocks; bx++) {
      /* Block centres sit half a pitch off the origin, so the origin is a crossing. */
      double cx = (bx - 0.5 * (p->blocks - 1)) * pitch;
      double cy = (by - 0.5 * (p->blocks - 1)) * pitch;
      double half = 0.5 * p->block_size;
      for (int lot = 0; lot < 4; lot++) {
        double lx = cx + ((lot & 1) ? 0.25 : -0.25) * p->block_size;
        double ly = cy + ((lot & 2) ? 0.25 : -0.25) * p->block_size;
        int type = (int)(sensim_rng_uniform(&rng) * p->building_types);
        double yaw = quarter * (int)(4.0 * sensim_rng_uniform(&rng));
        if (place(t, first_building + type, lx, ly, 0, yaw)) return -1;
      }
      /* Kerb-side objects on the street, 1 m (lights, trees) and 3 m (cars)
       * off the block edge, for each of the block's four sides. */
      for (int side = 0; side < 4; side++) {
        double ux = side == 0 ? 1 : side == 2 ? -1 : 0, uy = side == 1 ? 1 : side == 3 ? -1 : 0;
        double nx = uy, ny = -ux; /* outward normal of a CCW side */
        double sx = cx - ux * half + nx * half, sy = cy - uy * half + ny * half;
        for (double s = 0.5 * p->tree_spacing; s < p->block_size; s += p->tree_spacing) {
          int type = (int)(sensim_rng_uniform(&rng) * TREE_TYPES);
          double yaw = 2.0 * TOWN_PI * sensim_rng_uniform(&rng);
          if (place(t, first_tree + type, sx + ux * s + nx, sy + uy * s + ny, 0, yaw)) return -1;
        }
        for (double s = 0.25 * p->pole_spacing; s < p->block_size; s += p->pole_spacing)
          if (place(t, pole, sx + ux * s + nx * 1.2, sy + uy * s + ny * 1.2, 0, atan2(ny, nx)))
            return -1;
        for (double s = 4.0; s + 3.0 < p->block_size; s += 6.0)
          if (sensim_rng_uniform(&rng) < 0.25 &&
              place(t, carm, sx + ux * s + nx * 3.0, sy + uy * s + ny * 3.0, 0, atan2(uy, ux)))
            return -1;
        if (sensim_rng_uniform(&rng) < 0.5)
          for (int k = 0; k < 3; k++)
            if (place(t, cone, sx + nx * (4.0 + k), sy + ny * (4.0 + k) + 0.0, 0, 0)) return -1;
      }
    }
  return 0;
}

void bench_town_free(bench_town *t) {
  for (size_t i = 0; i < t->nmeshes; i++) {
    free(t->meshes[i].vertices);
    free(t->meshes[i].indices);
  }
  free(t->meshes);
  free(t->inst);
  memset(t, 0, sizeof *t);
}

size_t bench_town_unique_triangles(const bench_town *t) {
  size_t n = 0;
  for (size_t i = 0; i < t->nmeshes; i++) n += t->meshes[i].ntri;
  return n;
}

size_t bench_town_instanced_triangles(const bench_town *t) {
  size_t n = 0;
  for (size_t i = 0; i < t->ninst; i++) n += t->meshes[t->inst[i].mesh].ntri;
  return n;
}

sensim_status bench_town_add_to_world(const bench_town *t, sensim_world *world) {
  sensim_mesh **meshes = calloc(t->nmeshes ? t->nmeshes : 1, sizeof *meshes);
  if (!meshes) return SENSIM_ENOMEM;
  sensim_status st = SENSIM_OK;
  for (size_t i = 0; i < t->nmeshes && st == SENSIM_OK; i++) {
    const bench_town_mesh *m = &t->meshes[i];
    sensim_mesh_desc d;
    sensim_mesh_desc_init(&d);
    d.vertices = m->vertices, d.nvert = m->nvert;
    d.indices = m->indices, d.ntri = m->ntri, d.material = &m->material;
    st = sensim_mesh_create(world, &d, &meshes[i]);
  }
  for (size_t i = 0; i < t->ninst && st == SENSIM_OK; i++) {
    sensim_body_params bp;
    sensim_body_params_init(&bp);
    bp.mesh = meshes[t->inst[i].mesh];
    bp.class_id = t->meshes[t->inst[i].mesh].class_id;
    bp.is_static = 1;
    bp.pose = t->inst[i].pose;
    sensim_body *body;
    st = sensim_body_create(world, &bp, &body);
  }
  free(meshes);
  return st;
}
