# cmake -DCC=<compiler> -DDIR=<include root> -DSUB=<subdir> -DFLAGS=<|-list>
#       -DOUT=<scratch dir> -P headers_check.cmake
#
# Every header under DIR/SUB compiled alone (#include it, nothing else):
# a header must include what it uses.  Implicit declarations are errors.
string(REPLACE "|" ";" FLAGS "${FLAGS}")
file(GLOB_RECURSE headers RELATIVE ${DIR} ${DIR}/${SUB}/*.h)
file(MAKE_DIRECTORY ${OUT})
set(failed 0)
foreach(h ${headers})
  string(MAKE_C_IDENTIFIER ${h} id)
  file(WRITE ${OUT}/${id}.c "#include <${h}>\n")
  execute_process(COMMAND ${CC} -fsyntax-only -std=gnu11 -Wall -Wextra -Werror
    -Werror=implicit-function-declaration ${FLAGS} ${OUT}/${id}.c
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc)
    message("${h} does not compile alone:\n${out}")
    math(EXPR failed "${failed} + 1")
  endif()
endforeach()
list(LENGTH headers n)
if(failed)
  message(FATAL_ERROR "${failed} of ${n} headers do not compile alone")
endif()
message("${n} headers compile alone")
