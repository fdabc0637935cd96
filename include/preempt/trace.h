/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_TRACE_H
#define PREEMPT_TRACE_H

/*
 * The trace layer: a lock-free event ring per CPU (a vCPU, or a plain
 * thread, which is its own CPU) and ftrace's latency tracers on top.
 *
 * Events: interrupts disabled and enabled at the outermost level,
 * preemption disabled and enabled at the outermost level, irq handler
 * entry and exit, softirq vector entry and exit, sched switch and wake-up.
 * Each carries a timestamp and the context word at the event, from which
 * the output derives ftrace's flags (irqs-off, bh-off, need-resched,
 * hardirq/softirq/NMI, preempt depth, migrate-disable depth).
 *
 * The tracers (kernel semantics):
 *   irqsoff         the longest section with interrupts disabled
 *   preemptoff      the longest section with preemption disabled
 *   preemptirqsoff  the longest section with either disabled
 * Each keeps the maximum over all CPUs with where it started and ended,
 * and the events recorded inside it.
 *
 * Tracing is off by default; then every hook costs one load and one
 * predictable branch.  What is seen depends on the build, as in Linux:
 * interrupt-disable edges need CONFIG_TRACE_IRQFLAGS (on with the debug
 * checks, and decided per translation unit, since local_irq_*() are
 * inline) and preemption edges the out-of-line preempt_count_add/sub() of
 * CONFIG_DEBUG_PREEMPT.  Interrupt, softirq and scheduler events are
 * always there.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum pk_tracer {
	PK_TRACER_NOP, /* events only */
	PK_TRACER_IRQSOFF,
	PK_TRACER_PREEMPTOFF,
	PK_TRACER_PREEMPTIRQSOFF,
	PK_TRACER_NR,
};

enum pk_trace_type {
	PK_TRACE_IRQS_OFF,
	PK_TRACE_IRQS_ON,
	PK_TRACE_PREEMPT_OFF,
	PK_TRACE_PREEMPT_ON,
	PK_TRACE_IRQ_ENTRY,
	PK_TRACE_IRQ_EXIT,
	PK_TRACE_SOFTIRQ_ENTRY,
	PK_TRACE_SOFTIRQ_EXIT,
	PK_TRACE_SCHED_SWITCH,
	PK_TRACE_SCHED_WAKEUP,
	PK_TRACE_NR_TYPES,
};

/* The event was recorded on a vCPU thread of a booted machine. */
#define PK_TRACE_F_VCPU 0x1
#define PK_TRACE_F_LAZY 0x2 /* a lazy reschedule was owed */

/*
 * One event.  @word is the context word at the event (need-resched
 * inverted, as in the word; the bottom-half state of rt tasks folded into
 * the softirq field); @cpu, @pid and @comm say who ran.
 */
struct pk_trace_entry {
	uint64_t ts; /* CLOCK_MONOTONIC, ns */
	uint32_t word;
	uint8_t type; /* enum pk_trace_type */
	uint8_t flags;
	uint8_t migrate; /* migrate_disable() depth */
	uint8_t cpu;
	int32_t pid;
	char comm[16];
	union {
		struct {
			unsigned long ip;     /* the caller */
			unsigned long parent; /* its caller; 0: unknown */
		} ctx;
		struct {
			int32_t irq, ret;
			char name[16];
		} irq;
		struct {
			int32_t vec;
		} softirq;
		struct {
			int32_t prev_prio, prev_state, next_pid, next_prio;
			char next_comm[16];
		} sw;
		struct {
			int32_t pid, prio, target_cpu;
			char comm[16];
		} wakeup;
	};
};

/*
 * struct pk_trace_config - what pk_trace_start() sets up
 * @tracer: enum pk_tracer
 * @buffer_events: ring size per CPU, rounded up to a power of two;
 *                 0 for the default (16384)
 */
struct pk_trace_config {
	int tracer;
	unsigned int buffer_events;
};

/**
 * pk_trace_start() - reset the buffers and the maximum, start tracing
 * @cfg: tracer and buffer size; NULL for preemptirqsoff and the default
 *
 * Task or thread context.  The first start registers a context-switch
 * hook, which the scheduler allows only while no machine is booted: start
 * once before machine_boot().  Returns 0, -EINVAL for a bad @cfg, -EBUSY
 * while tracing or when the first start finds a machine booted, -ENOMEM.
 */
int pk_trace_start(const struct pk_trace_config *cfg);

/**
 * pk_trace_stop() - stop tracing, keeping the buffers for the reports
 *
 * Any context but a tracepoint's.
 */
void pk_trace_stop(void);

/** tracing_on() - resume recording after tracing_off().  Any context. */
void tracing_on(void);

/**
 * tracing_off() - stop recording at once, e.g. where a problem was seen
 *
 * Any context.  The buffers keep what led up to it.
 */
void tracing_off(void);

/** tracing_is_on() - is the ring recording?  Any context. */
bool tracing_is_on(void);

/** pk_tracer_parse() - tracer from its ftrace name, or -1. */
int pk_tracer_parse(const char *name);

/** pk_tracer_str() - the tracer's ftrace name ("irqsoff", ...). */
const char *pk_tracer_str(int tracer);

/*
 * struct pk_trace_max - the longest section seen
 * @latency_ns: its length; @start_ts: its start (CLOCK_MONOTONIC, ns)
 * @start_ip, @end_ip: where it started and ended
 * @cpu: the CPU; @nr_cpus how many the machine had
 * @pid, @comm, @policy, @prio: the task running when it ended
 * @entries: events kept; @total: events recorded inside it
 */
#define PK_TRACE_STACK 16 /* frames kept of a maximum's end */

struct pk_trace_max {
	uint64_t latency_ns, start_ts;
	unsigned long start_ip, end_ip;
	unsigned long
		stack[PK_TRACE_STACK]; /* where it ended, innermost first */
	int nr_stack;
	int cpu, nr_cpus;
	int pid, policy, prio;
	char comm[16];
	unsigned long entries, total;
};

/**
 * pk_trace_max() - the longest section of the current trace
 * @max: receives it
 *
 * Task or thread context.  Returns false when the tracer saw none.
 */
bool pk_trace_max(struct pk_trace_max *max);

/**
 * pk_trace_max_events() - copy the events of the longest section
 * @buf: room for @nr events
 *
 * Task or thread context.  Returns how many were copied.
 */
unsigned long pk_trace_max_events(struct pk_trace_entry *buf, unsigned long nr);

/**
 * pk_trace_reset_max() - forget the maximum (ftrace: echo 0 >
 * tracing_max_latency).  Task or thread context.
 */
void pk_trace_reset_max(void);

/**
 * pk_trace_print_latency() - the longest section in ftrace's latency
 * format (tracer, latency header, started/ended at, flag legend, events)
 *
 * Task or thread context.  Returns 0, or -ENODATA without a section.
 */
int pk_trace_print_latency(FILE *out);

/**
 * pk_trace_print_chrome() - every buffered event as Chrome trace-event
 * JSON: a track per CPU with task slices, hardirq and softirq spans, and
 * the interrupts-off/preemption-off sections on a second track
 *
 * Task or thread context, tracing stopped.  Returns 0 or -EIO.
 */
int pk_trace_print_chrome(FILE *out);

/**
 * pk_trace_lat_flags() - @e's five flag characters as the latency report
 * prints them (irqs-off, need-resched, context, preempt depth,
 * migrate-disable), NUL-terminated.  Any context.
 */
void pk_trace_lat_flags(const struct pk_trace_entry *e, char flags[6]);

/**
 * pk_trace_for_each_event() - call @fn on each buffered event of
 * each CPU in order, CPU after CPU
 *
 * Task or thread context.  Returns the number of events visited.
 */
unsigned long pk_trace_for_each_event(void (*fn)(const struct pk_trace_entry *e,
						 void *arg),
				      void *arg);

/** pk_trace_lost() - events dropped (no CPU slot, or a ring slot busy). */
unsigned long pk_trace_lost(void);

#endif /* PREEMPT_TRACE_H */
