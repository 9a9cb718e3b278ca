# tests/mcap_reader/run.cmake: the mcap_reader test (tests/extra.cmake).
#
#   cmake -DSENSIM=... -DNODE=... -DNPM=... -DREADER=<this folder>
#         -DSCENARIO=... -DEXPECT=... -DWORK=<scratch folder> -P run.cmake
#
# 1. Installs the reader's npm packages (package-lock.json, `npm ci`) into
#    WORK/reader, beside copies of its scripts, so the source tree stays
#    clean and each build tree (build/, build-asan/) has its own. It is
#    installed again only when package-lock.json changes; npm's cache
#    (~/.npm) makes a second install offline.
# 2. Runs `sensim run SCENARIO --out WORK/out_C --mcap WORK/C.mcap
#    --lidar-time C` for both lidar time conventions C (start, end), and
#    checks that no temporary file is left beside the recording.
# 3. Runs verify.mjs on each recording with --compare against the run's own
#    files and the expectations of EXPECT (tests/mcap_reader/README.md).

foreach(_v SENSIM NODE NPM READER SCENARIO EXPECT WORK)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "run.cmake: -D${_v}=... is required")
  endif()
endforeach()

# ---- 1. the reader and its packages ----------------------------------------------
set(_rd ${WORK}/reader)
file(MAKE_DIRECTORY ${_rd})
foreach(_f package.json package-lock.json verify.mjs compare.mjs)
  configure_file(${READER}/${_f} ${_rd}/${_f} COPYONLY)
endforeach()
set(_stamp ${_rd}/node_modules/.sensim-lock)
set(_install TRUE)
if(EXISTS ${_stamp})
  file(READ ${_stamp} _old)
  file(READ ${READER}/package-lock.json _new)
  if(_old STREQUAL _new)
    set(_install FALSE)
  endif()
endif()
if(_install)
  message(STATUS "npm ci in ${_rd}")
  execute_process(COMMAND ${NPM} ci --no-audit --no-fund --prefer-offline
                  WORKING_DIRECTORY ${_rd} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "npm ci failed (${_rc}): the reader's packages come from the npm registry "
                        "(or npm's cache); configure with -DSENSIM_MCAP_READER_TEST=OFF to skip this test.\n${_out}")
  endif()
  configure_file(${READER}/package-lock.json ${_stamp} COPYONLY)
endif()

# ---- 2. and 3. record, then read back -----------------------------------------------
set(_failed "")
foreach(_conv start end)
  set(_out ${WORK}/out_${_conv})
  set(_mcap ${WORK}/${_conv}.mcap)
  file(REMOVE_RECURSE ${_out})
  file(REMOVE ${_mcap})
  file(GLOB _old_tmp ${WORK}/${_conv}.mcap?*)
  if(_old_tmp)
    file(REMOVE ${_old_tmp})
  endif()
  execute_process(COMMAND ${SENSIM} run ${SCENARIO} --out ${_out} --mcap ${_mcap} --lidar-time ${_conv}
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _run_out ERROR_VARIABLE _run_err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "sensim run --lidar-time ${_conv} failed (${_rc}):\n${_run_out}\n${_run_err}")
  endif()
  if(NOT EXISTS ${_mcap})
    message(FATAL_ERROR "sensim run wrote no ${_mcap}:\n${_run_out}\n${_run_err}")
  endif()
  # The recording is written under a temporary name and renamed: nothing
  # else of its name may be left.
  file(GLOB _tmp ${WORK}/${_conv}.mcap?*)
  if(_tmp)
    message(FATAL_ERROR "temporary files left beside ${_mcap}: ${_tmp}")
  endif()
  execute_process(COMMAND ${NODE} ${_rd}/verify.mjs ${_mcap} --compare ${_out}
                          --expect ${EXPECT} --expect "{\"lidar_time\": \"${_conv}\"}"
                  RESULT_VARIABLE _rc OUTPUT_FILE ${WORK}/${_conv}.summary.json ERROR_VARIABLE _err)
  message("---- verify.mjs ${_conv}.mcap (summary: ${WORK}/${_conv}.summary.json)\n${_err}")
  if(NOT _rc EQUAL 0)
    list(APPEND _failed ${_conv})
  endif()
endforeach()
if(_failed)
  message(FATAL_ERROR "verify.mjs failed for: ${_failed}")
endif()
