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
