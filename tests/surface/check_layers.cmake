# tests/surface/check_layers.cmake: the build's layering holds. For each
# layer (each folder of src/ built with its own include path,
# build/layers/<layer>, as CMakeLists.txt gives it), a file compiled with
# that path can include a header of every layer it uses, and cannot include
# one of any other layer. A layer that uses no other (core; the tools
# library and the program, which are built on the public headers alone) is
# probed with every header of every other layer: no include of
# "core/internal.h" or "filters/chain.h" compiles in src/tools.
#
#   cmake -DCC=cc -DSRC=src -DSTAGE=build/layers -DINCLUDE=include -DRANDOM123=dir -DWORK=dir
#         -DLAYERS="core|scene" -DUSES_core="" -DUSES_scene="core" ...
#         [-DSYSTEM_tools="dir|dir"] -P check_layers.cmake
#
# SYSTEM_<layer> are the folders of outside libraries' headers on that
# layer's path (cairo's for the tools).
string(REPLACE "|" ";" LAYERS "${LAYERS}")
file(MAKE_DIRECTORY ${WORK})
set(failures "")
set(checked 0)
foreach(layer IN LISTS LAYERS)
  string(REPLACE "|" ";" uses "${USES_${layer}}")
  foreach(other IN LISTS LAYERS)
    file(GLOB hdrs RELATIVE ${SRC} ${SRC}/${other}/*.h)
    if(NOT hdrs)
      continue()
    endif()
    list(SORT hdrs)
    list(FIND uses ${other} at)
    if(other STREQUAL layer OR NOT at EQUAL -1)
      set(expect ok)
    else()
      set(expect fail)
    endif()
    if(NOT uses AND NOT other STREQUAL layer)
      set(probed ${hdrs})
    else()
      list(GET hdrs 0 probed)
    endif()
    foreach(h IN LISTS probed)
      string(MAKE_C_IDENTIFIER "${h}" hid)
      set(probe ${WORK}/${layer}_includes_${hid}.c)
      file(WRITE ${probe} "#include \"${h}\"\n")
      string(REPLACE "|" ";" system "${SYSTEM_${layer}}")
      list(TRANSFORM system PREPEND "-I")
      execute_process(COMMAND ${CC} -fsyntax-only -std=c11 -D_POSIX_C_SOURCE=200809L
              -I${STAGE}/${layer} -I${INCLUDE} -I${RANDOM123} ${system} ${probe}
        RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
      math(EXPR checked "${checked} + 1")
      if(expect STREQUAL ok AND NOT rc EQUAL 0)
        list(APPEND failures "${layer} cannot include ${h}, though it uses ${other}")
      elseif(expect STREQUAL fail AND rc EQUAL 0)
        list(APPEND failures "${layer} can include ${h}, an upward or sideways include")
      endif()
    endforeach()
  endforeach()
endforeach()
if(failures)
  string(REPLACE ";" "\n  " failures "${failures}")
  message(FATAL_ERROR "layers:\n  ${failures}")
endif()
message(STATUS "layers: ${checked} includes checked")
