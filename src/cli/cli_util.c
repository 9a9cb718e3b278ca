/* cli/cli_util.c: what every command's argument parsing shares: the help
 * flags and the message for an unknown option, with the near option named
 * (sensim_suggest, the library's own "did you mean"), and integer values. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

int sensim__cli_is_help(const char *arg) {
  return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int sensim__cli_unknown_option(const char *cmd, const char *opt, const char *const *known) {
  const char *near = sensim_suggest(opt, known);
  fprintf(stderr, "sensim %s: unknown option '%s'%s%s%s\nTry 'sensim %s --help'.\n", cmd, opt,
          near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "", cmd);
  return 2;
}

int sensim__cli_parse_long(const char *s, long lo, long hi, long *v) {
  char *end = NULL;
  errno = 0;
  long x = strtol(s, &end, 10);
  if (errno || end == s || *end || x < lo || x > hi) return -1;
  *v = x;
  return 0;
}

int sensim__cli_usage(const char *cmd, const char *what, const char *arg) {
  fprintf(stderr, "sensim %s: %s%s%s%s\nTry 'sensim %s --help'.\n", cmd, what, arg ? " '" : "", arg ? arg : "",
          arg ? "'" : "", cmd);
  return 2;
}

int sensim__cli_parse_variants(const char *cmd, const char *s, sensim_ablation *list, size_t *n) {
  *n = 0;
  char buf[1024];
  if (strlen(s) >= sizeof buf) return -1;
  strcpy(buf, s);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    sensim_ablation a;
    if (sensim_ablation_from_name(tok, &a) != SENSIM_OK) {
      const char *names[SENSIM_ABLATE_COUNT + 1];
      for (int k = 0; k < SENSIM_ABLATE_COUNT; k++) names[k] = sensim_ablation_name((sensim_ablation)k);
      names[SENSIM_ABLATE_COUNT] = NULL;
      const char *near = sensim_suggest(tok, names);
      if (near) fprintf(stderr, "sensim %s: unknown variant '%s'; did you mean '%s'?\n", cmd, tok, near);
      return -1;
    }
    if (*n >= SENSIM_ABLATE_COUNT) return -1;
    for (size_t i = 0; i < *n; i++)
      if (list[i] == a) return -1;
    list[(*n)++] = a;
  }
  return *n ? 0 : -1;
}
