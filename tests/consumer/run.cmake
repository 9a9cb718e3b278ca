# tests/consumer/run.cmake: install the build tree into a scratch prefix and
# use it from outside, as a user would. Run by the `consumer` CTest test
# (tests/extra.cmake) as `cmake -D... -P run.cmake`:
#
#   1. cmake --install <build> --prefix <work>/prefix, and check every file
#      the install promises is there;
#   2. configure tests/consumer against the prefix with CMAKE_PREFIX_PATH,
#      build it (shared and static, library and tools), run all four;
#   3. compile main.c with `pkg-config --cflags --libs sensim`, run it; and
#      link it against libsensim.a with `pkg-config --static --libs`, which
#      holds Libs.private to account; the same for tools.c with
#      `pkg-config ... sensim_tools` (whose Requires brings sensim);
#   4. run the installed `sensim` program, which must find its libraries;
#   5. when the Python package was built, import it from the prefix alone
#      and run a lidar through it.
#
# Each program must exit 0; main.c's must print "points: N" with N > 0,
# tools.c's "tools: ok".

foreach(v SENSIM_BUILD_DIR SENSIM_CONSUMER_DIR SENSIM_WORK_DIR SENSIM_LIBDIR SENSIM_BINDIR
          SENSIM_INCLUDEDIR SENSIM_CMAKEDIR SENSIM_PKGCONFIGDIR SENSIM_VERSION SENSIM_CC
          SENSIM_GENERATOR)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "run.cmake needs -D${v}=...")
  endif()
endforeach()

set(prefix ${SENSIM_WORK_DIR}/prefix)
set(libdir ${prefix}/${SENSIM_LIBDIR})
set(pcdir ${prefix}/${SENSIM_PKGCONFIGDIR})
file(REMOVE_RECURSE ${SENSIM_WORK_DIR})
file(MAKE_DIRECTORY ${SENSIM_WORK_DIR})

# Run a command; stop with its output if it fails. OUTPUT_VAR receives stdout.
function(run_step what)
  cmake_parse_arguments(A "" "OUTPUT_VAR" "COMMAND" ${ARGN})
  message(STATUS "consumer: ${what}")
  execute_process(COMMAND ${A_COMMAND}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${A_COMMAND}")
    message(FATAL_ERROR "consumer: ${what} failed (${rc})\n$ ${cmd}\n${out}\n${err}")
  endif()
  if(A_OUTPUT_VAR)
    set(${A_OUTPUT_VAR} "${out}" PARENT_SCOPE)
  endif()
endfunction()

# A consumer run must report a non-empty point cloud.
function(check_points what out)
  if(NOT out MATCHES "points: ([0-9]+)")
    message(FATAL_ERROR "consumer: ${what} printed no point count:\n${out}")
  endif()
  if(CMAKE_MATCH_1 EQUAL 0)
    message(FATAL_ERROR "consumer: ${what} saw 0 points")
  endif()
  message(STATUS "consumer: ${what}: ${CMAKE_MATCH_1} points")
endfunction()

# A tools consumer run must report that every check passed.
function(check_tools what out)
  if(NOT out MATCHES "tools: ok")
    message(FATAL_ERROR "consumer: ${what} did not print \"tools: ok\":\n${out}")
  endif()
  message(STATUS "consumer: ${what}: tools ok")
endfunction()

# ---- 1. install ---------------------------------------------------------------

run_step("install into ${prefix}"
  COMMAND ${CMAKE_COMMAND} --install ${SENSIM_BUILD_DIR} --prefix ${prefix})

file(GLOB public_headers RELATIVE ${SENSIM_CONSUMER_DIR}/../../include/sensim
     ${SENSIM_CONSUMER_DIR}/../../include/sensim/*.h)
file(GLOB tools_headers RELATIVE ${SENSIM_CONSUMER_DIR}/../../include/sensim_tools
     ${SENSIM_CONSUMER_DIR}/../../include/sensim_tools/*.h)
set(expected
  ${SENSIM_LIBDIR}/libsensim.so
  ${SENSIM_LIBDIR}/libsensim.so.0
  ${SENSIM_LIBDIR}/libsensim.so.${SENSIM_VERSION}
  ${SENSIM_LIBDIR}/libsensim.a
  ${SENSIM_LIBDIR}/libsensim_tools.so
  ${SENSIM_LIBDIR}/libsensim_tools.so.0
  ${SENSIM_LIBDIR}/libsensim_tools.so.${SENSIM_VERSION}
  ${SENSIM_LIBDIR}/libsensim_tools.a
  ${SENSIM_BINDIR}/sensim
  ${SENSIM_PKGCONFIGDIR}/sensim.pc
  ${SENSIM_PKGCONFIGDIR}/sensim_tools.pc
  ${SENSIM_CMAKEDIR}/sensimConfig.cmake
  ${SENSIM_CMAKEDIR}/sensimConfigVersion.cmake
  ${SENSIM_CMAKEDIR}/sensimTargets.cmake)
foreach(h IN LISTS public_headers)
  list(APPEND expected ${SENSIM_INCLUDEDIR}/sensim/${h})
endforeach()
foreach(h IN LISTS tools_headers)
  list(APPEND expected ${SENSIM_INCLUDEDIR}/sensim_tools/${h})
endforeach()
foreach(f IN LISTS expected)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "consumer: the install lacks ${f}")
  endif()
endforeach()
foreach(l libsensim libsensim_tools)
  if(NOT IS_SYMLINK ${prefix}/${SENSIM_LIBDIR}/${l}.so.0)
    message(FATAL_ERROR "consumer: ${l}.so.0 is not a soname link")
  endif()
endforeach()

# ---- 2. CMake package ---------------------------------------------------------------

set(cbuild ${SENSIM_WORK_DIR}/build)
run_step("configure tests/consumer with CMAKE_PREFIX_PATH"
  COMMAND ${CMAKE_COMMAND} -S ${SENSIM_CONSUMER_DIR} -B ${cbuild} -G ${SENSIM_GENERATOR}
          -DCMAKE_C_COMPILER=${SENSIM_CC} -DCMAKE_PREFIX_PATH=${prefix}
          -Werror=dev -Werror=deprecated)
# The package must come from the scratch prefix, not from a copy installed
# on the machine.
file(STRINGS ${cbuild}/CMakeCache.txt sensim_dir REGEX "^sensim_DIR:")
string(REGEX REPLACE "^sensim_DIR:[A-Z]+=" "" sensim_dir "${sensim_dir}")
get_filename_component(sensim_dir "${sensim_dir}" REALPATH)
get_filename_component(want_dir "${prefix}/${SENSIM_CMAKEDIR}" REALPATH)
if(NOT sensim_dir STREQUAL want_dir)
  message(FATAL_ERROR "consumer: found sensim in ${sensim_dir}, not in ${want_dir}")
endif()
run_step("build tests/consumer" COMMAND ${CMAKE_COMMAND} --build ${cbuild})
run_step("run consumer (sensim::sensim)" COMMAND ${cbuild}/consumer OUTPUT_VAR out)
check_points("consumer (sensim::sensim)" "${out}")
run_step("run consumer_static (sensim::sensim_static)" COMMAND ${cbuild}/consumer_static
         OUTPUT_VAR out)
check_points("consumer_static (sensim::sensim_static)" "${out}")
run_step("run consumer_tools (sensim::sensim_tools)" COMMAND ${cbuild}/consumer_tools OUTPUT_VAR out)
check_tools("consumer_tools (sensim::sensim_tools)" "${out}")
run_step("run consumer_tools_static (sensim::sensim_tools_static)"
         COMMAND ${cbuild}/consumer_tools_static OUTPUT_VAR out)
check_tools("consumer_tools_static (sensim::sensim_tools_static)" "${out}")

# ---- 3. pkg-config ------------------------------------------------------------------

find_program(PKG_CONFIG NAMES pkg-config pkgconf)
if(NOT PKG_CONFIG)
  message(FATAL_ERROR "consumer: pkg-config not found")
endif()
set(ENV{PKG_CONFIG_PATH} ${pcdir})
run_step("pkg-config --modversion sensim" COMMAND ${PKG_CONFIG} --modversion sensim
         OUTPUT_VAR pc_version)
string(STRIP "${pc_version}" pc_version)
if(NOT pc_version STREQUAL SENSIM_VERSION)
  message(FATAL_ERROR "consumer: sensim.pc says ${pc_version}, the project ${SENSIM_VERSION}")
endif()
run_step("pkg-config --cflags --libs sensim" COMMAND ${PKG_CONFIG} --cflags --libs sensim
         OUTPUT_VAR pc_flags)
string(STRIP "${pc_flags}" pc_flags)
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
run_step("cc main.c $(pkg-config --cflags --libs sensim)"
  COMMAND ${SENSIM_CC} -Wall -Wextra -Werror ${SENSIM_CONSUMER_DIR}/main.c ${pc_flags}
          -o ${SENSIM_WORK_DIR}/consumer_pc)
set(ENV{LD_LIBRARY_PATH} ${libdir})
run_step("run consumer_pc" COMMAND ${SENSIM_WORK_DIR}/consumer_pc OUTPUT_VAR out)
check_points("consumer_pc (pkg-config)" "${out}")
unset(ENV{LD_LIBRARY_PATH})

# The static link line: the archive in place of -lsensim, then Libs.private.
run_step("pkg-config --static --libs sensim" COMMAND ${PKG_CONFIG} --static --libs sensim
         OUTPUT_VAR pc_static)
string(STRIP "${pc_static}" pc_static)
separate_arguments(pc_static UNIX_COMMAND "${pc_static}")
list(TRANSFORM pc_static REPLACE "^-lsensim$" "${libdir}/libsensim.a")
run_step("pkg-config --cflags sensim" COMMAND ${PKG_CONFIG} --cflags sensim
         OUTPUT_VAR pc_cflags)
string(STRIP "${pc_cflags}" pc_cflags)
separate_arguments(pc_cflags UNIX_COMMAND "${pc_cflags}")
run_step("cc main.c libsensim.a $(pkg-config --static --libs sensim)"
  COMMAND ${SENSIM_CC} -Wall -Wextra -Werror ${pc_cflags} ${SENSIM_CONSUMER_DIR}/main.c
          ${pc_static} -o ${SENSIM_WORK_DIR}/consumer_pc_static)
run_step("run consumer_pc_static" COMMAND ${SENSIM_WORK_DIR}/consumer_pc_static OUTPUT_VAR out)
check_points("consumer_pc_static (pkg-config --static)" "${out}")

# The tools: sensim_tools.pc requires sensim, so one name gives both.
run_step("pkg-config --modversion sensim_tools" COMMAND ${PKG_CONFIG} --modversion sensim_tools
         OUTPUT_VAR pc_version)
string(STRIP "${pc_version}" pc_version)
if(NOT pc_version STREQUAL SENSIM_VERSION)
  message(FATAL_ERROR "consumer: sensim_tools.pc says ${pc_version}, the project ${SENSIM_VERSION}")
endif()
run_step("pkg-config --cflags --libs sensim_tools" COMMAND ${PKG_CONFIG} --cflags --libs sensim_tools
         OUTPUT_VAR pc_flags)
string(STRIP "${pc_flags}" pc_flags)
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
run_step("cc tools.c $(pkg-config --cflags --libs sensim_tools)"
  COMMAND ${SENSIM_CC} -Wall -Wextra -Werror ${SENSIM_CONSUMER_DIR}/tools.c ${pc_flags} -lm
          -o ${SENSIM_WORK_DIR}/consumer_tools_pc)
set(ENV{LD_LIBRARY_PATH} ${libdir})
run_step("run consumer_tools_pc" COMMAND ${SENSIM_WORK_DIR}/consumer_tools_pc OUTPUT_VAR out)
check_tools("consumer_tools_pc (pkg-config)" "${out}")
unset(ENV{LD_LIBRARY_PATH})

run_step("pkg-config --static --libs sensim_tools" COMMAND ${PKG_CONFIG} --static --libs sensim_tools
         OUTPUT_VAR pc_static)
string(STRIP "${pc_static}" pc_static)
separate_arguments(pc_static UNIX_COMMAND "${pc_static}")
list(TRANSFORM pc_static REPLACE "^-lsensim_tools$" "${libdir}/libsensim_tools.a")
list(TRANSFORM pc_static REPLACE "^-lsensim$" "${libdir}/libsensim.a")
run_step("cc tools.c libsensim_tools.a libsensim.a $(pkg-config --static --libs sensim_tools)"
  COMMAND ${SENSIM_CC} -Wall -Wextra -Werror ${pc_cflags} ${SENSIM_CONSUMER_DIR}/tools.c
          ${pc_static} -o ${SENSIM_WORK_DIR}/consumer_tools_pc_static)
run_step("run consumer_tools_pc_static" COMMAND ${SENSIM_WORK_DIR}/consumer_tools_pc_static
         OUTPUT_VAR out)
check_tools("consumer_tools_pc_static (pkg-config --static)" "${out}")

# ---- 4. the installed program ----------------------------------------------------------

# Whatever its arguments mean, the program must start: a missing library is
# the loader's "error while loading shared libraries" and exit code 127.
execute_process(COMMAND ${prefix}/${SENSIM_BINDIR}/sensim --help
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(rc EQUAL 127 OR err MATCHES "error while loading shared libraries")
  message(FATAL_ERROR "consumer: the installed sensim program does not start (${rc}):\n${err}")
endif()
message(STATUS "consumer: installed sensim program starts (--help exit ${rc})")

# ---- 5. the Python package ---------------------------------------------------------------

# When the build made it: the installed package imports from the prefix
# alone (its extension finds libsensim through its RPATH) and works.
if(SENSIM_PYTHON_EXECUTABLE AND SENSIM_PYTHON_INSTALL_DIR)
  set(pydir ${prefix}/${SENSIM_PYTHON_INSTALL_DIR})
  file(WRITE ${SENSIM_WORK_DIR}/use_sensim.py [=[
import sys
import sensim
assert sensim.__file__.startswith(sys.argv[1]), sensim.__file__
with sensim.World(seed=3) as w:
    w.body(w.shape("box", (2, 2, 2)), pose=(6, 0, 0), static=True)
    lidar = w.lidar(preset="VLP-16", columns=360, filters=["points"])
    w.advance(0.0)
    print("python: %d points" % lidar.poll().count)
]=])
  run_step("python3 with the installed package"
           COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${pydir} PYTHONDONTWRITEBYTECODE=1
                   ${SENSIM_PYTHON_EXECUTABLE} ${SENSIM_WORK_DIR}/use_sensim.py ${pydir}
           OUTPUT_VAR out)
  if(NOT out MATCHES "python: [1-9][0-9]* points")
    message(FATAL_ERROR "consumer: the installed Python package printed: ${out}")
  endif()
endif()

message(STATUS "consumer: all checks passed")
