/* SPDX-License-Identifier: MIT */
#ifndef PK_SCHED_INTERNAL_H
#define PK_SCHED_INTERNAL_H

/* The scheduler's private state: runqueues, their locks, the machine. */

#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <preempt/interrupt.h>
#include <preempt/sched.h>
#include <preempt/wait.h>
#include <preempt/sim.h>
#include "../port/sim.h"

#define PK_TICK_IRQ 63	    /* the local timer interrupt of every vCPU */
#define PK_RESCHED_IRQ 62   /* the reschedule IPI */
#define PK_HRTIMER_IRQ 61   /* the high-resolution timer of every vCPU */
#define PK_CALL_FUNC_IRQ 59 /* smp_call_function*()'s IPI */
#define PK_SLICE_TICKS 3    /* normal-class time slice */
#define PK_RR_SLICE_TICKS 100

struct timer_list;
struct hrtimer;

struct rq {
	int lock; /* raw spinlock; taken with interrupts disabled */
	int cpu;
	int irq_cpu; /* this vCPU's number in the irq layer */
	struct task_struct *curr, *idle;
	int curr_prio; /* curr's prio at its switch in: wakers' unlocked hint */
	/* For the finish, in the task switched to: the task switched from,
	 * with PK_PREV_SLOW or'ed in when that finish must take its slow path
	 * (switch hooks to run, a dead task to let go): one test there. */
	uintptr_t prev;
	int *errno_loc; /* the vCPU thread's errno: the switch swaps it */
	struct list_head rt_queue[MAX_RT_PRIO];
	uint64_t rt_bitmap[2];
	struct list_head fair_queue;
	unsigned int nr_queued; /* waiting on the queues (curr excluded) */
	int lazy_resched;	/* lazy model: reschedule at the next tick */
	int resched_remote;	/* set by other CPUs: 1 lazy, 2 now */
	unsigned int idle_seq;	/* futex word the idle loop sleeps on */
	struct pk_sched_stats stats;
	pthread_t thread;
	int stopping;

	int timer_lock;
	struct list_head timers; /* sorted by expiry */
	struct timer_list *running_timer;

	int hr_lock;
	struct list_head hrtimers; /* sorted by expiry */
	struct hrtimer *running_hrtimer;
	timer_t hr_timer; /* one-shot, programmed to the first hrtimer */

	struct task_struct idle_task;
	void *idle_ctx;

	/* NO_HZ_IDLE (src/sched/idle.c); tick_stopped and nohz_next change
	 * under timer_lock, so an enqueue sees whether to kick. */
	timer_t tick;
	int tick_stopped;	 /* the periodic tick is off: idle */
	int idle_sleeping;	 /* in the idle loop's host wait */
	int nohz_next_set;	 /* the one-shot tick aims at nohz_next */
	unsigned long nohz_next; /* jiffy of the first timer, when set */
	int polling;		 /* polling in idle: wakers need not wake */
	int in_idle;		 /* the idle task runs, and looks for work
				  * before it sleeps or switches: no IPI */
	int idle_ticked;	 /* slept once this idle period, tick on */
	long poll_ns;		 /* the adaptive haltpoll window */
	long poll_off_until;	 /* no polling before (host steal seen) */
	long poll_backoff_ns;	 /* the last steal's backoff */

	/* Tasks other CPUs woke for this one (the kernel's ttwu_queue):
	 * pushed lock-free, drained by this CPU with interrupts off. */
	struct task_struct *wake_list;
};

#define PK_PREV_SLOW 1UL

struct rq *pk_cpu_rq(int cpu);
/* In the count layer's block of hot thread-locals (<preempt/preempt.h>). */
#define pk_this_rq (pk_cpu_tls.rq)
#define pk_current (pk_cpu_tls.curr)

/* ---- raw spinlocks, for the scheduler's own structures ---- */

static inline void pk_cpu_relax(void)
{
	/* Simulated, a spinner waits for someone the baton must go to. */
	if (pk_sim_active()) {
		pk_host_yield();
		return;
	}
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	barrier();
#endif
}

void pk_raw_lock_slow(int *lock);

/* Out of line past the first try: the callers' fast paths stay short. */
static inline void pk_raw_lock(int *lock)
{
	if (unlikely(__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE)))
		pk_raw_lock_slow(lock);
}

static inline void pk_raw_unlock(int *lock)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

/* As raw_spin_lock_irqsave(): interrupts off, preemption off, locked. */
#define pk_lock_irqsave(lock, flags)                                           \
	do {                                                                   \
		local_irq_save(flags);                                         \
		preempt_disable_notrace();                                     \
		pk_raw_lock(lock);                                             \
	} while (0)
/* Preemption back on last, so a wake-up done under the lock preempts. */
#define pk_unlock_irqrestore(lock, flags)                                      \
	do {                                                                   \
		pk_raw_unlock(lock);                                           \
		local_irq_restore(flags);                                      \
		preempt_enable();                                              \
	} while (0)

/* The machine's clock, in ns: jiffies and busy-waits read it. */
static inline long pk_now_ns(void)
{
	return (long)pk_clock_ns();
}

/* ---- between the scheduler's files ---- */

void pk_sched_tick(struct rq *rq);
void pk_resched_ipi(struct rq *rq);
void pk_resched_curr(struct rq *rq, bool lazy);
void pk_idle_loop(struct rq *rq);
void pk_nohz_kick(struct rq *rq);
void pk_nohz_irq_exit(void *owner);
void pk_irq_rcu(void *owner, int delta);
bool pk_nohz_enabled(void);
void pk_jiffies_advance(void);
long pk_jiffy_ns(unsigned long j);
void pk_idle_configure(int nohz, int idle_poll_us);
void pk_wake_list_configure(int mode);
/* core.c: the switch's "any hooks" flag, worked out again at boot. */
void pk_switch_hooks_boot(void);
/* Host threads' futex wakes held back while a wait queue's lock is held:
 * start after taking it, stop before letting it go, flush after. */
#define PK_WAKE_Q_MAX 8
struct pk_wake_q {
	int nr;
	unsigned int *word[PK_WAKE_Q_MAX];
};
void pk_wake_q_start(struct pk_wake_q *q);
void pk_wake_q_stop(void);
void pk_wake_q_flush(struct pk_wake_q *q);
void pk_ttwu_pending(struct rq *rq);
bool pk_timers_next(struct rq *rq, unsigned long *expires);
bool pk_idle_balance(struct rq *rq);
void pk_task_exit(int code) __attribute__((noreturn));
void pk_task_release(struct task_struct *p);
struct task_struct *pk_task_alloc(const char *name, size_t stack_size);
void pk_host_task_free(struct task_struct *p);
/*
 * Installed by the locking layer (debug builds), for the exit check:
 * @held copies up to @max of the mutexes @p holds into @locks and returns
 * how many it holds; @release releases them as @p's unlocks would.
 */
struct pk_task_mutex_ops {
	int (*held)(struct task_struct *p, void **locks, int max);
	void (*release)(struct task_struct *p);
};
extern const struct pk_task_mutex_ops *pk_task_mutex_ops;

/*
 * The lock validator's exit check (src/locking/lockdep.c installs it, a
 * layer above): reports @p's held locks; true if it had any to report.
 */
extern bool (*pk_lockdep_exit_hook)(struct task_struct *p, const char *how);
/* lockdep_sys_exit(): locks held on the way back to "user" code. */
extern bool (*pk_lockdep_user_hook)(struct task_struct *p);
bool pk_host_park(long long deadline_ns);
void pk_timers_run(struct rq *rq);
void pk_hrtimers_run(struct rq *rq);
bool pk_timers_due(struct rq *rq);
unsigned long pk_jiffies(void);
bool pk_machine_running(void);
size_t pk_machine_stack_size(void);
bool pk_safe_to_preempt(const void *uctx, unsigned long stack_top);
void pk_safepoint_scan(void);
void pk_irq_threads_start(void);
void pk_for_each_task(void (*fn)(struct task_struct *p));
/* sim.c: the simulation's one table into the machine. */
extern const struct pk_sim_ops pk_sim_sched_ops;
static inline void pk_sim_lib_point(int kind)
{
	if (pk_sim_active())
		pk_sim_point(kind);
}
void pk_irq_threads_stop(void);

/* workqueue.c: its workers' sleeps and wake-ups, from schedule(); its
 * pools' life with the machine's. */
void pk_wq_worker_sleeping(struct task_struct *p);
void pk_wq_worker_running(struct task_struct *p);
void pk_workqueue_init(void);
void pk_workqueue_exit(void);
/* smp.c: the call-function IPI, in hardirq context on the target. */
void pk_smp_call_ipi(void);
/*
 * The rcu layer's one table of scheduler hooks (src/rcu/tree.c defines
 * pk_rcu_sched_ops): where quiescent states happen, what a context switch
 * saves of a reader, and when its kthreads start.  The rcu layer sits
 * above the scheduler, so the table is a weak reference, not a call: no
 * constructor installs it, and a static link that leaves RCU out (nothing
 * uses it) leaves it NULL.
 * @sched_out: in __schedule(), rq lock held, interrupts off, before the
 *             switch (the outgoing task's reader state; PREEMPT_RCU puts
 *             a preempted reader on the blocked list)
 * @sched_in: after the switch, same locks, in the incoming task
 * @boot: in machine_boot(), @started false once the model is configured
 *        (the flavour is chosen then), true once kthreads can run
 * @shutdown: in machine_shutdown(), once the tasks are gone, vCPUs still up
 * @tick: in pk_sched_tick(), the tick's hardirq
 * @voluntary: in schedule(), task context, before the switch
 * @qs: in _cond_resched() of the none and voluntary models (rcu_all_qs()),
 *      in preempt_schedule(), count zero, and (rt) at the end of a task's
 *      outermost bh-disabled section: a quiescent state
 * @idle: in the idle loop before it sleeps, task context: a quiescent state
 * @needs_cpu: idle loop, irqs off: callbacks wait here, keep the tick
 * @idle_eqs: idle loop, irqs off: @enter true just before the host sleep
 *            or the haltpoll window, false just after it (the kernel's
 *            ct_idle_enter()/exit())
 * @irq: around each batch of interrupt (or NMI) handlers on a vCPU,
 *       signal context: +1 before, -1 after
 * @exit: in pk_task_exit(), task context, count repaired, before the last
 *        schedule(): close a reader the task leaked (exit_rcu())
 */
struct pk_rcu_sched_hooks {
	void (*sched_out)(struct task_struct *prev, struct task_struct *next);
	void (*sched_in)(struct task_struct *prev, struct task_struct *next);
	void (*boot)(bool started);
	void (*shutdown)(void);
	void (*tick)(void);
	void (*voluntary)(void);
	void (*qs)(void);
	void (*idle)(void);
	bool (*needs_cpu)(void);
	void (*idle_eqs)(bool enter);
	void (*irq)(int delta);
	void (*exit)(void);
};
extern const struct pk_rcu_sched_hooks pk_rcu_sched_ops __attribute__((weak));
#define pk_rcu_hooks (&pk_rcu_sched_ops)

#endif /* PK_SCHED_INTERNAL_H */
