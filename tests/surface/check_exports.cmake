# tests/surface/check_exports.cmake: each shared library exports exactly the
# functions its public headers declare with its export macro, and nothing
# else (no internals, no symbols of other names, none of another library's).
#
#   cmake -DNM=nm -DLIB=libsensim.so -DMACRO=SENSIM_API -DMIN=100 -DHEADERS="a.h|b.h"
#         [-DLIB2=... -DMACRO2=... -DMIN2=... -DHEADERS2=...] -P check_exports.cmake
#
# MIN is the least number of declarations the header scan must find, so a
# broken scan cannot pass by finding nothing.

# Check one library; stops the script with the differences if any.
function(check_library lib macro min headers)
  string(REPLACE "|" ";" headers "${headers}")
  execute_process(COMMAND ${NM} -D --defined-only ${lib}
    OUTPUT_VARIABLE nm_out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "exports: ${NM} failed on ${lib}")
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
  foreach(h IN LISTS headers)
    file(READ ${h} text)
    string(REGEX MATCHALL "${macro}[^;{(]*[ *](sensim_[A-Za-z0-9_]+)[ ]*\\(" decls "${text}")
    foreach(d IN LISTS decls)
      string(REGEX REPLACE ".*[ *](sensim_[A-Za-z0-9_]+)[ ]*\\($" "\\1" name "${d}")
      list(APPEND declared "${name}")
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES declared)
  list(LENGTH declared ndeclared)
  if(ndeclared LESS min)
    message(FATAL_ERROR "exports: found only ${ndeclared} ${macro} declarations (expected at least "
                        "${min}); the header scan is broken")
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
    message(FATAL_ERROR "exports: ${lib} exports ${nexported} symbols for ${ndeclared} declared.\n"
      "  exported but not declared ${macro}: ${extra}\n"
      "  declared ${macro} but not exported: ${missing}")
  endif()
  get_filename_component(name ${lib} NAME)
  message(STATUS "exports: ${name}: ${nexported} symbols, each declared ${macro} in a public header")
endfunction()

check_library("${LIB}" "${MACRO}" "${MIN}" "${HEADERS}")
if(DEFINED LIB2)
  check_library("${LIB2}" "${MACRO2}" "${MIN2}" "${HEADERS2}")
endif()
