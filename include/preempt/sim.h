/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_SIM_H
#define PREEMPT_SIM_H

/*
 * Deterministic simulation (docs/sim.md): with $PREEMPT_SIM=<seed> the
 * machine's threads run one at a time in an order the seed decides, on a
 * virtual clock, with interrupts and preemptions at points the seed picks.
 *
 * The library's own points (wake-ups, cond_resched(), lock slow paths,
 * every wait) are always there.  A program compiled with
 * -DCONFIG_PREEMPT_SIM=1 gets a point at every shared access the API makes
 * too -- preempt_enable(), local_irq_enable(), spin_lock()/unlock(),
 * READ_ONCE()/WRITE_ONCE(), this_cpu ops, atomics -- as KCSAN instruments
 * a kernel build: that is where the interleavings worth trying are.
 * Outside a simulation each costs one load and a branch.
 */

#ifndef CONFIG_PREEMPT_SIM
#define CONFIG_PREEMPT_SIM 0
#endif

/* What kind of point; the strategy treats them alike, the trace names them. */
enum pk_sim_point_kind {
	PK_SIM_ACCESS,	     /* READ_ONCE/WRITE_ONCE, this_cpu, atomics */
	PK_SIM_PREEMPT_ON,   /* preempt_enable() reached zero */
	PK_SIM_IRQ_ON,	     /* interrupts enabled again */
	PK_SIM_LOCK,	     /* before a lock is taken */
	PK_SIM_UNLOCK,	     /* after a lock is let go */
	PK_SIM_WAKE,	     /* a wake-up was done */
	PK_SIM_COND_RESCHED, /* cond_resched(): a point in every model */
	PK_SIM_SPIN,	     /* a spin loop goes round */
	PK_SIM_NR_KINDS,
};

extern int pk_sim_on;

/**
 * pk_sim_point() - a decision point of the simulation
 * @kind: enum pk_sim_point_kind
 *
 * Any context.  Does nothing outside a simulation.  In one, the virtual
 * clock moves on, due timers fire, and the seed's strategy may hand the
 * machine to another vCPU, deliver a pending interrupt (interrupts
 * enabled) or preempt the current task (where the model allows).
 */
void pk_sim_point(int kind);

/**
 * pk_sim_decisions() - decision points passed so far in this process's
 * simulation (0 if none ran).  Any context; for benchmarks and tests.
 */
unsigned long pk_sim_decisions(void);

#define pk_sim_hook(kind)                                                      \
	do {                                                                   \
		if (CONFIG_PREEMPT_SIM &&                                      \
		    __builtin_expect(                                          \
			    __atomic_load_n(&pk_sim_on, __ATOMIC_RELAXED), 0)) \
			pk_sim_point(kind);                                    \
	} while (0)

/* The same, as an expression. */
#define pk_sim_hook_expr(kind)                                                 \
	(CONFIG_PREEMPT_SIM &&                                                 \
			 __builtin_expect(__atomic_load_n(&pk_sim_on,          \
							  __ATOMIC_RELAXED),   \
					  0)                                   \
		 ? pk_sim_point(kind)                                          \
		 : (void)0)

/* The library's own points: always there, whatever CONFIG_PREEMPT_SIM. */
#define pk_sim_hook_lib(kind)                                                  \
	do {                                                                   \
		if (__builtin_expect(                                          \
			    __atomic_load_n(&pk_sim_on, __ATOMIC_RELAXED), 0)) \
			pk_sim_point(kind);                                    \
	} while (0)

#endif /* PREEMPT_SIM_H */
