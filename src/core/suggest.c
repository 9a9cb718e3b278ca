/* core/suggest.c: "did you mean" for unknown names (scenario keys and
 * enum values, filter names and parameters, the program's commands and
 * options): the nearest known name by edit distance, when it is near.
 *
 * The distance is the optimal string alignment distance, the restricted
 * form of the Damerau-Levenshtein distance: the fewest insertions,
 * deletions, substitutions (Levenshtein, "Binary codes capable of
 * correcting deletions, insertions, and reversals", Soviet Physics Doklady
 * 10(8):707-710, 1966) and transpositions of two adjacent characters
 * (Damerau, "A technique for computer detection and correction of spelling
 * errors", Comm. ACM 7(3):171-176, 1964, which found these four to cover
 * over 80 % of misspellings), no substring edited twice. Computed by the
 * Wagner-Fischer recurrence (J. ACM 21(1):168-173, 1974) with the
 * transposition case, keeping three rows. Letters compare without regard
 * to ASCII case, so "RGGB" for "rggb" costs nothing and is still offered. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "core/internal.h"

/* Names are short; longer words are not compared (no suggestion). */
enum { MAX_LEN = 128 };

static int same_char(char a, char b) {
  return tolower((unsigned char)a) == tolower((unsigned char)b);
}

size_t sensim__edit_distance(const char *a, const char *b) {
  size_t n = strlen(a), m = strlen(b);
  if (n > MAX_LEN || m > MAX_LEN) return (size_t)-1;
  size_t rows[3][MAX_LEN + 1];
  size_t *two = rows[0], *one = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= m; j++) one[j] = j;
  for (size_t i = 1; i <= n; i++) {
    cur[0] = i;
    for (size_t j = 1; j <= m; j++) {
      size_t sub = one[j - 1] + !same_char(a[i - 1], b[j - 1]);
      size_t del = one[j] + 1, ins = cur[j - 1] + 1;
      size_t d = sub < del ? sub : del;
      if (ins < d) d = ins;
      if (i > 1 && j > 1 && same_char(a[i - 1], b[j - 2]) && same_char(a[i - 2], b[j - 1]) &&
          two[j - 2] + 1 < d)
        d = two[j - 2] + 1;
      cur[j] = d;
    }
    size_t *t = two;
    two = one;
    one = cur;
    cur = t;
  }
  return one[m];
}

const char *sensim__suggest(const char *word, const char *const *known) {
  if (!word || !known) return NULL;
  size_t len = strlen(word);
  /* Near: within 2 edits, or a third of the word for long names, and
   * fewer edits than the word has letters (so "ab" is not "lag"). */
  size_t limit = len / 3 > 2 ? len / 3 : 2;
  if (limit >= len) limit = len ? len - 1 : 0;
  const char *best = NULL;
  size_t best_d = limit + 1;
  for (size_t i = 0; known[i]; i++) {
    if (strcmp(known[i], word) == 0) return NULL; /* not unknown after all */
    size_t d = sensim__edit_distance(word, known[i]);
    if (d < best_d) {
      best_d = d;
      best = known[i];
    }
  }
  return best;
}

const char *sensim__did_you_mean(char *buf, size_t size, const char *word,
                                 const char *const *known) {
  const char *s = sensim__suggest(word, known);
  if (size) buf[0] = '\0';
  if (s && size) snprintf(buf, size, "; did you mean '%s'?", s);
  return buf;
}

const char *sensim_suggest(const char *word, const char *const *names) {
  return sensim__suggest(word, names);
}
