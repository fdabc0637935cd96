/* SPDX-License-Identifier: MIT */
#ifndef BENCH_RCU_CASES_H
#define BENCH_RCU_CASES_H

/*
 * bench_rcu's read-side loops.  rcu_cases.c is compiled twice, with the
 * debug checks and the lock validator off (CONFIG_DEBUG_PREEMPT=0,
 * CONFIG_DEBUG_ATOMIC_SLEEP=0, CONFIG_LOCKDEP=0: a production build) and
 * on; each copy exports its own table.  Every loop is a noinline function
 * of its own, so that callgrind charges its instructions to one name.
 */

enum rcu_case_where {
	RCU_CASE_SCHED,	  /* in a task, machine booted none */
	RCU_CASE_PREEMPT, /* in a task, machine booted full */
	RCU_CASE_HOST,	  /* on a thread that is not a vCPU */
};

/**
 * struct rcu_case - one read-side loop
 * @name: what one iteration does, for the tables
 * @checks: the debug checks and the validator compiled in (1) or out (0)
 * @symbol: the loop function's name, for callgrind_annotate
 * @fn: the loop; runs @iters iterations
 * @where: where bench_rcu runs it
 */
struct rcu_case {
	const char *name;
	int checks;
	const char *symbol;
	void (*fn)(long iters);
	enum rcu_case_where where;
};

/* The tables, each ended by an entry with a NULL @name. */
extern const struct rcu_case rcu_cases_off[];
extern const struct rcu_case rcu_cases_on[];

#endif /* BENCH_RCU_CASES_H */
