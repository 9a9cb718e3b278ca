/* sensim_tools/export.h: SENSIM_TOOLS_API, the mark of a public function of
 * the tools library (libsensim_tools).
 *
 * The tools library is built on sensim's public API only and, like sensim,
 * with hidden visibility: only functions declared with SENSIM_TOOLS_API
 * are exported from libsensim_tools.so. */
#ifndef SENSIM_TOOLS_EXPORT_H
#define SENSIM_TOOLS_EXPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(SENSIM_TOOLS_BUILDING_SHARED)
#define SENSIM_TOOLS_API __declspec(dllexport)
#elif defined(SENSIM_STATIC)
#define SENSIM_TOOLS_API
#else
#define SENSIM_TOOLS_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#define SENSIM_TOOLS_API __attribute__((visibility("default")))
#else
#define SENSIM_TOOLS_API
#endif

#endif
