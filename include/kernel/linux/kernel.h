/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H

/* The catch-all header: basics, printk, arithmetic helpers. */

#include <limits.h>
#include <stdarg.h>
#include <linux/align.h>
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/err.h>
#include <linux/kstrtox.h>
#include <linux/linkage.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/sprintf.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>

#define ARRAY_SIZE(arr)                                                        \
	(sizeof(arr) / sizeof((arr)[0]) +                                      \
	 BUILD_BUG_ON_ZERO(__same_type((arr), &(arr)[0])))
#define upper_32_bits(n) ((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n) ((u32)((n)&0xffffffff))
#define upper_16_bits(n) ((u16)((n) >> 16))
#define lower_16_bits(n) ((u16)((n)&0xffff))
#define REPEAT_BYTE(x) ((~0UL / 0xff) * (x))
#define _RET_IP_ ((unsigned long)__builtin_return_address(0))
#ifndef _THIS_IP_
#define _THIS_IP_                                                              \
	({                                                                     \
		__label__ __pk_here;                                           \
__pk_here:                                                                     \
		(unsigned long)&&__pk_here;                                    \
	})
#endif
#define STACK_MAGIC 0xdeadbeef
#define TAINT_WARN 9

enum system_states {
	SYSTEM_BOOTING,
	SYSTEM_SCHEDULING,
	SYSTEM_FREEING_INITMEM,
	SYSTEM_RUNNING,
	SYSTEM_HALT,
	SYSTEM_POWER_OFF,
	SYSTEM_RESTART,
	SYSTEM_SUSPEND,
};
/* SYSTEM_RUNNING once the machine has booted and run the initcalls. */
extern enum system_states system_state;

/*
 * Command-line parsing (lib/cmdline.c, which a program brings).  Task
 * context or any: they only read and (next_arg()) cut the string.
 */
int get_option(char **str, int *pint);
char *get_options(const char *str, int nints, int *ints);
/* "64K", "1G": a size with an optional K/M/G/T/P/E suffix. */
unsigned long long memparse(const char *ptr, char **retptr);
bool parse_option_str(const char *str, const char *option);
char *next_arg(char *args, char **param, char **val);

#include <preempt/debug.h>
#include <preempt/sched.h>

/** panic() - report and abort.  Any context. */
__printf(1, 2) __noreturn __cold void panic(const char *fmt, ...);
#define might_sleep_if(cond)                                                   \
	do {                                                                   \
		if (cond)                                                      \
			might_sleep();                                         \
	} while (0)

#endif /* _LINUX_KERNEL_H */
