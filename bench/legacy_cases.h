/* SPDX-License-Identifier: MIT */
#ifndef BENCH_LEGACY_CASES_H
#define BENCH_LEGACY_CASES_H

/*
 * The locking benchmark's cases (issue 5): the same spinlock-heavy and
 * preempt-disable-heavy workloads with the unconditional count and with the
 * legacy PREEMPT_COUNT=n build.  legacy_cases.c is compiled twice, with
 * CONFIG_PREEMPT_COUNT=1 and =0 (the debug checks and the lock debugging
 * off in both), and each copy exports its own table, its own probes and
 * its own state functions, suffixed _count or _legacy.
 */

#include <stdint.h>

struct raw_spinlock;

/**
 * struct legacy_case - one benchmarked loop of one build
 * @id: short name, the same in both copies: pairs a case with its twin
 * @name: what one iteration does, for the tables
 * @count: CONFIG_PREEMPT_COUNT of the copy (1: the library, 0: legacy)
 * @symbol: the loop function's name, for callgrind_annotate and objdump
 * @fn: the loop; runs @iters iterations
 * @threads: 1, or 2 for the contended case (bench_legacy_run_pair());
 *           its instruction count depends on the spinning, so it is not
 *           run under callgrind
 */
struct legacy_case {
	const char *id;
	const char *name;
	int count;
	const char *symbol;
	void (*fn)(long iters);
	int threads;
};

/* The tables, in the same order, each ended by an entry with NULL @id. */
extern const struct legacy_case bench_legacy_cases_count[];
extern const struct legacy_case bench_legacy_cases_legacy[];

/*
 * The fast paths alone, noinline, for objdump (run.sh counts their
 * instructions up to the first ret) and for the check that the legacy
 * copy leaves the word alone.
 */
void probe_lock_count(struct raw_spinlock *lock);
void probe_unlock_count(struct raw_spinlock *lock);
void probe_lock_legacy(struct raw_spinlock *lock);
void probe_unlock_legacy(struct raw_spinlock *lock);

/* preemptible() as each copy compiles it (the legacy one is always 0). */
int bench_legacy_preemptible_count(void);
int bench_legacy_preemptible_legacy(void);

/*
 * The workloads' state: reset puts every table, counter and seed back to
 * its start, digest folds them into one number (equal in both copies
 * after the same iterations: the two builds do the same work), and
 * contended_total is the lookups the contended table recorded (inserts
 * plus hits), which must equal the iterations both threads made.
 */
void bench_legacy_reset_count(void);
void bench_legacy_reset_legacy(void);
uint64_t bench_legacy_digest_count(void);
uint64_t bench_legacy_digest_legacy(void);
unsigned long bench_legacy_contended_total_count(void);
unsigned long bench_legacy_contended_total_legacy(void);

/**
 * bench_legacy_run_pair() - run @worker on two threads, @iters each
 * @worker: the loop, started with a different seed on each thread
 * @iters: iterations per thread
 *
 * Defined in bench_legacy.c: the second thread is pinned to another CPU
 * than the calling (pinned) one.  Returns when both have finished.
 */
void bench_legacy_run_pair(void (*worker)(uint64_t seed, long iters),
			   long iters);

#endif /* BENCH_LEGACY_CASES_H */
