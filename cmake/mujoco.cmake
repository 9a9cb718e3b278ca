# MuJoCo (Debian's libmujoco-dev, 2.2) as a host engine: the example
# example_mujoco_host, the cross-check tests of test_host and bench_host's
# rover runs are built only when it is found; without it they are skipped
# with a message. Include this after the tests and bench subdirectories.
get_filename_component(SENSIM_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
find_path(MUJOCO_INCLUDE_DIR mujoco/mujoco.h)
find_library(MUJOCO_LIBRARY mujoco)
if(MUJOCO_INCLUDE_DIR AND MUJOCO_LIBRARY)
  message(STATUS "MuJoCo: ${MUJOCO_LIBRARY}")
  add_executable(example_mujoco_host ${SENSIM_ROOT}/examples/mujoco_host.c ${SENSIM_ROOT}/examples/mujoco_bridge.c)
  target_include_directories(example_mujoco_host PRIVATE ${MUJOCO_INCLUDE_DIR})
  target_compile_definitions(example_mujoco_host PRIVATE _DEFAULT_SOURCE
    SENSIM_MUJOCO_MODEL="${SENSIM_ROOT}/examples/mujoco/rover.xml")
  target_link_libraries(example_mujoco_host PRIVATE sensim ${MUJOCO_LIBRARY} m)
  if(TARGET test_host)
    target_sources(test_host PRIVATE ${SENSIM_ROOT}/examples/mujoco_bridge.c)
    target_include_directories(test_host PRIVATE ${MUJOCO_INCLUDE_DIR} ${SENSIM_ROOT}/examples)
    target_compile_definitions(test_host PRIVATE SENSIM_HAVE_MUJOCO=1
      SENSIM_MUJOCO_MODEL="${SENSIM_ROOT}/examples/mujoco/rover.xml")
    target_link_libraries(test_host PRIVATE ${MUJOCO_LIBRARY})
  endif()
  if(TARGET bench_host)
    target_sources(bench_host PRIVATE ${SENSIM_ROOT}/examples/mujoco_bridge.c)
    target_include_directories(bench_host PRIVATE ${MUJOCO_INCLUDE_DIR} ${SENSIM_ROOT}/examples)
    target_compile_definitions(bench_host PRIVATE SENSIM_HAVE_MUJOCO=1
      SENSIM_MUJOCO_MODEL="${SENSIM_ROOT}/examples/mujoco/rover.xml")
    target_link_libraries(bench_host PRIVATE ${MUJOCO_LIBRARY})
  endif()
else()
  message(STATUS "MuJoCo not found: skipping example_mujoco_host and the MuJoCo cross-check tests")
endif()
