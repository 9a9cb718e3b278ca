/* io/json.c: strict reading of scenario JSON (RFC 8259 plus comments).
 *
 * Scenario files are written by hand, so every reader here checks the type
 * of what it reads and every failure names the JSON path at fault. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "io/scenario_internal.h"

/* 1-based line and column of byte offset `off` in `text`. */
static void line_col(const char *text, size_t off, int *line, int *col) {
  int l = 1, c = 1;
  for (size_t i = 0; i < off && text[i]; i++) {
    if (text[i] == '\n') {
      l++;
      c = 1;
    } else {
      c++;
    }
  }
  *line = l;
  *col = c;
}

sensim_status sensim__json_strip_comments(const char *text, const char *source, char **out) {
  *out = NULL;
  size_t n = strlen(text);
  char *s = malloc(n + 1);
  if (!s) return sensim__fail(SENSIM_ENOMEM, "%s: out of memory", source);
  memcpy(s, text, n + 1);
  size_t i = 0;
  while (i < n) {
    char c = s[i];
    if (c == '"') {
      /* Skip the string, honouring backslash escapes (RFC 8259 section 7). */
      i++;
      while (i < n && s[i] != '"') i += (s[i] == '\\' && i + 1 < n) ? 2 : 1;
      i++;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') s[i++] = ' ';
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      size_t start = i;
      s[i] = s[i + 1] = ' ';
      i += 2;
      while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
        if (s[i] != '\n') s[i] = ' ';
        i++;
      }
      if (i >= n) {
        int line, col;
        line_col(text, start, &line, &col);
        free(s);
        return sensim__fail(SENSIM_EPARSE, "%s:%d:%d: unterminated /* comment", source, line,
                            col);
      }
      s[i] = s[i + 1] = ' ';
      i += 2;
    } else {
      i++;
    }
  }
  *out = s;
  return SENSIM_OK;
}

sensim_status sensim__json_parse(const char *text, const char *source, cJSON **out) {
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
  if (!root) {
    size_t off = end && end >= text ? (size_t)(end - text) : 0;
    int line, col;
    line_col(text, off, &line, &col);
    *out = NULL;
    if (!text[off])
      return sensim__fail(SENSIM_EPARSE, "%s:%d:%d: JSON syntax error: unexpected end of text",
                          source, line, col);
    return sensim__fail(SENSIM_EPARSE, "%s:%d:%d: JSON syntax error near '%.20s'", source, line,
                        col, text + off);
  }
  *out = root;
  return SENSIM_OK;
}

sensim_status sensim_json_strict(const char *text, const char *source, char **out) {
  if (!out) return sensim__fail(SENSIM_EINVAL, "sensim_json_strict: NULL out");
  *out = NULL;
  if (!text) return sensim__fail(SENSIM_EINVAL, "sensim_json_strict: NULL text");
  if (!source) source = "json";
  char *clean = NULL;
  cJSON *root = NULL;
  sensim_status st = sensim__json_strip_comments(text, source, &clean);
  if (st == SENSIM_OK) st = sensim__json_parse(clean, source, &root);
  cJSON_Delete(root);
  if (st != SENSIM_OK) {
    free(clean);
    return st;
  }
  *out = clean;
  return SENSIM_OK;
}

void sensim__jpath_key(char *dst, size_t n, const char *parent, const char *key) {
  if (parent && *parent)
    snprintf(dst, n, "%s.%s", parent, key);
  else
    snprintf(dst, n, "%s", key);
}

void sensim__jpath_index(char *dst, size_t n, const char *parent, size_t i) {
  snprintf(dst, n, "%s[%zu]", parent ? parent : "", i);
}

static const char *type_name(const cJSON *v) {
  if (cJSON_IsNumber(v)) return "a number";
  if (cJSON_IsString(v)) return "a string";
  if (cJSON_IsBool(v)) return "a boolean";
  if (cJSON_IsNull(v)) return "null";
  if (cJSON_IsArray(v)) return "an array";
  if (cJSON_IsObject(v)) return "an object";
  return "invalid";
}

sensim_status sensim__jcheck_object(const cJSON *obj, const char *path, const char *const *known) {
  if (!cJSON_IsObject(obj))
    return sensim__fail(SENSIM_EPARSE, "%s: must be an object, not %s", *path ? path : "(root)",
                        type_name(obj));
  for (const cJSON *it = obj->child; it; it = it->next) {
    int found = 0;
    for (size_t k = 0; known[k]; k++) found |= strcmp(known[k], it->string) == 0;
    char p[256];
    sensim__jpath_key(p, sizeof p, path, it->string);
    if (!found) {
      char list[512] = "";
      size_t used = 0;
      for (size_t k = 0; known[k] && used + 1 < sizeof list; k++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", known[k]);
        if (w < 0) break;
        used += (size_t)w;
      }
      char hint[96];
      return sensim__fail(SENSIM_EPARSE, "%s: unknown key%s (known here: %s)", p,
                          sensim__did_you_mean(hint, sizeof hint, it->string, known), list);
    }
    for (const cJSON *o = obj->child; o != it; o = o->next)
      if (strcmp(o->string, it->string) == 0)
        return sensim__fail(SENSIM_EPARSE, "%s: key given twice", p);
  }
  return SENSIM_OK;
}

/* The member `key`, or NULL with *st set for a missing required one. */
static const cJSON *member(const cJSON *obj, const char *path, const char *key, int required,
                           sensim_status *st) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  *st = SENSIM_OK;
  if (!v && required) {
    char p[256];
    sensim__jpath_key(p, sizeof p, path, key);
    *st = sensim__fail(SENSIM_EPARSE, "%s: missing (required)", p);
  }
  return v;
}

static sensim_status wrong_type(const char *path, const char *key, const cJSON *v,
                                const char *want) {
  char p[256];
  sensim__jpath_key(p, sizeof p, path, key);
  return sensim__fail(SENSIM_EPARSE, "%s: must be %s, not %s", p, want, type_name(v));
}

sensim_status sensim__jnumber(const cJSON *obj, const char *path, const char *key, int required,
                              double *v) {
  sensim_status st;
  const cJSON *m = member(obj, path, key, required, &st);
  if (!m) return st;
  if (!cJSON_IsNumber(m)) return wrong_type(path, key, m, "a number");
  /* cJSON turns out-of-range literals such as 1e999 into infinities. */
  if (!isfinite(m->valuedouble)) {
    char p[256];
    sensim__jpath_key(p, sizeof p, path, key);
    return sensim__fail(SENSIM_EINVAL, "%s: must be finite", p);
  }
  *v = m->valuedouble;
  return SENSIM_OK;
}

sensim_status sensim__jint(const cJSON *obj, const char *path, const char *key, int required,
                           double lo, double hi, double *v) {
  double x = 0;
  int present = cJSON_GetObjectItemCaseSensitive(obj, key) != NULL;
  sensim_status st = sensim__jnumber(obj, path, key, required, &x);
  if (st != SENSIM_OK || !present) return st;
  char p[256];
  sensim__jpath_key(p, sizeof p, path, key);
  if (x != floor(x)) return sensim__fail(SENSIM_EPARSE, "%s: must be an integer, not %g", p, x);
  if (x < lo || x > hi)
    return sensim__fail(SENSIM_EINVAL, "%s: %.17g is outside [%.17g, %.17g]", p, x, lo, hi);
  *v = x;
  return SENSIM_OK;
}

sensim_status sensim__jbool(const cJSON *obj, const char *path, const char *key, int *v) {
  sensim_status st;
  const cJSON *m = member(obj, path, key, 0, &st);
  if (!m) return st;
  if (!cJSON_IsBool(m)) return wrong_type(path, key, m, "true or false");
  *v = cJSON_IsTrue(m) ? 1 : 0;
  return SENSIM_OK;
}

sensim_status sensim__jstring(const cJSON *obj, const char *path, const char *key, int required,
                              const char **v) {
  sensim_status st;
  const cJSON *m = member(obj, path, key, required, &st);
  if (!m) return st;
  if (!cJSON_IsString(m)) return wrong_type(path, key, m, "a string");
  *v = m->valuestring;
  return SENSIM_OK;
}

sensim_status sensim__jvec(const cJSON *obj, const char *path, const char *key, int required,
                           size_t n, double *v) {
  sensim_status st;
  const cJSON *m = member(obj, path, key, required, &st);
  if (!m) return st;
  char want[64];
  snprintf(want, sizeof want, "an array of %zu numbers", n);
  if (!cJSON_IsArray(m) || (size_t)cJSON_GetArraySize(m) != n)
    return wrong_type(path, key, m, want);
  double tmp[16];
  size_t i = 0;
  for (const cJSON *e = m->child; e; e = e->next, i++) {
    if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) || i >= 16) {
      char p[256], pe[280];
      sensim__jpath_key(p, sizeof p, path, key);
      sensim__jpath_index(pe, sizeof pe, p, i);
      return sensim__fail(SENSIM_EPARSE, "%s: must be a finite number, not %s", pe,
                          cJSON_IsNumber(e) ? "an infinity" : type_name(e));
    }
    tmp[i] = e->valuedouble;
  }
  memcpy(v, tmp, n * sizeof *v);
  return SENSIM_OK;
}

sensim_status sensim__jobject(const cJSON *obj, const char *path, const char *key, int required,
                              const cJSON **v) {
  sensim_status st;
  const cJSON *m = member(obj, path, key, required, &st);
  *v = NULL;
  if (!m) return st;
  if (!cJSON_IsObject(m)) return wrong_type(path, key, m, "an object");
  *v = m;
  return SENSIM_OK;
}

sensim_status sensim__jarray(const cJSON *obj, const char *path, const char *key, int required,
                             const cJSON **v) {
  sensim_status st;
  const cJSON *m = member(obj, path, key, required, &st);
  *v = NULL;
  if (!m) return st;
  if (!cJSON_IsArray(m)) return wrong_type(path, key, m, "an array");
  *v = m;
  return SENSIM_OK;
}
