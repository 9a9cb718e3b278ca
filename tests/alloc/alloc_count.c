/* tests/alloc/alloc_count.c: the wrapped allocator of test_alloc
 * (alloc_count.h). Only this binary links it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include "alloc/alloc_count.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);

enum { MAX_RECS = 1 << 16 };
static alloc_rec recs[MAX_RECS];
static atomic_size_t nrecs;
static atomic_int counting;

/* Failure injection: the allocation number fail_at (from 0, counting from
 * alloc_fail_after) returns NULL; -1: off. */
static atomic_long fail_at = -1;
static atomic_int fired;

static int failing(void) {
  if (atomic_load_explicit(&fail_at, memory_order_relaxed) < 0) return 0;
  if (atomic_fetch_sub(&fail_at, 1) != 0) return 0;
  atomic_store(&fired, 1);
  return 1;
}

void alloc_fail_after(long k) {
  atomic_store(&fired, 0);
  atomic_store(&fail_at, k);
}

int alloc_fail_stop(void) {
  atomic_store(&fail_at, -1);
  return atomic_load(&fired);
}

static void note(void *p, size_t bytes, const void *site) {
  if (!p || !atomic_load_explicit(&counting, memory_order_relaxed)) return;
  size_t i = atomic_fetch_add(&nrecs, 1);
  if (i < MAX_RECS) recs[i] = (alloc_rec){p, bytes, site};
}

void *__wrap_malloc(size_t n) {
  if (failing()) return NULL;
  void *p = __real_malloc(n);
  note(p, n, __builtin_return_address(0));
  return p;
}

void *__wrap_calloc(size_t n, size_t size) {
  if (failing()) return NULL;
  void *p = __real_calloc(n, size);
  note(p, n * size, __builtin_return_address(0));
  return p;
}

void *__wrap_realloc(void *p, size_t n) {
  if (failing()) return NULL;
  void *q = __real_realloc(p, n);
  note(q, n, __builtin_return_address(0));
  return q;
}

void __wrap_free(void *p) { __real_free(p); }

void alloc_count_start(void) {
  atomic_store(&nrecs, 0);
  atomic_store(&counting, 1);
}

void alloc_count_stop(void) { atomic_store(&counting, 0); }

size_t alloc_count_total(void) { return atomic_load(&nrecs); }

const alloc_rec *alloc_count_records(size_t *n) {
  size_t k = atomic_load(&nrecs);
  *n = k < MAX_RECS ? k : MAX_RECS;
  return recs;
}

int alloc_count_seen(const void *p) {
  size_t n;
  const alloc_rec *r = alloc_count_records(&n);
  for (size_t i = 0; p && i < n; i++)
    if (r[i].p == p) return 1;
  return 0;
}

static int by_site(const void *a, const void *b) {
  const alloc_rec *x = a, *y = b;
  return x->site < y->site ? -1 : x->site > y->site;
}

void alloc_count_print(size_t min_bytes, int frames) {
  size_t n;
  const alloc_rec *r = alloc_count_records(&n);
  alloc_rec *sorted = __real_malloc((n ? n : 1) * sizeof *sorted);
  if (!sorted) return;
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (r[i].bytes >= min_bytes) sorted[m++] = r[i];
  qsort(sorted, m, sizeof *sorted, by_site);
  for (size_t i = 0; i < m;) {
    size_t j = i, bytes = 0;
    for (; j < m && sorted[j].site == sorted[i].site; j++) bytes += sorted[j].bytes;
    Dl_info d = {0};
    dladdr(sorted[i].site, &d);
    printf("#   %6.1f a frame, %9.0f bytes a frame, from %s (binary+0x%lx)\n", (double)(j - i) / frames,
           (double)bytes / frames, d.dli_sname ? d.dli_sname : "a static function",
           (unsigned long)((const char *)sorted[i].site - (const char *)d.dli_fbase));
    i = j;
  }
  __real_free(sorted);
}
