/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_WRITEBACK_H
#define _LINUX_WRITEBACK_H
/* No page cache or writeback here. */
#include <linux/sched.h>
#endif
