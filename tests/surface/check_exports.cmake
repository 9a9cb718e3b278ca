# tests/surface/check_exports.cmake: libsensim.so exports exactly the
# functions its public headers declare with SENSIM_API, and nothing else
# (no sensim__ internals, no symbols of other names).
#
#   cmake -DLIB=libsensim.so -DNM=nm -DHEADERS="a.h|b.h" -P check_exports.cmake
string(REPLACE "|" ";" HEADERS "${HEADERS}")

execute_process(COMMAND ${NM} -D --defined-only ${LIB}
  OUTPUT_VARIABLE nm_out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exports: ${NM} failed on ${LIB}")
endif()
string(REGEX MATCHALL "[^\n]+" nm_lines "${nm_out}")
set(exported "")
foreach(l IN LISTS nm_lines)
  # "address type name"; only code and data, not the linker's own markers.
  if(l MATCHES "^[0-9a-f]+ ([A-Za-z]) ([^ ]+)$")
    list(APPEND exported "${CMAKE_MATCH_2}")
  endif()
endforeach()

set(declared "")
foreach(h IN LISTS HEADERS)
  file(READ ${h} text)
  string(REGEX MATCHALL "SENSIM_API[^;{(]*[ *](sensim_[A-Za-z0-9_]+)[ ]*\\(" decls "${text}")
  foreach(d IN LISTS decls)
    string(REGEX REPLACE ".*[ *](sensim_[A-Za-z0-9_]+)[ ]*\\($" "\\1" name "${d}")
    list(APPEND declared "${name}")
  endforeach()
endforeach()
list(REMOVE_DUPLICATES declared)
list(LENGTH declared ndeclared)
if(ndeclared LESS 100)
  message(FATAL_ERROR "exports: found only ${ndeclared} SENSIM_API declarations; the header scan is broken")
endif()

set(extra "")
foreach(s IN LISTS exported)
  list(FIND declared "${s}" at)
  if(at EQUAL -1)
    list(APPEND extra "${s}")
  endif()
endforeach()
set(missing "")
foreach(s IN LISTS declared)
  list(FIND exported "${s}" at)
  if(at EQUAL -1)
    list(APPEND missing "${s}")
  endif()
endforeach()
list(LENGTH exported nexported)
if(extra OR missing)
  message(FATAL_ERROR "exports: ${LIB} exports ${nexported} symbols for ${ndeclared} declared.\n"
    "  exported but not declared SENSIM_API: ${extra}\n"
    "  declared SENSIM_API but not exported: ${missing}")
endif()
message(STATUS "exports: ${nexported} symbols, each declared SENSIM_API in a public header")
