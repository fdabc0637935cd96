/* SPDX-License-Identifier: MIT */
#ifndef _ASM_IRQ_WORK_H
#define _ASM_IRQ_WORK_H

/*
 * The machine has an interrupt line for irq_work (a self-IPI):
 * arch_irq_work_raise() raises it, and its handler runs the raised items.
 */
#include <linux/types.h>

static inline bool arch_irq_work_has_interrupt(void)
{
	return true;
}

#endif
