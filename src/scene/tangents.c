/* scene/tangents.c: per-vertex tangent frames for normal maps, after
 * Mikkelsen, "Simulation of wrinkled surfaces revisited", MSc thesis,
 * University of Copenhagen, 2008 (MikkTSpace), the tangent space glTF 2.0
 * normal maps are baked in (glTF 2.0 sec. 3.7.2.1).
 *
 * Per triangle, the tangent T = dP/du and the derivative B = dP/dv solve
 * e1 = T du1 + B dv1, e2 = T du2 + B dv2 for its edges e1, e2 and their
 * uv differences (Mikkelsen sec. 2.3). At each corner both are projected
 * into the plane of the vertex normal, normalised and accumulated weighted
 * by the triangle's angle at that corner (sec. 4.1, as MikkTSpace weighs
 * them, so a vertex's frame does not depend on how its fan is cut into
 * triangles). Per vertex, T is orthogonalised against the normal
 * (Gram-Schmidt) and normalised; the handedness w is the sign that makes
 * w (n x T) point along the accumulated -dP/dv: sensim's v, as glTF's,
 * counts down from the image's top row, and a normal map's +Y points up
 * it. MikkTSpace also splits a vertex whose corners disagree (mirrored uv
 * islands sharing one vertex); sensim keeps the mesh's vertices and
 * averages there, so import tools that weld vertices only where uvs agree
 * (Assimp's JoinIdenticalVertices) give the same frames. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/scene.h"

static void sub3(const float *a, const float *b, double out[3]) {
  for (int k = 0; k < 3; k++) out[k] = (double)a[k] - b[k];
}

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross3(const double a[3], const double b[3], double out[3]) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* x projected into the plane of unit n and normalised; 0 if nothing is left. */
static int project(const double n[3], const double x[3], double out[3]) {
  double d = dot3(n, x);
  for (int k = 0; k < 3; k++) out[k] = x[k] - n[k] * d;
  double l = sqrt(dot3(out, out));
  if (!(l > 1e-20)) return 0;
  for (int k = 0; k < 3; k++) out[k] /= l;
  return 1;
}

/* Angle at corner a of triangle (a, b, c). */
static double corner_angle(const float *a, const float *b, const float *c) {
  double u[3], v[3], x[3];
  sub3(b, a, u);
  sub3(c, a, v);
  cross3(u, v, x);
  return atan2(sqrt(dot3(x, x)), dot3(u, v));
}

float *sensim__mesh_tangents(const float *v, const float *uv, const float *normals, size_t nvert, const uint32_t *ix,
                             size_t ntri) {
  double *acc = calloc(nvert, 9 * sizeof *acc); /* per vertex: normal, T, B (all accumulated) */
  float *out = malloc(4 * nvert * sizeof *out);
  if (!acc || !out) {
    free(acc);
    free(out);
    sensim__fail(SENSIM_ENOMEM, "out of memory for the tangents of %zu vertices", nvert);
    return NULL;
  }
  /* Vertex normals: the given ones, or the area-weighted face normals
   * (cross products summed) of the triangles around each vertex. */
  for (size_t i = 0; i < nvert; i++)
    if (normals)
      for (int k = 0; k < 3; k++) acc[9 * i + k] = normals[3 * i + k];
  if (!normals)
    for (size_t t = 0; t < ntri; t++) {
      double e1[3], e2[3], fn[3];
      sub3(v + 3 * ix[3 * t + 1], v + 3 * ix[3 * t], e1);
      sub3(v + 3 * ix[3 * t + 2], v + 3 * ix[3 * t], e2);
      cross3(e1, e2, fn);
      for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++) acc[9 * ix[3 * t + c] + k] += fn[k];
    }
  for (size_t i = 0; i < nvert; i++) {
    double *n = acc + 9 * i, l = sqrt(dot3(n, n));
    if (l > 0) {
      for (int k = 0; k < 3; k++) n[k] /= l;
    } else {
      n[0] = n[1] = 0, n[2] = 1; /* an unused or degenerate vertex */
    }
  }
  for (size_t t = 0; t < ntri; t++) {
    const uint32_t *c = ix + 3 * t;
    double e1[3], e2[3];
    sub3(v + 3 * c[1], v + 3 * c[0], e1);
    sub3(v + 3 * c[2], v + 3 * c[0], e2);
    const double du1 = (double)uv[2 * c[1]] - uv[2 * c[0]], dv1 = (double)uv[2 * c[1] + 1] - uv[2 * c[0] + 1];
    const double du2 = (double)uv[2 * c[2]] - uv[2 * c[0]], dv2 = (double)uv[2 * c[2] + 1] - uv[2 * c[0] + 1];
    const double det = du1 * dv2 - du2 * dv1;
    if (!(fabs(det) > 1e-30)) continue; /* no uv area: no direction of u on it */
    double T[3], B[3];
    for (int k = 0; k < 3; k++) {
      T[k] = (e1[k] * dv2 - e2[k] * dv1) / det;
      B[k] = (e2[k] * du1 - e1[k] * du2) / det;
    }
    for (int k = 0; k < 3; k++) {
      const uint32_t a = c[k], b = c[(k + 1) % 3], d = c[(k + 2) % 3];
      const double w = corner_angle(v + 3 * a, v + 3 * b, v + 3 * d);
      double *n = acc + 9 * a, pt[3], pb[3];
      if (project(n, T, pt))
        for (int j = 0; j < 3; j++) acc[9 * a + 3 + j] += w * pt[j];
      if (project(n, B, pb))
        for (int j = 0; j < 3; j++) acc[9 * a + 6 + j] += w * pb[j];
    }
  }
  for (size_t i = 0; i < nvert; i++) {
    const double *n = acc + 9 * i, *Ta = acc + 9 * i + 3, *Ba = acc + 9 * i + 6;
    double T[3];
    if (!project(n, Ta, T)) {
      /* No uv direction reaches this vertex: any tangent perpendicular to
       * the normal (a normal map there reads as if flat anyway). */
      const double x[3] = {1, 0, 0}, y[3] = {0, 1, 0};
      if (!project(n, fabs(n[0]) < 0.9 ? x : y, T)) T[0] = 1, T[1] = T[2] = 0;
    }
    double nt[3];
    cross3(n, T, nt);
    /* B accumulated dP/dv; the bitangent points the other way (up). */
    const double w = dot3(nt, Ba) > 0 ? -1.0 : 1.0;
    for (int k = 0; k < 3; k++) out[4 * i + k] = (float)T[k];
    out[4 * i + 3] = (float)w;
  }
  free(acc);
  return out;
}
