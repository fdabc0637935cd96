/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SRCU_H
#define _LINUX_SRCU_H

/* Sleepable RCU: the library's (<preempt/srcu.h>). */

#include <linux/rcupdate.h>
#include <preempt/srcu.h>

#endif /* _LINUX_SRCU_H */
