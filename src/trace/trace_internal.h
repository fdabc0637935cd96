/* SPDX-License-Identifier: MIT */
#ifndef PK_TRACE_INTERNAL_H
#define PK_TRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <preempt/trace.h>

#include "ring.h"

#define PK_TRACE_MAX_CPUS 64 /* host threads that may record per trace */
#define PK_TRACE_DEFAULT_EVENTS 16384

/* A section that just ended: ring indices (UINT64_MAX: not recorded). */
struct pk_trace_section {
	uint64_t start_ts, end_ts, start_idx, end_idx;
	unsigned long start_ip, end_ip;
	unsigned long stack[PK_TRACE_STACK];
	int nr_stack;
};

/*
 * One CPU (host thread) of the current trace.  The open section is
 * written only by its thread; the kept maximum is a seqcount-guarded copy
 * that reports read from other threads.
 */
/*
 * A CPU's buffers, in a region mapped per buffer size and never unmapped.
 * A hook reads the pointer to them once, so the ring it writes and the
 * kept events it copies to always agree in size, even against a start that
 * maps a new size meanwhile.
 */
struct pk_trace_buf {
	struct pk_ring ring;
	struct pk_trace_entry *max_ev; /* as many as the ring's slots */
};

struct pk_trace_cpu {
	struct pk_trace_buf *buf;
	uint64_t first;	    /* this trace's first index in the ring */
	unsigned int ready; /* the generation that claimed it */
	int tid;

	int sect_on;
	unsigned int
		sect_epoch; /* a section from before tracing_on() is void */
	uint64_t sect_ts, sect_idx;
	unsigned long sect_ip;

	unsigned int max_seq; /* odd while the copy below changes */
	int max_busy;
	struct pk_trace_max max;
};

/* @t's buffers, read once per use (see struct pk_trace_buf). */
static inline struct pk_trace_buf *pk_trace_buf_of(struct pk_trace_cpu *t)
{
	return __atomic_load_n(&t->buf, __ATOMIC_ACQUIRE);
}

struct pk_trace_state {
	struct pk_trace_cpu cpus[PK_TRACE_MAX_CPUS];
	unsigned int gen;	 /* bumped by every start */
	unsigned int epoch;	 /* bumped by every tracing_on() */
	unsigned int nr_claimed; /* slots handed out (may pass the max) */
	unsigned int size;	 /* ring slots per CPU, 0 until allocated */
	int tracer;
	int hooked; /* the switch hook is registered */
	uint64_t max_latency_ns;
	unsigned long lost;
};

extern struct pk_trace_state pk_tracer_state;

/* Keep @s as @t's maximum if it beats the global one (tracepoint context). */
void pk_trace_update_max(struct pk_trace_cpu *t,
			 const struct pk_trace_section *s);

/* Slot @i if a thread claimed it in the current trace, else NULL. */
struct pk_trace_cpu *pk_trace_cpu_at(unsigned int i);

/* The slot holding the longest section, and a stable copy of its data. */
struct pk_trace_cpu *pk_trace_best(struct pk_trace_max *max);

/* Call @fn on each of @t's buffered events, oldest first; how many. */
unsigned long pk_trace_cpu_events(struct pk_trace_cpu *t,
				  void (*fn)(const struct pk_trace_entry *e,
					     void *arg),
				  void *arg);

/* ftrace's five flag characters for @e, and its event text. */
void pk_trace_event_text(const struct pk_trace_entry *e, char *buf,
			 size_t size);
/* The task's name as ftrace shows it (<idle> for the idle tasks). */
const char *pk_trace_comm(const struct pk_trace_entry *e);

#endif /* PK_TRACE_INTERNAL_H */
