/* scene/mesh_stl_check.c: an STL file's structure, before Assimp's reader
 * sees it.
 *
 * Assimp 5.2 takes a file as binary STL when its length is 84 + 50 n for
 * the facet count n in bytes 80-83, and as ASCII when it starts with
 * "solid". Its ASCII reader throws on a malformed facet after allocating
 * the mesh and node it was filling, and leaks both (2.4 kB per broken
 * file, found by the replay under LeakSanitizer). So an ASCII file must
 * follow the grammar whole here, and the reader then has nothing to
 * throw on:
 *
 *   solid [name ...]
 *     facet normal n n n
 *       outer loop
 *         vertex x y z      (three times)
 *       endloop
 *     endfacet              (any number of facets)
 *   endsolid [name ...]     (and again for further solids)
 *
 * with decimal numbers. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/mesh_check.h"

/* Assimp's node names hold at most AI_MAXLEN - 1 bytes and it throws on a
 * longer solid name. */
#define STL_MAX_NAME 1023
#define STL_MAX_WORDS 6

static int space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

/* Split [p, end) -- one line without its newline -- into words at spaces
 * and tabs, the only separators Assimp skips between a keyword's numbers
 * (a '\r' may end the line). Returns the count, STL_MAX_WORDS + 1 for
 * more, -1 for another control character inside the line. */
static int words(const char *p, const char *end, const char **w, size_t *len) {
  if (end > p && end[-1] == '\r') end--;
  int n = 0;
  while (p < end) {
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if (p == end) break;
    if (n == STL_MAX_WORDS) return STL_MAX_WORDS + 1;
    w[n] = p;
    while (p < end && *p != ' ' && *p != '\t') {
      if ((unsigned char)*p < 32) return -1;
      p++;
    }
    len[n] = (size_t)(p - w[n]);
    n++;
  }
  return n;
}

static int is(const char *w, size_t n, const char *kw) { return n == strlen(kw) && memcmp(w, kw, n) == 0; }

/* A whole decimal number; how large is the scene check's business (a
 * vertex beyond float range is not finite there). */
static int number(const char *w, size_t n) { return sensim__mesh_number(w, n, 0); }

/* The states of the grammar above, one line each. */
enum { OUTSIDE, IN_SOLID, FACET, VERTEX0, VERTEX1, VERTEX2, END_LOOP, END_FACET };

static sensim_status check_ascii(const char *text, size_t size, const char *path) {
  static const char *const due[] = {"solid", "facet normal or endsolid", "outer loop", "vertex", "vertex",
                                    "vertex", "endloop", "endfacet"};
  int state = OUTSIDE, solids = 0, line = 0;
  for (const char *p = text, *end = text + size; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *eol = nl ? nl : end;
    const char *w[STL_MAX_WORDS];
    size_t len[STL_MAX_WORDS];
    int n = words(p, eol, w, len), ok = 0;
    const char *bad_numbers = NULL;
    line++;
    p = nl ? nl + 1 : end;
    if (n == 0) continue;
    if (n < 0)
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': STL line %d holds a control character", path, line);
    int before = state;
    switch (state) {
      case OUTSIDE:
        /* The name is the rest of the line; Assimp keeps its first word. */
        ok = is(w[0], len[0], "solid") && (n == 1 || len[1] <= STL_MAX_NAME);
        if (ok) state = IN_SOLID;
        break;
      case IN_SOLID:
        if (is(w[0], len[0], "endsolid")) {
          ok = 1;
          solids++;
          state = OUTSIDE;
        } else {
          ok = n >= 2 && is(w[0], len[0], "facet") && is(w[1], len[1], "normal");
          if (ok && !(n == 5 && number(w[2], len[2]) && number(w[3], len[3]) && number(w[4], len[4])))
            bad_numbers = "facet normal";
          state = FACET;
        }
        break;
      case FACET:
        ok = n == 2 && is(w[0], len[0], "outer") && is(w[1], len[1], "loop");
        state = VERTEX0;
        break;
      case VERTEX0:
      case VERTEX1:
      case VERTEX2:
        ok = is(w[0], len[0], "vertex");
        if (ok && !(n == 4 && number(w[1], len[1]) && number(w[2], len[2]) && number(w[3], len[3])))
          bad_numbers = "vertex";
        state++;
        break;
      case END_LOOP:
        ok = n == 1 && is(w[0], len[0], "endloop");
        state = END_FACET;
        break;
      case END_FACET:
        ok = n == 1 && is(w[0], len[0], "endfacet");
        state = IN_SOLID;
        break;
    }
    if (bad_numbers)
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': STL line %d: '%s' needs three numbers", path,
                          line, bad_numbers);
    if (!ok)
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': STL line %d: '%.*s' where '%s' was due", path, line,
                          (int)(len[0] < 32 ? len[0] : 32), w[0], due[before]);
  }
  if (state != OUTSIDE)
    return sensim__fail(SENSIM_EPARSE, "mesh file '%s': STL ends where '%s' was due (file cut short?)", path,
                        due[state]);
  if (!solids) return sensim__fail(SENSIM_EPARSE, "mesh file '%s': STL holds no solid", path);
  return SENSIM_OK;
}

sensim_status sensim__mesh_check_stl(FILE *f, uint64_t size, const char *path) {
  unsigned char head[84];
  size_t got = fread(head, 1, sizeof head, f);
  if (got == sizeof head) {
    uint64_t facets = (uint64_t)head[80] | (uint64_t)head[81] << 8 | (uint64_t)head[82] << 16 |
                      (uint64_t)head[83] << 24;
    /* Assimp tests the length in 32 bits, where 50 n + 84 can wrap. */
    uint32_t wrapped = (uint32_t)(facets * 50u + 84u);
    if (84 + 50 * facets == size) {
      if (facets == 0) return sensim__fail(SENSIM_EPARSE, "mesh file '%s': binary STL with no facets", path);
      return SENSIM_OK;
    }
    if (wrapped == size)
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': binary STL of %llu facets cannot be %llu bytes long",
                          path, (unsigned long long)facets, (unsigned long long)size);
  }
  /* Not binary: it must be ASCII, read whole (as Assimp does). */
  if (size > ((uint64_t)1 << 30))
    return sensim__fail(SENSIM_EPARSE, "mesh file '%s': neither binary STL (84 + 50 n bytes) nor an ASCII STL "
                        "under 1 GiB", path);
  char *text = malloc((size_t)size + 1);
  if (!text) return sensim__fail(SENSIM_ENOMEM, "mesh file '%s': out of memory reading it", path);
  if (fseeko(f, 0, SEEK_SET) != 0 || fread(text, 1, (size_t)size, f) != (size_t)size) {
    free(text);
    return sensim__fail(SENSIM_EIO, "mesh file '%s': read error", path);
  }
  text[size] = '\0';
  sensim_status st;
  size_t lead = 0;
  while (lead < size && space(text[lead])) lead++;
  if (size - lead < 5 || memcmp(text + lead, "solid", 5) != 0)
    st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': neither binary STL (84 + 50 n bytes for n facets) nor "
                      "ASCII STL (starting 'solid')", path);
  else if (memchr(text, '\0', (size_t)size))
    st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': ASCII STL holds a NUL byte", path);
  else
    st = check_ascii(text, (size_t)size, path);
  free(text);
  return st;
}
