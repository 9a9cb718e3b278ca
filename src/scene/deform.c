/* scene/deform.c: deforming bodies. The host pushes a body's mesh vertices
 * at keyframe times (cloth, vegetation, a soft body from its physics
 * engine); captures see them interpolated linearly in time per ray, as a
 * rigid body's pose is (rt/view.c builds the body's geometry per capture
 * from the keyframes of its window). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/scene.h"

/* The vertices must be finite, and within the coordinate limit once the
 * body's pose is applied: each |component| <= SENSIM_COORD_MAX / 2 leaves
 * the other half for the pose (checked against the limit in push_state). */
static sensim_status check_vertices(const float *v, size_t n, int body) {
  for (size_t i = 0; i < 3 * n; i++)
    if (!isfinite(v[i]) || fabsf(v[i]) > 0.5f * (float)SENSIM_COORD_MAX)
      return sensim__fail(SENSIM_EINVAL,
                          "body %d: vertex %zu has coordinate %d = %g: vertices must be finite and within "
                          "SENSIM_COORD_MAX / 2 of the mesh origin",
                          body, i / 3, (int)(i % 3), (double)v[i]);
  return SENSIM_OK;
}

sensim_status sensim_body_push_vertices(sensim_body *b, double t, const float *vertices, size_t nvert) {
  if (!b || !vertices) return sensim__fail(SENSIM_EINVAL, "sensim_body_push_vertices: NULL argument");
  if (b->destroyed) return sensim__fail(SENSIM_ESTATE, "body %d was destroyed; its vertices cannot be pushed", b->index);
  if (b->is_static)
    return sensim__fail(SENSIM_ESTATE, "body %d is static; it cannot deform (create it dynamic)", b->index);
  if (!b->mesh) return sensim__fail(SENSIM_ESTATE, "body %d has no mesh to deform", b->index);
  if (nvert != b->mesh->nvert)
    return sensim__fail(SENSIM_EINVAL,
                        "body %d: %zu vertices pushed, but its mesh has %zu: a deforming body keeps its mesh's "
                        "vertex count and triangles",
                        b->index, nvert, b->mesh->nvert);
  sensim_status rc = sensim__check_time(t, "vertex time");
  if (rc) return rc;
  if (t < b->world->t)
    return sensim__fail(SENSIM_ESTATE, "vertex time %.9g s is before the world's time %.9g s", t, b->world->t);
  sensim_vtrack *vt = &b->deform;
  if (vt->n && !(t > vt->t[vt->n - 1]))
    return sensim__fail(SENSIM_ESTATE, "vertex time %.9g s is not after the last one, %.9g s", t, vt->t[vt->n - 1]);
  if ((rc = check_vertices(vertices, nvert, b->index))) return rc;
  if (vt->n > 16) sensim__vtrack_trim(vt, (isfinite(b->world->t) ? b->world->t : t - 1.0) - b->world->max_window);
  if (vt->n == vt->cap) {
    size_t cap = vt->cap ? 2 * vt->cap : 4;
    double *nt = realloc(vt->t, cap * sizeof *nt);
    if (!nt) return sensim__fail(SENSIM_ENOMEM, "out of memory for body %d's vertex keyframes", b->index);
    vt->t = nt;
    float *nv = realloc(vt->v, cap * 3 * nvert * sizeof *nv);
    if (!nv) return sensim__fail(SENSIM_ENOMEM, "out of memory for body %d's vertex keyframes", b->index);
    vt->v = nv;
    vt->cap = cap;
  }
  vt->nvert = nvert;
  vt->t[vt->n] = t;
  memcpy(vt->v + vt->n * 3 * nvert, vertices, 3 * nvert * sizeof *vertices);
  vt->n++;
  return SENSIM_OK;
}

size_t sensim_body_vertex_keyframe_count(const sensim_body *b) { return b ? b->deform.n : 0; }

void sensim__vtrack_trim(sensim_vtrack *vt, double t_keep) {
  size_t drop = 0;
  while (drop + 1 < vt->n && vt->t[drop + 1] <= t_keep) drop++;
  if (drop == 0) return;
  memmove(vt->t, vt->t + drop, (vt->n - drop) * sizeof *vt->t);
  memmove(vt->v, vt->v + drop * 3 * vt->nvert, (vt->n - drop) * 3 * vt->nvert * sizeof *vt->v);
  vt->n -= drop;
}

void sensim__vtrack_free(sensim_vtrack *vt) {
  free(vt->t);
  free(vt->v);
  memset(vt, 0, sizeof *vt);
}

void sensim__vtrack_window(const sensim_vtrack *vt, double t0, double t1, size_t *first, size_t *n) {
  size_t a = 0;
  while (a + 1 < vt->n && vt->t[a + 1] <= t0) a++;
  size_t b = a;
  while (b + 1 < vt->n && vt->t[b] < t1) b++;
  *first = a;
  *n = vt->n ? b - a + 1 : 0;
}

void sensim__snap_vertices_at(const sensim_body_snap *b, double t, float *out) {
  const size_t m = 3 * b->nvert;
  size_t k = 0;
  while (k + 1 < b->nvk && b->vk_t[k + 1] <= t) k++;
  if (k + 1 >= b->nvk || !(t > b->vk_t[k])) { /* clamped to the keyframes held */
    memcpy(out, b->vk_v + (t <= b->vk_t[0] ? 0 : k) * m, m * sizeof *out);
    return;
  }
  const float s = (float)((t - b->vk_t[k]) / (b->vk_t[k + 1] - b->vk_t[k]));
  const float *a = b->vk_v + k * m, *c = a + m;
  for (size_t i = 0; i < m; i++) out[i] = a[i] + s * (c[i] - a[i]);
}
