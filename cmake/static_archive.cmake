# libpreempt.a's one object (CMakeLists.txt, preempt_static): run as
#   cmake -DNM=.. -DOBJCOPY=.. -DIN=combined-ld-r.o -DOUT=combined.o -P this
# The library's API is made of weak definitions, so that a program's own
# definition of a kernel name (its own down() and up()) wins the link
# instead of clashing, as it interposes the shared library's; the
# symbols the library marks hidden become local, so they are names of this
# object only.  The pk_ names stay global: they are the library's reserved
# prefix, and the public headers' inline functions call them.
execute_process(COMMAND ${NM} -g --defined-only ${IN}
  OUTPUT_VARIABLE defs RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "${NM} ${IN} failed")
endif()
string(REPLACE "\n" ";" lines "${defs}")
set(api "")
foreach(l ${lines})
  # "address type name"; the API is every name outside pk_'s namespace.
  if(l MATCHES "^[0-9a-fA-F]+ [A-Za-z] (.+)$")
    set(name ${CMAKE_MATCH_1})
    if(NOT name MATCHES "^(__)?pk_")
      string(APPEND api "${name}\n")
    endif()
  endif()
endforeach()
file(WRITE ${OUT}.weaken ${api})
execute_process(COMMAND ${OBJCOPY} --localize-hidden
  --weaken-symbols=${OUT}.weaken ${IN} ${OUT} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "${OBJCOPY} ${IN} failed")
endif()
