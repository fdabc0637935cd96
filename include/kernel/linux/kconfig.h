/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_KCONFIG_H
#define _LINUX_KCONFIG_H

/*
 * Force-included first into every kernel file (the kernel's build does the
 * same with its kconfig.h): the configuration this library implements, and
 * the IS_ENABLED() family.
 *
 * The configuration is fixed by what the library is, except for two things
 * chosen when the library is built or the code is compiled:
 *  - the debug checks (PREEMPT_DEBUG): generated/autoconf.h;
 *  - CONFIG_PREEMPT_RT: Linux decides it at compile time, the machine at
 *    boot.  Code compiled with the plain flags is a PREEMPT_DYNAMIC kernel
 *    (none, voluntary, full and lazy chosen at boot, as preempt= does);
 *    code compiled with libpreempt-kernel-rt's flags (-DCONFIG_PREEMPT_RT=1)
 *    is an RT kernel.  At boot the kernel side checks that the model agrees
 *    with how the code was compiled and reports if not (docs/kernel.md).
 */

#include <generated/autoconf.h>

/*
 * The byte order as the kernel states it: only one of __LITTLE_ENDIAN and
 * __BIG_ENDIAN defined (kernel code asks #ifdef __BIG_ENDIAN), where the C
 * library's <endian.h> defines both, as values for __BYTE_ORDER.  Taken
 * here, first, so that its include guard keeps later includes from
 * defining the other one again.
 */
#include <endian.h>
#if __BYTE_ORDER == __LITTLE_ENDIAN
#undef __BIG_ENDIAN
#define __LITTLE_ENDIAN_BITFIELD
#else
#undef __LITTLE_ENDIAN
#define __BIG_ENDIAN_BITFIELD
#endif

#define CONFIG_SMP 1
#define CONFIG_64BIT 1
#define CONFIG_MMU 1
#define CONFIG_NR_CPUS 64
#define CONFIG_HZ 1000
#define CONFIG_PRINTK 1
#define CONFIG_PREEMPT_COUNT 1
#define CONFIG_PREEMPTION 1
#define CONFIG_PREEMPT_BUILD 1
#define CONFIG_PREEMPT_RCU 1
#define CONFIG_SRCU 1
#define CONFIG_GENERIC_ATOMIC64 1
#define CONFIG_BASE_SMALL 0
#define CONFIG_MODULES 1
#define CONFIG_HIGHMEM 1
#define CONFIG_JUMP_LABEL 1
#if defined(CONFIG_PREEMPT_RT)
#undef CONFIG_PREEMPT_RT
#define CONFIG_PREEMPT_RT 1
#else
#define CONFIG_PREEMPT_DYNAMIC 1
#endif

/*
 * IS_ENABLED(CONFIG_X) is 1 when CONFIG_X is defined to 1 (or to 1 via
 * a module build, CONFIG_X_MODULE), 0 otherwise, usable in #if and C.
 * The trick: a symbol defined to 1 pastes into __PK_ARG_PLACEHOLDER_1,
 * which expands to "0," and shifts a 1 into the second argument.
 */
#define __PK_ARG_PLACEHOLDER_1 0,
#define __pk_take_second(ignored, val, ...) val
#define ___pk_is_defined(arg_or_junk) __pk_take_second(arg_or_junk 1, 0, 0)
#define __pk_is_defined(val) ___pk_is_defined(__PK_ARG_PLACEHOLDER_##val)
#define __is_defined(x) __pk_is_defined(x)
#define IS_BUILTIN(option) __is_defined(option)
#define IS_MODULE(option) __is_defined(option##_MODULE)
#define IS_REACHABLE(option) (IS_BUILTIN(option) || IS_MODULE(option))
#define IS_ENABLED(option) (IS_BUILTIN(option) || IS_MODULE(option))

#endif /* _LINUX_KCONFIG_H */
