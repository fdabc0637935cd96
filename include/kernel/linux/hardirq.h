/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_HARDIRQ_H
#define _LINUX_HARDIRQ_H
#include <linux/preempt.h>
#include <preempt/hardirq.h>
#endif
