/* SPDX-License-Identifier: MIT */
#ifndef PK_BENCH_RCU_URCU_H
#define PK_BENCH_RCU_URCU_H

/*
 * liburcu's side of bench/rcu_bench.c, one file per flavour (urcu-memb,
 * urcu-qsbr): their headers map the same rcu_* names, so neither may see
 * the other, nor <preempt/rcupdate.h>.
 */

/* @iters read-side lock+unlock pairs (the thread registered). */
void urcu_memb_read_pairs(long iters);
void urcu_qsbr_read_pairs(long iters);
/* ns per read-side lock+unlock pair on this thread, registering it. */
double urcu_memb_read_pair_ns(long iters);
double urcu_qsbr_read_pair_ns(long iters);
/* µs per synchronize_rcu(), with @busy reader threads looping. */
double urcu_memb_sync_us(int rounds, int busy);
double urcu_qsbr_sync_us(int rounds, int busy);
/* call_rcu() per second, @n callbacks then rcu_barrier(). */
double urcu_memb_call_rate(long n);
double urcu_qsbr_call_rate(long n);

#endif /* PK_BENCH_RCU_URCU_H */
