# tests/headers/check_guards.cmake: the guards a compiler cannot check.
#
#   cmake -DHEADERS="a.h|b.h" -DSTAMP=file -P check_guards.cmake
#
# Every public header must have an include guard, and one that declares
# functions must wrap them in extern "C" (a C++ user would otherwise link
# against mangled names; headers_cxx11.cpp catches that only for the
# functions it calls). Run as a build step of test_headers, so a header
# without them breaks the build. Writes STAMP on success.

string(REPLACE "|" ";" HEADERS "${HEADERS}")
set(bad "")
foreach(h IN LISTS HEADERS)
  file(READ "${h}" text)
  get_filename_component(name "${h}" NAME)
  # Drop comments: they mention function names in prose.
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" code "${text}")
  string(REGEX REPLACE "//[^\n]*" "" code "${code}")
  if(NOT code MATCHES "#ifndef[ \t]+([A-Z0-9_]+)[ \t]*\n[ \t]*#define[ \t]+([A-Z0-9_]+)"
     OR NOT CMAKE_MATCH_1 STREQUAL CMAKE_MATCH_2)
    string(APPEND bad "  ${name}: no include guard (#ifndef X / #define X first)\n")
  endif()
  if(code MATCHES "sensim_[a-z0-9_]+[ \t\n]*\\(" AND NOT code MATCHES "extern[ \t]+\"C\"[ \t\n]*{")
    string(APPEND bad "  ${name}: declares functions but has no extern \"C\" block\n")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "public header checks failed:\n${bad}")
endif()
file(WRITE "${STAMP}" "ok\n")
