/* tools/tools_internal.h: what the tools library's files share. Not
 * installed.
 *
 * The tools are built on sensim's public API alone: their include path
 * holds include/ and src/tools/ and nothing of the library's own folders,
 * and they link libsensim.so, so a failure is reported with
 * sensim_error_set / sensim_error_prefix (sensim/status.h) and read with
 * sensim_last_error() as the library's own are. Internal functions of the
 * tools are named sensim_tools__*, apart from the library's sensim__*, so
 * that white-box tests can link both sets of objects. */
#ifndef SENSIM_TOOLS_TOOLS_INTERNAL_H
#define SENSIM_TOOLS_TOOLS_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <sensim/sensim.h>
#include <sensim_tools/sensim_tools.h>

/* Strict C11 hides M_PI; glibc gives it only with _DEFAULT_SOURCE. */
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Grow *array to hold at least `need` elements of `size` bytes (doubling);
 * *cap is updated. SENSIM_ENOMEM with a message, *array untouched, on
 * failure. */
sensim_status sensim_tools__grow(void **array, size_t *cap, size_t need, size_t size);

/* strdup that reports SENSIM_ENOMEM through sensim_error_set; NULL in,
 * NULL out. */
char *sensim_tools__strdup(const char *s);

/* The folder of a file's path ("a/b.json" -> "a", "b.json" -> ".",
 * "/b.json" -> "/"), malloc'd; NULL when out of memory. */
char *sensim_tools__dirname(const char *path);

/* Sample depth of a PNG file as stored (IHDR bit depth, ISO/IEC 15948
 * 11.2.2: byte 24 of the file, colour type at 25; 8 for palette files,
 * whose entries are 8-bit) and, unless channels is NULL, its channels
 * before any expansion (1 grey, 2 grey + alpha, 3 RGB or palette, 4 RGBA).
 * 0 if the header cannot be read. */
int sensim_tools__png_bits(const char *path, int *channels);

#endif
