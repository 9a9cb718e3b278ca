/* sensors/camera_scratch.c: the camera's render scratch, kept between
 * frames. Bands of one frame, and frames of one camera rendered at once,
 * each take their own set; a set is sized for the camera (4 rows x width x
 * samples), which never changes, so a set once made serves every later
 * band. */
#include <stdlib.h>
#include "core/internal.h"
#include "sensors/camera_internal.h"

static void scratch_free(sensim_camera_scratch *s) {
  free(s->col);
  free(s->uvoff);
  free(s->t);
  free(s->pose);
  free(s->axial);
  free(s->hit_t);
  free(s->hit_n);
  free(s->hit_body);
  free(s->cur.ray);
  free(s->next.ray);
  free(s);
}

sensim_status sensim__camera_scratch_take(sensim_camera *c, sensim_camera_scratch **out) {
  pthread_mutex_lock(&c->scratch_mu);
  sensim_camera_scratch *s = c->scratch;
  if (s) c->scratch = s->link;
  pthread_mutex_unlock(&c->scratch_mu);
  if (s) {
    *out = s;
    return SENSIM_OK;
  }
  *out = NULL;
  const size_t n = (size_t)4 * c->p.width * (size_t)c->p.samples;
  s = calloc(1, sizeof *s);
  if (!s) return sensim__fail(SENSIM_ENOMEM, "out of memory for camera scratch");
  s->col = malloc(n * sizeof *s->col);
  s->uvoff = malloc(n * sizeof *s->uvoff);
  s->t = malloc(n * sizeof *s->t);
  s->pose = malloc(n * sizeof *s->pose);
  s->axial = malloc(n * sizeof *s->axial);
  s->hit_t = malloc(n * sizeof *s->hit_t);
  s->hit_n = malloc(n * sizeof *s->hit_n);
  s->hit_body = malloc(n * sizeof *s->hit_body);
  if (!s->col || !s->uvoff || !s->t || !s->pose || !s->axial || !s->hit_t || !s->hit_n || !s->hit_body) {
    scratch_free(s);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for the scratch of %zu camera samples", n);
  }
  *out = s;
  return SENSIM_OK;
}

void sensim__camera_scratch_give(sensim_camera *c, sensim_camera_scratch *s) {
  pthread_mutex_lock(&c->scratch_mu);
  s->link = c->scratch;
  c->scratch = s;
  pthread_mutex_unlock(&c->scratch_mu);
}

void sensim__camera_scratch_free_all(sensim_camera *c) {
  while (c->scratch) {
    sensim_camera_scratch *s = c->scratch;
    c->scratch = s->link;
    scratch_free(s);
  }
}
