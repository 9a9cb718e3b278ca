/* tools/json_pointer.c: RFC 6901 JSON pointers (tools/json_pointer.h).
 * A pointer is "" or a sequence of "/token"; within a token "~1" stands
 * for '/' and "~0" for '~' (decoded in that order, RFC 6901 section 4);
 * in an array a token is an index in canonical decimal or "-", the
 * element after the last. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tools/json_pointer.h"
#include "tools/tools_internal.h"

/* Decode the token starting at p (after its '/') into buf (NUL-terminated,
 * at most size - 1 bytes); *end is where it stops ('/' or NUL). -1 for a
 * bad '~' escape or a token longer than buf. */
static int token(const char *p, char *buf, size_t size, const char **end) {
  size_t n = 0;
  for (; *p && *p != '/'; p++) {
    char c = *p;
    if (c == '~') {
      if (p[1] == '0') c = '~';
      else if (p[1] == '1') c = '/';
      else return -1;
      p++;
    }
    if (n + 1 >= size) return -1;
    buf[n++] = c;
  }
  buf[n] = '\0';
  *end = p;
  return 0;
}

/* A canonical array index ("0", "17"; not "01", "-1", "+1" or ""). */
static int array_index(const char *tok, size_t *out) {
  if (!*tok || (tok[0] == '0' && tok[1]) || tok[0] < '0' || tok[0] > '9') return -1;
  for (const char *q = tok; *q; q++)
    if (*q < '0' || *q > '9') return -1;
  errno = 0;
  unsigned long long v = strtoull(tok, NULL, 10);
  if (errno || v > (unsigned long long)INT32_MAX) return -1;
  *out = (size_t)v;
  return 0;
}

/* The child of container c named by tok; NULL when there is none. */
static cJSON *child(cJSON *c, const char *tok) {
  if (cJSON_IsObject(c)) return cJSON_GetObjectItemCaseSensitive(c, tok);
  size_t i;
  if (cJSON_IsArray(c) && array_index(tok, &i) == 0 && i < (size_t)cJSON_GetArraySize(c))
    return cJSON_GetArrayItem(c, (int)i);
  return NULL;
}

enum { TOKEN_MAX = 1024 };

cJSON *sensim_tools__json_pointer_get(cJSON *doc, const char *ptr) {
  if (!doc || !ptr) return NULL;
  cJSON *cur = doc;
  char tok[TOKEN_MAX];
  while (*ptr) {
    if (*ptr != '/' || token(ptr + 1, tok, sizeof tok, &ptr) != 0) return NULL;
    cur = child(cur, tok);
    if (!cur) return NULL;
  }
  return cur;
}

sensim_status sensim_tools__json_pointer_set(cJSON *doc, const char *ptr, cJSON *value) {
  if (!doc || !ptr || !value) return sensim_error_set(SENSIM_EINVAL, "json pointer: NULL argument");
  if (!*ptr) return sensim_error_set(SENSIM_EINVAL, "\"\": the pointer names the whole document, not a value in it");
  if (*ptr != '/') return sensim_error_set(SENSIM_EINVAL, "%s: a JSON pointer starts with '/'", ptr);
  cJSON *parent = doc;
  char tok[TOKEN_MAX];
  const char *p = ptr;
  for (;;) {
    const char *end;
    if (token(p + 1, tok, sizeof tok, &end) != 0)
      return sensim_error_set(SENSIM_EINVAL, "%s: '~' must be followed by 0 or 1 (RFC 6901), or a token is too long",
                              ptr);
    if (!*end) break; /* tok is the last token; parent holds it */
    cJSON *next = child(parent, tok);
    if (!next) {
      int at = (int)(p - ptr);
      return sensim_error_set(SENSIM_EINVAL, "%s: no %s '%s' under %s%.*s%s", ptr,
                              cJSON_IsArray(parent) ? "element" : "member", tok, at ? "'" : "the document root",
                              at, ptr, at ? "'" : "");
    }
    parent = next;
    p = end;
  }
  if (cJSON_IsObject(parent)) {
    if (cJSON_GetObjectItemCaseSensitive(parent, tok))
      return cJSON_ReplaceItemInObjectCaseSensitive(parent, tok, value)
                 ? SENSIM_OK
                 : sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", ptr);
    return cJSON_AddItemToObject(parent, tok, value) ? SENSIM_OK
                                                     : sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", ptr);
  }
  if (cJSON_IsArray(parent)) {
    if (strcmp(tok, "-") == 0)
      return cJSON_AddItemToArray(parent, value) ? SENSIM_OK : sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", ptr);
    size_t i;
    int n = cJSON_GetArraySize(parent);
    if (array_index(tok, &i) != 0)
      return sensim_error_set(SENSIM_EINVAL, "%s: '%s' is not an array index (0, 1, ... or '-')", ptr, tok);
    if (i >= (size_t)n)
      return sensim_error_set(SENSIM_EINVAL, "%s: index %zu is past the end of an array of %d", ptr, i, n);
    return cJSON_ReplaceItemInArray(parent, (int)i, value) ? SENSIM_OK
                                                            : sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", ptr);
  }
  return sensim_error_set(SENSIM_EINVAL, "%s: the parent of '%s' is not an object or an array", ptr, tok);
}
