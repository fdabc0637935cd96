// SPDX-License-Identifier: MIT
/*
 * The maximum: each CPU keeps its own copy of the longest section it saw
 * that was, when it ended, the longest anywhere.  A copy per CPU needs no
 * lock, so a tracepoint never waits (it may run in a signal handler that
 * interrupted a copy on its own thread: then it skips).  Reports pick the
 * longest of the copies.
 */
#include <string.h>

#include <preempt/sched.h>

#include "trace_internal.h"

struct pk_trace_cpu *pk_trace_cpu_at(unsigned int i)
{
	unsigned int gen =
		__atomic_load_n(&pk_tracer_state.gen, __ATOMIC_ACQUIRE);
	struct pk_trace_cpu *t;

	if (i >= PK_TRACE_MAX_CPUS)
		return NULL;
	t = &pk_tracer_state.cpus[i];
	return __atomic_load_n(&t->ready, __ATOMIC_ACQUIRE) == gen ? t : NULL;
}

/* Copy the ring's events of @s that are still there; returns how many. */
static unsigned long copy_events(struct pk_trace_cpu *t,
				 const struct pk_trace_section *s,
				 unsigned long *total)
{
	struct pk_trace_buf *buf = pk_trace_buf_of(t);
	uint64_t head = pk_ring_head(&buf->ring);
	uint64_t hi = s->end_idx != UINT64_MAX ? s->end_idx + 1 : head;
	uint64_t lo = s->start_idx != UINT64_MAX ? s->start_idx : t->first;
	uint64_t tail = pk_ring_tail(&buf->ring, head);
	unsigned long n = 0;

	*total = hi > lo ? (unsigned long)(hi - lo) : 0;
	if (lo < tail)
		lo = tail;
	if (lo < t->first)
		lo = t->first;
	for (uint64_t i = lo; i < hi; i++) {
		struct pk_trace_entry *e = &buf->max_ev[n];

		if (pk_ring_read(&buf->ring, i, e) && e->ts >= s->start_ts &&
		    e->ts <= s->end_ts)
			n++;
	}
	return n;
}

static void fill_max(struct pk_trace_cpu *t, const struct pk_trace_section *s,
		     unsigned long entries, unsigned long total)
{
	struct task_struct *p = current;
	struct pk_trace_max *m = &t->max;

	m->latency_ns = s->end_ts - s->start_ts;
	m->start_ts = s->start_ts;
	m->start_ip = s->start_ip;
	m->end_ip = s->end_ip;
	m->nr_stack = s->nr_stack;
	memcpy(m->stack, s->stack, sizeof(m->stack));
	m->cpu = p->cpu >= 0 ? p->cpu : raw_smp_processor_id();
	m->nr_cpus = num_online_cpus();
	m->pid = p->pid;
	m->policy = p->policy;
	m->prio = p->prio;
	memcpy(m->comm, p->comm, sizeof(m->comm));
	m->comm[sizeof(m->comm) - 1] = '\0';
	m->entries = entries;
	m->total = total;
}

/* The global maximum only grows while a trace runs. */
static void raise_global(uint64_t latency)
{
	uint64_t old = __atomic_load_n(&pk_tracer_state.max_latency_ns,
				       __ATOMIC_RELAXED);

	while (old < latency &&
	       !__atomic_compare_exchange_n(&pk_tracer_state.max_latency_ns,
					    &old, latency, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

void pk_trace_update_max(struct pk_trace_cpu *t,
			 const struct pk_trace_section *s)
{
	unsigned long entries, total;

	if (__atomic_exchange_n(&t->max_busy, 1, __ATOMIC_ACQUIRE))
		return;
	__atomic_add_fetch(&t->max_seq, 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	entries = copy_events(t, s, &total);
	fill_max(t, s, entries, total);
	__atomic_add_fetch(&t->max_seq, 1, __ATOMIC_RELEASE);
	raise_global(s->end_ts - s->start_ts);
	__atomic_store_n(&t->max_busy, 0, __ATOMIC_RELEASE);
}

/* @t's maximum, read between two equal even sequence numbers. */
static bool read_max(struct pk_trace_cpu *t, struct pk_trace_max *m)
{
	for (int tries = 0; tries < 1000; tries++) {
		unsigned int seq =
			__atomic_load_n(&t->max_seq, __ATOMIC_ACQUIRE);

		if (seq & 1)
			continue;
		memcpy(m, &t->max, sizeof(*m));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&t->max_seq, __ATOMIC_RELAXED) == seq)
			return m->latency_ns != 0;
	}
	return false;
}

struct pk_trace_cpu *pk_trace_best(struct pk_trace_max *max)
{
	struct pk_trace_cpu *best = NULL;
	struct pk_trace_max m;

	memset(max, 0, sizeof(*max));
	for (unsigned int i = 0; i < PK_TRACE_MAX_CPUS; i++) {
		struct pk_trace_cpu *t = pk_trace_cpu_at(i);

		if (t && read_max(t, &m) && m.latency_ns > max->latency_ns) {
			*max = m;
			best = t;
		}
	}
	return best;
}

bool pk_trace_max(struct pk_trace_max *max)
{
	return pk_trace_best(max) != NULL;
}

unsigned long pk_trace_max_events(struct pk_trace_entry *buf, unsigned long nr)
{
	struct pk_trace_max m;
	struct pk_trace_cpu *t = pk_trace_best(&m);
	unsigned long n = m.entries < nr ? m.entries : nr;
	unsigned int seq;

	if (!t)
		return 0;
	/* A new maximum may replace the copy while tracing runs: retry. */
	do {
		seq = __atomic_load_n(&t->max_seq, __ATOMIC_ACQUIRE) & ~1U;
		memcpy(buf, pk_trace_buf_of(t)->max_ev, n * sizeof(*buf));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&t->max_seq, __ATOMIC_RELAXED) != seq);
	return n;
}

void pk_trace_reset_max(void)
{
	for (unsigned int i = 0; i < PK_TRACE_MAX_CPUS; i++) {
		struct pk_trace_cpu *t = &pk_tracer_state.cpus[i];

		/*
		 * A tracepoint on another thread may be copying a maximum:
		 * wait for it, or the two would interleave their sequence
		 * steps and readers could take a torn copy as whole.  One on
		 * this thread, in a handler that interrupted us, finds the
		 * flag taken and skips, as it does for its own copies.
		 */
		while (__atomic_exchange_n(&t->max_busy, 1, __ATOMIC_ACQUIRE))
			;
		__atomic_add_fetch(&t->max_seq, 1, __ATOMIC_RELEASE);
		__atomic_thread_fence(__ATOMIC_RELEASE);
		memset(&t->max, 0, sizeof(t->max));
		__atomic_add_fetch(&t->max_seq, 1, __ATOMIC_RELEASE);
		__atomic_store_n(&t->max_busy, 0, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&pk_tracer_state.max_latency_ns, 0, __ATOMIC_RELAXED);
}
