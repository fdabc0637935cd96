/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_PROBE_H
#define PREEMPT_PROBE_H

/*
 * Context probes: a scripted walk through every kind of context transition
 * (preempt depth, bh disabled, serving softirq, hardirq, NMI, interrupts
 * disabled, and nested mixes) applied to the real word with the real
 * primitives, and a snapshot of every predicate.  `preempt tour` prints it,
 * the tests check it under every model, and workloads run it as a
 * consistency probe.
 */

#include <stdbool.h>
#include <stddef.h>

enum pk_probe_op {
	PK_PROBE_PREEMPT_DISABLE,
	PK_PROBE_PREEMPT_ENABLE,
	PK_PROBE_BH_DISABLE,
	PK_PROBE_BH_ENABLE,
	PK_PROBE_SOFTIRQ_ENTER, /* start serving a softirq: +0x100 */
	PK_PROBE_SOFTIRQ_EXIT,
	PK_PROBE_HARDIRQ_ENTER, /* hardirq entry: irqs off, +HARDIRQ_OFFSET */
	PK_PROBE_HARDIRQ_EXIT,
	PK_PROBE_NMI_ENTER, /* NMI entry: +NMI_OFFSET +HARDIRQ_OFFSET */
	PK_PROBE_NMI_EXIT,
	PK_PROBE_IRQ_SAVE, /* local_irq_save(), flags kept on a stack */
	PK_PROBE_IRQ_RESTORE,
	PK_PROBE_IRQ_DISABLE,
	PK_PROBE_IRQ_ENABLE,
	PK_PROBE_NR,
};

struct pk_probe_step {
	enum pk_probe_op op;
	const char *what; /* the step in words, for people */
};

/* The script; it starts and ends in plain task context. */
extern const struct pk_probe_step pk_probe_script[];
extern const size_t pk_probe_script_len;

/*
 * The flags of local_irq_save() and interrupt entry, innermost last.
 * Zero-initialize one per walk.
 */
struct pk_probe_state {
	unsigned int depth;
	unsigned long flags[16];
};

/**
 * pk_probe_apply() - perform one transition on the current task's word
 * @st: the walk's saved flags
 * @op: the transition
 *
 * Task context.  Returns 0, or -1 when @st has no room or nothing to pop.
 */
int pk_probe_apply(struct pk_probe_state *st, enum pk_probe_op op);

/** pk_probe_op_str() - the primitive behind @op, e.g. "local_bh_disable()". */
const char *pk_probe_op_str(enum pk_probe_op op);

/* Every predicate at one instant. */
struct pk_context {
	unsigned int count; /* preempt_count() */
	unsigned int hardirq_count, softirq_count, nmi_count, irq_count;
	bool in_nmi, in_hardirq, in_serving_softirq, in_softirq;
	bool in_interrupt, in_task, in_atomic, in_atomic_preempt_off;
	bool preemptible, irqs_disabled;
	unsigned char interrupt_context_level;
	bool need_resched;
};

/** pk_context_read() - snapshot every predicate.  Any context. */
void pk_context_read(struct pk_context *ctx);

/**
 * pk_context_rt() - turn @ctx, read in a task of a machine not booted rt,
 * into what the same step reads in a task of one booted rt
 *
 * PREEMPT_RT keeps a task's bh-disable state out of the word: those bits
 * leave the count, and in_atomic() and preemptible() follow the rest; the
 * softirq predicates answer as before.  Any context.
 */
void pk_context_rt(struct pk_context *ctx);

#endif /* PREEMPT_PROBE_H */
