# tests/extra.cmake: tests of the public surface rather than of one module.
# Included by tests/CMakeLists.txt.
#
#   headers   every public header (sensim/ and sensim_tools/) compiles alone,
#             first in its translation unit, as C99 (-pedantic, no
#             _POSIX_C_SOURCE) and as C++11; the checks are build targets, so
#             a broken header breaks the build.
#   exports   libsensim.so exports the SENSIM_API functions and nothing else,
#             libsensim_tools.so the SENSIM_TOOLS_API ones and nothing else.
#   needed    libsensim.so does not load cairo; libsensim_tools.so does.
#   layers    each layer of the library can include only the layers it uses;
#             the tools and the program can include none of the library's
#             internal headers, nor each other's.
#   record_files  the files `sensim run` writes beside frames (camera_info.yaml,
#             poses.txt) read by PyYAML and, when found, yaml-cpp and OpenCV
#             (tests/record_files/).
#   consumer  an installed sensim is usable from outside: `cmake --install`
#             into a scratch prefix, then find_package(sensim) and pkg-config
#             builds of tests/consumer/main.c and tools.c, run
#             (tests/consumer/run.cmake).
#   mcap_reader  `sensim run --mcap` recordings read back by an independent
#             MCAP reader and ROS 2 CDR decoder from npm and compared with
#             the run's own files (tests/mcap_reader/README.md); only where
#             node and npm are installed.

# ---- headers ------------------------------------------------------------------

file(GLOB SENSIM_PUBLIC_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/sensim/*.h)
file(GLOB SENSIM_TOOLS_PUBLIC_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/sensim_tools/*.h)
set(_alone_dir ${CMAKE_CURRENT_BINARY_DIR}/headers_alone)
set(_alone_sources "")
foreach(_h IN LISTS SENSIM_PUBLIC_HEADERS SENSIM_TOOLS_PUBLIC_HEADERS)
  get_filename_component(_n ${_h} NAME_WE)
  get_filename_component(_d ${_h} DIRECTORY)
  get_filename_component(_d ${_d} NAME)
  # The declaration keeps the translation unit from being empty, which ISO C
  # forbids, whatever the header holds.
  file(CONFIGURE OUTPUT ${_alone_dir}/alone_${_d}_${_n}.c
       CONTENT "#include <${_d}/${_n}.h>\ntypedef int sensim__alone_${_d}_${_n}_c;\n")
  file(CONFIGURE OUTPUT ${_alone_dir}/alone_${_d}_${_n}.cpp
       CONTENT "#include <${_d}/${_n}.h>\ntypedef int sensim__alone_${_d}_${_n}_cxx;\n")
  list(APPEND _alone_sources ${_alone_dir}/alone_${_d}_${_n}.c ${_alone_dir}/alone_${_d}_${_n}.cpp)
endforeach()

# Include guards and extern "C" blocks, which no compiler checks, are checked
# by a script whose stamp the test program depends on.
string(REPLACE ";" "|" _headers_arg "${SENSIM_PUBLIC_HEADERS}")
string(REPLACE ";" "|" _tools_headers_arg "${SENSIM_TOOLS_PUBLIC_HEADERS}")
add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/headers_guards.stamp
  COMMAND ${CMAKE_COMMAND} "-DHEADERS=${_headers_arg}|${_tools_headers_arg}"
          -DSTAMP=${CMAKE_CURRENT_BINARY_DIR}/headers_guards.stamp
          -P ${CMAKE_CURRENT_SOURCE_DIR}/headers/check_guards.cmake
  DEPENDS ${SENSIM_PUBLIC_HEADERS} ${SENSIM_TOOLS_PUBLIC_HEADERS}
          ${CMAKE_CURRENT_SOURCE_DIR}/headers/check_guards.cmake
  COMMENT "Checking include guards and extern \"C\" in the public headers"
  VERBATIM)

add_executable(test_headers
  ${CMAKE_CURRENT_SOURCE_DIR}/headers/headers_c99.c
  ${CMAKE_CURRENT_SOURCE_DIR}/headers/headers_cxx11.cpp
  ${_alone_sources}
  ${CMAKE_CURRENT_BINARY_DIR}/headers_guards.stamp)
set_target_properties(test_headers PROPERTIES
  C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF
  CXX_STANDARD 11 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
# -U after the directory's -D: a user's C99 program need not define
# _POSIX_C_SOURCE, so the headers may not rely on it.
target_compile_options(test_headers PRIVATE -pedantic -Wall -Wextra -Werror -U_POSIX_C_SOURCE)
target_compile_definitions(test_headers PRIVATE
  SENSIM_EXPECT_MAJOR=${PROJECT_VERSION_MAJOR}
  SENSIM_EXPECT_MINOR=${PROJECT_VERSION_MINOR}
  SENSIM_EXPECT_PATCH=${PROJECT_VERSION_PATCH})
# Only the public include folder: what an installed copy gives a user.
target_link_libraries(test_headers PRIVATE sensim_tools sensim)
add_test(NAME headers COMMAND test_headers)
set_tests_properties(headers PROPERTIES TIMEOUT 60)

# ---- consumer -------------------------------------------------------------------

# The consumer is an ordinary program built without the sanitizers, so it
# cannot load a library built with them: skipped in sanitizer builds.
if(NOT SENSIM_SANITIZE)
  add_test(NAME consumer COMMAND ${CMAKE_COMMAND}
    -DSENSIM_BUILD_DIR=${PROJECT_BINARY_DIR}
    -DSENSIM_CONSUMER_DIR=${CMAKE_CURRENT_SOURCE_DIR}/consumer
    -DSENSIM_WORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/consumer_work
    -DSENSIM_LIBDIR=${CMAKE_INSTALL_LIBDIR}
    -DSENSIM_BINDIR=${CMAKE_INSTALL_BINDIR}
    -DSENSIM_INCLUDEDIR=${CMAKE_INSTALL_INCLUDEDIR}
    -DSENSIM_CMAKEDIR=${SENSIM_INSTALL_CMAKEDIR}
    -DSENSIM_PKGCONFIGDIR=${SENSIM_INSTALL_PKGCONFIGDIR}
    -DSENSIM_VERSION=${PROJECT_VERSION}
    -DSENSIM_CC=${CMAKE_C_COMPILER}
    -DSENSIM_GENERATOR=${CMAKE_GENERATOR}
    -DSENSIM_PYTHON_EXECUTABLE=${SENSIM_PYTHON_EXECUTABLE}
    -DSENSIM_PYTHON_INSTALL_DIR=${SENSIM_PYTHON_INSTALL_DIR}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/consumer/run.cmake)
  # Its scratch prefix and builds live in its own folder of the build tree.
  set_tests_properties(consumer PROPERTIES TIMEOUT 300)
endif()

# ---- exports and layers ------------------------------------------------------------

# libsensim.so exports exactly the SENSIM_API functions of sensim's public
# headers, libsensim_tools.so exactly the SENSIM_TOOLS_API functions of the
# tools' (and so none of libsensim's, whose objects it must not contain).
add_test(NAME exports COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM}
  -DLIB=$<TARGET_FILE:sensim> -DMACRO=SENSIM_API -DMIN=100 "-DHEADERS=${_headers_arg}"
  -DLIB2=$<TARGET_FILE:sensim_tools> -DMACRO2=SENSIM_TOOLS_API -DMIN2=40
  "-DHEADERS2=${_tools_headers_arg}"
  -P ${CMAKE_CURRENT_SOURCE_DIR}/surface/check_exports.cmake)
set_tests_properties(exports PROPERTIES TIMEOUT 60)

# cairo is linked by the tools library alone: libsensim.so does not load it.
add_test(NAME needed COMMAND ${CMAKE_COMMAND} -DREADELF=${CMAKE_READELF}
  -DLIB=$<TARGET_FILE:sensim> -DMUST_NOT=cairo -DLIB2=$<TARGET_FILE:sensim_tools> -DMUST=cairo
  -P ${CMAKE_CURRENT_SOURCE_DIR}/surface/check_needed.cmake)
set_tests_properties(needed PROPERTIES TIMEOUT 60)

# Each layer's include path reaches the layers it uses and no others. The
# tools and the program (staged the same way, CMakeLists.txt) use none: an
# include of "core/internal.h" from src/tools must not compile.
set(_checked_layers ${SENSIM_LAYERS} tools cli)
string(REPLACE ";" "|" _layers_arg "${_checked_layers}")
set(_uses_args "")
foreach(_l IN LISTS _checked_layers)
  string(REPLACE ";" "|" _u "${SENSIM_USES_${_l}}")
  list(APPEND _uses_args "-DUSES_${_l}=${_u}")
endforeach()
# The tools' path also holds cairo's headers (CMakeLists.txt), as their
# internal drawing header includes <cairo.h>.
string(REPLACE ";" "|" _tools_system "${CAIRO_INCLUDE_DIRS}")
list(APPEND _uses_args "-DSYSTEM_tools=${_tools_system}")
add_test(NAME layers COMMAND ${CMAKE_COMMAND} -DCC=${CMAKE_C_COMPILER}
  -DSRC=${PROJECT_SOURCE_DIR}/src -DSTAGE=${PROJECT_BINARY_DIR}/layers
  -DINCLUDE=${PROJECT_SOURCE_DIR}/include -DRANDOM123=${RANDOM123_INCLUDE}
  -DWORK=${CMAKE_CURRENT_BINARY_DIR}/layers_work "-DLAYERS=${_layers_arg}" ${_uses_args}
  -P ${CMAKE_CURRENT_SOURCE_DIR}/surface/check_layers.cmake)
set_tests_properties(layers PROPERTIES TIMEOUT 120)

# ---- mcap_reader ------------------------------------------------------------------

# Issue 16 asks for recordings read back with code that shares nothing with
# sensim's writer: @mcap/core's indexed and stream readers, fzstd and
# Foxglove's ROS 2 message parser and CDR decoder, run by node. The test
# installs them itself (`npm ci` into its work folder, from the committed
# package-lock.json) so that README.md's test command works from a clean
# checkout; it needs the npm registry or a warm npm cache. It only reads
# files, so it also runs in sanitizer builds (the sensim it runs is then
# the instrumented one). Skipped where node or npm is missing.
option(SENSIM_MCAP_READER_TEST "Test recordings with the npm MCAP reader (needs node, npm)" ON)
if(SENSIM_MCAP_READER_TEST)
  find_program(SENSIM_NODE node)
  find_program(SENSIM_NPM npm)
  if(SENSIM_NODE AND SENSIM_NPM)
    add_test(NAME mcap_reader COMMAND ${CMAKE_COMMAND}
      -DSENSIM=$<TARGET_FILE:sensim_cli> -DNODE=${SENSIM_NODE} -DNPM=${SENSIM_NPM}
      -DREADER=${CMAKE_CURRENT_SOURCE_DIR}/mcap_reader
      -DSCENARIO=${CMAKE_CURRENT_SOURCE_DIR}/data/record/rig.json
      -DEXPECT=${CMAKE_CURRENT_SOURCE_DIR}/data/record/rig.expect.json
      -DWORK=${CMAKE_CURRENT_BINARY_DIR}/mcap_reader_work
      -P ${CMAKE_CURRENT_SOURCE_DIR}/mcap_reader/run.cmake)
    # npm ci takes a few seconds from the cache, longer from the registry.
    set_tests_properties(mcap_reader PROPERTIES TIMEOUT 300)
  else()
    message(STATUS "node or npm not found: the mcap_reader test is skipped")
  endif()
endif()

# ---- record_files -------------------------------------------------------------------

# camera_info.yaml and poses.txt read the way their users read them
# (tests/record_files/check_readers.py): PyYAML (python3-yaml), as ROS 2's
# Python calibration tools; yaml-cpp as ROS's camera_calibration_parsers and
# OpenCV's cv::FileStorage (libyaml-cpp-dev, libopencv-core-dev), through
# read_camera_info, when both are found. A test-only dependency each: without
# PyYAML the test is skipped (exit 77), without the C++ readers it checks
# PyYAML alone and says so.
find_path(SENSIM_OPENCV_INCLUDE opencv2/core/persistence.hpp PATH_SUFFIXES opencv4)
find_library(SENSIM_OPENCV_CORE opencv_core)
find_path(SENSIM_YAML_CPP_INCLUDE yaml-cpp/yaml.h)
find_library(SENSIM_YAML_CPP yaml-cpp)
set(_reader_arg "")
if(SENSIM_OPENCV_INCLUDE AND SENSIM_OPENCV_CORE AND SENSIM_YAML_CPP_INCLUDE AND SENSIM_YAML_CPP)
  add_executable(read_camera_info ${CMAKE_CURRENT_SOURCE_DIR}/record_files/read_camera_info.cpp)
  set_target_properties(read_camera_info PROPERTIES CXX_STANDARD 14 CXX_STANDARD_REQUIRED ON)
  target_include_directories(read_camera_info SYSTEM PRIVATE ${SENSIM_OPENCV_INCLUDE}
                             ${SENSIM_YAML_CPP_INCLUDE})
  target_link_libraries(read_camera_info PRIVATE ${SENSIM_OPENCV_CORE} ${SENSIM_YAML_CPP})
  set(_reader_arg $<TARGET_FILE:read_camera_info>)
else()
  message(STATUS "sensim: yaml-cpp or OpenCV's core not found; the record_files test reads "
                 "camera_info.yaml with PyYAML only (apt-get install libyaml-cpp-dev libopencv-core-dev)")
endif()
set(_record_python ${SENSIM_PYTHON_EXECUTABLE})
if(NOT _record_python)
  find_package(Python3 COMPONENTS Interpreter)
  set(_record_python ${Python3_EXECUTABLE})
endif()
if(_record_python)
  add_test(NAME record_files COMMAND ${_record_python} ${CMAKE_CURRENT_SOURCE_DIR}/record_files/check_readers.py
           $<TARGET_FILE:sensim_cli> ${CMAKE_CURRENT_BINARY_DIR}/tmp_record_files ${_reader_arg})
  # The C++ readers' libraries keep process-lifetime allocations that are
  # not sensim's to answer for; sensim's own leaks are the other tests'.
  set_tests_properties(record_files PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77
                       ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
endif()
