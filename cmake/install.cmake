# cmake/install.cmake: what `cmake --install` puts under the prefix.
#
#   include/sensim/*.h                  public headers of the library
#   include/sensim_tools/*.h            public headers of the tools library
#   lib/libsensim.so{,.0,.0.1.0}         shared library with its soname links
#   lib/libsensim.a                      static library
#   lib/libsensim_tools.so{,.0,.0.1.0}   the tools library, shared (needs libsensim.so)
#   lib/libsensim_tools.a                the tools library, static
#   bin/sensim                           the command-line program
#   lib/pkgconfig/sensim.pc              pkg-config file (Libs.private: static deps)
#   lib/pkgconfig/sensim_tools.pc        pkg-config file of the tools (Requires: sensim;
#                                        Requires.private: cairo)
#   lib/cmake/sensim/                    CMake package: sensim::sensim (shared),
#                                        sensim::sensim_static, sensim::sensim_tools,
#                                        sensim::sensim_tools_static
#   share/doc/sensim/                    README.md, LICENSE
#
# Everything is relocatable: the CMake package and the program locate the
# rest relative to themselves, libsensim_tools.so finds libsensim.so in its
# own folder, and the .pc files are written at install time with the prefix
# actually installed to (`cmake --install build --prefix P`).
# Included from the top-level CMakeLists.txt after the targets exist.

include(CMakePackageConfigHelpers)

set(SENSIM_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/sensim" CACHE STRING
    "Where the CMake package files go, relative to the prefix")
set(SENSIM_INSTALL_PKGCONFIGDIR "${CMAKE_INSTALL_LIBDIR}/pkgconfig" CACHE STRING
    "Where sensim.pc goes, relative to the prefix")

# The program finds libsensim.so next to itself in any prefix, without
# LD_LIBRARY_PATH or ldconfig.
if(NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
  file(RELATIVE_PATH _sensim_bin_to_lib "/${CMAKE_INSTALL_BINDIR}" "/${CMAKE_INSTALL_LIBDIR}")
  set_target_properties(sensim_cli PROPERTIES INSTALL_RPATH "$ORIGIN/${_sensim_bin_to_lib}")
endif()
# The tools library finds libsensim.so beside itself, whoever loads it.
set_target_properties(sensim_tools PROPERTIES INSTALL_RPATH "$ORIGIN")

install(TARGETS sensim sensim_static sensim_tools sensim_tools_static EXPORT sensimTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS sensim_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/sensim ${PROJECT_SOURCE_DIR}/include/sensim_tools
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")

# ---- CMake package -------------------------------------------------------

install(EXPORT sensimTargets
  NAMESPACE sensim::
  FILE sensimTargets.cmake
  DESTINATION ${SENSIM_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/sensimConfig.cmake.in
  ${PROJECT_BINARY_DIR}/sensimConfig.cmake
  INSTALL_DESTINATION ${SENSIM_INSTALL_CMAKEDIR})
# 0.x: the API may change from one minor release to the next.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/sensimConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/sensimConfig.cmake
  ${PROJECT_BINARY_DIR}/sensimConfigVersion.cmake
  DESTINATION ${SENSIM_INSTALL_CMAKEDIR})

# ---- pkg-config ------------------------------------------------------------

# Libs.private comes from each static library's install-time link
# interface, so the two cannot drift apart. A plain name there is a library
# name already (`png16` -> -lpng16). A name that is a target in this build
# (`embree`, from Embree's CMake package) is not a file name: it becomes the
# -l of the library file the target imports (libembree3.so -> -lembree3).
# sensim's own targets are left out: sensim_tools.pc names sensim in
# Requires instead.
function(sensim_pc_libs_private target out)
  get_target_property(_iface ${target} INTERFACE_LINK_LIBRARIES)
  # A list inside a generator expression reaches the property split at its
  # semicolons: collect the pieces between "$<INSTALL_INTERFACE:" and ">".
  set(_in_install FALSE)
  set(_libs "")
  foreach(_item IN LISTS _iface)
    if(_item MATCHES "^\\$<INSTALL_INTERFACE:(.*)$")
      set(_in_install TRUE)
      set(_item "${CMAKE_MATCH_1}")
    endif()
    if(_in_install)
      if(_item MATCHES "^(.*)>$")
        set(_item "${CMAKE_MATCH_1}")
        set(_in_install FALSE)
      endif()
      if(NOT _item STREQUAL "")
        list(APPEND _libs "${_item}")
      endif()
    endif()
  endforeach()
  set(_flags "")
  foreach(_lib IN LISTS _libs)
    if(TARGET ${_lib})
      get_target_property(_loc ${_lib} LOCATION)
      get_filename_component(_loc "${_loc}" NAME)
      string(REGEX REPLACE "^lib([^.]+)\\..*$" "\\1" _lib "${_loc}")
    endif()
    string(APPEND _flags " -l${_lib}")
  endforeach()
  string(STRIP "${_flags}" _flags)
  if(_flags STREQUAL "")
    message(FATAL_ERROR "install.cmake: found no $<INSTALL_INTERFACE:...> libraries on "
                        "${target} for its .pc file's Libs.private")
  endif()
  set(${out} "${_flags}" PARENT_SCOPE)
endfunction()
sensim_pc_libs_private(sensim_static SENSIM_PC_LIBS_PRIVATE)
sensim_pc_libs_private(sensim_tools_static SENSIM_TOOLS_PC_LIBS_PRIVATE)

# The prefix is known only when installing (`--prefix`), so the file is
# configured then, by the install script, and installed right after. A
# relative libdir/includedir is written as ${prefix}/..., as is customary.
foreach(_d LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_d}}")
    set(_sensim_pc_${_d} "${CMAKE_INSTALL_${_d}}")
  else()
    set(_sensim_pc_${_d} "\\\${prefix}/${CMAKE_INSTALL_${_d}}")
  endif()
endforeach()
install(CODE "
  set(SENSIM_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(SENSIM_PC_LIBDIR \"${_sensim_pc_LIBDIR}\")
  set(SENSIM_PC_INCLUDEDIR \"${_sensim_pc_INCLUDEDIR}\")
  set(SENSIM_PC_VERSION \"${PROJECT_VERSION}\")
  set(SENSIM_PC_LIBS_PRIVATE \"${SENSIM_PC_LIBS_PRIVATE}\")
  set(SENSIM_TOOLS_PC_LIBS_PRIVATE \"${SENSIM_TOOLS_PC_LIBS_PRIVATE}\")
  configure_file(\"${CMAKE_CURRENT_LIST_DIR}/sensim.pc.in\"
                 \"${PROJECT_BINARY_DIR}/sensim.pc\" @ONLY)
  configure_file(\"${CMAKE_CURRENT_LIST_DIR}/sensim_tools.pc.in\"
                 \"${PROJECT_BINARY_DIR}/sensim_tools.pc\" @ONLY)
")
install(FILES ${PROJECT_BINARY_DIR}/sensim.pc ${PROJECT_BINARY_DIR}/sensim_tools.pc
  DESTINATION ${SENSIM_INSTALL_PKGCONFIGDIR})

# ---- documents -------------------------------------------------------------

foreach(_doc README.md LICENSE)
  if(EXISTS ${PROJECT_SOURCE_DIR}/${_doc})
    install(FILES ${PROJECT_SOURCE_DIR}/${_doc} DESTINATION ${CMAKE_INSTALL_DOCDIR})
  endif()
endforeach()
