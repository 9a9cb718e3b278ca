/* scene/world.c: world lifetime, lights and track trimming. The clock
 * belongs to the runtime (runtime/clock.c: sensim_world_advance). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/scene.h"
#include "scene/environment.h"
#include "scene/weather.h"

void sensim_world_params_init(sensim_world_params *p) {
  memset(p, 0, sizeof *p);
  p->seed = 1;
  p->threads = 2;
  p->gravity = SENSIM_GRAVITY_NORMAL; /* WGS84 normal gravity at the origin (scene/gravity.c) */
  p->background[0] = p->background[1] = p->background[2] = 0.6f;
  p->ambient = 0.1f;
}

static sensim_status check_params(const sensim_world_params *p) {
  if (p->threads < 0 || p->threads > 1024)
    return sensim__fail(SENSIM_EINVAL, "world.threads = %d must be in [0, 1024]", p->threads);
  if (!(p->origin_lat >= -90.0 && p->origin_lat <= 90.0))
    return sensim__fail(SENSIM_EINVAL, "world.origin_lat = %g deg must be in [-90, 90]", p->origin_lat);
  if (!(p->origin_lon >= -180.0 && p->origin_lon <= 180.0))
    return sensim__fail(SENSIM_EINVAL, "world.origin_lon = %g deg must be in [-180, 180]", p->origin_lon);
  if (!isfinite(p->origin_height) || fabs(p->origin_height) > 1e5)
    return sensim__fail(SENSIM_EINVAL, "world.origin_height = %g m must be finite and within 100 km",
                        p->origin_height);
  if (!(p->gravity >= 0.0 && p->gravity < 100.0) && p->gravity != SENSIM_GRAVITY_NORMAL)
    return sensim__fail(SENSIM_EINVAL,
                        "world.gravity = %g m/s^2 must be in [0, 100) or SENSIM_GRAVITY_NORMAL (-1)",
                        p->gravity);
  for (int i = 0; i < 3; i++)
    if (!(p->background[i] >= 0.0f && isfinite(p->background[i])))
      return sensim__fail(SENSIM_EINVAL, "world.background[%d] = %g must be finite and >= 0", i,
                          p->background[i]);
  if (!(p->ambient >= 0.0f && isfinite(p->ambient)))
    return sensim__fail(SENSIM_EINVAL, "world.ambient = %g must be finite and >= 0", p->ambient);
  return sensim__weather_check(&p->weather, "world.weather");
}

sensim_status sensim_world_create(const sensim_world_params *p, sensim_world **out) {
  if (!p || !out) return sensim__fail(SENSIM_EINVAL, "sensim_world_create: NULL argument");
  sensim_status rc = check_params(p);
  if (rc) return rc;
  sensim_world *w = calloc(1, sizeof *w);
  if (!w) return sensim__fail(SENSIM_ENOMEM, "out of memory for the world");
  w->params = *p;
  if (p->gravity == SENSIM_GRAVITY_NORMAL)
    w->params.gravity = sensim_normal_gravity(p->origin_lat, p->origin_height);
  w->t = -INFINITY;
  w->next_instance_id = 1;
  *out = w;
  return SENSIM_OK;
}

void sensim_world_destroy(sensim_world *w) {
  if (!w) return;
  /* The runtime first: its sensors wait for their jobs, which read meshes
   * and the kernel's structures. */
  if (w->runtime_release) w->runtime_release(w->runtime);
  if (w->rt_release) w->rt_release(w->rt);
  for (size_t i = 0; i < w->nbodies; i++) {
    sensim__track_free(&w->bodies[i]->track);
    sensim__vtrack_free(&w->bodies[i]->deform);
    sensim__group_free(w->bodies[i]->group);
    free(w->bodies[i]);
  }
  for (size_t i = 0; i < w->ntextures; i++) sensim__texture_free(w->textures[i]);
  free(w->textures);
  for (size_t i = 0; i < w->nmeshes; i++) {
    free(w->meshes[i]->uvs);
    free(w->meshes[i]->tri_reflectance);
    free(w->meshes[i]->normals);
    free(w->meshes[i]->tangents);
    free(w->meshes[i]->materials);
    free(w->meshes[i]->tri_material);
    free(w->meshes[i]->chunk_bounds);
    free(w->meshes[i]->vertices);
    free(w->meshes[i]->indices);
    free(w->meshes[i]);
  }
  free(w->bodies);
  free(w->dynamic);
  free(w->snap_base);
  free(w->meshes);
  free(w->lights);
  sensim__tiles_free(w);
  free(w->snap_win);
  sensim__env_free_all(w);
  free(w);
}

const sensim_world_params *sensim_world_params_get(const sensim_world *w) { return w ? &w->params : NULL; }

void sensim_light_init(sensim_light *l) {
  memset(l, 0, sizeof *l);
  l->kind = SENSIM_LIGHT_DIRECTIONAL;
  l->direction.z = -1.0;
  l->color[0] = l->color[1] = l->color[2] = 1.0f;
  l->intensity = 1.0f;
  l->cast_shadows = 1;
}

sensim_status sensim_light_add(sensim_world *w, const sensim_light *l) {
  if (!w || !l) return sensim__fail(SENSIM_EINVAL, "sensim_light_add: NULL argument");
  if (l->kind != SENSIM_LIGHT_POINT && l->kind != SENSIM_LIGHT_DIRECTIONAL && l->kind != SENSIM_LIGHT_SPOT &&
      l->kind != SENSIM_LIGHT_RECT && l->kind != SENSIM_LIGHT_DISC)
    return sensim__fail(SENSIM_EINVAL, "light kind %d is not point, directional, spot, rect or disc", (int)l->kind);
  if (!sensim__finite3(l->position) || !sensim__finite3(l->direction))
    return sensim__fail(SENSIM_EINVAL, "light position/direction must be finite");
  if (!(l->radius >= 0.0f && l->radius <= 1e6f))
    return sensim__fail(SENSIM_EINVAL, "light radius %g m must be in [0, 1e6]", (double)l->radius);
  if (l->kind == SENSIM_LIGHT_DISC && !(l->radius > 0.0f))
    return sensim__fail(SENSIM_EINVAL, "disc light radius %g m must be > 0", (double)l->radius);
  if (!(l->angular_diameter >= 0.0f && l->angular_diameter <= 0.5f))
    return sensim__fail(SENSIM_EINVAL, "light angular_diameter %g rad must be in [0, 0.5]",
                        (double)l->angular_diameter);
  if (l->kind == SENSIM_LIGHT_RECT) {
    if (!sensim__finite3(l->edge_u) || !sensim__finite3(l->edge_v))
      return sensim__fail(SENSIM_EINVAL, "rect light edge_u/edge_v must be finite");
    const sensim_vec3 a = l->edge_u, b = l->edge_v;
    const double cx = a.y * b.z - a.z * b.y, cy = a.z * b.x - a.x * b.z, cz = a.x * b.y - a.y * b.x;
    const double area = sqrt(cx * cx + cy * cy + cz * cz);
    if (!(area > 1e-12 && area < 1e12))
      return sensim__fail(SENSIM_EINVAL, "rect light edge_u x edge_v has area %g m^2: the edges must span a rectangle",
                          area);
  }
  /* A point or spot light's position is where shadow rays end: a world
   * coordinate like any other. A directional light's is unused. */
  if (l->kind != SENSIM_LIGHT_DIRECTIONAL) {
    sensim_status rc = sensim__check_coord(l->position, 0.0, "light");
    if (rc) return rc;
  }

  if (l->kind == SENSIM_LIGHT_SPOT &&
      !(l->spot_inner >= 0.0f && l->spot_outer >= l->spot_inner && l->spot_outer > 0.0f &&
        l->spot_outer < (float)M_PI))
    return sensim__fail(SENSIM_EINVAL, "spot light cone %g..%g rad must satisfy 0 <= inner <= outer < pi, outer > 0",
                        l->spot_inner, l->spot_outer);
  /* Shading normalises the direction through its squared length, which
   * must be a positive finite number: 1e200 per component squares to
   * infinity and normalises to 0, 1e-200 to 0 and divides by it. */
  double d2 = l->direction.x * l->direction.x + l->direction.y * l->direction.y + l->direction.z * l->direction.z;
  if (l->kind != SENSIM_LIGHT_POINT && l->kind != SENSIM_LIGHT_RECT && !(d2 > 0 && isfinite(d2)))
    return sensim__fail(SENSIM_EINVAL,
                        "directional, spot and disc lights need a nonzero direction of finite squared length (got %g, %g, %g)",
                        l->direction.x, l->direction.y, l->direction.z);
  if (!(l->intensity >= 0.0f && isfinite(l->intensity)))
    return sensim__fail(SENSIM_EINVAL, "light intensity %g must be finite and >= 0", l->intensity);
  for (int i = 0; i < 3; i++)
    if (!(l->color[i] >= 0.0f && l->color[i] <= 1.0f))
      return sensim__fail(SENSIM_EINVAL, "light color[%d] = %g must be in [0, 1] (intensity sets the level)",
                          i, l->color[i]);
  sensim_status rc = sensim__grow((void **)&w->lights, &w->cap_lights, w->nlights + 1, sizeof *w->lights);
  if (rc) return rc;
  w->lights[w->nlights++] = *l;
  return SENSIM_OK;
}

void sensim__world_trim_tracks(sensim_world *w) {
  /* Captures not yet scheduled have t_k > w->t, so they need keyframes from
   * t_k - window > w->t - max_window onwards. Before the first advance the
   * newest keyframe stands in for the clock, with a second of slack. */
  for (size_t d = 0; d < w->ndynamic; d++) {
    sensim_body *b = w->bodies[w->dynamic[d]];
    if (b->track.n == 0) continue;
    double now = isfinite(w->t) ? w->t : b->track.k[b->track.n - 1].t - 1.0;
    sensim__track_trim(&b->track, now - w->max_window);
    if (b->deform.n) sensim__vtrack_trim(&b->deform, now - w->max_window);
  }
}
