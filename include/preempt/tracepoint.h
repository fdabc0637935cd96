/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_TRACEPOINT_H
#define PREEMPT_TRACEPOINT_H

/*
 * Tracepoints: where the lower layers (count, debug, irq, sched) tell a
 * tracer what happens, without depending on it.  The trace layer fills in
 * one table of functions when tracing starts and clears the pointer when it
 * stops, so every hook is one load and one predictable branch while
 * tracing is off.  The table itself is never freed: a hook that loaded the
 * pointer just before tracing stopped still calls valid code.
 *
 * Hooks run in whatever context the event happens in, signal handlers
 * included, so the functions behind them must be async-signal-safe and
 * must not call the primitives they trace.
 */

#include <preempt/preempt.h>

struct task_struct;

/*
 * @irqs_off:     after the outermost interrupt disable (depth 0 -> 1)
 * @irqs_on:      before an enabling edge (any depth -> 0); also called
 *                with interrupts already on, which the tracer ignores
 * @preempt_add:  after every checked preempt_count_add() (debug builds)
 * @preempt_sub:  before every checked preempt_count_sub() (debug builds)
 * @irq_entry:    before one handler of line @irq runs
 * @irq_exit:     after it, with what it returned
 * @softirq_entry, @softirq_exit: around one softirq vector's action
 * @sched_wakeup: @p was queued on @cpu by try_to_wake_up()
 */
struct pk_tracepoint_ops {
	void (*irqs_off)(unsigned long ip);
	void (*irqs_on)(unsigned long ip);
	void (*preempt_add)(unsigned long ip, int val);
	void (*preempt_sub)(unsigned long ip, int val);
	void (*irq_entry)(unsigned int irq, const char *name);
	void (*irq_exit)(unsigned int irq, int ret);
	void (*softirq_entry)(unsigned int vec);
	void (*softirq_exit)(unsigned int vec);
	void (*sched_wakeup)(struct task_struct *p, int cpu);
};

/* NULL while tracing is off (src/count/tracepoint.c). */
extern const struct pk_tracepoint_ops *pk_tracepoint_ops;

/*
 * pk_trace() - call tracepoint @event if tracing is on
 *
 * Any context.  Loads the table once, so a concurrent stop never leaves
 * the caller between a test and a NULL call.
 */
#define pk_trace(event, ...)                                                   \
	do {                                                                   \
		const struct pk_tracepoint_ops *__tp =                         \
			__atomic_load_n(&pk_tracepoint_ops, __ATOMIC_ACQUIRE); \
		if (unlikely(__tp))                                            \
			__tp->event(__VA_ARGS__);                              \
	} while (0)

#endif /* PREEMPT_TRACEPOINT_H */
