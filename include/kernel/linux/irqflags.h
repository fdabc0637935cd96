/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_IRQFLAGS_H
#define _LINUX_IRQFLAGS_H
#include <preempt/irqflags.h>

/* lockdep's view of irq_work callbacks: no hardirq-context tracking here. */
#define lockdep_irq_work_enter(flags) ((void)(flags))
#define lockdep_irq_work_exit(flags) ((void)(flags))
#endif
