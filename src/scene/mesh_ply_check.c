/* scene/mesh_ply_check.c: a PLY file's header and element counts against
 * its length, before Assimp's reader sees it.
 *
 * Format: Turk, "The PLY polygon file format" (1994). Assimp 5.2's reader
 * loops for ever on a header cut short (its property loop never sees end of
 * file), and on a body cut short it reads past its buffer and hands on
 * faces of whatever bytes it found there. So the header must be whole, every
 * type known, and the body must hold every instance the header announces:
 * for binary bodies the bytes (walking list lengths as the reader will),
 * for ascii ones a line per instance with a number per value. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/mesh_check.h"

/* Headers are a few hundred bytes; a megabyte of comments is not a mesh. */
#define PLY_MAX_HEADER (1u << 20)
#define PLY_MAX_ELEMENTS 64
#define PLY_MAX_PROPS 256

enum { PLY_ASCII, PLY_LE, PLY_BE };

typedef struct ply_prop {
  unsigned char list;       /* 1: a list, `count` bytes of length then items */
  unsigned char count_size; /* bytes of a list's length */
  unsigned char count_signed;
  unsigned char size;       /* bytes of the scalar, or of one list item */
  unsigned char integer;    /* the scalar or list item is of an integer type */
} ply_prop;

typedef struct ply_element {
  char name[32];
  uint64_t count;
  unsigned nprops;
  ply_prop props[PLY_MAX_PROPS];
} ply_element;

typedef struct ply_header {
  int format;
  unsigned nel;
  ply_element el[PLY_MAX_ELEMENTS];
  size_t body; /* offset of the first body byte */
} ply_header;

/* The spec's type names and the sized aliases (int8 ... float64) most
 * writers use now. 0 for an unknown name. */
static int type_size(const char *t, int *is_signed, int *is_int) {
  static const struct {
    const char *name;
    int size, is_signed, is_int;
  } types[] = {{"char", 1, 1, 1},   {"int8", 1, 1, 1},    {"uchar", 1, 0, 1},  {"uint8", 1, 0, 1},
               {"short", 2, 1, 1},  {"int16", 2, 1, 1},   {"ushort", 2, 0, 1}, {"uint16", 2, 0, 1},
               {"int", 4, 1, 1},    {"int32", 4, 1, 1},   {"uint", 4, 0, 1},   {"uint32", 4, 0, 1},
               {"float", 4, 1, 0},  {"float32", 4, 1, 0}, {"double", 8, 1, 0}, {"float64", 8, 1, 0}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (strcmp(t, types[i].name) == 0) {
      *is_signed = types[i].is_signed;
      *is_int = types[i].is_int;
      return types[i].size;
    }
  return 0;
}

/* Split a line (NUL-terminated, no newline) into at most `max` tokens in
 * place; returns how many. */
static int tokens(char *line, char **tok, int max) {
  int n = 0;
  char *p = line;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == '\r') p++;
    if (!*p) break;
    if (n == max) return max + 1;
    tok[n++] = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r') p++;
    if (*p) *p++ = '\0';
  }
  return n;
}

/* A decimal count, digits only, at most `max`. */
static int parse_count(const char *s, uint64_t max, uint64_t *out) {
  uint64_t v = 0;
  if (!*s) return 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return 0;
    v = v * 10 + (uint64_t)(*s - '0');
    if (v > max) return 0;
  }
  *out = v;
  return 1;
}

static sensim_status header_line(ply_header *h, char **tok, int n, int lineno, const char *path) {
  if (lineno == 1) {
    /* Assimp takes "PLY" too. */
    if (n != 1 || (strcmp(tok[0], "ply") != 0 && strcmp(tok[0], "PLY") != 0))
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': not a PLY file (the first line is not 'ply')", path);
    return SENSIM_OK;
  }
  if (lineno == 2) {
    /* Assimp's reader reads the format from the second line alone. */
    if (n != 3 || strcmp(tok[0], "format") != 0 || strcmp(tok[2], "1.0") != 0)
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY line 2 is not 'format <kind> 1.0'", path);
    if (strcmp(tok[1], "ascii") == 0) h->format = PLY_ASCII;
    else if (strcmp(tok[1], "binary_little_endian") == 0) h->format = PLY_LE;
    else if (strcmp(tok[1], "binary_big_endian") == 0) h->format = PLY_BE;
    else return sensim__fail(SENSIM_EPARSE, "mesh file '%s': unknown PLY format '%.32s'", path, tok[1]);
    return SENSIM_OK;
  }
  if (n == 0 || strcmp(tok[0], "comment") == 0 || strcmp(tok[0], "obj_info") == 0) return SENSIM_OK;
  if (strcmp(tok[0], "element") == 0) {
    uint64_t count;
    if (n != 3 || !parse_count(tok[2], UINT32_MAX, &count))
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY line %d is not 'element <name> <count>' "
                          "with a count below 2^32", path, lineno);
    if (h->nel == PLY_MAX_ELEMENTS)
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': more than %d PLY elements", path, PLY_MAX_ELEMENTS);
    ply_element *e = &h->el[h->nel++];
    snprintf(e->name, sizeof e->name, "%s", tok[1]);
    e->count = count;
    e->nprops = 0;
    return SENSIM_OK;
  }
  if (strcmp(tok[0], "property") == 0) {
    if (h->nel == 0)
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY line %d: a property before any element", path,
                          lineno);
    ply_element *e = &h->el[h->nel - 1];
    if (e->nprops == PLY_MAX_PROPS)
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY element '%s' has more than %d properties", path,
                          e->name, PLY_MAX_PROPS);
    ply_prop p = {0, 0, 0, 0, 0};
    int sgn, is_int;
    const char *bad = NULL;
    if (n == 5 && strcmp(tok[1], "list") == 0) {
      p.list = 1;
      p.count_size = (unsigned char)type_size(tok[2], &sgn, &is_int);
      p.count_signed = (unsigned char)sgn;
      if (!p.count_size || !is_int)
        return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY line %d: list length type '%.32s' is not "
                            "an integer type", path, lineno, tok[2]);
      if (!(p.size = (unsigned char)type_size(tok[3], &sgn, &is_int))) bad = tok[3];
      p.integer = (unsigned char)is_int;
    } else if (n == 3) {
      if (!(p.size = (unsigned char)type_size(tok[1], &sgn, &is_int))) bad = tok[1];
      p.integer = (unsigned char)is_int;
    } else {
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY line %d is not 'property <type> <name>' or "
                          "'property list <type> <type> <name>'", path, lineno);
    }
    if (bad)
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY line %d: unknown type '%.32s'", path, lineno,
                          bad);
    e->props[e->nprops++] = p;
    return SENSIM_OK;
  }
  return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY line %d: unknown header keyword '%.32s'", path,
                      lineno, tok[0]);
}

/* Header lines up to end_header; h->body is where the body starts. */
static sensim_status parse_header(ply_header *h, char *buf, size_t n, const char *path) {
  size_t pos = 0;
  int lineno = 0;
  while (pos < n) {
    char *nl = memchr(buf + pos, '\n', n - pos);
    if (!nl) break;
    *nl = '\0';
    char *line = buf + pos;
    pos = (size_t)(nl - buf) + 1;
    lineno++;
    /* Assimp parses header lines as C strings; a NUL would end one early. */
    if (memchr(line, '\0', (size_t)(nl - line)))
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY header line %d holds a NUL byte", path, lineno);
    char *tok[8];
    int nt = tokens(line, tok, 7);
    if (lineno > 2 && nt == 1 && strcmp(tok[0], "end_header") == 0) {
      h->body = pos;
      return SENSIM_OK;
    }
    if (nt > 7 && strcmp(tok[0], "comment") != 0 && strcmp(tok[0], "obj_info") != 0)
      return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY header line %d has too many words", path, lineno);
    sensim_status st = header_line(h, tok, nt, lineno, path);
    if (st) return st;
  }
  if (lineno == 0) return sensim__fail(SENSIM_EPARSE, "mesh file '%s': not a PLY file (no header line)", path);
  return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY header ends without end_header (file cut short?)",
                      path);
}

/* ---- binary bodies ---- */

typedef struct reader {
  FILE *f;
  uint64_t size;    /* file length */
  uint64_t pos;     /* file offset of the next byte to consume */
  unsigned char buf[1 << 16];
  uint64_t buf_at;  /* file offset of buf[0] */
  size_t len;       /* valid bytes in buf */
} reader;

/* Copy n (<= 8) bytes at r->pos into out and advance; 0 past the end. */
static int take(reader *r, unsigned char *out, size_t n) {
  if (r->pos + n > r->size) return 0;
  if (r->pos < r->buf_at || r->pos + n > r->buf_at + r->len) {
    if (fseeko(r->f, (off_t)r->pos, SEEK_SET) != 0) return 0;
    r->buf_at = r->pos;
    r->len = fread(r->buf, 1, sizeof r->buf, r->f);
    if (r->len < n) return 0;
  }
  memcpy(out, r->buf + (r->pos - r->buf_at), n);
  r->pos += n;
  return 1;
}

static int64_t decode_int(const unsigned char *b, size_t n, int is_signed, int big_endian) {
  uint64_t u = 0;
  for (size_t i = 0; i < n; i++) u |= (uint64_t)b[big_endian ? i : n - 1 - i] << (8 * (n - 1 - i));
  if (is_signed && n < 8 && (u >> (8 * n - 1)) & 1) return (int64_t)(u | (~(uint64_t)0 << (8 * n)));
  return (int64_t)u;
}

static sensim_status walk_binary(const ply_header *h, reader *r, const char *path) {
  for (unsigned e = 0; e < h->nel; e++) {
    const ply_element *el = &h->el[e];
    uint64_t fixed = 0;
    int lists = 0;
    for (unsigned p = 0; p < el->nprops; p++) {
      if (el->props[p].list) lists = 1;
      else fixed += el->props[p].size;
    }
    if (!lists) {
      /* count < 2^32 and fixed <= 256 * 8: the product cannot overflow. */
      uint64_t need = el->count * fixed;
      if (need > r->size - r->pos)
        return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY element '%s' needs %" PRIu64 " bytes "
                            "(%" PRIu64 " x %" PRIu64 ") but only %" PRIu64 " remain (file cut short?)",
                            path, el->name, need, el->count, fixed, r->size - r->pos);
      r->pos += need;
      continue;
    }
    for (uint64_t i = 0; i < el->count; i++)
      for (unsigned p = 0; p < el->nprops; p++) {
        const ply_prop *pr = &el->props[p];
        uint64_t skip = pr->size;
        if (pr->list) {
          unsigned char b[8];
          if (!take(r, b, pr->count_size))
            return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY element '%s' %" PRIu64 " of %" PRIu64
                                " is cut short", path, el->name, i, el->count);
          int64_t len = decode_int(b, pr->count_size, pr->count_signed, h->format == PLY_BE);
          if (len < 0)
            return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY element '%s' %" PRIu64 " has a list of "
                                "negative length %" PRId64, path, el->name, i, len);
          skip = (uint64_t)len * pr->size; /* len < 2^32, size <= 8 */
        }
        if (skip > r->size - r->pos)
          return sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY element '%s' %" PRIu64 " of %" PRIu64
                              " runs past the end of the file (cut short?)", path, el->name, i, el->count);
        r->pos += skip;
      }
  }
  return SENSIM_OK;
}

/* ---- ascii bodies ---- */

/* One instance per line, as Assimp's reader takes them (a blank line is
 * an instance without values): the line must hold
 * a number per scalar and, per list, its length and that many items, each
 * of its property's kind (Assimp's float parser throws on anything else,
 * and leaks the mesh it was filling). */
static sensim_status walk_ascii(const ply_header *h, FILE *f, uint64_t body, const char *path) {
  if (fseeko(f, (off_t)body, SEEK_SET) != 0)
    return sensim__fail(SENSIM_EIO, "mesh file '%s': cannot seek to the PLY body", path);
  char *line = NULL;
  size_t cap = 0;
  sensim_status st = SENSIM_OK;
  for (unsigned e = 0; e < h->nel && !st; e++) {
    const ply_element *el = &h->el[e];
    for (uint64_t i = 0; i < el->count && !st; i++) {
      ssize_t got = getline(&line, &cap, f);
      if (got <= 0) {
        st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY body ends at '%s' %" PRIu64 " of %" PRIu64
                          " (file cut short?)", path, el->name, i, el->count);
        break;
      }
      if (memchr(line, '\0', (size_t)got)) {
        st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': ascii PLY body holds a NUL byte", path);
        break;
      }
      /* Assimp separates values by spaces and tabs alone; a line ends in
       * \n or \r\n. */
      if (got > 0 && line[got - 1] == '\n') line[--got] = '\0';
      if (got > 0 && line[got - 1] == '\r') line[--got] = '\0';
      char *p = line;
      for (unsigned k = 0; k < el->nprops && !st; k++) {
        uint64_t want = 1;
        if (el->props[k].list) {
          p += strspn(p, " \t");
          size_t w = strcspn(p, " \t");
          char num[24];
          uint64_t len = 0;
          if (w == 0 || w >= sizeof num) {
            st = SENSIM_EPARSE;
          } else {
            memcpy(num, p, w);
            num[w] = '\0';
            if (!parse_count(num, UINT32_MAX, &len)) st = SENSIM_EPARSE;
          }
          if (st) {
            st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY '%s' %" PRIu64 ": a list length is not a "
                              "count", path, el->name, i);
            break;
          }
          p += w;
          want = len;
        }
        for (uint64_t t = 0; t < want && !st; t++) {
          p += strspn(p, " \t");
          size_t w = strcspn(p, " \t");
          if (w == 0)
            st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY '%s' %" PRIu64 " has fewer values than its "
                              "properties", path, el->name, i);
          else if (!sensim__mesh_number(p, w, el->props[k].integer))
            st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY '%s' %" PRIu64 ": '%.*s' is not %s", path,
                              el->name, i, (int)(w < 32 ? w : 32), p,
                              el->props[k].integer ? "an integer" : "a number");
          p += w;
        }
      }
    }
  }
  free(line);
  return st;
}

sensim_status sensim__mesh_check_ply(FILE *f, uint64_t size, const char *path) {
  size_t n = size < PLY_MAX_HEADER ? (size_t)size : PLY_MAX_HEADER;
  ply_header *h = calloc(1, sizeof *h);
  char *buf = malloc(n + 1);
  reader *r = h && buf ? malloc(sizeof *r) : NULL;
  if (!r) {
    free(h);
    free(buf);
    return sensim__fail(SENSIM_ENOMEM, "mesh file '%s': out of memory checking it", path);
  }
  sensim_status st = SENSIM_OK;
  if (fread(buf, 1, n, f) != n) st = sensim__fail(SENSIM_EIO, "mesh file '%s': read error", path);
  buf[n] = '\0';
  if (!st) st = parse_header(h, buf, n, path);
  for (unsigned e = 0; e < h->nel && !st; e++)
    if (h->el[e].count > 0 && h->el[e].nprops == 0)
      st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': PLY element '%s' has %" PRIu64 " instances but no "
                        "properties", path, h->el[e].name, h->el[e].count);
  if (!st && h->format == PLY_ASCII) {
    st = walk_ascii(h, f, h->body, path);
  } else if (!st) {
    r->f = f;
    r->size = size;
    r->pos = h->body;
    r->buf_at = 0;
    r->len = 0;
    st = walk_binary(h, r, path);
  }
  free(r);
  free(buf);
  free(h);
  return st;
}
