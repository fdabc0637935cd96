/* SPDX-License-Identifier: MIT */
#ifndef PK_PORT_IRQRET_H
#define PK_PORT_IRQRET_H

/*
 * Interrupt return into the task's own context (irqret_x86_64.S says how).
 * The irq layer asks for it from a handler about to return to preemptible
 * task code; the port resumes that code in the function the irq layer
 * gave it, on the task's stack with its state saved, and then where it was.
 */

#include <stdbool.h>

/*
 * pk_port_irq_return_init() - read the CPU's extended-state size, and take
 * @fn, which every redirected return calls in the task's own context.
 * Thread context, before the first redirect.  False where the port cannot
 * redirect (then interrupt return preempts through PK_SIGRESCHED).
 */
bool pk_port_irq_return_init(void (*fn)(void));

/*
 * pk_port_irq_return_redirect() - make the signal handler's return resume
 * @uctx's code through the function given at init.  Signal context; the
 * interrupted stack pointer must be the task's, with room below its red
 * zone.
 */
void pk_port_irq_return_redirect(void *uctx);

#endif /* PK_PORT_IRQRET_H */
