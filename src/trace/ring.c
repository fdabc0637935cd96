// SPDX-License-Identifier: MIT
/*
 * The ring's entries are copied a word at a time with relaxed atomics, so
 * a reader racing a writer reads stale or new words, never undefined
 * behaviour, and the sequence check around the copy throws torn entries
 * away (a seqcount per slot).
 */
#include <string.h>

#include "ring.h"

_Static_assert(sizeof(struct pk_trace_entry) % sizeof(uint64_t) == 0,
	       "entries are copied in 64-bit words");

void pk_ring_init(struct pk_ring *ring, struct pk_ring_slot *slots,
		  uint64_t size)
{
	ring->head = 0;
	ring->mask = size - 1;
	ring->dropped = 0;
	ring->slots = slots;
}

/* Claim @s for index @idx unless it is being written or already newer. */
static bool claim_slot(struct pk_ring_slot *s, uint64_t idx)
{
	uint64_t old = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);

	do {
		if ((old & 1) || old > 2 * idx)
			return false;
	} while (!__atomic_compare_exchange_n(&s->seq, &old, 2 * idx + 1, true,
					      __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	/* The odd sequence must be visible before any word changes. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	return true;
}

uint64_t pk_ring_write(struct pk_ring *ring, const struct pk_trace_entry *e)
{
	uint64_t idx = __atomic_fetch_add(&ring->head, 1, __ATOMIC_RELAXED);
	struct pk_ring_slot *s = &ring->slots[idx & ring->mask];
	uint64_t words[PK_RING_WORDS];

	if (!claim_slot(s, idx)) {
		__atomic_add_fetch(&ring->dropped, 1, __ATOMIC_RELAXED);
		return UINT64_MAX;
	}
	memcpy(words, e, sizeof(words));
	for (size_t i = 0; i < PK_RING_WORDS; i++)
		__atomic_store_n(&s->data[i], words[i], __ATOMIC_RELAXED);
	__atomic_store_n(&s->seq, 2 * idx + 2, __ATOMIC_RELEASE);
	return idx;
}

bool pk_ring_read(const struct pk_ring *ring, uint64_t idx,
		  struct pk_trace_entry *e)
{
	const struct pk_ring_slot *s = &ring->slots[idx & ring->mask];
	uint64_t want = 2 * idx + 2, words[PK_RING_WORDS];

	if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) != want)
		return false;
	for (size_t i = 0; i < PK_RING_WORDS; i++)
		words[i] = __atomic_load_n(&s->data[i], __ATOMIC_RELAXED);
	/* The words must be read before the sequence is checked again. */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) != want)
		return false;
	memcpy(e, words, sizeof(words));
	return true;
}

uint64_t pk_ring_head(const struct pk_ring *ring)
{
	return __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
}

uint64_t pk_ring_tail(const struct pk_ring *ring, uint64_t head)
{
	uint64_t size = ring->mask + 1;

	return head > size ? head - size : 0;
}
