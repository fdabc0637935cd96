/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_BUG_H
#define _LINUX_BUG_H

/* WARN*() and BUG*() (the library's: reported with a backtrace). */

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <preempt/bug.h>

#define WARN_TAINT(cond, taint, ...) WARN(cond, __VA_ARGS__)
#define WARN_TAINT_ONCE(cond, taint, ...) WARN_ONCE(cond, __VA_ARGS__)
#define WARN_ON_SMP(cond) WARN_ON(cond)
#define __WARN() WARN(1, NULL)
#define __WARN_printf(taint, ...) WARN(1, __VA_ARGS__)

#endif /* _LINUX_BUG_H */
