/* tests/alloc/alloc_count.h: counting the allocations sensim's own code
 * makes, in a binary linked with --wrap=malloc,calloc,realloc,free
 * (tests/test_alloc.c, the only binary that links tests/alloc/). */
#ifndef SENSIM_TESTS_ALLOC_COUNT_H
#define SENSIM_TESTS_ALLOC_COUNT_H

#include <stddef.h>

/* One allocation seen while counting. */
typedef struct alloc_rec {
  void *p;          /* block returned */
  size_t bytes;     /* asked for */
  const void *site; /* return address in the caller of malloc/calloc/realloc */
} alloc_rec;

/* Also the test group of test_alloc (tests/alloc/steady_alloc_tests.c). */
int sensim_test_steady_alloc(void);

/* Start counting from zero; stop. Counting is process-wide (every thread). */
void alloc_count_start(void);
void alloc_count_stop(void);
/* Allocations seen (all, and the first `*n` of them recorded). */
size_t alloc_count_total(void);
const alloc_rec *alloc_count_records(size_t *n);
/* Whether block p was returned by an allocation since alloc_count_start. */
int alloc_count_seen(const void *p);
/* Print one line per call site of the recorded allocations of >=
 * min_bytes: how many and how many bytes per frame over `frames`, and
 * where (the function where the binary exports it, and the offset into
 * the binary, for addr2line -f -i -e test_alloc). */
void alloc_count_print(size_t min_bytes, int frames);

/* Failure injection (tests/alloc/malloc_fail_tests.c): from now on, the
 * allocation numbered k (0: the next one) by sensim's code returns NULL,
 * once; alloc_fail_stop turns it off and says whether it happened. */
void alloc_fail_after(long k);
int alloc_fail_stop(void);

/* The failing-malloc test group. */
int sensim_test_malloc_fail(void);

#endif
