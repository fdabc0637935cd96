/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_BUG_H
#define _LINUX_BUG_H

/* WARN*() and BUG*() (the library's: reported with a backtrace). */

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/linkage.h>
#include <preempt/bug.h>

/*
 * Kernel code's WARN() messages are kernel formats (%ps, %pe, ...): they
 * are formatted with the kernel's vsnprintf() into a stack buffer first,
 * then reported as a plain string.  Returns NULL for a NULL @fmt.
 */
__printf(3, 4) const
	char *pk_kernel_warn_fmt(char *buf, size_t size, const char *fmt, ...);
#define pk_warn_slowpath(file, line, ...)                                      \
	({                                                                     \
		char __pk_wb[256];                                             \
		const char *__pk_wm = pk_kernel_warn_fmt(                      \
			__pk_wb, sizeof(__pk_wb), __VA_ARGS__);                \
		(pk_warn_slowpath)(file, line, __pk_wm ? "%s" : NULL,          \
				   __pk_wm);                                   \
	})

/*
 * CHECK_DATA_CORRUPTION() - report @condition (a corrupt structure) and
 * say whether it held, so the caller can leave the structure alone: a
 * warning, or BUG() under CONFIG_BUG_ON_DATA_CORRUPTION.
 */
#define CHECK_DATA_CORRUPTION(condition, ...)                                  \
	({                                                                     \
		bool __pk_corrupt = unlikely(condition);                       \
		if (__pk_corrupt) {                                            \
			if (IS_ENABLED(CONFIG_BUG_ON_DATA_CORRUPTION)) {       \
				pr_err(__VA_ARGS__);                           \
				BUG();                                         \
			} else {                                               \
				WARN(1, __VA_ARGS__);                          \
			}                                                      \
		}                                                              \
		__pk_corrupt;                                                  \
	})

#define WARN_TAINT(cond, taint, ...) WARN(cond, __VA_ARGS__)
#define WARN_TAINT_ONCE(cond, taint, ...) WARN_ONCE(cond, __VA_ARGS__)
#define WARN_ON_SMP(cond) WARN_ON(cond)
#define __WARN() WARN(1, NULL)
#define __WARN_printf(taint, ...) WARN(1, __VA_ARGS__)

#endif /* _LINUX_BUG_H */
