/* core/stash.c: spare blocks kept between captures (core/stash.h). */
#include "core/stash.h"

void sensim__stash_init(sensim_stash *s, int max) {
  pthread_mutex_init(&s->mu, NULL);
  s->n = 0;
  s->max = max < SENSIM_STASH_MAX ? max : SENSIM_STASH_MAX;
}

void *sensim__stash_take(sensim_stash *s) {
  pthread_mutex_lock(&s->mu);
  void *b = s->n ? s->item[--s->n] : NULL;
  pthread_mutex_unlock(&s->mu);
  return b;
}

int sensim__stash_give(sensim_stash *s, void *block) {
  pthread_mutex_lock(&s->mu);
  int kept = s->n < s->max;
  if (kept) s->item[s->n++] = block;
  pthread_mutex_unlock(&s->mu);
  return kept;
}

void sensim__stash_destroy(sensim_stash *s, void (*free_fn)(void *)) {
  for (int i = 0; i < s->n; i++) free_fn(s->item[i]);
  s->n = 0;
  pthread_mutex_destroy(&s->mu);
}
