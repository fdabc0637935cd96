/* SPDX-License-Identifier: MIT */
#ifndef PK_TRACE_RING_H
#define PK_TRACE_RING_H

/*
 * A lock-free overwriting ring of trace entries.  Writers (any number, on
 * any thread, in signal handlers too) take an index with one atomic add;
 * each slot carries a sequence word, odd while its writer fills it, so a
 * reader can tell a complete entry of the index it wants from one that is
 * being written or was overwritten since.  A writer that finds its slot
 * still being filled by an earlier lap drops its entry rather than wait:
 * waiting could be on the very code a signal interrupted.
 */

#include <stdbool.h>
#include <stdint.h>

#include <preempt/trace.h>

#define PK_RING_WORDS (sizeof(struct pk_trace_entry) / sizeof(uint64_t))

struct pk_ring_slot {
	uint64_t seq; /* 2 * index + 1 while written, + 2 once complete */
	uint64_t data[PK_RING_WORDS];
};

struct pk_ring {
	uint64_t head; /* next index; only grows */
	uint64_t mask; /* size - 1, size a power of two */
	uint64_t dropped;
	struct pk_ring_slot *slots;
};

/* Size in slots, a power of two. */
void pk_ring_init(struct pk_ring *ring, struct pk_ring_slot *slots,
		  uint64_t size);
/* Append @e; returns its index, or UINT64_MAX if it had to be dropped. */
uint64_t pk_ring_write(struct pk_ring *ring, const struct pk_trace_entry *e);
/* The entry at @idx if it is complete and not overwritten. */
bool pk_ring_read(const struct pk_ring *ring, uint64_t idx,
		  struct pk_trace_entry *e);
/* The next index a writer will take. */
uint64_t pk_ring_head(const struct pk_ring *ring);
/* The oldest index that may still be in the ring at @head. */
uint64_t pk_ring_tail(const struct pk_ring *ring, uint64_t head);

#endif /* PK_TRACE_RING_H */
