/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_TIMEKEEPING_H
#define _LINUX_TIMEKEEPING_H
#include <linux/ktime.h>
#endif
