# `sensim sweep` alone, under 1 MPI rank and under 3, outputs compared byte
# for byte (tests/sweep_ranks/run.sh says what it checks). Only when the
# program's MPI driver is built (CMakeLists.txt, SENSIM_MPI_BUILT) and an
# MPI launcher was found with it.
if(SENSIM_MPI_BUILT AND MPIEXEC_EXECUTABLE)
  add_test(NAME sweep_ranks
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/sweep_ranks/run.sh $<TARGET_FILE:sensim_cli>
                   ${MPIEXEC_EXECUTABLE} ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/tmp_sweep_ranks)
  set_tests_properties(sweep_ranks PROPERTIES TIMEOUT 600)
  if(SENSIM_SANITIZE)
    set_tests_properties(sweep_ranks PROPERTIES ENVIRONMENT
      "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/.ci/lsan.supp:print_suppressions=0")
  endif()
endif()
