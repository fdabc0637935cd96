// SPDX-License-Identifier: MIT
/* Reading the rings back, oldest event first, CPU after CPU. */
#include "trace_internal.h"

unsigned long pk_trace_cpu_events(struct pk_trace_cpu *t,
				  void (*fn)(const struct pk_trace_entry *e,
					     void *arg),
				  void *arg)
{
	const struct pk_ring *ring = &pk_trace_buf_of(t)->ring;
	uint64_t head = pk_ring_head(ring);
	uint64_t i = pk_ring_tail(ring, head);
	unsigned long n = 0;
	struct pk_trace_entry e;

	if (i < t->first)
		i = t->first;
	/* Entries overwritten or still being written are skipped. */
	for (; i < head; i++) {
		if (pk_ring_read(ring, i, &e)) {
			fn(&e, arg);
			n++;
		}
	}
	return n;
}

unsigned long pk_trace_for_each_event(void (*fn)(const struct pk_trace_entry *e,
						 void *arg),
				      void *arg)
{
	unsigned long n = 0;

	for (unsigned int i = 0; i < PK_TRACE_MAX_CPUS; i++) {
		struct pk_trace_cpu *t = pk_trace_cpu_at(i);

		if (t)
			n += pk_trace_cpu_events(t, fn, arg);
	}
	return n;
}
