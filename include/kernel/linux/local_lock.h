/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_LOCAL_LOCK_H
#define _LINUX_LOCAL_LOCK_H
#include <linux/percpu-defs.h>
#include <preempt/local_lock.h>

/* Every possible CPU's instance, in the offset model. */
#undef local_lock_init
#define local_lock_init(pcpu)                                                  \
	do {                                                                   \
		for (int __i = 0; __i < NR_CPUS; __i++)                        \
			spin_lock_init(&per_cpu_ptr(pcpu, __i)->sl);           \
	} while (0)
#endif
