/* SPDX-License-Identifier: MIT */
#ifndef PK_PORT_IRQSTACK_H
#define PK_PORT_IRQSTACK_H

/*
 * Interrupt stacks: one per CPU thread, installed as its sigaltstack, so
 * that interrupt and NMI frames never land on a task stack (the kernel's
 * per-CPU irq stacks).
 */

#include <stddef.h>

/*
 * Handlers are ordinary C: room for a report buffer or two and nesting.
 * A signal frame alone is some 9 KiB on arm64 with SVE (qemu's default
 * CPU has it), and a storm nests frames: 128 KiB overflowed there.
 * Untouched pages cost nothing.
 */
#if defined(__SANITIZE_ADDRESS__)
#define PK_IRQ_STACK_SIZE (1024 * 1024) /* ASan's redzones triple frames */
#else
#define PK_IRQ_STACK_SIZE (512 * 1024)
#endif

/** struct pk_irq_stack - an interrupt stack with a guard page below it */
struct pk_irq_stack {
	void *map;
	size_t map_size;
	void *base; /* [base, base + size) */
	size_t size;
};

/**
 * pk_irq_stack_alloc() - map an interrupt stack of PK_IRQ_STACK_SIZE
 *
 * Task context.  Returns 0 or -errno.
 */
int pk_irq_stack_alloc(struct pk_irq_stack *s);

/** pk_irq_stack_free() - unmap it; no signal may run on it any more. */
void pk_irq_stack_free(struct pk_irq_stack *s);

#endif /* PK_PORT_IRQSTACK_H */
