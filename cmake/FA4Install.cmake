# The installed, exported package: `cmake --install` puts fa4's libraries
# (exported as FA4::<name> in FA4Targets.cmake), their headers and the
# TableGen'd .inc files, the C API as one shared library (libFA4C.so), the
# tools, and FA4Config.cmake, so that a project outside this tree does
#   find_package(FA4 REQUIRED CONFIG)
# (test/Install/consumer builds against it in CI).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(FA4_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/fa4)

# The C API as one shared library: fa4's C API and MLIR's IR/pass C API
# (Debian's libMLIR.so does not carry it) in one .so over libMLIR.so, for
# compilers that embed fa4 from C. The static libraries are built with
# -fPIC (LLVM_ENABLE_PIC).
function(fa4_add_c_api_shared_library)
  find_library(FA4_MLIR_CAPI_IR_ARCHIVE MLIRCAPIIR PATHS ${LLVM_LIBRARY_DIR}
    NO_DEFAULT_PATH)
  if(NOT FA4_MLIR_CAPI_IR_ARCHIVE)
    message(STATUS "libMLIRCAPIIR.a not found: libFA4C.so is not built")
    return()
  endif()
  add_library(FA4C SHARED $<TARGET_OBJECTS:obj.FA4CAPI>)
  target_link_libraries(FA4C PRIVATE
    -Wl,--whole-archive ${FA4_MLIR_CAPI_IR_ARCHIVE} -Wl,--no-whole-archive
    FA4Registration FA4Pipelines MLIR LLVM)
  target_link_options(FA4C PRIVATE -Wl,--no-undefined)
  set_target_properties(FA4C PROPERTIES INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
  target_include_directories(FA4C INTERFACE
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS FA4C EXPORT FA4Targets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

# Every fa4 library (add_mlir_*_library lists them in MLIR_EXPORTS; the two
# plain ones are named), its headers, the tools and the package files.
function(fa4_install_package)
  get_property(libraries GLOBAL PROPERTY MLIR_EXPORTS)
  list(APPEND libraries FA4Planning FA4Target)
  foreach(library IN LISTS libraries)
    target_include_directories(${library} INTERFACE
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  endforeach()
  install(TARGETS ${libraries} EXPORT FA4Targets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  # Installed binaries find Debian's libMLIR.so / libLLVM.so (not on the
  # loader's path) where the build did.
  set_target_properties(fa4-opt fa4-compile PROPERTIES
    INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
  install(TARGETS fa4-opt fa4-compile
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/fa4
                    ${PROJECT_SOURCE_DIR}/include/fa4-c
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
  install(DIRECTORY ${PROJECT_BINARY_DIR}/include/fa4
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.inc" PATTERN "*.h"
    PATTERN "CMakeFiles" EXCLUDE)

  install(EXPORT FA4Targets NAMESPACE FA4::
    DESTINATION ${FA4_INSTALL_CMAKEDIR})
  configure_package_config_file(
    ${PROJECT_SOURCE_DIR}/cmake/FA4Config.cmake.in
    ${PROJECT_BINARY_DIR}/lib/cmake/fa4/FA4Config.cmake
    INSTALL_DESTINATION ${FA4_INSTALL_CMAKEDIR}
    PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
  write_basic_package_version_file(
    ${PROJECT_BINARY_DIR}/lib/cmake/fa4/FA4ConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/lib/cmake/fa4/FA4Config.cmake
                ${PROJECT_BINARY_DIR}/lib/cmake/fa4/FA4ConfigVersion.cmake
    DESTINATION ${FA4_INSTALL_CMAKEDIR})
endfunction()
