/* tests/sweep/json_pointer_tests.c: RFC 6901 JSON pointers
 * (tools/json_pointer.h), the way a sweep's axes name what they set. */
#include <stdlib.h>
#include <string.h>
#include "sweep/sweep_groups.h"
#include "support/testutil.h"
#include "tools/json_pointer.h"

/* RFC 6901 section 5's example document, with a nested array added. */
static const char kDoc[] =
    "{\"foo\": [\"bar\", \"baz\"], \"\": 0, \"a/b\": 1, \"c%d\": 2, \"e^f\": 3, \"g|h\": 4,"
    " \"i\\\\j\": 5, \"k\\\"l\": 6, \" \": 7, \"m~n\": 8, \"~1\": 9, \"A\": {\"x\": [[10, 11], {\"y\": 12}]}}";

static cJSON *doc(void) {
  cJSON *d = cJSON_Parse(kDoc);
  assert_non_null(d);
  return d;
}

static char *print(const cJSON *j) {
  char *t = cJSON_PrintUnformatted(j);
  assert_non_null(t);
  return t;
}

static double num_at(cJSON *d, const char *ptr) {
  cJSON *v = sensim_tools__json_pointer_get(d, ptr);
  if (!cJSON_IsNumber(v)) fail_msg("%s: not a number", ptr);
  return v->valuedouble;
}

/* Every pointer of RFC 6901 section 5 reads the value the RFC lists. */
static void test_get_resolves_the_rfc6901_examples(void **state) {
  (void)state;
  cJSON *d = doc();
  assert_ptr_equal(sensim_tools__json_pointer_get(d, ""), d);
  assert_true(cJSON_IsArray(sensim_tools__json_pointer_get(d, "/foo")));
  assert_string_equal(sensim_tools__json_pointer_get(d, "/foo/0")->valuestring, "bar");
  assert_string_equal(sensim_tools__json_pointer_get(d, "/foo/1")->valuestring, "baz");
  assert_int_equal(num_at(d, "/"), 0);
  assert_int_equal(num_at(d, "/a~1b"), 1);
  assert_int_equal(num_at(d, "/c%d"), 2);
  assert_int_equal(num_at(d, "/e^f"), 3);
  assert_int_equal(num_at(d, "/g|h"), 4);
  assert_int_equal(num_at(d, "/i\\j"), 5);
  assert_int_equal(num_at(d, "/k\"l"), 6);
  assert_int_equal(num_at(d, "/ "), 7);
  assert_int_equal(num_at(d, "/m~0n"), 8);
  assert_int_equal(num_at(d, "/A/x/0/1"), 11);
  assert_int_equal(num_at(d, "/A/x/1/y"), 12);
  cJSON_Delete(d);
}

/* "~01" is '~' then '1' (decoded left to right, RFC 6901 section 4), so it
 * names the member "~1", not "/" nor "~/"... */
static void test_get_decodes_tilde_zero_one_as_tilde_then_one(void **state) {
  (void)state;
  cJSON *d = doc();
  assert_int_equal(num_at(d, "/~01"), 9);
  assert_null(sensim_tools__json_pointer_get(d, "/~10")); /* "/0": no such member */
  cJSON_Delete(d);
}

/* Malformed pointers and missing values read as NULL, never as a guess. */
static void test_get_returns_null_for_malformed_or_missing(void **state) {
  (void)state;
  cJSON *d = doc();
  const char *bad[] = {"foo",     "/foo/2",  "/foo/01", "/foo/-",   "/foo/-1", "/foo/+1", "/foo/ 1",
                       "/foo/1a", "/foo/",   "/~2",     "/m~n",     "/~",      "/a",      "/FOO",
                       "/foo/0/x", "/A/x/0/2", "/A/x/1/y/0", "/foo/99999999999"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    if (sensim_tools__json_pointer_get(d, bad[i])) fail_msg("'%s' resolved", bad[i]);
  assert_null(sensim_tools__json_pointer_get(NULL, "/foo"));
  assert_null(sensim_tools__json_pointer_get(d, NULL));
  /* A token longer than the decoder's buffer is refused, not cut. */
  char longp[1100];
  longp[0] = '/';
  memset(longp + 1, 'x', sizeof longp - 2);
  longp[sizeof longp - 1] = '\0';
  assert_null(sensim_tools__json_pointer_get(d, longp));
  cJSON_Delete(d);
}

/* A set that succeeds changes exactly the one value, and takes `value`
 * over (ASan would flag a double free or leak otherwise). */
static void expect_set(const char *ptr, const char *value, const char *want_doc) {
  cJSON *d = doc(), *v = cJSON_Parse(value), *want = cJSON_Parse(want_doc);
  assert_non_null(v);
  assert_non_null(want);
  sensim_status st = sensim_tools__json_pointer_set(d, ptr, v);
  if (st != SENSIM_OK) fail_msg("set %s -> %d: %s", ptr, st, sensim_last_error());
  if (!cJSON_Compare(d, want, 1)) {
    char *got = print(d);
    fail_msg("set %s = %s gave %s", ptr, value, got);
  }
  cJSON_Delete(want);
  cJSON_Delete(d);
}

/* kDoc with one change: the text of kDoc where `from` is replaced by `to`. */
static char *doc_with(const char *from, const char *to) {
  const char *at = strstr(kDoc, from);
  assert_non_null(at);
  size_t n = strlen(kDoc) - strlen(from) + strlen(to) + 1;
  char *out = malloc(n);
  assert_non_null(out);
  snprintf(out, n, "%.*s%s%s", (int)(at - kDoc), kDoc, to, at + strlen(from));
  return out;
}

static void test_set_replaces_adds_and_appends(void **state) {
  (void)state;
  char *w;
  expect_set("/foo/1", "\"qux\"", w = doc_with("\"baz\"", "\"qux\"")), free(w);
  expect_set("/foo/-", "true", w = doc_with("\"baz\"]", "\"baz\", true]")), free(w);
  expect_set("/a~1b", "[1, 2]", w = doc_with("\"a/b\": 1", "\"a/b\": [1, 2]")), free(w);
  expect_set("/m~0n", "null", w = doc_with("\"m~n\": 8", "\"m~n\": null")), free(w);
  expect_set("/", "\"root-empty\"", w = doc_with("\"\": 0", "\"\": \"root-empty\"")), free(w);
  expect_set("/A/x/1/z", "{\"deep\": 1}", w = doc_with("{\"y\": 12}", "{\"y\": 12, \"z\": {\"deep\": 1}}")), free(w);
  expect_set("/A/x/0/0", "-5", w = doc_with("[10, 11]", "[-5, 11]")), free(w);
  expect_set("/A/x/0/-", "12", w = doc_with("[10, 11]", "[10, 11, 12]")), free(w);
  /* A new member's name is the decoded token. */
  expect_set("/new~1er~0", "1", w = doc_with("\"A\":", "\"new/er~\": 1, \"A\":")), free(w);
  /* Member names are case-sensitive: "/a" adds, it does not replace "A". */
  expect_set("/a", "2", w = doc_with("\"A\":", "\"a\": 2, \"A\":")), free(w);
}

/* A set that fails returns EINVAL with a message starting with the
 * pointer, leaves the document as it was and the value the caller's. */
static void expect_set_fails(const char *ptr, const char *needle) {
  cJSON *d = doc(), *v = cJSON_CreateNumber(42);
  char *before = print(d);
  sensim_status st = sensim_tools__json_pointer_set(d, ptr, v);
  if (st != SENSIM_EINVAL) fail_msg("set '%s' -> %d, expected EINVAL", ptr, st);
  const char *msg = sensim_last_error();
  if (*ptr && strncmp(msg, ptr, strlen(ptr)) != 0) fail_msg("message '%s' does not start with '%s'", msg, ptr);
  sweep_assert_contains(msg, needle);
  char *after = print(d);
  assert_string_equal(after, before);
  assert_null(v->next);
  assert_null(v->prev);
  cJSON_Delete(v); /* still ours */
  free(before);
  free(after);
  cJSON_Delete(d);
}

static void test_set_refuses_what_rfc6901_does_not_name(void **state) {
  (void)state;
  expect_set_fails("", "whole document");
  expect_set_fails("foo", "starts with '/'");
  expect_set_fails("/~2", "'~' must be followed by 0 or 1");
  expect_set_fails("/foo~", "'~' must be followed by 0 or 1");
  expect_set_fails("/missing/x", "no member 'missing' under the document root");
  expect_set_fails("/A/nope/x", "no member 'nope' under '/A'");
  expect_set_fails("/foo/5/x", "no element '5' under '/foo'");
  expect_set_fails("/foo/01", "'01' is not an array index");
  expect_set_fails("/foo/-1", "'-1' is not an array index");
  expect_set_fails("/foo/x", "'x' is not an array index");
  expect_set_fails("/foo/2", "index 2 is past the end of an array of 2");
  expect_set_fails("/foo/0/x", "is not an object or an array");
  expect_set_fails("/a~1b/x", "is not an object or an array");
  /* "-" names no element to descend into. */
  expect_set_fails("/foo/-/x", "no element '-' under '/foo'");
  cJSON *d = doc(), *v = cJSON_CreateTrue();
  assert_int_equal(sensim_tools__json_pointer_set(NULL, "/x", v), SENSIM_EINVAL);
  assert_int_equal(sensim_tools__json_pointer_set(d, NULL, v), SENSIM_EINVAL);
  assert_int_equal(sensim_tools__json_pointer_set(d, "/x", NULL), SENSIM_EINVAL);
  cJSON_Delete(v);
  cJSON_Delete(d);
}

/* What set writes, get reads back at the same pointer (escapes included). */
static void test_set_then_get_round_trips_escaped_names(void **state) {
  (void)state;
  cJSON *d = cJSON_CreateObject();
  const char *ptrs[] = {"/~0~1", "/~1~0", "/~01", "/a~1~1b", "/"};
  for (size_t i = 0; i < 5; i++) SENSIM_OK_OR_FAIL(sensim_tools__json_pointer_set(d, ptrs[i], cJSON_CreateNumber((double)i)));
  assert_int_equal(cJSON_GetArraySize(d), 5);
  for (size_t i = 0; i < 5; i++) assert_int_equal(num_at(d, ptrs[i]), i);
  assert_non_null(cJSON_GetObjectItemCaseSensitive(d, "~/"));
  assert_non_null(cJSON_GetObjectItemCaseSensitive(d, "/~"));
  assert_non_null(cJSON_GetObjectItemCaseSensitive(d, "~1"));
  assert_non_null(cJSON_GetObjectItemCaseSensitive(d, "a//b"));
  assert_non_null(cJSON_GetObjectItemCaseSensitive(d, ""));
  cJSON_Delete(d);
}

int sensim_test_sweep_json_pointer(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_get_resolves_the_rfc6901_examples),
      cmocka_unit_test(test_get_decodes_tilde_zero_one_as_tilde_then_one),
      cmocka_unit_test(test_get_returns_null_for_malformed_or_missing),
      cmocka_unit_test(test_set_replaces_adds_and_appends),
      cmocka_unit_test(test_set_refuses_what_rfc6901_does_not_name),
      cmocka_unit_test(test_set_then_get_round_trips_escaped_names),
  };
  return cmocka_run_group_tests_name("sweep_json_pointer", tests, NULL, NULL);
}
