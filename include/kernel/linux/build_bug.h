/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_BUILD_BUG_H
#define _LINUX_BUILD_BUG_H

#include <linux/compiler.h>

/* A negative-width bit-field when @e is true: a compile-time error. */
#define BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int : (-!!(e)); })))
#define BUILD_BUG_ON_MSG(cond, msg) _Static_assert(!(cond), msg)
#define BUILD_BUG_ON(cond) BUILD_BUG_ON_MSG(cond, "BUILD_BUG_ON failed: " #cond)
#define BUILD_BUG_ON_NOT_POWER_OF_2(n)                                         \
	BUILD_BUG_ON((n) == 0 || (((n) & ((n)-1)) != 0))
#define BUILD_BUG() BUILD_BUG_ON_MSG(1, "BUILD_BUG failed")
#define static_assert(expr, ...) _Static_assert(expr, #expr)

#endif /* _LINUX_BUILD_BUG_H */
