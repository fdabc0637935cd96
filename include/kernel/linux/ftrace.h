/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_FTRACE_H
#define _LINUX_FTRACE_H
/* No function tracer: the annotations compile to nothing. */
#include <linux/compiler.h>
#define ftrace_dump(mode) ((void)0)
#endif
