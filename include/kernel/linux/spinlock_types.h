/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SPINLOCK_TYPES_H
#define _LINUX_SPINLOCK_TYPES_H
#include <linux/lockdep_types.h>
#include <preempt/spinlock.h>
#endif
