/* SPDX-License-Identifier: MIT */
#ifndef __LINUX_SMP_TYPES_H
#define __LINUX_SMP_TYPES_H

/*
 * The node by which kernel code queues work for a CPU's cross-call
 * interrupt (an irq_work here: kernel/irq_work.c's items): a lock-free
 * list link and one flags word, whose high nibble says what the node is.
 */

#include <linux/atomic.h>
#include <linux/llist.h>
#include <linux/types.h>

enum {
	IRQ_WORK_PENDING = 0x01,
	IRQ_WORK_BUSY = 0x02,
	IRQ_WORK_LAZY = 0x04,	  /* no IPI: the tick runs it */
	IRQ_WORK_HARD_IRQ = 0x08, /* hardirq context under PREEMPT_RT too */
	IRQ_WORK_CLAIMED = IRQ_WORK_PENDING | IRQ_WORK_BUSY,
	CSD_TYPE_ASYNC = 0x00,
	CSD_TYPE_SYNC = 0x10,
	CSD_TYPE_IRQ_WORK = 0x20,
	CSD_TYPE_TTWU = 0x30,
	CSD_FLAG_TYPE_MASK = 0xF0,
};

struct __call_single_node {
	struct llist_node llist;
	union {
		unsigned int u_flags;
		atomic_t a_flags;
	};
	u16 src, dst;
};

#endif
