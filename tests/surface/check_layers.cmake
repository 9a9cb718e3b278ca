# tests/surface/check_layers.cmake: the build's layering holds. For each
# layer of the library, a file compiled with that layer's include path
# (build/layers/<layer>, as CMakeLists.txt gives it) can include a header of
# every layer it uses, and cannot include one of any other layer.
#
#   cmake -DCC=cc -DSRC=src -DSTAGE=build/layers -DINCLUDE=include -DRANDOM123=dir -DWORK=dir
#         -DLAYERS="core|scene" -DUSES_core="" -DUSES_scene="core" ...
#         -P check_layers.cmake
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
    list(GET hdrs 0 h)
    list(FIND uses ${other} at)
    if(other STREQUAL layer OR NOT at EQUAL -1)
      set(expect ok)
    else()
      set(expect fail)
    endif()
    set(probe ${WORK}/${layer}_includes_${other}.c)
    file(WRITE ${probe} "#include \"${h}\"\n")
    execute_process(COMMAND ${CC} -fsyntax-only -std=c11 -D_POSIX_C_SOURCE=200809L
            -I${STAGE}/${layer} -I${INCLUDE} -I${RANDOM123} ${probe}
      RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    math(EXPR checked "${checked} + 1")
    if(expect STREQUAL ok AND NOT rc EQUAL 0)
      list(APPEND failures "${layer} cannot include ${h}, though it uses ${other}")
    elseif(expect STREQUAL fail AND rc EQUAL 0)
      list(APPEND failures "${layer} can include ${h}, an upward or sideways include")
    endif()
  endforeach()
endforeach()
if(failures)
  string(REPLACE ";" "\n  " failures "${failures}")
  message(FATAL_ERROR "layers:\n  ${failures}")
endif()
message(STATUS "layers: ${checked} includes checked")
