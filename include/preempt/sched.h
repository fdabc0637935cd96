/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_SCHED_H
#define PREEMPT_SCHED_H

/*
 * The machine and its scheduler: virtual CPUs (host threads), tasks with
 * their own stacks, runqueues with a SCHED_FIFO class above a round-robin
 * normal class, and preemption points that follow the model.
 *
 * Before machine_boot() (and on threads that are not vCPUs) every thread is
 * a task alone on its own CPU: a reschedule picks the same task again, so
 * it only settles need-resched and is counted in pk_sched_stats().  Such a
 * task sleeps as any other (schedule() with a sleeping state parks the
 * thread until wake_up_process()), so wait queues and completions work
 * between host threads and the machine's tasks in both directions.
 */

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <preempt/debug.h>
#include <preempt/list.h>
#include <preempt/lockdep_types.h>
#include <preempt/preempt.h>

/* ---- tasks ---- */

#define TASK_RUNNING 0x0000
#define TASK_INTERRUPTIBLE 0x0001
#define TASK_UNINTERRUPTIBLE 0x0002
#define TASK_DEAD 0x0080
#define TASK_WAKEKILL 0x0100
#define TASK_NOLOAD 0x0400
#define TASK_NEW 0x0800
#define TASK_NORMAL (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)
#define TASK_KILLABLE (TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#define TASK_IDLE (TASK_UNINTERRUPTIBLE | TASK_NOLOAD)

/* task_struct.flags: the kernel's PF_* values that mean something here. */
#define PF_IDLE 0x00000002	/* a CPU's idle task */
#define PF_EXITING 0x00000004	/* on its way out */
#define PF_WQ_WORKER 0x00000020 /* a workqueue worker: see wq hooks */
#define PF_MEMALLOC 0x00000800	/* accepted; memory is not reclaimed */
#define PF_NOFREEZE 0x00008000	/* accepted; nothing freezes */
#define PF_KTHREAD 0x00200000	/* made by kthread_create() */

#define TASK_COMM_LEN 16
#define MAX_RT_PRIO 100
#define DEFAULT_PRIO 120

/* The kernel's (and POSIX's) values; <sched.h> may have defined them. */
#ifndef SCHED_NORMAL
#define SCHED_NORMAL 0
#endif
#ifndef SCHED_FIFO
#define SCHED_FIFO 1
#endif
#ifndef SCHED_RR
#define SCHED_RR 2
#endif

typedef uint64_t pk_cpumask_t; /* bit n: CPU n (PK_NR_CPUS is 64) */
#ifndef __KERNEL__
/* Kernel code has the kernel's struct cpumask (linux/cpumask.h). */
typedef pk_cpumask_t cpumask_t;
#endif

/*
 * A task.  comm, pid, prio, policy and cpu read as in the kernel; the pk_
 * fields belong to the scheduler.
 */
struct task_struct {
	unsigned int __state;
	unsigned int flags; /* PF_* */
	char comm[TASK_COMM_LEN];
	int pid;
	int prio;     /* 0..99 real-time (lower is more urgent), 120 normal */
	int policy;   /* SCHED_NORMAL, SCHED_FIFO, SCHED_RR */
	int cpu;      /* where it runs, or ran last */
	int wake_cpu; /* a waker's hint (the kernel's); the scheduler ignores it
		       */
	struct {
		/* nanoseconds run, counted a tick at a time (pk_sched_tick) */
		uint64_t sum_exec_runtime;
	} se;

	int pk_normal_prio; /* prio without priority-inheritance boosting */
	struct list_head pk_run_node;
	int pk_on_rq;
	int pk_on_cpu;
	struct task_struct *pk_wake_next; /* on a remote CPU's wake list */
	int pk_wake_lock;   /* wakers only (the kernel's pi_lock role) */
	int pk_refs;	    /* get_task_struct() references */
	int pk_kthread_ref; /* kthread_create()'s reference not yet dropped */
	struct task_struct *pk_free_next; /* freed later: see put_task_struct */
	int pk_slice;			  /* ticks left in its time slice */
	int pk_in_user;
	int pk_should_stop;
	int pk_exit_code;
	int pk_exited; /* 1 once the task is dead */
	pk_cpumask_t pk_cpus_allowed;
	int (*pk_fn)(void *data);
	void *pk_data;
	/* Per-task state the vCPU thread keeps in TLS while the task runs. */
	int pk_saved_errno;
	struct pk_task_vars pk_saved_vars; /* migrate-disable, rt bh state.. */
	void *pk_held_locks[8]; /* debug: locks held, for the exit check */
	int pk_nr_held;
	struct list_head pk_held_mutexes; /* debug: mutexes held (mutex.c) */
	/* lockdep (src/locking/lockdep.c): the locks held, in order, with
	 * those of interrupt handlers that ran on top of the task. */
	int lockdep_depth;
	int lockdep_recursion; /* lockdep_off() depth */
	uint64_t curr_chain_key;
	struct held_lock held_locks[MAX_LOCK_DEPTH];
	void *pk_stack; /* the port layer's stack and saved context */
	void *pk_ctx;
	int pagefault_disabled; /* pagefault_disable() depth (uaccess.h) */
	void *pk_kmap_ctrl;	/* mm: this task's kmap_local slots */
	unsigned long
		pk_stack_top;	/* its entry's frame: where its code starts */
	uint64_t pk_sigpending; /* bit sig-1: signal sig sent, not flushed */
	void *pk_worker;	/* the workqueue worker this task is, if any */
	/* RCU (src/rcu): the reader state while switched out, and its place
	 * on the blocked-readers list of PREEMPT_RCU. */
	int rcu_read_lock_nesting;
	int pk_rcu_special;
	int pk_rcu_blocked; /* PK_RCU_BLOCKED_* under the rcu state lock */
	int pk_rcu_boosted; /* 0, or 1 + the priority RCU_BOOST lends */
	struct list_head pk_rcu_node;
	/* where it was preempted in its reader: for stall warnings */
	int pk_rcu_blocked_nr;
	unsigned long pk_rcu_blocked_ips[12];
};

/**
 * get_current() - the running task
 *
 * Any context.  On a thread that is not a vCPU, a task that stands for the
 * thread itself.
 */
struct task_struct *get_current(void);
#define current get_current()

/**
 * get_task_struct() - take a reference on @p, which keeps its memory
 * (not the task) alive until put_task_struct()
 *
 * Any context, interrupts included; the caller must already hold a
 * reference or otherwise know @p is alive (it is current, or queued on a
 * wait queue whose lock the caller holds).  A task holds one on itself
 * while it lives, kthread_create() returns one for kthread_stop(), and a
 * host thread's task is the thread's until the thread exits.
 */
void get_task_struct(struct task_struct *p);

/**
 * put_task_struct() - drop a reference taken by get_task_struct()
 *
 * Any context, interrupts included: the last reference frees the task at
 * once in task context, and later (from the next put in task context, or
 * machine_shutdown()) when dropped in interrupt context, where freeing is
 * not allowed.
 */
void put_task_struct(struct task_struct *p);

/** task_pid_nr() - the task's id.  Any context. */
static inline int task_pid_nr(const struct task_struct *p)
{
	return p->pid;
}

/**
 * wake_up_state() - wake @p if its state is one of @state
 *
 * Any context, interrupts included.  Returns 1 if it woke @p.
 */
int wake_up_state(struct task_struct *p, unsigned int state);

/* ---- signals: a flag per signal on the task; nothing is delivered ---- */

/**
 * send_sig() - make signal @sig (1..64; SIGKILL is fatal) pending on @p
 * and wake it from an interruptible (or, for SIGKILL, killable) sleep
 * @priv: accepted, as the kernel's
 *
 * Any context, interrupts included.  The signal stays pending until
 * flush_signals(): kernel threads read it with signal_pending(), as
 * kthreads that allow_signal() do.  Returns 0, or -EINVAL for a bad @sig.
 */
int send_sig(int sig, struct task_struct *p, int priv);

/** flush_signals() - forget @p's pending signals.  Task context. */
void flush_signals(struct task_struct *p);

/** signal_pending() - is a signal pending on @p?  Any context. */
static inline bool signal_pending(struct task_struct *p)
{
	return __atomic_load_n(&p->pk_sigpending, __ATOMIC_SEQ_CST) != 0;
}

/** __fatal_signal_pending() - is SIGKILL pending on @p?  Any context. */
static inline bool __fatal_signal_pending(struct task_struct *p)
{
	return __atomic_load_n(&p->pk_sigpending, __ATOMIC_SEQ_CST) &
	       (1ULL << (9 - 1)); /* SIGKILL */
}

/** fatal_signal_pending() - as __fatal_signal_pending().  Any context. */
static inline bool fatal_signal_pending(struct task_struct *p)
{
	return __fatal_signal_pending(p);
}

/**
 * signal_pending_state() - would a signal pending on @p end a sleep in
 * @state?  Interruptible sleeps end on any, killable ones on SIGKILL.
 */
static inline bool signal_pending_state(unsigned int state,
					struct task_struct *p)
{
	if (!(state & (TASK_INTERRUPTIBLE | TASK_WAKEKILL)))
		return false;
	if (!signal_pending(p))
		return false;
	return (state & TASK_INTERRUPTIBLE) || __fatal_signal_pending(p);
}

/** set_current_state() - set the running task's state, with a barrier. */
#define set_current_state(state) pk_store_mb(&current->__state, (state))
/** __set_current_state() - set the running task's state, no barrier. */
#define __set_current_state(state)                                             \
	__atomic_store_n(&current->__state, (state), __ATOMIC_RELAXED)

/**
 * schedule() - give up the CPU; the task runs again when it is woken (or at
 * once, if it stayed TASK_RUNNING and is still the best choice)
 *
 * Task context, not atomic.  Every way into the scheduler (schedule(),
 * yield(), the preemption points) reports a call while atomic ("BUG:
 * scheduling while atomic"); in task context the count is then repaired
 * and the switch happens, as in the kernel; in interrupt context
 * (hardirq, NMI, a softirq being served), which only its own exit can
 * leave, the call returns at once with the task running, so the
 * caller's sleep turns into a busy wait and the machine goes on.
 */
void schedule(void);

/**
 * wake_up_process() - make a sleeping task runnable
 *
 * Any context, interrupts included.  Returns 1 if it was not running.
 */
int wake_up_process(struct task_struct *p);

/**
 * yield() - let another runnable task of the same class run
 *
 * Task context, not atomic (checked as schedule() is).
 */
void yield(void);

/**
 * schedule_timeout() - sleep until woken or @timeout ticks have passed
 *
 * Task or host thread context; set the task state first.  Returns the
 * ticks left.
 */
long schedule_timeout(long timeout);
/* A schedule_timeout() that only a wake-up ends. */
#define MAX_SCHEDULE_TIMEOUT LONG_MAX
long schedule_timeout_uninterruptible(long timeout);

/* ---- kthreads ---- */

/**
 * kthread_create() - create a stopped task that will run @fn(@data)
 *
 * Task or thread context (may sleep).  Start it with wake_up_process().
 * Returns NULL when the machine is not booted or memory is short.
 */
struct task_struct *kthread_create(int (*fn)(void *data), void *data,
				   const char *namefmt, ...)
	__attribute__((format(printf, 3, 4)));

/** kthread_run() - kthread_create() and wake_up_process(). */
#define kthread_run(fn, data, ...)                                             \
	({                                                                     \
		struct task_struct *__k =                                      \
			kthread_create(fn, data, __VA_ARGS__);                 \
		if (__k)                                                       \
			wake_up_process(__k);                                  \
		__k;                                                           \
	})

/**
 * kthread_stop() - ask @k to stop, wait for it to exit, return its result
 *
 * Task or thread context (may sleep).  Drops kthread_create()'s reference.
 */
int kthread_stop(struct task_struct *k);

/** kthread_should_stop() - has kthread_stop() been called on us?  Task. */
bool kthread_should_stop(void);

/** kthread_data() - the @data a kthread @k was created with.  Any context. */
void *kthread_data(struct task_struct *k);

/** kthread_create_on_cpu() - kthread_create() bound to @cpu.  As it. */
struct task_struct *kthread_create_on_cpu(int (*fn)(void *data), void *data,
					  unsigned int cpu,
					  const char *namefmt);

/** kthread_bind() - pin a not yet started kthread to @cpu. */
void kthread_bind(struct task_struct *k, int cpu);

/** set_cpus_allowed_ptr() - where @p may run.  Task context. */
#ifndef __KERNEL__
int set_cpus_allowed_ptr(struct task_struct *p, cpumask_t mask);
#endif

/** sched_set_fifo() - make @p SCHED_FIFO at priority 50 (rt prio). */
void sched_set_fifo(struct task_struct *p);
/** sched_set_fifo_low() - make @p SCHED_FIFO at the lowest rt priority. */
void sched_set_fifo_low(struct task_struct *p);
/** sched_set_normal() - make @p SCHED_NORMAL. */
void sched_set_normal(struct task_struct *p, int nice);
/**
 * pk_sched_setscheduler() - @policy at real-time priority @rt_prio (1..99,
 * higher is more urgent; ignored for SCHED_NORMAL).  Returns 0 or -EINVAL.
 */
int pk_sched_setscheduler(struct task_struct *p, int policy, int rt_prio);

/**
 * pk_sched_set_prio() - change @p's effective priority (priority
 * inheritance boosts and unboosts with it), requeueing and preempting as
 * needed.  Any context; @prio as task_struct.prio.
 */
void pk_sched_set_prio(struct task_struct *p, int prio);

/* ---- the machine ---- */

struct machine_config {
	int nr_cpus;	   /* 0: the host's CPU count (max PK_NR_CPUS) */
	int hz;		   /* tick rate; 0: 1000 */
	int model;	   /* enum preempt_model, or -1: keep the current */
	size_t stack_size; /* task stacks; 0: 256 KiB */
	int blocking;	   /* blocking host-call detector: 1 on, -1 off,
			      0 as it is (docs/blocking.md) */
	int nohz;	   /* idle vCPUs stop their tick: 0 or 1 yes, -1 no
			      ($PREEMPT_NOHZ=0 also says no) */
	int idle_poll_us;  /* most an idle vCPU polls before it sleeps in
			      the host (adaptive below it); 0: 200, -1: never
			      ($PREEMPT_IDLE_POLL_US) */
	int wake_list;	   /* a wake-up for another vCPU goes on its
			      lock-free wake list (one kick per batch)
			      instead of locking its runqueue: 0 when it
			      runs its idle task (the kernel's rule for CPUs
			      sharing a cache) or the wake-up preempts its
			      task with a real-time one, 1 always, -1 never
			      ($PREEMPT_WAKE_LIST=1 always, =0 never) */
	const char *sim;   /* "SEED[,STRATEGY][,limit=N]": a deterministic
			      simulation (docs/sim.md); NULL: $PREEMPT_SIM */
	int irq_return;	   /* preemption at interrupt return: 0 or 1 in the
			      task's own context after the handler returned,
			      where the port can (x86-64); -1 through the
			      PK_SIGRESCHED signal
			      ($PREEMPT_IRQ_RETURN=signal) */
};

/**
 * machine_boot() - start the virtual CPUs
 * @cfg: NULL for the defaults; $PREEMPT_NR_CPUS, $PREEMPT_HZ and
 *       $PREEMPT_MODEL override what @cfg leaves at 0 / -1
 *
 * Thread context (not a vCPU).  Returns 0, -EBUSY if already booted, or
 * -errno.
 */
int machine_boot(const struct machine_config *cfg);

/*
 * Called, when set, at the end of machine_boot() and at the start of
 * machine_shutdown(), on the booting/stopping thread (not a vCPU).  The
 * kernel side (src/kernel/init.c) sets them to run initcalls and exit
 * calls; one owner only.
 */
extern void (*pk_machine_boot_hook)(void);
extern void (*pk_machine_shutdown_hook)(void);

/**
 * machine_shutdown() - stop the virtual CPUs once every task has exited
 *
 * Thread context (not a vCPU): waits for the tasks, so stop yours first.
 */
void machine_shutdown(void);

/* Set while a machine booted rt runs; read it through pk_machine_rt(). */
extern int pk_rt_machine_running;

/**
 * pk_machine_rt() - does a machine booted with the rt model run?  Then
 * spinlock_t sleeps on its tasks, and the model stays rt until shutdown
 * (rt is chosen at boot, as in Linux).  Any context; every spinlock_t
 * operation asks, so it is one load.
 */
static inline bool pk_machine_rt(void)
{
	return __atomic_load_n(&pk_rt_machine_running, __ATOMIC_ACQUIRE);
}

/**
 * pk_need_resched_lazy() - does this CPU owe a lazy reschedule (lazy model:
 * a normal task woke, due at the next tick)?  Any context; false off a
 * vCPU.
 */
bool pk_need_resched_lazy(void);

/** pk_on_machine_task() - is the caller a task of the booted machine? */
bool pk_on_machine_task(void);

/**
 * pk_vcpu_irq_cpu() - vCPU @cpu's number in the irq layer, for irq_raise()
 *
 * Any context.  -ENODEV when no machine runs or @cpu is not one of its.
 */
int pk_vcpu_irq_cpu(int cpu);

/** num_online_cpus() - vCPUs of the booted machine (0 if none). */
int num_online_cpus(void);

/** pk_machine_hz() - ticks per second of the booted machine. */
int pk_machine_hz(void);

/**
 * enter_user() / exit_user() - mark code that is always preemptible, as
 * user space is in Linux, whatever the model.  Task context.
 */
void enter_user(void);
void exit_user(void);

/**
 * need_resched() - is a reschedule owed to this CPU?
 *
 * Any context.
 */
static __always_inline bool need_resched(void)
{
	return unlikely(test_preempt_need_resched());
}

int _cond_resched(void);

/**
 * cond_resched() - preemption point of the none and voluntary models
 *
 * Task context, may sleep (checked).  Reschedules when owed under none and
 * voluntary and returns 1 if it did; a no-op under full, lazy and rt,
 * where preemption happens by itself.
 */
#if CONFIG_DEBUG_ATOMIC_SLEEP
#define cond_resched()                                                         \
	({                                                                     \
		__might_resched(__FILE__, __LINE__, 0);                        \
		_cond_resched();                                               \
	})
#else
#define cond_resched() _cond_resched()
#endif

/**
 * migrate_disable() - keep the current task on this CPU, preemptible
 *
 * Task context; nests.
 */
static __always_inline void migrate_disable(void)
{
	pk_task_tls(pk_migrate_disable_count)++;
	barrier();
}

/**
 * migrate_enable() - undo migrate_disable()
 *
 * Task context, paired with migrate_disable().
 */
static __always_inline void migrate_enable(void)
{
	barrier();
	if (!WARN_ON_ONCE(pk_task_tls(pk_migrate_disable_count) <= 0))
		pk_task_tls(pk_migrate_disable_count)--;
}

/** is_migration_disabled() - is the current task pinned? */
#define is_migration_disabled() pk_migration_disabled()

/**
 * raw_smp_processor_id() - the CPU this code runs on, no check
 *
 * Any context.  A vCPU's number; on other threads the thread's own number.
 */
int raw_smp_processor_id(void);

void pk_check_preemption_disabled(const char *what);

/**
 * smp_processor_id() - the CPU, from code that cannot migrate
 *
 * Reports "using smp_processor_id() in preemptible code" when called where
 * the task could move to another CPU (debug builds).
 */
#if CONFIG_DEBUG_PREEMPT
#define smp_processor_id()                                                     \
	({                                                                     \
		pk_check_preemption_disabled("smp_processor_id");              \
		raw_smp_processor_id();                                        \
	})
#else
#define smp_processor_id() raw_smp_processor_id()
#endif

/** get_cpu() - preempt_disable() and return the CPU. */
#define get_cpu()                                                              \
	({                                                                     \
		preempt_disable();                                             \
		raw_smp_processor_id();                                        \
	})
/** put_cpu() - undo get_cpu(). */
#define put_cpu() preempt_enable()

/* ---- per-CPU variables ---- */

/* Kernel code has the kernel's offset model instead (linux/percpu.h). */
#ifndef __KERNEL__

#define PK_PERCPU_SLOTS 64 /* PK_NR_CPUS */

/** DEFINE_PER_CPU() - one @type per CPU, named @name. */
#define DEFINE_PER_CPU(type, name) __typeof__(type) name[PK_PERCPU_SLOTS]
#define DECLARE_PER_CPU(type, name)                                            \
	extern __typeof__(type) name[PK_PERCPU_SLOTS]
/** per_cpu() - CPU @cpu's instance.  Any context. */
#define per_cpu(var, cpu) ((var)[(cpu)])
/** per_cpu_ptr() - address of CPU @cpu's instance of *@ptr. */
#define per_cpu_ptr(ptr, cpu) (&(*(ptr))[(cpu)])
/** this_cpu_ptr() - this CPU's instance; preemption must be off. */
#define this_cpu_ptr(ptr) per_cpu_ptr(ptr, smp_processor_id())
#define raw_cpu_ptr(ptr) per_cpu_ptr(ptr, raw_smp_processor_id())
/* this_cpu_*(): safe in preemptible code, as the kernel's are. */
#define __pk_this_cpu_op(var, op)                                              \
	({                                                                     \
		pk_sim_hook(PK_SIM_ACCESS);                                    \
		preempt_disable_notrace();                                     \
		__typeof__((var)[0]) *__p = &(var)[raw_smp_processor_id()];    \
		__typeof__((var)[0]) __v = (op);                               \
		preempt_enable_notrace();                                      \
		__v;                                                           \
	})
#define this_cpu_read(var) __pk_this_cpu_op(var, *__p)
#define this_cpu_write(var, val) ((void)__pk_this_cpu_op(var, *__p = (val)))
#define this_cpu_add(var, val) ((void)__pk_this_cpu_op(var, *__p += (val)))
#define this_cpu_inc(var) this_cpu_add(var, 1)
#define this_cpu_dec(var) this_cpu_add(var, -1)
#endif /* !__KERNEL__ */

enum pk_resched_kind {
	PK_RESCHED_PREEMPT_ENABLE, /* preempt_enable() reached zero */
	PK_RESCHED_IRQ_RETURN,	   /* return from interrupt */
	PK_RESCHED_COND_RESCHED,   /* cond_resched() / might_resched() */
	PK_RESCHED_NR,
};

/**
 * struct pk_switch_hook - code run at every context switch, for the layers
 * above the scheduler (kmap_local, tracing)
 * @sched_out: in @prev, before the switch, with the rq lock held and
 *             interrupts off; @prev->__state is TASK_DEAD when it exits
 * @sched_in:  in @next, after the switch (also a new task's first switch),
 *             with the rq lock still held and interrupts off
 *
 * Both must not sleep, take sleeping locks or raise interrupts.
 */
struct pk_switch_hook {
	void (*sched_out)(struct task_struct *prev, struct task_struct *next);
	void (*sched_in)(struct task_struct *prev, struct task_struct *next);
	struct pk_switch_hook *pk_next;
};

/**
 * pk_switch_hook_register() - run @hook at every context switch from now
 * on.  Task context, no machine booted.  Returns 0, or -EBUSY while booted.
 */
int pk_switch_hook_register(struct pk_switch_hook *hook);
/** pk_switch_hook_unregister() - undo the above; same contexts. */
int pk_switch_hook_unregister(struct pk_switch_hook *hook);

/**
 * struct pk_sched_stats - how a CPU got rescheduled
 * @resched: preemptions and voluntary reschedules taken, by kind
 * @nr_switches: context switches
 * @deferred_unsafe: irq-return preemptions put off because the interrupted
 *                   code was in libc, the loader, the vDSO or the runtime
 * @ticks: tick interrupts taken
 * @tick_stops: times the idle loop stopped the periodic tick (NO_HZ_IDLE)
 * @tick_restarts: times it started it again on leaving idle
 * @idle_polls: idle entries that polled before sleeping in the host
 * @poll_hits: of them, ended by a wake-up while polling (no host sleep)
 * @poll_ns: time spent polling in idle, in ns (the haltpoll cost)
 * @poll_steals: polls cut short because the host preempted the vCPU
 * @wake_batches: drains of the wake list that found tasks other CPUs woke
 * @wake_list_tasks: tasks those drains queued (over @wake_batches: the
 *                   wake-ups one IPI or idle kick carried)
 */
struct pk_sched_stats {
	unsigned long resched[PK_RESCHED_NR];
	unsigned long nr_switches;
	unsigned long deferred_unsafe;
	unsigned long ticks;
	unsigned long tick_stops;
	unsigned long tick_restarts;
	unsigned long idle_polls;
	unsigned long poll_hits;
	unsigned long poll_ns;
	unsigned long poll_steals;
	unsigned long wake_batches;
	unsigned long wake_list_tasks;
};

/** pk_sched_stats() - the current CPU's counters.  Any context. */
struct pk_sched_stats pk_sched_stats(void);

/** pk_sched_cpu_stats() - counters of vCPU @cpu of the booted machine. */
struct pk_sched_stats pk_sched_cpu_stats(int cpu);

#endif /* PREEMPT_SCHED_H */
