/* sensim/export.h: SENSIM_API, the mark of a public function.
 *
 * The library is built with hidden visibility: only functions declared with
 * SENSIM_API are exported from libsensim.so, so a program can call nothing
 * but the API these headers document, and the internals may change freely
 * between releases. */
#ifndef SENSIM_EXPORT_H
#define SENSIM_EXPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(SENSIM_BUILDING_SHARED)
#define SENSIM_API __declspec(dllexport)
#elif defined(SENSIM_STATIC)
#define SENSIM_API
#else
#define SENSIM_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#define SENSIM_API __attribute__((visibility("default")))
#else
#define SENSIM_API
#endif

#endif
