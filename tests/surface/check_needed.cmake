# tests/surface/check_needed.cmake: which shared libraries a library of ours
# loads (its ELF DT_NEEDED entries, read with readelf -d). The drawing
# library is the tools' dependency alone: libsensim.so must not need it,
# so a host that embeds the simulator never loads cairo, fontconfig or X11
# libraries; libsensim_tools.so must (else the check finds nothing).
#
#   cmake -DREADELF=readelf -DLIB=libsensim.so -DMUST_NOT=cairo
#         -DLIB2=libsensim_tools.so -DMUST=cairo -P check_needed.cmake

function(needed_of lib out)
  execute_process(COMMAND ${READELF} -d ${lib} OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "needed: ${READELF} -d ${lib} failed")
  endif()
  string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]\n]+\\]" lines "${text}")
  set(names "")
  foreach(l IN LISTS lines)
    string(REGEX REPLACE ".*\\[([^]]+)\\]$" "\\1" n "${l}")
    list(APPEND names "${n}")
  endforeach()
  if(NOT names)
    message(FATAL_ERROR "needed: found no NEEDED entries in ${lib}; the scan is broken")
  endif()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

needed_of(${LIB} a)
foreach(n IN LISTS a)
  if(n MATCHES "^lib${MUST_NOT}[.-]")
    message(FATAL_ERROR "needed: ${LIB} needs ${n}; ${MUST_NOT} belongs to the tools library only")
  endif()
endforeach()
needed_of(${LIB2} b)
set(found FALSE)
foreach(n IN LISTS b)
  if(n MATCHES "^lib${MUST}[.-]")
    set(found TRUE)
  endif()
endforeach()
if(NOT found)
  message(FATAL_ERROR "needed: ${LIB2} does not need lib${MUST} (needs: ${b})")
endif()
message(STATUS "needed: ${LIB} loads no ${MUST_NOT}; ${LIB2} does")
