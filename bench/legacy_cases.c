// SPDX-License-Identifier: MIT
/*
 * The locking benchmark's workloads, compiled as a user compiles them: the
 * headers inlined into the caller.  bench/CMakeLists.txt builds this file
 * twice, with CONFIG_PREEMPT_COUNT=1 (the library as it is: the
 * unconditional count) and =0 (the legacy build that reproduces Linux's
 * PREEMPT_COUNT=n: preempt_disable()/preempt_enable() are compiler
 * barriers, raw_spin_lock()/raw_spin_unlock() leave the word alone,
 * preemptible() is 0).  Both copies have the debug checks and the lock
 * debugging off, the bare inline fast paths.  Functions get a _count or
 * _legacy suffix.
 *
 * The workloads:
 *  - hash: a table of 64 buckets, each a raw_spinlock_t with a little
 *    state; per iteration a xorshift step picks a bucket and a key, and
 *    under the bucket's lock the key is looked up among the bucket's last
 *    four keys, counted as a hit or inserted, and summed.
 *  - hash2: the same on two threads over a table of 4 buckets (contended).
 *  - percpu: per iteration, preempt_disable(), this CPU's statistics (a
 *    packet count, bytes, a size histogram, the maximum, a running hash),
 *    preempt_enable().
 *  - bare: raw_spin_lock()+raw_spin_unlock() of one lock, nothing inside;
 *    and preempt_disable()+preempt_enable(), nothing inside.
 *  - empty: the loop alone, the same code in both copies: the control
 *    that shows how far two identical loops differ in one run.
 */
#if !defined(CONFIG_PREEMPT_COUNT) || !defined(CONFIG_DEBUG_PREEMPT) ||        \
	!defined(CONFIG_DEBUG_ATOMIC_SLEEP) || !defined(CONFIG_DEBUG_SPINLOCK)
#define BENCH_UNCONFIGURED 1
#else
#define BENCH_UNCONFIGURED 0
#endif
_Static_assert(
	!BENCH_UNCONFIGURED,
	"compile with -DCONFIG_PREEMPT_COUNT=0|1 -DCONFIG_DEBUG_PREEMPT=0 "
	"-DCONFIG_DEBUG_ATOMIC_SLEEP=0 -DCONFIG_DEBUG_SPINLOCK=0 "
	"(see bench/CMakeLists.txt)");
_Static_assert(!CONFIG_DEBUG_PREEMPT && !CONFIG_DEBUG_ATOMIC_SLEEP &&
		       !CONFIG_DEBUG_SPINLOCK,
	       "the comparison is of the bare fast paths: checks off");

#include <stdint.h>

#include <preempt/preempt.h>
#include <preempt/spinlock.h>

#include "legacy_cases.h"

#define BENCH_CAT_(a, b) a##b
#define BENCH_CAT(a, b) BENCH_CAT_(a, b)
#define BENCH_STR_(x) #x
#define BENCH_STR(x) BENCH_STR_(x)

#if CONFIG_PREEMPT_COUNT
#define BENCH_SUFFIX _count
#else
#define BENCH_SUFFIX _legacy
#endif

/* bench_<case>_count or bench_<case>_legacy, and the same for probe_. */
#define CASE(name) BENCH_CAT(BENCH_CAT(bench_, name), BENCH_SUFFIX)
#define PROBE(name) BENCH_CAT(BENCH_CAT(probe_, name), BENCH_SUFFIX)
#define API(name) BENCH_CAT(BENCH_CAT(bench_legacy_, name), BENCH_SUFFIX)

#if defined(__has_attribute) && __has_attribute(__noclone__)
#define BENCH_NOINLINE __attribute__((__noinline__, __noclone__))
#else
#define BENCH_NOINLINE __attribute__((__noinline__))
#endif
#define BENCH_LOOP static BENCH_NOINLINE void

#define ENTRY(case_id, label, threads_)                                        \
	{                                                                      \
		.id = BENCH_STR(case_id), .name = label,                       \
		.count = CONFIG_PREEMPT_COUNT,                                 \
		.symbol = BENCH_STR(CASE(case_id)), .fn = CASE(case_id),       \
		.threads = threads_,                                           \
	}

#define HT_BUCKETS 64
#define HT2_BUCKETS 4 /* the contended table */
#define HT_KEYS 4
#define HT_KEY_RANGE 32
#define SEED 0x9e3779b97f4a7c15ULL

struct ht_bucket {
	raw_spinlock_t lock;
	unsigned int nr;	    /* keys inserted */
	unsigned int hits;	    /* lookups that found their key */
	unsigned long sum;	    /* of every key looked up */
	unsigned int keys[HT_KEYS]; /* the last HT_KEYS inserted, a ring */
} __attribute__((aligned(64)));

/* This CPU's statistics, as a driver keeps them in per-CPU data. */
struct pcpu_stats {
	unsigned long packets;
	unsigned long bytes;
	unsigned int max;
	unsigned int hash;
	unsigned int hist[16]; /* by size, 64 bytes a slot */
} __attribute__((aligned(64)));

static struct ht_bucket table[HT_BUCKETS];
static struct ht_bucket table2[HT2_BUCKETS];
static struct pcpu_stats stats;
static raw_spinlock_t bare_lock;
static uint64_t hash_seed, pcpu_seed;

static inline uint64_t xorshift(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

/* One lookup-or-insert under the bucket's lock; @r picks bucket and key. */
static __always_inline void ht_op(struct ht_bucket *t, unsigned int mask,
				  uint64_t r)
{
	struct ht_bucket *b = &t[r & mask];
	unsigned int key = (unsigned int)(r >> 32) % HT_KEY_RANGE;
	unsigned int found = 0;

	raw_spin_lock(&b->lock);
	for (int i = 0; i < HT_KEYS; i++)
		found |= b->keys[i] == key;
	if (found)
		b->hits++;
	else
		b->keys[b->nr++ % HT_KEYS] = key;
	b->sum += key;
	raw_spin_unlock(&b->lock);
}

/* The loop alone; the same code in both copies. */
BENCH_LOOP CASE(empty)(long iters)
{
	for (long i = 0; i < iters; i++)
		barrier();
}

BENCH_LOOP CASE(hash)(long iters)
{
	uint64_t r = hash_seed;

	for (long i = 0; i < iters; i++) {
		r = xorshift(r);
		ht_op(table, HT_BUCKETS - 1, r);
	}
	hash_seed = r;
}

/* One thread's half of the contended case. */
BENCH_LOOP CASE(hash2_worker)(uint64_t seed, long iters)
{
	uint64_t r = seed;

	for (long i = 0; i < iters; i++) {
		r = xorshift(r);
		ht_op(table2, HT2_BUCKETS - 1, r);
	}
}

BENCH_LOOP CASE(hash2)(long iters)
{
	bench_legacy_run_pair(CASE(hash2_worker), iters);
}

BENCH_LOOP CASE(percpu)(long iters)
{
	uint64_t r = pcpu_seed;

	for (long i = 0; i < iters; i++) {
		struct pcpu_stats *s = &stats;
		unsigned int len;

		r = xorshift(r);
		len = 64 + (unsigned int)(r >> 40) % 1024;
		preempt_disable();
		s->packets++;
		s->bytes += len;
		s->hist[len / 64 % 16]++;
		if (len > s->max)
			s->max = len;
		s->hash = (s->hash ^ len) * 0x9e3779b1U;
		preempt_enable();
	}
	pcpu_seed = r;
}

BENCH_LOOP CASE(bare_lock)(long iters)
{
	for (long i = 0; i < iters; i++) {
		raw_spin_lock(&bare_lock);
		raw_spin_unlock(&bare_lock);
	}
}

BENCH_LOOP CASE(bare_preempt)(long iters)
{
	for (long i = 0; i < iters; i++) {
		preempt_disable();
		preempt_enable();
	}
}

/* The fast paths as out-of-line functions, for objdump. */
BENCH_NOINLINE void PROBE(lock)(raw_spinlock_t *lock)
{
	raw_spin_lock(lock);
}

BENCH_NOINLINE void PROBE(unlock)(raw_spinlock_t *lock)
{
	raw_spin_unlock(lock);
}

int API(preemptible)(void)
{
	return preemptible();
}

void API(reset)(void)
{
	for (int i = 0; i < HT_BUCKETS; i++)
		table[i] = (struct ht_bucket){
			.lock = __RAW_SPIN_LOCK_UNLOCKED(table[i].lock)};
	for (int i = 0; i < HT2_BUCKETS; i++)
		table2[i] = (struct ht_bucket){
			.lock = __RAW_SPIN_LOCK_UNLOCKED(table2[i].lock)};
	raw_spin_lock_init(&bare_lock);
	stats = (struct pcpu_stats){.packets = 0};
	hash_seed = pcpu_seed = SEED;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ULL;
}

uint64_t API(digest)(void)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (int i = 0; i < HT_BUCKETS; i++) {
		const struct ht_bucket *b = &table[i];

		h = mix(h, b->lock.val);
		h = mix(h, b->nr);
		h = mix(h, b->hits);
		h = mix(h, b->sum);
		for (int k = 0; k < HT_KEYS; k++)
			h = mix(h, b->keys[k]);
	}
	h = mix(h, stats.packets);
	h = mix(h, stats.bytes);
	h = mix(h, stats.max);
	h = mix(h, stats.hash);
	for (int k = 0; k < 16; k++)
		h = mix(h, stats.hist[k]);
	h = mix(h, bare_lock.val);
	h = mix(h, hash_seed);
	return mix(h, pcpu_seed);
}

unsigned long API(contended_total)(void)
{
	unsigned long n = 0;

	for (int i = 0; i < HT2_BUCKETS; i++)
		n += table2[i].nr + table2[i].hits;
	return n;
}

const struct legacy_case BENCH_CAT(bench_legacy_cases, BENCH_SUFFIX)[] = {
	ENTRY(empty, "empty loop (control: same code)", 1),
	ENTRY(hash, "hash table: lock, lookup/insert, unlock", 1),
	ENTRY(hash2, "hash table, 2 threads, 4 buckets", 2),
	ENTRY(percpu, "per-CPU stats under preempt_disable", 1),
	ENTRY(bare_lock, "raw_spin_lock+unlock, nothing inside", 1),
	ENTRY(bare_preempt, "preempt_disable+enable, nothing inside", 1),
	{.id = NULL},
};
