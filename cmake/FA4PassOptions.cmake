# fa4_pass_options(<output.inc> TD <Passes.td> TARGET <target>
#                  PASSES <record>... [SKIP <Pass.cppName>...])
# Lists the options of the named passes of <Passes.td> as an X-macro
# (cmake/gen-pass-options.py), so that a pipeline offers them without
# declaring them again. <target> is made to depend on the list.
find_program(FA4_LLVM_TABLEGEN llvm-tblgen
  HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

function(fa4_pass_options output)
  cmake_parse_arguments(ARG "" "TD;TARGET" "PASSES;SKIP" ${ARGN})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${output})
  get_filename_component(stem ${output} NAME_WE)
  set(json ${CMAKE_CURRENT_BINARY_DIR}/${stem}.json)
  set(includes)
  foreach(dir ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS}
      ${PROJECT_SOURCE_DIR}/include)
    list(APPEND includes -I ${dir})
  endforeach()
  set(args)
  foreach(pass ${ARG_PASSES})
    list(APPEND args --pass ${pass})
  endforeach()
  foreach(skip ${ARG_SKIP})
    list(APPEND args --skip ${skip})
  endforeach()
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${FA4_LLVM_TABLEGEN} --dump-json ${includes}
      ${CMAKE_CURRENT_SOURCE_DIR}/${ARG_TD} -o ${json}
    COMMAND ${Python3_EXECUTABLE}
      ${PROJECT_SOURCE_DIR}/cmake/gen-pass-options.py ${json} ${args}
      -o ${out}
    DEPENDS ${ARG_TD} ${PROJECT_SOURCE_DIR}/cmake/gen-pass-options.py
    COMMENT "Listing the options of ${ARG_PASSES}")
  add_custom_target(${ARG_TARGET}Options DEPENDS ${out})
  add_dependencies(${ARG_TARGET} ${ARG_TARGET}Options)
endfunction()
