/* tests/io/doc_examples_tests.c: the JSON examples of docs/ *.md do what
 * the pages say. Every snippet (inline `code` or a ```json block) that
 * parses as JSON is checked:
 *
 * - a scenario (an object with "duration") must load;
 * - a filter entry {"name": F, "params": {...}} of a built-in filter F,
 *   alone or in an array, must be accepted by F;
 * - a bare parameter object under a heading that names built-in filters in
 *   backticks ("### Tone curve (`tone`)") must be accepted by one of them.
 *
 * A snippet that names a built-in filter ("name": "F") but does not parse
 * fails too; other snippets that are not JSON are templates ("{"gains":
 * [r, g, b]}") and are left alone. "Accepted" means sensim_filter_chain_add
 * succeeds on a chain of some payload the filter takes. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "support/testutil.h"

#define DOCS SENSIM_TEST_DATA "/../../docs"

typedef struct doc_ctx {
  const char *file;
  int line;
  char heading_filters[8][48]; /* built-in filters the current heading names */
  int nheading;
  int checked;                 /* examples checked, for the test's own sanity */
} doc_ctx;

static int is_builtin(const char *name) {
  const char *const *names = sensim_filter_names();
  for (size_t i = 0; names[i]; i++)
    if (strcmp(names[i], name) == 0) return 1;
  return 0;
}

/* Whether filter `name` accepts params (NULL: defaults) on some payload;
 * its last refusal other than a type mismatch in msg. */
static int filter_accepts(const char *name, const char *params, char *msg, size_t n) {
  snprintf(msg, n, "takes no payload");
  for (int t = SENSIM_PAYLOAD_NONE + 1; t < SENSIM_PAYLOAD_ANY; t++) {
    sensim_filter_chain *c = NULL;
    if (sensim_filter_chain_create((sensim_payload)t, &c) != SENSIM_OK) continue;
    sensim_status st = sensim_filter_chain_add(c, name, params);
    if (st != SENSIM_OK && st != SENSIM_ETYPE) snprintf(msg, n, "%s", sensim_last_error());
    sensim_filter_chain_destroy(c);
    if (st == SENSIM_OK) return 1;
  }
  return 0;
}

/* A filter entry: {"name": F, "params": P?} with F built in (else 0). */
static int check_filter_entry(const cJSON *e, doc_ctx *d, const char *text) {
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
  if (!cJSON_IsObject(e) || !cJSON_IsString(name) || !is_builtin(name->valuestring)) return 0;
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(e, "params");
  char *ptext = params ? cJSON_PrintUnformatted(params) : NULL;
  char msg[512];
  if (!filter_accepts(name->valuestring, ptext, msg, sizeof msg))
    fail_msg("%s:%d: filter example %s is refused: %s", d->file, d->line, text, msg);
  cJSON_free(ptext);
  d->checked++;
  return 1;
}

static void check_snippet(const char *snippet, doc_ctx *d) {
  while (*snippet == ' ' || *snippet == '\n') snippet++;
  /* JSON of the scenario dialect: a block may open with a comment. */
  if (*snippet != '{' && *snippet != '[' && strncmp(snippet, "//", 2) != 0 &&
      strncmp(snippet, "/*", 2) != 0)
    return;
  char *clean = NULL;
  cJSON *root = NULL;
  if (sensim_json_strict(snippet, d->file, &clean) == SENSIM_OK) root = cJSON_Parse(clean);
  free(clean);
  if (!root) {
    /* Not JSON: a template, unless it names a built-in filter. */
    const char *const *names = sensim_filter_names();
    for (size_t i = 0; names[i]; i++) {
      char q[64];
      snprintf(q, sizeof q, "\"%s\"", names[i]);
      if (strstr(snippet, "\"name\"") && strstr(snippet, q))
        fail_msg("%s:%d: a filter example that is not JSON: %s", d->file, d->line, snippet);
    }
    return;
  }
  if (cJSON_IsObject(root) && cJSON_HasObjectItem(root, "duration")) {
    sensim_scenario *scn = NULL;
    if (sensim_scenario_load_string(snippet, DOCS, &scn) != SENSIM_OK)
      fail_msg("%s:%d: scenario example does not load: %s", d->file, d->line, sensim_last_error());
    sensim_scenario_destroy(scn);
    d->checked++;
  } else if (cJSON_IsArray(root)) {
    for (const cJSON *e = root->child; e; e = e->next) check_filter_entry(e, d, snippet);
  } else if (!check_filter_entry(root, d, snippet) && d->nheading > 0) {
    /* Bare parameters of a filter the heading names. */
    char msg[512] = "";
    int ok = 0;
    for (int i = 0; i < d->nheading && !ok; i++)
      ok = filter_accepts(d->heading_filters[i], snippet, msg, sizeof msg);
    if (!ok)
      fail_msg("%s:%d: parameters %s are refused by the section's filter: %s", d->file, d->line,
               snippet, msg);
    d->checked++;
  }
  cJSON_Delete(root);
}

/* The built-in filters named in backticks on a heading line. */
static void read_heading(const char *line, size_t len, doc_ctx *d) {
  d->nheading = 0;
  const char *end = line + len;
  for (const char *p = memchr(line, '`', len); p && p < end; ) {
    const char *q = memchr(p + 1, '`', (size_t)(end - p - 1));
    if (!q) break;
    size_t k = (size_t)(q - p - 1);
    if (k < sizeof d->heading_filters[0] && d->nheading < 8) {
      memcpy(d->heading_filters[d->nheading], p + 1, k);
      d->heading_filters[d->nheading][k] = '\0';
      if (is_builtin(d->heading_filters[d->nheading])) d->nheading++;
    }
    p = memchr(q + 1, '`', (size_t)(end - q - 1));
  }
}

static void check_doc(const char *path, const char *file, doc_ctx *d) {
  char *text = test_slurp(path, NULL);
  d->file = file;
  d->nheading = 0;
  d->line = 1;
  for (char *p = text; *p; ) {
    char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    if (strncmp(p, "```", 3) == 0) {
      /* A fenced block: checked whole when its language is json. */
      int json = strncmp(p + 3, "json", 4) == 0;
      char *body = eol ? eol + 1 : p + len;
      char *close = strstr(body, "\n```");
      if (!close) break;
      int start = d->line;
      for (char *c = p; c < close + 4; c++) d->line += *c == '\n';
      if (json) {
        char save = close[1];
        close[1] = '\0';
        int l = d->line;
        d->line = start;
        check_snippet(body, d);
        d->line = l;
        close[1] = save;
      }
      p = strchr(close + 1, '\n');
      if (!p) break;
      p++;
      d->line++; /* the closing fence's own line */
      continue;
    }
    if (*p == '#') read_heading(p, len, d);
    /* Inline code spans of this line. */
    for (char *a = memchr(p, '`', len); a && a < p + len; ) {
      char *b = memchr(a + 1, '`', (size_t)(p + len - a - 1));
      if (!b) break;
      char save = *b;
      *b = '\0';
      check_snippet(a + 1, d);
      *b = save;
      a = b + 1 < p + len ? memchr(b + 1, '`', (size_t)(p + len - b - 1)) : NULL;
    }
    d->line++;
    if (!eol) break;
    p = eol + 1;
  }
  free(text);
}

static void test_doc_json_examples_are_accepted(void **state) {
  (void)state;
  DIR *dir = opendir(DOCS);
  assert_non_null(dir);
  doc_ctx d;
  memset(&d, 0, sizeof d);
  struct dirent *e;
  int files = 0;
  while ((e = readdir(dir))) {
    size_t n = strlen(e->d_name);
    if (n < 4 || strcmp(e->d_name + n - 3, ".md") != 0) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", DOCS, e->d_name);
    check_doc(path, e->d_name, &d);
    files++;
  }
  closedir(dir);
  assert_true(files >= 10);
  /* The scenario, the imu_noise block, the GNSS variants, the camera
   * pipeline's parameter examples: far more than a handful. */
  if (d.checked < 14) fail_msg("only %d doc examples were checked", d.checked);
  print_message("%d JSON examples checked in %d pages\n", d.checked, files);
}

/* The checker itself: a refused example of each kind is caught. */
static void test_doc_checker_catches_refused_examples(void **state) {
  (void)state;
  doc_ctx d;
  memset(&d, 0, sizeof d);
  d.file = "self";
  char msg[256];
  assert_false(filter_accepts("noise_intensity", "{\"s1\": [0.01], \"s2\": [3.1e-4]}", msg, sizeof msg));
  assert_non_null(strstr(msg, "s1"));
  assert_true(filter_accepts("noise_intensity", "{\"s1\": 0.01, \"s2\": 3.1e-4}", msg, sizeof msg));
  assert_true(filter_accepts("quantize16", "{\"bits\": 16}", msg, sizeof msg));
  read_heading("### Intensity-dependent Gaussian noise (`noise_intensity`)", 58, &d);
  assert_int_equal(d.nheading, 1);
  assert_string_equal(d.heading_filters[0], "noise_intensity");
}

int sensim_test_doc_examples(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_doc_checker_catches_refused_examples),
      cmocka_unit_test(test_doc_json_examples_are_accepted),
  };
  return cmocka_run_group_tests_name("doc_examples", tests, NULL, NULL);
}
