/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_PREEMPT_H
#define _LINUX_PREEMPT_H
/* The preemption counter and context predicates: the library's. */
#include <linux/compiler.h>
#include <preempt/preempt.h>
#include <preempt/sched.h>
#endif
