# make install / uninstall (GNU conventions: PREFIX, DESTDIR): headers,
# libpreempt.so.MAJOR with its links, libpreempt.a, the preempt tool, man
# pages, bash completion, libpreempt.pc and the CMake package config.
# No RPATH is installed (CMake strips the build tree's on install).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS preempt preempt_static preempt_wrap preempt_tool
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/preempt DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# preempt audit's semantic patch.
install(FILES tools/audit/context.cocci
  DESTINATION ${CMAKE_INSTALL_DATADIR}/preempt)

# libpreempt.pc twice: for the build tree (PKG_CONFIG_PATH=build) and, at
# install time, for the prefix installed to.
set(PC_DEFS "")
set(PC_CMAKE_DEFS "")
foreach(d ${PREEMPT_NODEBUG_DEFS})
  string(APPEND PC_DEFS " -D${d}")
  list(APPEND PC_CMAKE_DEFS ${d})
endforeach()
# --static: the blocking-call detector's --wrap recipe (docs/blocking.md).
set(PC_WRAP "${PREEMPT_BLOCKING_WRAP_STR}")
# The same recipe, a list, for the CMake package's preempt_static.
set(PC_CMAKE_WRAP "${PREEMPT_BLOCKING_WRAP}")
set(PC_PREFIX ${PROJECT_BINARY_DIR})
set(PC_INCLUDEDIR ${PROJECT_SOURCE_DIR}/include)
set(PC_LIBDIR ${PROJECT_BINARY_DIR})
configure_file(cmake/libpreempt.pc.in ${PROJECT_BINARY_DIR}/libpreempt.pc @ONLY)
# The prefix is known only at install time (cmake --install --prefix).
install(CODE "
  set(PROJECT_VERSION ${PROJECT_VERSION})
  set(PC_DEFS \"${PC_DEFS}\")
  set(PC_WRAP \"${PREEMPT_BLOCKING_WRAP_STR}\")
  set(PC_PREFIX \${CMAKE_INSTALL_PREFIX})
  set(PC_INCLUDEDIR \"\\\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}\")
  set(PC_LIBDIR \"\\\${prefix}/${CMAKE_INSTALL_LIBDIR}\")
  set(pc \${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/libpreempt.pc)
  message(STATUS \"Installing: \$ENV{DESTDIR}\${pc}\")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/libpreempt.pc.in
    \$ENV{DESTDIR}\${pc} @ONLY)
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES \${pc})
")

set(PK_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/libpreempt)
configure_package_config_file(cmake/libpreemptConfig.cmake.in
  ${PROJECT_BINARY_DIR}/install/libpreemptConfig.cmake
  INSTALL_DESTINATION ${PK_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/install/libpreemptConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/install/libpreemptConfig.cmake
  ${PROJECT_BINARY_DIR}/install/libpreemptConfigVersion.cmake
  DESTINATION ${PK_CMAKE_DIR})

# Man pages: docs/man/*.scd through scdoc (Debian's scdoc; `make test`
# installs it).  Without scdoc there are no pages, and the man test says so.
find_program(SCDOC scdoc)
file(GLOB PK_MAN_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/man/*.scd)
set(PK_MAN_DIR ${PROJECT_BINARY_DIR}/man)
set(PK_MAN_PAGES)
if(SCDOC)
  foreach(src ${PK_MAN_SOURCES})
    get_filename_component(page ${src} NAME_WLE)
    string(REGEX REPLACE ".*\\.([0-9])$" "\\1" section ${page})
    add_custom_command(OUTPUT ${PK_MAN_DIR}/${page}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PK_MAN_DIR}
      COMMAND ${SCDOC} < ${src} > ${PK_MAN_DIR}/${page}
      DEPENDS ${src} VERBATIM)
    list(APPEND PK_MAN_PAGES ${PK_MAN_DIR}/${page})
    install(FILES ${PK_MAN_DIR}/${page}
      DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
  endforeach()
  # Aliases: a page that only sources another (.so), copied as it is.
  file(GLOB PK_MAN_ALIASES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/man/*.so)
  foreach(src ${PK_MAN_ALIASES})
    get_filename_component(page ${src} NAME_WLE)
    string(REGEX REPLACE ".*\\.([0-9])$" "\\1" section ${page})
    configure_file(${src} ${PK_MAN_DIR}/${page} COPYONLY)
    install(FILES ${PK_MAN_DIR}/${page}
      DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
  endforeach()
  add_custom_target(man ALL DEPENDS ${PK_MAN_PAGES})
endif()

install(FILES tools/completion/preempt.bash
  DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions
  RENAME preempt)
