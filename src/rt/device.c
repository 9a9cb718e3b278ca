/* rt/device.c: the world's Embree device and one BLAS per mesh. */
#include <embree3/rtcore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "rt/rt.h"
#include "rt/rt_internal.h"

static void binding_block_free(void *p) {
  sensim_rt_binding *b = p;
  free(b->blas);
  free(b->held);
  free(b);
}

static void release(void *p) {
  sensim_rt *rt = p;
  if (!rt) return;
  sensim__rt_cache_release(rt);
  sensim__rt_spares_free(rt);
  sensim__stash_destroy(&rt->spare_bindings, binding_block_free);
  pthread_mutex_destroy(&rt->lock);
  for (size_t i = 0; i < rt->ngroups; i++) sensim__rt_group_free(rt->groups[i]);
  free(rt->groups);
  for (size_t i = 0; i < rt->nblas; i++)
    if (rt->blas[i]) rtcReleaseScene(rt->blas[i]);
  free(rt->blas);
  if (rt->device) rtcReleaseDevice(rt->device);
  free(rt);
}

static sensim_status embree_error(RTCDevice d, const char *what) {
  enum RTCError e = rtcGetDeviceError(d);
  return sensim__fail(SENSIM_EBACKEND, "Embree: %s failed (error %d)", what, (int)e);
}

static sensim_status build_blas(sensim_rt *rt, const sensim_mesh *m, RTCScene *out) {
  RTCScene sc = rtcNewScene(rt->device);
  RTCGeometry g = rtcNewGeometry(rt->device, RTC_GEOMETRY_TYPE_TRIANGLE);
  if (!sc || !g) {
    if (g) rtcReleaseGeometry(g);
    if (sc) rtcReleaseScene(sc);
    return embree_error(rt->device, "creating a mesh scene");
  }
  /* Embree-allocated buffers are padded as its SIMD loads require. */
  float *v = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float), m->nvert);
  unsigned *ix = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(unsigned), m->ntri);
  if (!v || !ix) {
    rtcReleaseGeometry(g);
    rtcReleaseScene(sc);
    return embree_error(rt->device, "allocating mesh buffers");
  }
  memcpy(v, m->vertices, 3 * m->nvert * sizeof(float));
  memcpy(ix, m->indices, 3 * m->ntri * sizeof(unsigned));
  sensim__rt_alpha_attach(g, m);
  rtcCommitGeometry(g);
  rtcAttachGeometryByID(sc, g, 0);
  rtcReleaseGeometry(g);
  rtcSetSceneBuildQuality(sc, RTC_BUILD_QUALITY_HIGH); /* built once, traced often */
  rtcCommitScene(sc);
  if (rtcGetDeviceError(rt->device) != RTC_ERROR_NONE) {
    rtcReleaseScene(sc);
    return embree_error(rt->device, "building a mesh BVH");
  }
  *out = sc;
  return SENSIM_OK;
}

sensim_status sensim__rt_sync(sensim_world *w) {
  sensim_rt *rt = w->rt;
  if (!rt) {
    rt = calloc(1, sizeof *rt);
    if (!rt) return sensim__fail(SENSIM_ENOMEM, "out of memory for the ray tracer");
    if (pthread_mutex_init(&rt->lock, NULL)) {
      free(rt);
      return sensim__fail(SENSIM_ENOMEM, "could not create the ray tracer's lock");
    }
    /* Embree's own builder threads follow the world's thread budget, so a
     * world asked to use N threads (many worlds side by side in RL) does not
     * fan out over the whole machine when it builds acceleration structures. */
    char config[64];
    snprintf(config, sizeof config, "threads=%d", w->params.threads > 0 ? w->params.threads : 1);
    rt->device = rtcNewDevice(config);
    if (!rt->device) {
      pthread_mutex_destroy(&rt->lock);
      free(rt);
      return sensim__fail(SENSIM_EBACKEND, "Embree: could not create a device (error %d)",
                          (int)rtcGetDeviceError(NULL));
    }
    sensim__stash_init(&rt->spare_bindings, SENSIM_RT_SPARES);
    sensim__stash_init(&rt->spare_lists, SENSIM_RT_SPARES);
    rt->list_users = (w->params.threads > 0 ? w->params.threads : 0) + 1;
    sensim__stash_init(&rt->spare_views, SENSIM_RT_SPARES);
    w->rt = rt;
    w->rt_release = release;
  }
  if (rt->nblas == w->nmeshes && rt->ngroups == w->nbodies) return SENSIM_OK;
  sensim_status rc = sensim__grow((void **)&rt->blas, &rt->cap, w->nmeshes, sizeof *rt->blas);
  if (rc) return rc;
  while (rt->nblas < w->nmeshes) {
    rc = build_blas(rt, w->meshes[rt->nblas], &rt->blas[rt->nblas]);
    if (rc) return rc;
    rt->nblas++;
  }
  /* Bodies made since the last sync: the placements' BVH of each that
   * holds placements, once (a body's placements never change). */
  if ((rc = sensim__grow((void **)&rt->groups, &rt->cap_groups, w->nbodies, sizeof *rt->groups))) return rc;
  while (rt->ngroups < w->nbodies) {
    const sensim_body *b = w->bodies[rt->ngroups];
    rt->groups[rt->ngroups] = NULL;
    if (b->group && b->mesh &&
        (rc = sensim__rt_group_build(rt->device, rt->blas[b->mesh->index], b->mesh, b->group, &rt->groups[rt->ngroups])))
      return rc;
    rt->ngroups++;
  }
  return SENSIM_OK;
}

sensim_status sensim__rt_set_tuning(sensim_world *w, unsigned flags) {
  sensim_status rc = sensim__rt_sync(w);
  if (rc) return rc;
  sensim_rt *rt = w->rt;
  rt->rebuild = (flags & SENSIM_RT_REBUILD) != 0;
  w->keep_beyond_reach = (flags & SENSIM_RT_WHOLE_WORLD) != 0; /* read by the runtime's snapshots */
  w->tile_read_ahead_off = (flags & SENSIM_RT_NO_READ_AHEAD) != 0; /* read by scene/tiles.c */
  return SENSIM_OK;
}

/* *p holds at least n elements of size es (growing it when it holds fewer). */
static int reserve(void **p, size_t *cap, size_t n, size_t es) {
  if (n <= *cap && *p) return 1;
  void *q = realloc(*p, (n ? n : 1) * es);
  if (!q) return 0;
  *p = q;
  *cap = n ? n : 1;
  return 1;
}

sensim_status sensim__rt_bind(sensim_world *w, const sensim_snapshot *snap, sensim_rt_binding **out) {
  sensim_status rc = sensim__rt_sync(w);
  if (rc) return rc;
  sensim_rt *rt = w->rt;
  sensim_rt_binding *b = sensim__stash_take(&rt->spare_bindings);
  if (!b) b = calloc(1, sizeof *b);
  if (!b || !reserve((void **)&b->blas, &b->cap_blas, snap->nbodies, sizeof *b->blas) ||
      !reserve((void **)&b->held, &b->cap_held, rt->nblas, sizeof *b->held)) {
    if (b) free(b->blas), free(b->held);
    free(b);
    return sensim__fail(SENSIM_ENOMEM, "out of memory binding a view");
  }
  memset(b->blas, 0, (snap->nbodies ? snap->nbodies : 1) * sizeof *b->blas);
  b->device = rt->device;
  b->rt = rt;
  rtcRetainDevice(rt->device);
  /* Each mesh's BLAS is retained once, however many bodies instance it. */
  b->nheld = rt->nblas;
  for (size_t i = 0; i < rt->nblas; i++) {
    b->held[i] = rt->blas[i];
    rtcRetainScene(b->held[i]);
  }
  b->nbodies = snap->nbodies;
  for (size_t i = 0; i < snap->nbodies; i++) {
    const sensim_mesh *m = snap->bodies[i].mesh;
    /* A body holding placements is traced through their scene, which the
     * kernel keeps until the world goes. */
    if (m) b->blas[i] = snap->bodies[i].group ? sensim__rt_group_scene(rt->groups[i]) : rt->blas[m->index];
  }
  *out = b;
  return SENSIM_OK;
}

void sensim__rt_binding_free(void *p) {
  sensim_rt_binding *b = p;
  if (!b) return;
  for (size_t i = 0; i < b->nheld; i++) rtcReleaseScene(b->held[i]);
  rtcReleaseDevice(b->device);
  /* Kept for the next capture's binding (the kernel outlives every
   * capture), unless enough are kept already. */
  b->nheld = 0;
  if (!sensim__stash_give(&b->rt->spare_bindings, b)) binding_block_free(b);
}
