/* SPDX-License-Identifier: MIT */
#ifndef PK_IRQ_IRQ_H
#define PK_IRQ_IRQ_H

/* The per-CPU state shared by interrupt entry and softirq processing. */

#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>

#include <preempt/interrupt.h>

struct pk_irq_cpu {
	int cpu;
	int online; /* accepting raises */
	int users;  /* raisers inside irq_raise() right now */
	pthread_t thread;

	uint64_t pending;     /* maskable lines raised, not yet handled */
	uint64_t nmi_pending; /* NMI lines raised, not yet handled */
	uint32_t raised[PK_NR_IRQS]; /* raises not yet covered by a call */

	uint32_t softirq_pending;
	int softirq_owner; /* softirq handlers of a CPU never run twice at once
			    */
	struct tasklet_struct *tasklets[2]; /* TASKLET_SOFTIRQ, HI_SOFTIRQ */

	pthread_t ksoftirqd;
	sem_t ksoftirqd_wake;
	int ksoftirqd_woken;
	int ksoftirqd_stop;

	struct pk_irq_stats stats;
	void *owner;	      /* the scheduler's runqueue of this CPU, if any */
	void *ksoftirqd_task; /* set: ksoftirqd is this task, not the thread */
	void *ktimers_task;   /* rt: the timer softirqs' FIFO task */
	uint32_t timer_pending; /* timer softirqs raised for ktimers */
	int sim_id;		/* the simulation's participant (docs/sim.md) */
};

/*
 * The hardirq code running now is what PREEMPT_RT would move into a task
 * (a handler rt forces into a thread, an irq_work item without
 * IRQ_WORK_HARD_IRQ, an hrtimer callback): the lock validator lets it take
 * spinlock_t (wait type "config"), not only raw locks.  Set around each
 * such call, restored after it (handlers nest).
 */
extern __thread int pk_hardirq_config
	__attribute__((tls_model("initial-exec")));

static inline int pk_hardirq_config_enter(int config)
{
	int outer = pk_hardirq_config;

	pk_hardirq_config = config;
	return outer;
}

/* The CPU the calling thread is, or works for (ksoftirqd); NULL if none. */
extern __thread struct pk_irq_cpu *pk_this_irq_cpu;

struct pk_irq_cpu *pk_irq_cpu(int cpu);

/* Softirq side, called from interrupt entry/exit and CPU (un)registration. */
void pk_softirq_irq_exit(struct pk_irq_cpu *c);
int pk_ksoftirqd_start(struct pk_irq_cpu *c);
void pk_ksoftirqd_stop(struct pk_irq_cpu *c);

#define pk_stat_inc(c, field)                                                  \
	__atomic_add_fetch(&(c)->stats.field, 1, __ATOMIC_RELAXED)

/* Set by the scheduler: the running task's own stack, if it has one. */
/*
 * Installed by the scheduler: after every dispatch on a CPU with a
 * runqueue, signal context (the kernel's tick_nohz_irq_exit()).
 */
extern void (*pk_irq_exit_hook)(void *owner);
/* At the end of an outermost dispatch: the interrupted task may be in
 * "user" code (the sched layer's lockdep_sys_exit() check). */
extern void (*pk_irq_user_return_hook)(void);
/*
 * Installed by the scheduler: around every batch of handlers (hardirq or
 * NMI) on a CPU with a runqueue, @delta +1 before, -1 after (the kernel's
 * ct_irq_enter()/ct_irq_exit(): RCU's view of an idle CPU).
 */
extern void (*pk_irq_rcu_hook)(void *owner, int delta);
extern bool (*pk_task_stack_hook)(unsigned long *base, unsigned long *top);

/* The SIGSEGV handler that reports a task stack overflow (irqstack.c). */
void pk_stack_guard_install(void);
/* This thread's interrupt stack on and off (a CPU thread's lifetime). */
int pk_irq_stack_on(void);
void pk_irq_stack_off(void);
/* Is the caller running on this thread's interrupt stack? */
bool pk_on_irq_stack(void);
/* A signal frame set up elsewhere returns into this thread's alternate
 * stack settings, not those of the thread it was set up on. */
void pk_irq_stack_fix_frame(void *uctx);

/*
 * irq_work (irq_work.c): the machine requests PK_IRQ_WORK_IRQ with
 * pk_irq_work_interrupt() as handler, says so with pk_irq_work_online(),
 * and runs pk_irq_work_tick() from every tick.  pk_irq_work_queue_cpu()
 * queues on irq-layer CPU @cpu; @remote: sent at once even if lazy.
 */
#define PK_IRQ_WORK_IRQ 60
struct irq_work;
void pk_irq_work_online(bool up);
irqreturn_t pk_irq_work_interrupt(int irq, void *dev);
void pk_irq_work_tick(void);
bool pk_irq_work_queue_cpu(struct irq_work *work, int cpu, bool remote);

#endif /* PK_IRQ_IRQ_H */
