/* SPDX-License-Identifier: MIT */
#ifndef PK_PORT_SIM_H
#define PK_PORT_SIM_H

/*
 * The host as the deterministic simulation sees it (src/port/sim.c).
 *
 * Everything the machine asks of the host that could make a run differ
 * from the next -- which thread runs, how long a wait lasts, what the clock
 * reads, when a POSIX timer fires -- goes through these calls.  Outside a
 * simulation they are the host's own (sched_yield(), futex, clock_gettime,
 * timer_settime).  Inside one, the machine's threads (main and the vCPUs,
 * the "participants") run one at a time under a baton the seed passes on,
 * the clock is virtual, and timers are entries in a table that fire when
 * the virtual clock passes them.
 */

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <preempt/sim.h>

#define PK_SIM_MAX_PARTS 65 /* main and PK_NR_CPUS vCPUs */

/*
 * What the layers above give the simulation, in one table
 * (src/sched/sim.c fills it and passes it to pk_sim_start()):
 * @timer_fire: a virtual timer made with @cookie fired: raise @irq there
 *              (any participant's context: only mark it pending and kick)
 * @resume: the caller got the baton back (or passed a point): take what
 *          is pending for its CPU, as a signal would have been taken
 * @describe: one line about participant @id (its CPU's current task)
 * @dump: the machine's blocked tasks, for a deadlock report
 */
struct pk_sim_ops {
	void (*timer_fire)(void *cookie, unsigned int irq);
	void (*resume)(void);
	void (*describe)(int id, char *buf, unsigned long len);
	void (*dump)(void);
};

enum pk_sim_event {
	PK_SIM_EV_POINT,
	PK_SIM_EV_SWITCH,  /* the baton went to another participant */
	PK_SIM_EV_PREEMPT, /* the strategy preempted a task */
	PK_SIM_EV_IRQ,	   /* an interrupt was delivered */
	PK_SIM_EV_TIMER,   /* a virtual timer fired */
	PK_SIM_EV_TIME,	   /* the clock jumped: everyone waited */
	PK_SIM_EV_BLOCK,   /* a participant waits */
	PK_SIM_EV_WAKE,	   /* ... and is woken */
	PK_SIM_EV_NR,
};

extern int pk_sim_on;

static inline bool pk_sim_active(void)
{
	return __builtin_expect(__atomic_load_n(&pk_sim_on, __ATOMIC_RELAXED),
				0);
}

/* $PREEMPT_SIM parsed: true if this run is a simulation (exit 2 if the
 * variable is malformed). */
bool pk_sim_requested(const char *spec);
void pk_sim_start(const struct pk_sim_ops *ops);
void pk_sim_stop(void);
void pk_sim_add(int id, const char *name);
void pk_sim_join(int id);
void pk_sim_leave(void);
int pk_sim_self(void);
bool pk_sim_left(int id);

/* The host calls, simulated or not. */
long long pk_clock_ns(void);
void pk_clock_advance(long long ns);
void pk_host_yield(void);
void pk_host_futex_wait(unsigned int *addr, unsigned int val,
			long long deadline_ns);
void pk_host_futex_wake(unsigned int *addr, int n);
void pk_sim_kick(int id);

/* Virtual POSIX timers: ids >= 0, armed at absolute virtual times. */
int pk_sim_timer_create(void *cookie, unsigned int irq);
void pk_sim_timer_set(int id, long long first_ns, long long period_ns);
void pk_sim_timer_delete(int id);

/* A decision point of the port: time passes, timers fire, the baton may
 * move.  Returns with the baton, after ops->resume(). */
void pk_sim_port_point(int kind);
/* The strategy's yes/no for a deviation (a preemption): false past the
 * run's limit. */
bool pk_sim_choose_preempt(void);
void pk_sim_event(enum pk_sim_event ev, int arg, const char *what);
void pk_sim_fail(const char *why) __attribute__((noreturn));
/* The program made a host call the simulation cannot replay: say so,
 * once per kind, and count it in the footer. */
void pk_sim_note_nondeterminism(const char *what);

#endif /* PK_PORT_SIM_H */
