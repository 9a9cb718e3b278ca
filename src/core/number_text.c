/* core/number_text.c: doubles as the shortest text that reads back to the
 * same value, for the CSV layouts of the payload table.
 *
 * 17 significant digits always round-trip a binary64 (IEEE 754-2008
 * 5.12.2), but most values need 15 or 16; trying the shorter ones first
 * keeps files short and still lossless, so files compare bit for bit
 * across runs. */
#include <stdlib.h>
#include "core/payload.h"

char *sensim_shortest_double(char *buf, size_t size, double v) {
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, size, "%.*g", prec, v);
    if (prec == 17 || strtod(buf, NULL) == v) break;
  }
  return buf;
}

void sensim__csv_put_double(FILE *fp, double v, char sep) {
  char buf[40];
  fputs(sensim_shortest_double(buf, sizeof buf, v), fp);
  fputc(sep, fp);
}
