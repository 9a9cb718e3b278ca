/* scene/mesh_obj_check.c: an OBJ file's face indices, before Assimp's
 * reader sees them.
 *
 * Assimp 5.2's OBJ reader throws "vertex index out of range" or "bad vertex
 * index" while it builds the meshes of a file, after it allocated those of
 * the objects before; they leak (1.4 kB for a file of two groups, found by
 * fuzz_mesh). So every vertex index its face parser will store must be
 * below the number of vertices it will hold, and no face may be one it
 * sizes wrong. The reader's own rules are followed
 * where they decide an index, and erred on the safe side elsewhere:
 *
 * - a line ends at \n, \r, \f or NUL; a backslash before a line end joins
 *   the next line on (IOStreamBuffer::getNextDataLine);
 * - a line starting with 'f', 'l' or 'p' is a face whatever follows the
 *   letter: its first word is skipped, then each run of characters other
 *   than '/' and blanks is read by atoi at its start and the read moves on
 *   by as many characters as that number has digits (and its sign); the
 *   '/'-count before a number says whether it is a vertex (0), texture
 *   coordinate or normal (ObjFileParser::getFace). Positive numbers are
 *   1-based, negative ones count back from the vertices read so far, 0 is
 *   an error. A number in a fourth part, or one whose digit count steps
 *   past the line's end, sends the reader into its stale line buffer, and
 *   a line ('l') of one corner makes it write past the vertices it
 *   allocated ("bad vertex index"): all refused;
 * - a vertex is counted only on a line starting "v " or "v\t" with 3, 4 or
 *   6 words that all start like numbers (getNumComponentsInDataDefinition);
 *   the reader may count more, never fewer, so an index in range here is
 *   in range there (a relative one too: the vertices after its line are
 *   counted no more here than there). */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/mesh_check.h"

static int line_end(char c) { return c == '\n' || c == '\r' || c == '\f' || c == '\0'; }
static int blank(char c) { return c == ' ' || c == '\t'; }

typedef struct obj_scan {
  size_t vertices;  /* counted so far */
  int have_vt, have_vn; /* texture coordinates, normals seen so far */
  size_t max_index; /* largest vertex index a face stores, + 1; 0 for none */
  const char *bad;  /* why the current line is refused, or NULL */
} obj_scan;

/* Copy the next logical line of [*p, end) into `out` (joining continued
 * lines), NUL-terminated; returns its length, or -1 at the end. *newlines
 * counts the \n consumed, for line numbers in messages. */
static long next_line(const char **p, const char *end, char *out, size_t cap, int *newlines) {
  if (*p >= end) return -1;
  size_t n = 0;
  const char *s = *p;
  while (s < end) {
    if (*s == '\\' && s + 1 < end && line_end(s[1])) {
      /* The reader skips to just after the next \n. */
      s++;
      while (s < end && *s != '\n') s++;
      if (s < end) s++, (*newlines)++;
      continue;
    }
    if (line_end(*s)) break;
    if (n + 1 < cap) out[n++] = *s;
    s++;
  }
  if (s < end && *s == '\n') (*newlines)++;
  *p = s < end ? s + 1 : end;
  out[n] = '\0';
  return (long)n;
}

static int number_start(const char *w) {
  return (*w >= '0' && *w <= '9') || *w == '-' || *w == '+' || strncmp(w, "nan", 3) == 0 ||
         strncmp(w, "inf", 3) == 0;
}

static void vertex_line(obj_scan *s, const char *l) {
  if (l[0] != 'v') return;
  /* The reader takes "vt..." and "vn..." whatever follows the letter. */
  if (l[1] == 't') s->have_vt = 1;
  if (l[1] == 'n') s->have_vn = 1;
  if (!blank(l[1])) return;
  int words = 0, numeric = 1;
  for (const char *q = l + 1; *q;) {
    while (blank(*q)) q++;
    if (!*q) break;
    words++;
    numeric &= number_start(q);
    while (*q && !blank(*q)) q++;
  }
  if (numeric && (words == 3 || words == 4 || words == 6)) s->vertices++;
}

static void face_line(obj_scan *s, const char *l) {
  if (l[0] != 'f' && l[0] != 'l' && l[0] != 'p') return;
  const char *q = l, *end = l + strlen(l);
  while (*q && !blank(*q)) q++;
  while (blank(*q)) q++;
  int part = 0; /* 0 vertex, 1 texture coordinate, 2 normal */
  long v_so_far = (long)s->vertices, corners = 0;
  while (*q) {
    size_t step = 1;
    if (*q == '/') {
      part++;
    } else if (blank(*q)) {
      part = 0;
    } else {
      int val = atoi(q); /* as the reader reads it, quirks included */
      for (int t = val; (t /= 10) != 0;) step++;
      if (val < 0) step++;
      if (part == 1 && !s->have_vt && s->have_vn) part = 2;
      if (val == 0) {
        s->bad = "a face index is 0 or not a number";
        return;
      }
      /* Past the line's end the reader would parse what its buffer held
       * before; on a fourth part it skips to there. */
      if (step > (size_t)(end - q)) {
        s->bad = "a face index does not fit an int";
        return;
      }
      if (part > 2) {
        s->bad = "a face corner has more than three parts";
        return;
      }
      if (part == 0) {
        if (val < 0 && v_so_far + val < 0) {
          s->bad = "a face index counts back past the first vertex";
          return;
        }
        size_t idx = val > 0 ? (size_t)val - 1 : (size_t)(v_so_far + val);
        if (idx + 1 > s->max_index) s->max_index = idx + 1;
        corners++;
      }
    }
    q += step;
  }
  /* The reader makes 2 (n - 1) vertices of a line of n corners, and writes
   * the one corner of a lone one past them. */
  if (l[0] == 'l' && corners == 1) s->bad = "a line has one corner";
}

sensim_status sensim__mesh_check_obj(const char *text, size_t size, const char *path) {
  obj_scan s = {0, 0, 0, 0, NULL};
  size_t cap = 1 << 20;
  char *line = malloc(cap);
  if (!line) return sensim__fail(SENSIM_ENOMEM, "mesh file '%s': out of memory checking it", path);
  const char *p = text, *end = text + size;
  /* Lines longer than the buffer are cut; a face's indices past the cut
   * are then not checked, so such lines are refused. */
  long n;
  int newlines = 0;
  sensim_status st = SENSIM_OK;
  for (;;) {
    int lineno = newlines + 1;
    if (st || (n = next_line(&p, end, line, cap, &newlines)) < 0) break;
    if ((size_t)n + 1 >= cap) {
      st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': OBJ line %d is longer than %zu bytes", path, lineno,
                        cap - 2);
      break;
    }
    vertex_line(&s, line);
    face_line(&s, line);
    if (s.bad) st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': OBJ line %d: %s", path, lineno, s.bad);
  }
  free(line);
  if (!st && s.max_index > s.vertices)
    st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': OBJ face uses vertex %zu of %zu", path, s.max_index,
                      s.vertices);
  return st;
}
