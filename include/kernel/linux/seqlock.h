/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SEQLOCK_H
#define _LINUX_SEQLOCK_H
#include <linux/spinlock.h>
#include <preempt/seqlock.h>
#endif
