/* rt/view.c: per-capture top-level scenes with motion-blurred instances,
 * in two parts (static bodies, and bodies that may move: rt_internal.h),
 * and the world's one-entry cache per part of the last one built.
 *
 * Rebuilding the instance BVH costs about 0.7 us per instance (1.4 ms for
 * the 1 909 instances of bench/town.c), paid by every capture although
 * most captures of a static scene, or of several sensors at one instant,
 * trace exactly the same instances. A capture first computes its instance
 * list (BLAS, step count and pose of every step of every body: all that
 * Embree is given); if it equals the cached scene's list member for member
 * (the pose doubles compared exactly), the cached scene is traced, else a
 * new one is built and cached. The comparison costs one pass over the
 * poses, which the build had to compute anyway. Each part is cached on
 * its own, so cars moving through a static town rebuild the cars' part
 * alone: before the split, one moving body made every capture rebuild the
 * whole town's instances with motion blur (an OS1-128 capture among 1 000
 * cars cost 2.1x the static town's; now 1.36x, bench/bench_scale.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "rt/rt_internal.h"

/* Steps for a body over the window [t0, t1]: one where it cannot move;
 * otherwise the fewest evenly spaced steps (2 up to one per keyframe in
 * the window, capped) whose interpolation, as Embree does it for a
 * quaternion decomposition (translation linear, rotation by slerp),
 * puts every vertex of the body's mesh within SENSIM_RT_STEP_TOL of where
 * the keyframes inside the window put it (bounded by the origin's error
 * plus the angle error times the mesh's radius).
 *
 * Why not one step per keyframe: a host stepping at 1-2 ms pushes 50-100
 * keyframes into a lidar's 0.1 s window, and Embree's traversal of
 * motion-blurred instances, and above all its build of their top-level
 * BVH, slow with every time segment (the MuJoCo rover's VLP-16 scans took
 * 2.1 s per 5 simulated s with a step per keyframe). Straight or
 * uniformly turning motion is exact with 2 steps (lerp and slerp are then
 * exact); curved motion gets as many as the tolerance needs. */
static double rot_angle(sensim_quat a, sensim_quat b) {
  double d = fabs(a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z);
  return d >= 1.0 ? 0.0 : 2.0 * acos(d);
}

static int steps_fit(const sensim_body_snap *b, double t0, double t1, int ns) {
  const double radius = b->mesh ? b->mesh->radius : 0.0;
  sensim_body_state sa, sb;
  double h = (t1 - t0) / (ns - 1);
  int seg = -1;
  for (size_t i = 0; i < b->nk; i++) {
    double t = b->k[i].t;
    if (!(t > t0 && t < t1)) continue;
    int g = (int)((t - t0) / h);
    if (g > ns - 2) g = ns - 2;
    if (g != seg) { /* the bracketing steps, as the view will hold them */
      seg = g;
      sensim__track_state_at(b->k, b->nk, t0 + h * g, &sa);
      sensim__track_state_at(b->k, b->nk, g + 1 == ns - 1 ? t1 : t0 + h * (g + 1), &sb);
    }
    double u = (t - (t0 + h * g)) / h;
    sensim_vec3 p = v3_lerp(sa.pose.pos, sb.pose.pos, u);
    sensim_quat q = sensim_quat_slerp(sa.pose.rot, sb.pose.rot, u);
    const sensim_pose *k = &b->k[i].s.pose;
    if (v3_norm(v3_sub(p, k->pos)) + rot_angle(q, k->rot) * radius > SENSIM_RT_STEP_TOL) return 0;
  }
  return 1;
}

int sensim__rt_step_count(const sensim_body_snap *b, double t0, double t1) {
  if (b->is_static || b->nk <= 1 || !(t1 > t0)) return 1;
  int most = (int)b->nk < 2 ? 2 : (int)b->nk;
  if (most > SENSIM_RT_MAX_STEPS) most = SENSIM_RT_MAX_STEPS;
  for (int ns = 2; ns < most; ns++)
    if (steps_fit(b, t0, t1, ns)) return ns;
  return most;
}

static void scene_free(sensim_rt_scene *s) {
  if (!s) return;
  if (s->scene) rtcReleaseScene(s->scene);
  for (size_t i = 0; i < s->nowned; i++) rtcReleaseScene(s->owned[i]);
  free(s->owned);
  free(s->blas);
  free(s->nsteps);
  free(s->first);
  free(s->step);
  free(s->mat);
  free(s->fixed);
  free(s);
}

/* Keep instance list s (no Embree scene yet) for the next view, or free it. */
static void list_spare(sensim_rt *rt, sensim_rt_scene *s) {
  if (s->scene || s->mat || s->fixed || s->owned || !sensim__stash_give(&rt->spare_lists, s)) scene_free(s);
}

static void scene_free_any(void *s) { scene_free(s); }

void sensim__rt_spares_free(sensim_rt *rt) {
  sensim__stash_destroy(&rt->spare_lists, scene_free_any);
  sensim__stash_destroy(&rt->spare_views, free);
}

/* Drop a reference taken under rt->lock. */
static void scene_unref(sensim_rt *rt, sensim_rt_scene *s) {
  if (!s) return;
  pthread_mutex_lock(&rt->lock);
  int last = --s->refs == 0;
  pthread_mutex_unlock(&rt->lock);
  if (last) scene_free(s);
}

void sensim__rt_cache_release(sensim_rt *rt) {
  for (int p = 0; p < 2; p++) {
    if (rt->cached[p] && --rt->cached[p]->refs == 0) scene_free(rt->cached[p]);
    rt->cached[p] = NULL;
  }
}

/* *p holds at least n elements of size es (growing it when it holds fewer;
 * what it held is not kept). */
static int reserve(void **p, size_t *cap, size_t n, size_t es) {
  if (n <= *cap && *p) return 1;
  free(*p);
  *p = malloc((n ? n : 1) * es);
  *cap = *p ? (n ? n : 1) : 0;
  return *p != NULL;
}

/* Every spare list sized for nb bodies and total steps, and at least
 * rt->list_users - 1 of them: called when a capture had to make a list or
 * grow one (warm-up, a world that grew), so that in steady state every
 * thread that builds a view at the same moment finds a spare of the right
 * size however the threads happen to overlap. Out of memory here only
 * leaves fewer or smaller spares (a later capture makes its own). */
static void spares_fit(sensim_rt *rt, size_t nb, size_t total) {
  sensim_rt_scene *keep[SENSIM_RT_SPARES];
  int n = 0;
  while (n < SENSIM_RT_SPARES && (keep[n] = sensim__stash_take(&rt->spare_lists)) != NULL) n++;
  while (n < rt->list_users - 1 && n < SENSIM_RT_SPARES && (keep[n] = calloc(1, sizeof *keep[n])) != NULL) n++;
  for (int k = 0; k < n; k++) {
    sensim_rt_scene *s = keep[k];
    size_t cb = s->cap_nb, cn = s->cap_nb, cf = s->cap_nb;
    if (reserve((void **)&s->blas, &cb, nb, sizeof *s->blas) && reserve((void **)&s->nsteps, &cn, nb, sizeof *s->nsteps) &&
        reserve((void **)&s->first, &cf, nb, sizeof *s->first) &&
        reserve((void **)&s->step, &s->cap_total, total, sizeof *s->step)) {
      s->cap_nb = cb;
      if (sensim__stash_give(&rt->spare_lists, s)) continue;
    }
    scene_free(s);
  }
}

/* Whether snapshot body i has an instance in part `part`. */
static int in_part(const sensim_rt_binding *b, const sensim_snapshot *snap, size_t i, int part) {
  return b->blas[i] && (snap->bodies[i].is_static != 0) == (part == SENSIM_RT_STATIC);
}

/* The instance list of one part of a snapshot, without its Embree scene: a
 * spare one refilled, or a new one. (Moving bodies beyond the capture's
 * reach have no mesh in its snapshot: scene/snapshot.c.) */
static sensim_rt_scene *instance_list(const sensim_rt_binding *b, const sensim_snapshot *snap, int part) {
  sensim_rt_scene *s = sensim__stash_take(&b->rt->spare_lists);
  int made = s == NULL;
  size_t cap_nb = s ? s->cap_nb : 0, cap_total = s ? s->cap_total : 0;
  if (!s && !(s = calloc(1, sizeof *s))) return NULL;
  size_t nb = snap->nbodies;
  size_t cb = cap_nb, cn = cap_nb, cf = cap_nb;
  if (!reserve((void **)&s->blas, &cb, nb, sizeof *s->blas) || !reserve((void **)&s->nsteps, &cn, nb, sizeof *s->nsteps) ||
      !reserve((void **)&s->first, &cf, nb, sizeof *s->first)) {
    scene_free(s);
    return NULL;
  }
  s->cap_nb = cb;
  s->cap_total = cap_total;
  s->nbodies = nb;
  s->refs = 1;
  memset(s->blas, 0, (nb ? nb : 1) * sizeof *s->blas);
  memset(s->nsteps, 0, (nb ? nb : 1) * sizeof *s->nsteps);
  memset(s->first, 0, (nb ? nb : 1) * sizeof *s->first);
  size_t total = 0;
  for (size_t i = 0; i < nb; i++)
    if (in_part(b, snap, i, part)) {
      s->nsteps[i] = sensim__rt_step_count(&snap->bodies[i], snap->t0, snap->t1);
      total += (size_t)s->nsteps[i];
    }
  s->total = total;
  if (!reserve((void **)&s->step, &s->cap_total, total, sizeof *s->step)) {
    scene_free(s);
    return NULL;
  }
  if (made || s->cap_nb != cap_nb || s->cap_total != cap_total) spares_fit(b->rt, nb, total);
  size_t at = 0;
  s->is_static = 1;
  s->deforming = 0;
  for (size_t i = 0; i < nb; i++) {
    if (!s->nsteps[i]) continue; /* not in this part */
    if (snap->bodies[i].nvk) s->deforming = 1, s->is_static = 0; /* ray times select its vertices */
    int ns = s->nsteps[i];
    s->is_static &= ns == 1;
    s->blas[i] = b->blas[i];
    s->first[i] = at;
    if (snap->bodies[i].is_static) { /* one step, its pose in the snapshot's table: no keyframe read */
      s->step[at].pos = snap->bodies[i].pose.pos;
      s->step[at].rot = snap->bodies[i].pose.rot;
      at++;
      continue;
    }
    for (int k = 0; k < ns; k++) {
      double t = ns == 1 ? snap->t1 : snap->t0 + (snap->t1 - snap->t0) * k / (ns - 1);
      sensim_body_state st;
      sensim__snap_state_at(snap, i, t, &st);
      s->step[at].pos = st.pose.pos;
      s->step[at].rot = st.pose.rot;
      at++;
    }
  }
  return s;
}

/* Equal instance lists: same bodies, BLAS, step counts and bit-identical
 * poses (memcmp: a pose that changed by one ulp is a different scene). */
static int same_instances(const sensim_rt_scene *a, const sensim_rt_scene *b) {
  return !a->deforming && !b->deforming && a->nbodies == b->nbodies && a->total == b->total &&
         !memcmp(a->blas, b->blas, a->nbodies * sizeof *a->blas) &&
         !memcmp(a->nsteps, b->nsteps, a->nbodies * sizeof *a->nsteps) &&
         !memcmp(a->step, b->step, a->total * sizeof *a->step);
}

/* The geometry of deforming snapshot body bs over [t0, t1]: its vertices
 * at evenly spaced time steps (one more than its vertex keyframes inside
 * the window, at least 2, at most SENSIM_RT_MAX_STEPS), which Embree
 * interpolates linearly per ray as it does instance motion; built anew per
 * capture with the fast builder, since views are shared by concurrent
 * captures and a refit in place would change a scene others trace. */
static RTCScene deformed_blas(RTCDevice dev, const sensim_body_snap *bs, double t0, double t1) {
  int inside = 0;
  for (size_t k = 0; k < bs->nvk; k++) inside += bs->vk_t[k] > t0 && bs->vk_t[k] < t1;
  int ns = t1 > t0 ? inside + 2 : 1;
  if (ns > SENSIM_RT_MAX_STEPS) ns = SENSIM_RT_MAX_STEPS;
  const sensim_mesh *m = bs->mesh;
  RTCScene sc = rtcNewScene(dev);
  RTCGeometry g = rtcNewGeometry(dev, RTC_GEOMETRY_TYPE_TRIANGLE);
  int ok = sc && g;
  if (ok) rtcSetGeometryTimeStepCount(g, (unsigned)ns);
  for (int k = 0; ok && k < ns; k++) {
    float *v = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, (unsigned)k, RTC_FORMAT_FLOAT3, 3 * sizeof(float),
                                       m->nvert);
    if (!(ok = v != NULL)) break;
    sensim__snap_vertices_at(bs, ns == 1 ? t1 : t0 + (t1 - t0) * k / (ns - 1), v);
  }
  unsigned *ix = ok ? rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(unsigned), m->ntri)
                    : NULL;
  if (ix) {
    memcpy(ix, m->indices, 3 * m->ntri * sizeof(unsigned));
    sensim__rt_alpha_attach(g, m); /* alpha-cut triangles stay cut as the mesh deforms */
    rtcCommitGeometry(g);
    rtcAttachGeometryByID(sc, g, 0);
    rtcSetSceneBuildQuality(sc, RTC_BUILD_QUALITY_LOW);
    rtcCommitScene(sc);
  }
  if (g) rtcReleaseGeometry(g);
  if (!ix || rtcGetDeviceError(dev) != RTC_ERROR_NONE) {
    if (sc) rtcReleaseScene(sc);
    return NULL;
  }
  return sc;
}

/* Give instance geometry g the motion of s's body i: its steps as
 * matrices, or quaternion decompositions for a body that turns, and its
 * rotation as a float matrix when it has one step. */
static void set_motion(RTCGeometry g, sensim_rt_scene *s, size_t i) {
  int ns = s->nsteps[i];
  rtcSetGeometryTimeStepCount(g, (unsigned)ns);
  /* A body that only translates over the window (every step's rotation
   * the same, bit for bit) gets plain matrices: Embree's linear blend
   * of them is then exactly the linear translation, and its traversal
   * skips the per-ray slerp and matrix build that quaternion motion
   * costs at every instance a ray enters (half a lidar capture's time
   * with 1 000 cars driving straight). */
  const sensim_rt_step *st0 = &s->step[s->first[i]];
  int turns = 0;
  for (int k = 1; k < ns && !turns; k++) turns = memcmp(&st0[k].rot, &st0[0].rot, sizeof st0[0].rot) != 0;
  for (int k = 0; k < ns; k++) {
    const sensim_rt_step *st = &st0[k];
    float *m = s->mat[s->first[i] + (size_t)k];
    q_matrix_f(st->rot, m);
    if (!turns) {
      float xf[12] = {m[0], m[1], m[2], (float)st->pos.x, m[3], m[4], m[5], (float)st->pos.y,
                      m[6], m[7], m[8], (float)st->pos.z};
      rtcSetGeometryTransform(g, (unsigned)k, RTC_FORMAT_FLOAT3X4_ROW_MAJOR, xf);
      continue;
    }
    struct RTCQuaternionDecomposition qd;
    rtcInitQuaternionDecomposition(&qd);
    rtcQuaternionDecompositionSetQuaternion(&qd, (float)st->rot.w, (float)st->rot.x, (float)st->rot.y,
                                            (float)st->rot.z);
    rtcQuaternionDecompositionSetTranslation(&qd, (float)st->pos.x, (float)st->pos.y, (float)st->pos.z);
    rtcSetGeometryTransformQuaternion(g, (unsigned)k, &qd);
  }
  if (ns == 1) {
    memcpy(s->fixed[i].m, s->mat[s->first[i]], sizeof s->fixed[i].m);
    s->fixed[i].one_step = 1;
  }
}

/* Build s's Embree scene. With `old` (a scene no view traces any more,
 * whose Embree scene s has taken over), update that scene instead of
 * making a new one: an instance of the same BLAS in the same slot keeps
 * its geometry and gets its new motion, the others are detached or made;
 * the commit then rebuilds the instance BVH alone. What Embree holds is
 * the same as a fresh build's, so the hits are too. */
static sensim_status build(RTCDevice dev, sensim_rt_scene *s, const sensim_snapshot *snap, const sensim_rt_scene *old) {
  if (s->deforming) {
    s->owned = calloc(s->nbodies ? s->nbodies : 1, sizeof *s->owned);
    if (!s->owned) return sensim__fail(SENSIM_ENOMEM, "out of memory for a view of %zu bodies", s->nbodies);
    for (size_t i = 0; i < s->nbodies; i++) {
      if (!s->blas[i] || !snap->bodies[i].nvk) continue;
      RTCScene d = deformed_blas(dev, &snap->bodies[i], snap->t0, snap->t1);
      if (!d) return sensim__fail(SENSIM_EBACKEND, "Embree: building deforming body %zu's geometry failed", i);
      s->owned[s->nowned++] = d;
      s->blas[i] = d;
    }
  }
  s->mat = malloc((s->total ? s->total : 1) * sizeof *s->mat);
  s->fixed = calloc(s->nbodies ? s->nbodies : 1, sizeof *s->fixed);
  if (!old) s->scene = rtcNewScene(dev);
  if (!s->mat || !s->fixed || !s->scene)
    return sensim__fail(SENSIM_ENOMEM, "out of memory for a view of %zu bodies", s->nbodies);
  const size_t nold = old ? old->nbodies : 0;
  for (size_t i = 0; i < nold; i++) /* instances that went or changed BLAS */
    if (old->blas[i] && (i >= s->nbodies || s->blas[i] != old->blas[i])) rtcDetachGeometry(s->scene, (unsigned)i);
  for (size_t i = 0; i < s->nbodies; i++) {
    if (!s->blas[i]) continue;
    const int kept = i < nold && old->blas[i] == s->blas[i];
    RTCGeometry g = kept ? rtcGetGeometry(s->scene, (unsigned)i) : rtcNewGeometry(dev, RTC_GEOMETRY_TYPE_INSTANCE);
    if (!g) return sensim__fail(SENSIM_EBACKEND, "Embree: could not create an instance");
    if (!kept) rtcSetGeometryInstancedScene(g, s->blas[i]);
    set_motion(g, s, i);
    rtcCommitGeometry(g);
    if (kept) continue;
    rtcAttachGeometryByID(s->scene, g, (unsigned)i);
    rtcReleaseGeometry(g);
  }
  rtcCommitScene(s->scene);
  if (rtcGetDeviceError(dev) != RTC_ERROR_NONE)
    return sensim__fail(SENSIM_EBACKEND, "Embree: building a view failed");
  return SENSIM_OK;
}

/* Part `part` of the view of snap: the cached scene if its instances are
 * the same, else a new one built and cached. *out is NULL for a part
 * without instances. */
static sensim_status acquire_part(const sensim_rt_binding *b, const sensim_snapshot *snap, int part,
                                  sensim_rt_scene **out) {
  sensim_rt *rt = b->rt;
  *out = NULL;
  sensim_rt_scene *s = instance_list(b, snap, part);
  if (!s) return sensim__fail(SENSIM_ENOMEM, "out of memory for a view of %zu bodies", snap->nbodies);
  if (s->total == 0) {
    list_spare(rt, s);
    return SENSIM_OK;
  }
  pthread_mutex_lock(&rt->lock);
  sensim_rt_scene *c = rt->cached[part];
  int hit = c && same_instances(c, s);
  if (hit) c->refs++;
  pthread_mutex_unlock(&rt->lock);
  if (hit) {
    list_spare(rt, s);
    *out = c;
    return SENSIM_OK;
  }
  /* The moving part changes every capture while bodies move: when no view
   * traces the cached scene any more (the cache's is its only reference),
   * take it out of the cache and update it in place (build). Two captures
   * at once find it referenced and build their own, as before. */
  sensim_rt_scene *reuse = NULL;
  if (part == SENSIM_RT_MOVING && !rt->rebuild && !s->deforming) {
    pthread_mutex_lock(&rt->lock);
    c = rt->cached[part];
    if (c && c->refs == 1 && !c->deforming) {
      reuse = c;
      rt->cached[part] = NULL;
    }
    pthread_mutex_unlock(&rt->lock);
  }
  if (reuse) s->scene = reuse->scene, reuse->scene = NULL;
  sensim_status rc = build(b->device, s, snap, reuse);
  if (reuse) {
    if (rc) rtcReleaseScene(s->scene), s->scene = NULL; /* half-updated: not for anyone */
    scene_free(reuse);
  }
  if (rc) {
    scene_free(s);
    return rc;
  }
  pthread_mutex_lock(&rt->lock);
  sensim_rt_scene *old = rt->cached[part];
  rt->cached[part] = s;
  s->refs++; /* the cache's */
  rt->builds++;
  int last = old && --old->refs == 0;
  pthread_mutex_unlock(&rt->lock);
  if (last) scene_free(old);
  *out = s;
  return SENSIM_OK;
}

sensim_status sensim__rt_view_create(const sensim_rt_binding *b, const sensim_snapshot *snap,
                                     sensim_rt_view **out) {
  sensim_rt *rt = b->rt;
  sensim_rt_view *v = sensim__stash_take(&rt->spare_views);
  if (!v) v = malloc(sizeof *v);
  if (!v) return sensim__fail(SENSIM_ENOMEM, "out of memory for a view of %zu bodies", snap->nbodies);
  memset(v, 0, sizeof *v);
  v->rt = rt;
  v->t0 = snap->t0;
  v->t1 = snap->t1;
  v->snap = snap;
  static const int order[2] = {SENSIM_RT_STATIC, SENSIM_RT_MOVING};
  for (int k = 0; k < 2; k++) {
    sensim_status rc = acquire_part(b, snap, order[k], &v->part[order[k]]);
    if (rc) {
      sensim__rt_view_destroy(v);
      return rc;
    }
    if (v->part[order[k]]) v->scenes[v->nscenes++] = v->part[order[k]]->scene;
  }
  *out = v;
  return SENSIM_OK;
}

void sensim__rt_view_destroy(sensim_rt_view *v) {
  if (!v) return;
  sensim_rt *rt = v->rt;
  for (int p = 0; p < 2; p++) scene_unref(rt, v->part[p]);
  if (!sensim__stash_give(&rt->spare_views, v)) free(v);
}

int sensim__rt_view_is_static(const sensim_rt_view *v) {
  return !v->part[SENSIM_RT_MOVING] || v->part[SENSIM_RT_MOVING]->is_static;
}

unsigned long sensim__rt_scene_builds(const sensim_world *w) {
  const sensim_rt *rt = w->rt;
  if (!rt) return 0;
  pthread_mutex_lock((pthread_mutex_t *)&rt->lock);
  unsigned long n = rt->builds;
  pthread_mutex_unlock((pthread_mutex_t *)&rt->lock);
  return n;
}
