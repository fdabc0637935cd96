/* SPDX-License-Identifier: MIT */
/* <linux/smp.h> for kernel code: the library's own header. */
#ifndef _LINUX_SMP_H
#define _LINUX_SMP_H

#include <linux/smp_types.h>
#include <preempt/smp.h>

/**
 * __smp_call_single_queue() - queue @node (an irq_work's) for CPU @cpu's
 * cross-call interrupt, and interrupt it if the queue was empty.  Any
 * context but NMI.  The handler runs each node's item with
 * irq_work_single().
 */
void __smp_call_single_queue(int cpu, struct llist_node *node);

#endif
