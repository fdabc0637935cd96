/* SPDX-License-Identifier: MIT */
#ifndef BENCH_COUNT_CASES_H
#define BENCH_COUNT_CASES_H

/*
 * The count layer's benchmark cases.  count_cases.c is compiled twice, once
 * with the debug checks off (CONFIG_DEBUG_PREEMPT=0,
 * CONFIG_DEBUG_ATOMIC_SLEEP=0) and once with them on, and each copy exports
 * its own table.  Every case is a noinline loop, so that callgrind charges
 * its instructions to one function named after the case.
 */

/**
 * struct bench_case - one benchmarked loop
 * @name: what the loop does per iteration, for the tables
 * @debug: the debug checks compiled in (1) or out (0)
 * @symbol: the loop function's name, for callgrind_annotate
 * @fn: the loop; runs @iters iterations
 * @ref: @symbol of the case the tables compare this one with; NULL: the
 *       count layer's baseline, the bare TLS increment+decrement
 * @signals: the loop sends itself a signal per iteration (callgrind charges
 *           the handler to no caller, so run.sh counts such cases apart)
 */
struct bench_case {
	const char *name;
	int debug;
	const char *symbol;
	void (*fn)(long iters);
	const char *ref;
	int signals;
};

/* The tables, each ended by an entry with a NULL @name. */
extern const struct bench_case bench_cases_nodebug[];
extern const struct bench_case bench_cases_debug[];

/* The baseline's own TLS counter, defined in bench_count.c. */
extern __thread unsigned int bench_tls_word
	__attribute__((tls_model("initial-exec")));

/* Where loops leave what they computed, so it cannot be optimized away. */
extern volatile unsigned long bench_sink;

#endif /* BENCH_COUNT_CASES_H */
