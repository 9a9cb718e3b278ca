/* scene/body.c: bodies and the host's state pushes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/scene.h"

/* |v|, without overflow for components up to DBL_MAX; the plain sum of
 * squares first, as hypot costs tens of ns on every push. */
static double norm3(sensim_vec3 v) {
  double n2 = v.x * v.x + v.y * v.y + v.z * v.z;
  return isfinite(n2) ? sqrt(n2) : hypot(hypot(v.x, v.y), v.z);
}

void sensim_body_params_init(sensim_body_params *p) {
  memset(p, 0, sizeof *p);
  p->pose = sensim_pose_identity();
}

sensim_status sensim_body_create(sensim_world *w, const sensim_body_params *p, sensim_body **out) {
  if (!w || !p || !out) return sensim__fail(SENSIM_EINVAL, "sensim_body_create: NULL argument");
  if (p->mesh && p->mesh->world != w)
    return sensim__fail(SENSIM_EINVAL, "body mesh belongs to another world");
  sensim_status rc = sensim__check_pose(&p->pose, "body pose");
  if (!rc)
    rc = p->mesh ? sensim__check_coord(p->pose.pos, p->mesh->radius, "body pose (with its mesh's radius)")
                 : sensim__check_coord(p->pose.pos, 0.0, "body pose");
  if (rc) return rc;
  rc = sensim__grow((void **)&w->bodies, &w->cap_bodies, w->nbodies + 1, sizeof *w->bodies);
  if (!rc && !p->is_static) rc = sensim__grow((void **)&w->dynamic, &w->cap_dynamic, w->ndynamic + 1, sizeof *w->dynamic);
  if (!rc) rc = sensim__grow((void **)&w->snap_base, &w->cap_snap_base, w->nbodies + 1, sizeof *w->snap_base);
  if (rc) return rc;
  sensim_body *b = calloc(1, sizeof *b);
  if (!b) return sensim__fail(SENSIM_ENOMEM, "out of memory for a body");
  b->world = w;
  b->index = (int)w->nbodies;
  b->mesh = p->mesh;
  b->class_id = p->class_id;
  b->instance_id = p->instance_id ? p->instance_id : w->next_instance_id;
  if (b->instance_id >= w->next_instance_id) w->next_instance_id = b->instance_id + 1;
  b->is_static = p->is_static != 0;
  /* Every body starts with its creation pose as a keyframe, so a body the
   * host never pushes (or pushes later) is still somewhere. Dynamic bodies
   * replace it with their first pushed state. */
  rc = sensim__track_start(&b->track, p->pose);
  if (rc) {
    free(b);
    return rc;
  }
  b->pose0 = p->pose;
  if (!b->is_static) w->dynamic[w->ndynamic++] = w->nbodies;
  sensim__body_snap_base(b, &w->snap_base[w->nbodies]);
  w->bodies[w->nbodies++] = b;
  *out = b;
  return SENSIM_OK;
}

static sensim_status check_state(const sensim_body *b, const sensim_body_state *s) {
  sensim_status rc = sensim__check_pose(&s->pose, "body state");
  if (rc) return rc;
  double radius = b->mesh ? b->mesh->radius : 0.0;
  rc = sensim__check_coord(s->pose.pos, radius, b->mesh ? "body state (with its mesh's radius)" : "body state");
  if (rc) return rc;
  if ((s->flags & SENSIM_STATE_VELOCITY) && !(sensim__finite3(s->lin_vel) && sensim__finite3(s->ang_vel)))
    return sensim__fail(SENSIM_EINVAL, "body state: velocity is not finite");
  if ((s->flags & SENSIM_STATE_ACCELERATION) &&
      !(sensim__finite3(s->lin_acc) && sensim__finite3(s->ang_acc)))
    return sensim__fail(SENSIM_EINVAL, "body state: acceleration is not finite");
  if (s->flags & ~(unsigned)(SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION))
    return sensim__fail(SENSIM_EINVAL, "body state: unknown flag bits 0x%x", s->flags);
  /* Sensors read the given derivatives over their collection windows (an
   * IMU's specific force, a cone's closing speed): a velocity or
   * acceleration that would carry the body past the coordinate limit
   * within the longest window (or 1 s, so that the check does not depend
   * on whether sensors were made before the first push) is an error, not a
   * motion to sample. */
  double v = (s->flags & SENSIM_STATE_VELOCITY) ? norm3(s->lin_vel) : 0.0;
  double a = (s->flags & SENSIM_STATE_ACCELERATION) ? norm3(s->lin_acc) : 0.0;
  double p = fmax(fabs(s->pose.pos.x), fmax(fabs(s->pose.pos.y), fabs(s->pose.pos.z))) + radius;
  return sensim__check_reach(p, v, a, b->world->max_window, "body state");
}

sensim_status sensim_body_push_state(sensim_body *b, double t, const sensim_body_state *s) {
  if (!b || !s) return sensim__fail(SENSIM_EINVAL, "sensim_body_push_state: NULL argument");
  if (b->destroyed) return sensim__fail(SENSIM_ESTATE, "body %d was destroyed; its state cannot be pushed", b->index);
  if (b->is_static) return sensim__fail(SENSIM_ESTATE, "body %d is static; its pose cannot be pushed", b->index);
  sensim_status rc = sensim__check_time(t, "state time");
  if (rc) return rc;
  if (t < b->world->t)
    return sensim__fail(SENSIM_ESTATE, "state time %.9g s is before the world's time %.9g s", t,
                        b->world->t);
  rc = check_state(b, s);
  if (rc) return rc;
  sensim_track *tr = &b->track;
  /* The creation pose stands until the first push, which replaces it. */
  if (tr->n == 1 && tr->k[0].t == -INFINITY) tr->n = 0;
  rc = sensim__track_push(tr, t, s);
  if (rc) {
    if (tr->n == 0) tr->n = 1; /* restore the creation keyframe */
    return rc;
  }
  if (tr->n > 64) {
    double now = isfinite(b->world->t) ? b->world->t : t - 1.0;
    sensim__track_trim(tr, now - b->world->max_window);
  }
  return SENSIM_OK;
}

sensim_status sensim_body_state_at(const sensim_body *b, double t, sensim_body_state *out) {
  if (!b || !out) return sensim__fail(SENSIM_EINVAL, "sensim_body_state_at: NULL argument");
  if (isnan(t)) return sensim__fail(SENSIM_EINVAL, "time is NaN");
  sensim__track_state_at(b->track.k, b->track.n, t, out);
  return SENSIM_OK;
}

size_t sensim_body_keyframe_count(const sensim_body *b) { return b ? b->track.n : 0; }

void sensim__body_retire(sensim_body *b) {
  sensim_world *w = b->world;
  /* A static body's track is left as it is: captures in flight may read it
   * in place (scene/snapshot.c). */
  b->mesh = NULL;
  b->destroyed = 1;
  sensim__vtrack_free(&b->deform);
  if (b->is_static) {
    sensim__body_snap_base(b, &w->snap_base[b->index]);
    return;
  }
  sensim_track *tr = &b->track;
  if (tr->n > 1) {
    tr->k[0] = tr->k[tr->n - 1];
    tr->n = 1;
  }
  /* Give back the track's working capacity; keeping it is harmless if the
   * shrink fails. */
  sensim_keyframe *k = tr->cap > 1 ? realloc(tr->k, sizeof *tr->k) : NULL;
  if (k) {
    tr->k = k;
    tr->cap = 1;
  }
  b->is_static = 1;
  size_t d = 0; /* off the dynamic list, which stays in index order */
  while (d < w->ndynamic && w->dynamic[d] != (size_t)b->index) d++;
  if (d < w->ndynamic) {
    memmove(&w->dynamic[d], &w->dynamic[d + 1], (w->ndynamic - d - 1) * sizeof *w->dynamic);
    w->ndynamic--;
  }
  sensim__body_snap_base(b, &w->snap_base[b->index]);
}

void sensim__world_rewind_bodies(sensim_world *w) {
  /* A track always has room for one keyframe, so this cannot fail. */
  for (size_t d = 0; d < w->ndynamic; d++) {
    sensim_body *b = w->bodies[w->dynamic[d]];
    if (b->track.n) (void)sensim__track_start(&b->track, b->pose0);
    b->deform.n = 0; /* back to its mesh's own vertices */
  }
}
