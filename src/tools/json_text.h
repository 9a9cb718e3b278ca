/* tools/json_text.h: cJSON trees as text whose numbers read back exactly.
 * cJSON prints a double with 15 digits whenever that reads back within
 * DBL_EPSILON of it, which loses the last bit of some values (2^53 + 0,
 * 0.1 + 1 ulp): a sweep's overrides would reach the scenario a bit off,
 * and a manifest's metrics would not reproduce the experiment's table.
 * Not installed. */
#ifndef SENSIM_TOOLS_JSON_TEXT_H
#define SENSIM_TOOLS_JSON_TEXT_H

#include <cjson/cJSON.h>

/* item as JSON text (formatted: indented with tabs, as cJSON_Print;
 * otherwise compact), every number as sensim_shortest_double prints it.
 * malloc'd (free() it); NULL when out of memory. */
char *sensim_tools__json_print(const cJSON *item, int formatted);

#endif
