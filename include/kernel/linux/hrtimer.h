/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_HRTIMER_H
#define _LINUX_HRTIMER_H
#include <linux/ktime.h>
#include <preempt/hrtimer.h>
#endif
