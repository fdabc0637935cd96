# cmake -DOUT=<dir> -DINC=<preempt include root> -DKINC=<linux/ tree>
#       -DGENINC=<generated/> -DSYSINC=<C library view> -DLIBDIR=<libs>
#       -DCC_INCLUDE=<compiler's own headers> -DVERSION=x -DNODEBUG=0|1
#       -P kernel_pc.cmake
#
# Writes libpreempt-kernel.pc and libpreempt-kernel-rt.pc into OUT: what
# Kbuild gives a kernel file, as pkg-config flags (docs/kernel.md).
foreach(flavour "" "-rt")
  set(defs "-D__KERNEL__")
  if(flavour STREQUAL "-rt")
    string(APPEND defs " -DCONFIG_PREEMPT_RT=1")
  endif()
  if(NODEBUG)
    string(APPEND defs " -DCONFIG_DEBUG_PREEMPT=0 -DCONFIG_DEBUG_ATOMIC_SLEEP=0")
  endif()
  file(WRITE ${OUT}/libpreempt-kernel${flavour}.pc
"Name: libpreempt-kernel${flavour}
Description: Kernel code on libpreempt: the linux/ include tree and the kernel API
Version: ${VERSION}
Requires.private: libdw
Cflags: -nostdinc -isystem${CC_INCLUDE} -isystem${SYSINC} -I${KINC} -I${GENINC} -I${INC} -include linux/kconfig.h -include linux/compiler_types.h ${defs} -fno-strict-aliasing -fno-common -fno-delete-null-pointer-checks -fno-strict-overflow -Wno-pointer-sign -Wno-maybe-uninitialized
Libs: -L${LIBDIR} -lpreempt-kernel${flavour} -lpreempt -lpthread
")
endforeach()
