/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_LOCAL_LOCK_H
#define _LINUX_LOCAL_LOCK_H
#include <linux/percpu-defs.h>
#include <preempt/local_lock.h>
#endif
