/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_BIT_SPINLOCK_H
#define _LINUX_BIT_SPINLOCK_H
#include <linux/preempt.h>
#include <preempt/bit_spinlock.h>
#endif
