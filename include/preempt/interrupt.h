/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_INTERRUPT_H
#define PREEMPT_INTERRUPT_H

/*
 * Interrupts, softirqs and tasklets.
 *
 * A CPU is a thread that registered as one (pk_irq_cpu_register(); the
 * scheduler's vCPUs do it for themselves).  Each CPU has a virtual
 * interrupt controller: PK_NR_IRQS numbered lines whose raises are kept in
 * a pending bitmap and delivered as one real-time signal directed at the
 * CPU's thread, as an APIC delivers many lines through one vector; lines
 * requested with request_nmi() come through a second signal that is never
 * soft-masked.
 *
 * Delivery is edge-triggered per line: raises that arrive while a line is
 * already pending coalesce into one handler call, and pk_irq_coalesced()
 * tells the handler how many raises that call covers.  No raise is lost.
 *
 * Handlers run in hardirq context inside a signal handler: they may use
 * the library's APIs and nothing from libc that is not async-signal-safe.
 * On a booted machine a line may also have a threaded handler
 * (request_threaded_irq()): its thread_fn runs in a task, where it may
 * sleep.
 */

#include <signal.h>
#include <stdbool.h>
#include <time.h>
#include <preempt/hardirq.h>
#include <preempt/irqflags.h>

#define PK_NR_IRQS 64
#define PK_NR_CPUS 64

/* The signals: chosen above glibc's reserved real-time signals. */
#define PK_SIGIRQ (SIGRTMIN + 2)
#define PK_SIGNMI (SIGRTMIN + 3)
/* Preemption at interrupt return, sent by a CPU to itself: numbered below
 * PK_SIGIRQ, so the kernel sets its frame up first, on the task stack. */
#define PK_SIGRESCHED (SIGRTMIN + 1)

typedef enum irqreturn {
	IRQ_NONE = 0,
	IRQ_HANDLED = 1,
	IRQ_WAKE_THREAD = 2,
} irqreturn_t;

typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);

#define IRQF_SHARED 0x00000080UL    /* several handlers on one line */
#define IRQF_ONESHOT 0x00002000UL   /* accepted; lines are never masked */
#define IRQF_NO_THREAD 0x00010000UL /* never forced into a thread (rt) */

/**
 * pk_irq_cpu_register() - make the calling thread a CPU
 *
 * Task context.  Installs the interrupt signal handlers (once per process)
 * and starts the CPU's ksoftirqd.  Returns the CPU number, or -EBUSY when
 * all PK_NR_CPUS are taken; a thread already registered gets its number.
 * A CPU thread unregisters when it exits.
 */
int pk_irq_cpu_register(void);

/**
 * pk_irq_cpu_unregister() - the calling thread stops being a CPU
 *
 * Task context, on a registered thread.  Raises still pending are dropped.
 */
void pk_irq_cpu_unregister(void);

/** pk_irq_this_cpu() - the calling thread's CPU number, or -1. */
int pk_irq_this_cpu(void);

/*
 * What a higher layer keeps per CPU (the scheduler: its runqueue), found
 * also from the CPU's ksoftirqd.  Set on the CPU's own thread.
 */
void pk_irq_cpu_set_owner(void *owner);
void *pk_irq_cpu_owner(void);

/*
 * A scheduler that runs ksoftirqd as a task on CPU @cpu installs it here
 * (NULL: back to the CPU's ksoftirqd thread); hand-offs then call
 * @wake(task) (any context, signal handlers included) and the task runs
 * pk_ksoftirqd_run() in task context on the CPU.
 */
void pk_irq_cpu_set_ksoftirqd(int cpu, void *task, void (*wake)(void *task));
/** pk_ksoftirqd_run() - run this CPU's pending softirqs as ksoftirqd. */
void pk_ksoftirqd_run(void);

/*
 * PREEMPT_RT's ktimers: a machine booted rt installs a SCHED_FIFO task per
 * CPU here (NULL: none), woken like ksoftirqd; the timer softirqs the tick
 * raises (raise_timer_softirq()) go to it, so that timers expire ahead of
 * normal tasks.  The task runs pk_ktimers_run() while pk_ktimers_pending().
 */
void pk_irq_cpu_set_ktimers(int cpu, void *task);
/** pk_ktimers_pending() - timer softirqs raised for this CPU's ktimers. */
bool pk_ktimers_pending(void);
/** pk_ktimers_run() - serve them, and whatever else is pending.  Task. */
void pk_ktimers_run(void);

/*
 * PREEMPT_RT bottom halves.  While a machine booted rt runs, a task keeps
 * its bh state in pk_softirq_disable_cnt instead of the word, and a CPU's
 * bh sections exclude each other through a per-CPU sleeping lock, which
 * the locking layer (above this one) supplies: @task says whether the
 * caller is a task that may sleep; @lock and @unlock take and drop this
 * CPU's bh lock and keep the task on its CPU in between.
 */
struct pk_bh_rt_ops {
	bool (*task)(void);
	void (*lock)(void);
	void (*unlock)(void);
	void (*ended)(void); /* the outermost section ended, if set */
};

/** pk_softirq_set_rt_ops() - install @ops (see above).  Before boot. */
void pk_softirq_set_rt_ops(const struct pk_bh_rt_ops *ops);
/** pk_softirq_set_rt() - the scheduler says an rt machine runs, or not. */
void pk_softirq_set_rt(bool rt);

/**
 * request_threaded_irq() - install a primary @handler and a @thread_fn
 * @irq: line number, 0..PK_NR_IRQS-1
 * @handler: called in hardirq context, interrupts disabled; it returns
 *           IRQ_WAKE_THREAD to have @thread_fn run.  NULL: a primary that
 *           only does that (the kernel's irq_default_primary_handler)
 * @thread_fn: called in task context (interrupts enabled, preemptible, may
 *             sleep) by the line's thread "irq/<irq>-<name>", SCHED_FIFO at
 *             rt priority 50; NULL: no thread, as request_irq()
 * @flags: IRQF_SHARED to share the line; IRQF_ONESHOT is accepted (lines
 *         are never masked here)
 * @name: for reports and the thread's name
 * @dev_id: passed to both; identifies the handler for free_irq()
 *
 * Task or thread context (may sleep).  The thread is a task of the booted
 * machine, so a @thread_fn needs one: without it the call returns -ENODEV.
 * Raises that find the thread already woken or running are not lost: the
 * thread runs @thread_fn once more after the last primary that asked.
 * Returns 0, -EINVAL (bad line, no handler at all, or a @thread_fn on a
 * line requested with request_nmi()), -EBUSY as request_irq(), -ENODEV, or
 * -ENOMEM.
 */
int request_threaded_irq(unsigned int irq, irq_handler_t handler,
			 irq_handler_t thread_fn, unsigned long flags,
			 const char *name, void *dev_id);

/**
 * request_irq() - install @handler on line @irq
 * @irq: line number, 0..PK_NR_IRQS-1
 * @handler: called in hardirq context, interrupts disabled.  Under the rt
 *           model on a booted machine it is forced into a thread, as
 *           PREEMPT_RT and threadirqs do: it runs as the thread_fn of
 *           request_threaded_irq(), in task context, unless @flags has
 *           IRQF_NO_THREAD (and without a machine it stays in hardirq)
 * @flags: IRQF_SHARED to share the line, IRQF_NO_THREAD
 * @name: for reports
 * @dev_id: passed to @handler; identifies the handler for free_irq()
 *
 * Task context (may sleep).  Returns 0, -EINVAL, or -EBUSY when the line is
 * taken and not shared by both (-ENOMEM if a forced thread cannot be made).
 */
int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev_id);

/**
 * request_nmi() - install @handler on @irq as a non-maskable line
 *
 * Task context.  The handler runs in NMI context even while interrupts are
 * disabled; it may use only NMI-safe APIs.  Same returns as request_irq().
 */
int request_nmi(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev_id);

/**
 * free_irq() - remove the handler installed with @dev_id from @irq
 *
 * Task context (may sleep): waits until no CPU runs the handler, and for a
 * threaded one stops its thread (kthread_stop()) and waits for it to exit;
 * a thread_fn must not free its own line.  Returns the handler's name, or
 * NULL (with a warning) when there is none.
 */
const char *free_irq(unsigned int irq, void *dev_id);

/** free_nmi() - free_irq() for a line requested with request_nmi(). */
const char *free_nmi(unsigned int irq, void *dev_id);

/**
 * irq_raise() - raise line @irq on CPU @cpu
 *
 * Any context, any thread (also threads that are not CPUs).  Returns 0,
 * -EINVAL for a bad or unrequested line, -ENODEV for a CPU that is not
 * registered.
 */
int irq_raise(unsigned int irq, int cpu);

/**
 * pk_irq_coalesced() - how many raises the running handler call covers
 *
 * Hardirq or NMI context, inside a handler; at least 1.
 */
unsigned int pk_irq_coalesced(void);

/**
 * struct pk_irq_stats - a CPU's interrupt counters
 * @handled: handler calls
 * @raised: raises covered by those calls
 * @deferred: signals that found interrupts disabled and left lines pending
 * @replayed: replays at the enabling edge
 * @nmi: NMI handler calls
 * @softirq_inline: softirq vectors run at irq exit or local_bh_enable()
 * @softirq_ksoftirqd: softirq vectors run by ksoftirqd
 * @ksoftirqd_wakeups: hand-offs to ksoftirqd
 * @bh_waits: local_bh_disable() calls on a CPU thread that waited for its
 *	ksoftirqd thread's pass to end
 * @return_redirects: interrupt returns that resumed the task in its own
 *	context to preempt it (pk_irq_return_configure())
 * @resched_signals: interrupt returns that asked for preemption through
 *	PK_SIGRESCHED instead
 */
struct pk_irq_stats {
	unsigned long handled, raised, deferred, replayed, nmi;
	unsigned long softirq_inline, softirq_ksoftirqd, ksoftirqd_wakeups;
	unsigned long bh_waits;
	unsigned long return_redirects, resched_signals;
};

/** pk_irq_stats() - counters of CPU @cpu (zeros if not registered). */
struct pk_irq_stats pk_irq_stats(int cpu);

/**
 * pk_irq_timer_start() - raise line @irq on the calling CPU every
 * @period_ns, from a POSIX timer directed at this thread (SIGEV_THREAD_ID)
 *
 * Task context on a registered CPU.  Expirations that arrive while the
 * line is pending coalesce (pk_irq_coalesced() counts them).  Returns 0 or
 * -errno; stop it with pk_irq_timer_delete(*@timer).
 */
int pk_irq_timer_start(unsigned int irq, long period_ns, timer_t *timer);

/**
 * pk_irq_timer_create() - a POSIX timer that raises line @irq on the
 * calling CPU when it expires, not yet armed (pk_irq_timer_arm())
 *
 * Task context on a registered CPU.  Returns 0 or -errno.  In a
 * simulation (docs/sim.md) the timer is virtual, so arm and delete it
 * only with the two calls below, never with timer_settime().
 */
int pk_irq_timer_create(unsigned int irq, timer_t *timer);

/**
 * pk_irq_timer_arm() - first expiry @first_ns (absolute on CLOCK_MONOTONIC
 * if @abs, else from now; 0 disarms), then every @period_ns (0: once)
 *
 * Any context but a signal handler.  Returns 0 or -errno.
 */
int pk_irq_timer_arm(timer_t timer, long long first_ns, long long period_ns,
		     bool abs);

/** pk_irq_timer_delete() - the timer is gone.  Task context. */
void pk_irq_timer_delete(timer_t timer);

/*
 * The simulation's side of the controller (src/sched/sim.c calls them):
 * a virtual timer of CPU @cookie fired; the CPU was given the machine.
 */
void pk_irq_sim_timer_fire(void *cookie, unsigned int irq);
void pk_irq_sim_take(void);

/*
 * Called at the end of every interrupt dispatch (and replay) with the
 * interrupted code's count: the scheduler's irq-return preemption point.
 * @uctx is the signal's ucontext (where the interrupt landed), NULL for a
 * replay at an enabling edge.
 */
extern void (*pk_irq_return_hook)(const void *uctx);

/*
 * The same decision without the switch, in the interrupt's signal handler:
 * true when interrupt return must preempt the code @uctx interrupted.  The
 * irq layer then resumes that code in its own context, where
 * pk_irq_return_hook(NULL) switches (the port's redirect, where it has one).
 */
extern bool (*pk_irq_return_wanted)(const void *uctx);

/*
 * pk_irq_return_configure() - how interrupt return preempts: @how 1 or 0,
 * in the task's own context after the handler returned, where the port can
 * (x86-64); -1, through PK_SIGRESCHED, a signal delivered on the task's
 * stack.  Thread context, before the vCPUs start.
 */
void pk_irq_return_configure(int how);

/*
 * Threaded handlers' threads are tasks, which the scheduler (above this
 * layer) makes: it installs these at boot.  @create makes and starts the
 * thread of @action (an opaque handle) on line @irq, SCHED_FIFO, storing it
 * in *@thread; it returns 0, -ENODEV when there is no machine to run it, or
 * -ENOMEM.  @wake wakes it (any context, signal handlers included); @stop
 * stops it and waits for its exit (task or thread context).  The thread
 * runs pk_irq_thread_run(@action) whenever pk_irq_thread_pending(@action).
 *
 * pk_irq_set_thread_ops(NULL), at shutdown, stops the threads of every
 * line still requested: their thread_fn runs no more, and handlers that
 * the rt model forced into a thread go back to hardirq context.
 */
struct pk_irq_thread_ops {
	int (*create)(void *action, unsigned int irq, const char *name,
		      void **thread);
	void (*wake)(void *thread);
	void (*stop)(void *thread);
};

/** pk_irq_set_thread_ops() - see above.  Thread context (may sleep). */
void pk_irq_set_thread_ops(const struct pk_irq_thread_ops *ops);
/** pk_irq_thread_pending() - has a primary asked for @action's thread? */
bool pk_irq_thread_pending(void *action);
/**
 * pk_irq_thread_run() - consume @action's request and run its thread_fn
 *
 * Task context, in @action's thread.  Returns false if nothing was asked.
 */
bool pk_irq_thread_run(void *action);

/* ---- softirqs ---- */

/* The ten vectors, in the kernel's priority order. */
enum {
	HI_SOFTIRQ = 0,
	TIMER_SOFTIRQ,
	NET_TX_SOFTIRQ,
	NET_RX_SOFTIRQ,
	BLOCK_SOFTIRQ,
	IRQ_POLL_SOFTIRQ,
	TASKLET_SOFTIRQ,
	SCHED_SOFTIRQ,
	HRTIMER_SOFTIRQ,
	RCU_SOFTIRQ,
	NR_SOFTIRQS,
};

extern const char *const softirq_to_name[NR_SOFTIRQS];

/**
 * open_softirq() - install the action of softirq vector @nr
 *
 * Task context, before the vector is raised.
 */
void open_softirq(int nr, void (*action)(void));

/**
 * raise_softirq_irqoff() - mark vector @nr pending on this CPU
 *
 * Interrupts disabled.  Outside interrupt context ksoftirqd is woken to run
 * it; inside, it runs at irq exit (or the enclosing softirq's restart).
 */
void raise_softirq_irqoff(unsigned int nr);

/** raise_softirq() - raise_softirq_irqoff() from any context. */
void raise_softirq(unsigned int nr);
/**
 * raise_timer_softirq() - raise @nr (TIMER_SOFTIRQ or HRTIMER_SOFTIRQ) from
 * the tick: under rt, for the CPU's ktimers task; otherwise as
 * raise_softirq_irqoff().  Hardirq context, interrupts disabled.
 */
void raise_timer_softirq(unsigned int nr);

/** local_softirq_pending() - this CPU's pending vectors, a bitmask. */
unsigned int local_softirq_pending(void);

/* ---- tasklets, on HI_SOFTIRQ and TASKLET_SOFTIRQ ---- */

struct tasklet_struct {
	struct tasklet_struct *next;
	unsigned long state;
	int count; /* disable depth */
	bool use_callback;
	union {
		void (*func)(unsigned long data);
		void (*callback)(struct tasklet_struct *t);
	};
	unsigned long data;
};

enum {
	TASKLET_STATE_SCHED, /* queued to run */
	TASKLET_STATE_RUN,   /* running on some CPU */
};

/** tasklet_setup() - initialize @t to call @callback(t).  Any context. */
void tasklet_setup(struct tasklet_struct *t,
		   void (*callback)(struct tasklet_struct *));
/** tasklet_init() - initialize @t to call @func(data).  Any context. */
void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long),
		  unsigned long data);
/** tasklet_schedule() - run @t once, soon, in softirq context.  Any context. */
void tasklet_schedule(struct tasklet_struct *t);
/** tasklet_hi_schedule() - as tasklet_schedule(), on HI_SOFTIRQ. */
void tasklet_hi_schedule(struct tasklet_struct *t);
/** tasklet_disable() - keep @t from running; waits if it runs.  Task. */
void tasklet_disable(struct tasklet_struct *t);
/** tasklet_enable() - undo tasklet_disable().  Any context. */
void tasklet_enable(struct tasklet_struct *t);
/** tasklet_kill() - wait until @t is neither queued nor running.  Task. */
void tasklet_kill(struct tasklet_struct *t);

#endif /* PREEMPT_INTERRUPT_H */
