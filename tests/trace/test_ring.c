// SPDX-License-Identifier: MIT
/*
 * The trace ring on its own: wrap-around keeps exactly the newest entries
 * in order, and under writers racing on one ring (more than a CPU ever
 * has) a reader never gets a torn entry, every writer's entries stay in
 * its order, and nothing but the few entries dropped on a busy slot is
 * lost.  No timing: the checks hold for any interleaving.
 */
#include <pthread.h>
#include <stdlib.h>

#include "pk_test.h"

#include "../../src/trace/ring.h"

#define SMALL 1024
#define WRITERS 4
#define PER_WRITER 200000

static struct pk_ring_slot slots[SMALL];
static struct pk_ring ring;
static int writers_done;

/* Every field derived from (writer, n): a torn copy cannot match. */
static void make_entry(struct pk_trace_entry *e, int writer, uint64_t n)
{
	memset(e, 0, sizeof(*e));
	e->ts = n;
	e->pid = writer;
	e->word = (uint32_t)(n * 2654435761U) ^ (uint32_t)writer;
	e->type = (uint8_t)(n % PK_TRACE_NR_TYPES);
	e->ctx.ip = ~n ^ ((unsigned long)writer << 40);
	memset(e->comm, 'a' + (int)(n % 26), sizeof(e->comm) - 1);
}

static bool entry_ok(const struct pk_trace_entry *e)
{
	struct pk_trace_entry want;

	if (e->pid < 0 || e->pid >= WRITERS)
		return false;
	make_entry(&want, e->pid, e->ts);
	return !memcmp(e, &want, sizeof(want));
}

static void test_wraparound(void **state)
{
	struct pk_trace_entry e;
	uint64_t head;

	(void)state;
	pk_ring_init(&ring, slots, SMALL);
	memset(slots, 0, sizeof(slots));
	for (uint64_t n = 0; n < 3 * SMALL + 17; n++) {
		make_entry(&e, 0, n);
		assert_int_equal(pk_ring_write(&ring, &e), n);
	}
	head = pk_ring_head(&ring);
	assert_int_equal(head, 3 * SMALL + 17);
	assert_int_equal(pk_ring_tail(&ring, head), head - SMALL);
	/* Overwritten indices read as gone, the newest SMALL in order. */
	assert_false(pk_ring_read(&ring, head - SMALL - 1, &e));
	assert_false(pk_ring_read(&ring, 0, &e));
	for (uint64_t i = head - SMALL; i < head; i++) {
		assert_true(pk_ring_read(&ring, i, &e));
		assert_true(entry_ok(&e));
		assert_int_equal(e.ts, i);
	}
	assert_false(pk_ring_read(&ring, head, &e));
	assert_int_equal(ring.dropped, 0);
}

static void *writer(void *arg)
{
	int id = (int)(long)arg;
	struct pk_trace_entry e;

	for (uint64_t n = 0; n < PER_WRITER; n++) {
		make_entry(&e, id, n);
		pk_ring_write(&ring, &e);
	}
	return NULL;
}

/* Reads the newest entries over and over while the writers run. */
static void *reader(void *arg)
{
	unsigned long *torn = arg;
	struct pk_trace_entry e;

	while (!__atomic_load_n(&writers_done, __ATOMIC_ACQUIRE)) {
		uint64_t head = pk_ring_head(&ring);

		for (uint64_t i = pk_ring_tail(&ring, head); i < head; i++)
			if (pk_ring_read(&ring, i, &e) && !entry_ok(&e))
				(*torn)++;
	}
	return NULL;
}

static void check_final(void)
{
	uint64_t head = pk_ring_head(&ring), last[WRITERS];
	unsigned long valid = 0;
	struct pk_trace_entry e;

	memset(last, 0xff, sizeof(last));
	assert_int_equal(head, (uint64_t)WRITERS * PER_WRITER);
	for (uint64_t i = pk_ring_tail(&ring, head); i < head; i++) {
		if (!pk_ring_read(&ring, i, &e))
			continue;
		assert_true(entry_ok(&e));
		/* Index order is each writer's own order. */
		if (last[e.pid] != UINT64_MAX)
			assert_true(e.ts > last[e.pid]);
		last[e.pid] = e.ts;
		valid++;
	}
	assert_true(valid + ring.dropped >= SMALL);
	/* Drops need a writer a whole lap behind: rare, never most. */
	assert_true(valid > SMALL / 2);
}

static void test_concurrent_writers(void **state)
{
	pthread_t w[WRITERS], r;
	unsigned long torn = 0;

	(void)state;
	memset(slots, 0, sizeof(slots));
	pk_ring_init(&ring, slots, SMALL);
	writers_done = 0;
	assert_int_equal(pthread_create(&r, NULL, reader, &torn), 0);
	for (long i = 0; i < WRITERS; i++)
		assert_int_equal(pthread_create(&w[i], NULL, writer, (void *)i),
				 0);
	for (int i = 0; i < WRITERS; i++)
		pthread_join(w[i], NULL);
	__atomic_store_n(&writers_done, 1, __ATOMIC_RELEASE);
	pthread_join(r, NULL);
	assert_int_equal(torn, 0);
	check_final();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wraparound),
		cmocka_unit_test(test_concurrent_writers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
