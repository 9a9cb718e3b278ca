/* tools/json_text.c: cJSON trees printed with exact numbers
 * (tools/json_text.h). A copy of the tree has each number replaced by a
 * raw item holding its shortest round-trip text, which cJSON prints as
 * is; the copy then goes. */
#include <stdlib.h>
#include <string.h>
#include "tools/json_text.h"
#include "tools/tools_internal.h"

/* Numbers of the tree under it become raw items; 0 when out of memory. */
static int exact_numbers(cJSON *it) {
  for (; it; it = it->next) {
    if (cJSON_IsNumber(it)) {
      char buf[40];
      sensim_shortest_double(buf, sizeof buf, it->valuedouble);
      char *text = sensim_tools__strdup(buf);
      if (!text) return 0;
      it->type = cJSON_Raw | (it->type & cJSON_StringIsConst);
      it->valuestring = text;
    } else if ((cJSON_IsObject(it) || cJSON_IsArray(it)) && !exact_numbers(it->child)) {
      return 0;
    }
  }
  return 1;
}

char *sensim_tools__json_print(const cJSON *item, int formatted) {
  if (!item) return NULL;
  cJSON *copy = cJSON_Duplicate(item, 1);
  if (!copy) return NULL;
  /* The copy's own siblings are NULL: walk it alone. */
  char *out = exact_numbers(copy) ? (formatted ? cJSON_Print(copy) : cJSON_PrintUnformatted(copy)) : NULL;
  cJSON_Delete(copy);
  return out;
}
