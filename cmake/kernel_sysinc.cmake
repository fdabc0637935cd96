# cmake -DCC=<compiler> -DOUT=<dir> -P kernel_sysinc.cmake
#
# Kernel code must not reach the host's UAPI headers (/usr/include/linux,
# asm, asm-generic) by accident: a <linux/foo.h> the tree lacks has to be
# an error, not the user-space header of the same name.  So the kernel
# flags drop the compiler's system directories (-nostdinc) and put back
# the compiler's own directory plus OUT: a view of the C library's
# directories in which those three names are missing.  The C library's
# headers that need <linux/errno.h> or <linux/limits.h> get the tree's.
#
# The exception: asm/sigcontext.h and asm/sve_context.h, which arm64's
# <signal.h> needs (the library's headers include <signal.h>).
#
# Writes OUT/ (symlinks) and OUT/flags.txt (one flag a line).
execute_process(COMMAND ${CC} -xc -E -v -
  INPUT_FILE /dev/null OUTPUT_QUIET ERROR_VARIABLE log)
string(REGEX MATCH "#include <...> search starts here:\n(.*)\nEnd of search list"
       _ "${log}")
string(REPLACE "\n" ";" dirs "${CMAKE_MATCH_1}")
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(flags "-nostdinc")
set(first TRUE)
foreach(d ${dirs})
  string(STRIP "${d}" d)
  get_filename_component(d "${d}" REALPATH)
  if(first)
    # The compiler's own headers (stddef.h, stdarg.h, intrinsics).
    string(APPEND flags "\n-isystem\n${d}")
    set(first FALSE)
    continue()
  endif()
  # The few UAPI headers the C library's own headers include (arm64's
  # <bits/sigcontext.h>): these two files, not the directory.
  foreach(h sigcontext.h sve_context.h)
    if(EXISTS ${d}/asm/${h} AND NOT EXISTS ${OUT}/asm/${h})
      file(MAKE_DIRECTORY ${OUT}/asm)
      file(CREATE_LINK ${d}/asm/${h} ${OUT}/asm/${h} SYMBOLIC)
    endif()
  endforeach()
  file(GLOB entries RELATIVE ${d} ${d}/*)
  foreach(e ${entries})
    if(e MATCHES "^(linux|asm|asm-generic)$" OR EXISTS ${OUT}/${e}
       OR IS_SYMLINK ${OUT}/${e})
      continue()
    endif()
    file(CREATE_LINK ${d}/${e} ${OUT}/${e} SYMBOLIC)
  endforeach()
endforeach()
string(APPEND flags "\n-isystem\n${OUT}")
file(WRITE ${OUT}/flags.txt "${flags}\n")
