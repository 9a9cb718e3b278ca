/* tools/json_pointer.h: RFC 6901 JSON pointers over cJSON documents, the
 * way a sweep's axes name what they override ("/sensors/1/filters/0/params/
 * sigma"). Not installed. */
#ifndef SENSIM_TOOLS_JSON_POINTER_H
#define SENSIM_TOOLS_JSON_POINTER_H

#include <cjson/cJSON.h>
#include <sensim/status.h>

/* The value at pointer `ptr` in doc; NULL when there is none or ptr is
 * malformed. "" is doc itself. Member names compare case-sensitively;
 * "~1" reads as '/', "~0" as '~'. */
cJSON *sensim_tools__json_pointer_get(cJSON *doc, const char *ptr);

/* Set the value at `ptr` to `value`: an existing member or array element
 * is replaced, a missing member of an existing object is added, "-" as
 * the last token appends to an array. `value` is taken over on success
 * and is still the caller's on failure, when doc is unchanged.
 * SENSIM_EINVAL, with a message starting with the pointer, for "" (the
 * whole document), a pointer not starting with '/', a '~' not followed by
 * 0 or 1, a parent that does not exist or is not a container, and an
 * array index that is not a canonical non-negative decimal ("01" is not)
 * or is past the end. */
sensim_status sensim_tools__json_pointer_set(cJSON *doc, const char *ptr, cJSON *value);

#endif
