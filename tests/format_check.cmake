# Fails when any C file differs from what .clang-format makes of it.
file(GLOB_RECURSE files ${ROOT}/include/*.h ${ROOT}/src/*.[ch] ${ROOT}/tools/*.[ch]
     ${ROOT}/tests/*.[ch] ${ROOT}/bench/*.[ch])
execute_process(COMMAND ${CLANG_FORMAT} --dry-run -Werror ${files}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clang-format: run `make format`\n${err}")
endif()
