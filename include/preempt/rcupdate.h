/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_RCUPDATE_H
#define PREEMPT_RCUPDATE_H

/*
 * Read-copy update on the machine, in two flavours chosen at boot:
 *
 *  - non-preemptible (the kernel's CONFIG_PREEMPT_NONE/VOLUNTARY RCU):
 *    rcu_read_lock() is preempt_disable(), so in_atomic() is true inside
 *    a reader and a context switch, the idle loop, cond_resched() or a
 *    tick that interrupts count-zero code is a quiescent state;
 *  - PREEMPT_RCU: readers nest in the task's own counter, not in the
 *    count; a reader preempted inside its section goes on a list of
 *    blocked readers that holds the grace period until it leaves.
 *
 * Threads that are not vCPUs (and every thread before machine_boot())
 * read through a slower path that publishes a per-thread counter, as
 * liburcu's memb flavour does, so grace periods wait for them too.
 *
 * The fast paths are here; grace periods, callbacks, expedited grace
 * periods, stall warnings and boosting are in src/rcu/tree.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <preempt/bottom_half.h>
#include <preempt/debug.h>
#include <preempt/irqflags.h>
#include <preempt/lockdep.h>
#include <preempt/preempt.h>

#ifdef __KERNEL__
/* Kernel code: <linux/types.h>'s callback_head, which rcu_head names
 * there; the same two members in the same order as below. */
#include <linux/types.h>
#else
/** struct rcu_head - a callback queued by call_rcu() (callback_head). */
struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};
typedef void (*rcu_callback_t)(struct rcu_head *head);
#endif

/* ---- flavour ---- */

enum pk_rcu_flavour {
	PK_RCU_FLAVOUR_AUTO,	/* by the boot model: none/voluntary sched */
	PK_RCU_FLAVOUR_SCHED,	/* non-preemptible, whatever the model */
	PK_RCU_FLAVOUR_PREEMPT, /* PREEMPT_RCU, whatever the model */
};

/**
 * pk_rcu_set_boot_flavour() - the flavour the next machine_boot() picks
 *
 * Thread context, no machine booted.  $PREEMPT_RCU=preempt (or sched)
 * sets it too, as a PREEMPT_DYNAMIC kernel's build choice would.
 * Returns 0 or -EBUSY while a machine runs.
 */
int pk_rcu_set_boot_flavour(enum pk_rcu_flavour flavour);

/** pk_rcu_preemptible() - does the booted machine run PREEMPT_RCU? */
static inline bool pk_rcu_preemptible(void)
{
	return __atomic_load_n(&pk_rcu_preempt_flavour, __ATOMIC_RELAXED);
}

/* ---- readers ---- */

/*
 * Per thread: how this thread's readers enter (vCPUs learn it once).  In
 * this order: the fast paths take PREEMPT_RCU on "mode > SCHED", the flags
 * of the one compare that found the mode is not SCHED.
 */
enum {
	PK_RCU_MODE_SLOW,    /* not a vCPU, or not known yet */
	PK_RCU_MODE_SCHED,   /* a vCPU of a non-preemptible machine */
	PK_RCU_MODE_PREEMPT, /* a vCPU of a PREEMPT_RCU machine */
};
extern __thread int pk_rcu_thread_mode
	__attribute__((tls_model("initial-exec")));
/* Per task (saved at context switch): the unlock owes the slow path. */
extern __thread int pk_rcu_special __attribute__((tls_model("initial-exec")));

void __pk_rcu_read_lock_slow(void);
void __pk_rcu_read_unlock_slow(void);
void __pk_rcu_read_unlock_special(void);

#if defined(__x86_64__) || defined(__i386__)
/* One %fs-relative instruction: a signal on this thread cannot split it. */
static __always_inline void __pk_rcu_nesting_inc(void)
{
	__asm__ __volatile__("incl %0" : "+m"(pk_rcu_nesting)::"memory");
}

/* Decrement; true if the nesting reached zero (decl's flag, no reload). */
static __always_inline bool __pk_rcu_nesting_dec_and_test(void)
{
	bool zero;

	__asm__ __volatile__("decl %0"
			     : "+m"(pk_rcu_nesting), "=@ccz"(zero)::"memory");
	return zero;
}
#else
/* Atomic read-modify-write, as the word's (see <preempt/preempt.h>). */
static __always_inline void __pk_rcu_nesting_inc(void)
{
	__atomic_fetch_add(&pk_task_tls(pk_rcu_nesting), 1, __ATOMIC_RELAXED);
	barrier();
}

static __always_inline bool __pk_rcu_nesting_dec_and_test(void)
{
	bool zero;

	barrier();
	zero = __atomic_sub_fetch(&pk_task_tls(pk_rcu_nesting), 1,
				  __ATOMIC_RELAXED) == 0;
	/* pk_rcu_special is read after: a tick between sees nesting 0. */
	barrier();
	return zero;
}
#endif

/*
 * The readers as the lock validator sees them (the kernel's rcu_lock_map
 * and company): recursive read acquisitions it tracks but does not check
 * (a reader never waits for anything), so that they show among the held
 * locks of every report and are found held at exit or on the way back to
 * user code.  The maps are the locking layer's (src/locking/lockdep.c).
 */
extern struct lockdep_map rcu_lock_map;
extern struct lockdep_map rcu_bh_lock_map;
extern struct lockdep_map rcu_sched_lock_map;
#define rcu_lock_acquire(map) lock_acquire(map, 0, 0, 2, 0, NULL, _THIS_IP_)
#define rcu_lock_release(map) lock_release(map, _THIS_IP_)

/*
 * rcu_read_lock() without the validator's record.  The non-preemptible
 * flavour is tested first and laid out inline; PREEMPT_RCU's branch is
 * out of line, a taken jump there and one back in the lock and in the
 * unlock, which costs it about 0.5 ns a pair (docs/PERFORMANCE.md, RCU).
 */
static __always_inline void __rcu_read_lock(void)
{
	int mode = pk_rcu_thread_mode;

	if (likely(mode == PK_RCU_MODE_SCHED)) {
		preempt_disable();
		__pk_rcu_nesting_inc();
	} else if (likely(mode > PK_RCU_MODE_SCHED)) {
		__pk_rcu_nesting_inc();
	} else {
		__pk_rcu_read_lock_slow();
	}
}

/* rcu_read_unlock() without the validator's record. */
static __always_inline void __rcu_read_unlock(void)
{
	int mode = pk_rcu_thread_mode;

	if (likely(mode == PK_RCU_MODE_SCHED)) {
		(void)__pk_rcu_nesting_dec_and_test();
		preempt_enable();
	} else if (likely(mode > PK_RCU_MODE_SCHED)) {
		if (__pk_rcu_nesting_dec_and_test() &&
		    unlikely(pk_task_tls(pk_rcu_special)))
			__pk_rcu_read_unlock_special();
	} else {
		__pk_rcu_read_unlock_slow();
	}
}

/**
 * rcu_read_lock() - enter an RCU read-side critical section
 *
 * Any context but NMI; nests.  Non-preemptible flavour: disables
 * preemption.  PREEMPT_RCU: the task stays preemptible.  Must not sleep
 * inside (might_sleep() reports it) except through SRCU.
 */
static __always_inline void rcu_read_lock(void)
{
	__rcu_read_lock();
	rcu_lock_acquire(&rcu_lock_map);
}

/**
 * rcu_read_unlock() - leave the section rcu_read_lock() entered
 *
 * Same context as the lock.  A PREEMPT_RCU reader that was preempted,
 * boosted or asked for by an expedited grace period reports here.
 */
static __always_inline void rcu_read_unlock(void)
{
	rcu_lock_release(&rcu_lock_map);
	__rcu_read_unlock();
}

/** rcu_read_lock_bh() - a reader that also disables bottom halves. */
static inline void rcu_read_lock_bh(void)
{
	local_bh_disable();
	__rcu_read_lock();
	rcu_lock_acquire(&rcu_bh_lock_map);
}

/** rcu_read_unlock_bh() - end rcu_read_lock_bh(). */
static inline void rcu_read_unlock_bh(void)
{
	rcu_lock_release(&rcu_bh_lock_map);
	__rcu_read_unlock();
	local_bh_enable();
}

/** rcu_read_lock_sched() - a reader that is a preempt-disabled section. */
static inline void rcu_read_lock_sched(void)
{
	preempt_disable();
	rcu_lock_acquire(&rcu_sched_lock_map);
}

/** rcu_read_unlock_sched() - end rcu_read_lock_sched(). */
static inline void rcu_read_unlock_sched(void)
{
	rcu_lock_release(&rcu_sched_lock_map);
	preempt_enable();
}

/**
 * rcu_preempt_depth() - rcu_read_lock() nesting of the current task under
 * PREEMPT_RCU; 0 under the non-preemptible flavour, as in the kernel.
 */
static inline int rcu_preempt_depth(void)
{
	return pk_rcu_preempt_depth();
}

/**
 * rcu_read_lock_held() - inside rcu_read_lock()?  Any context.
 *
 * Counted in both flavours (debugging needs it in both).
 */
static inline bool rcu_read_lock_held(void)
{
	return pk_task_tls(pk_rcu_nesting) > 0;
}

/** rcu_read_lock_bh_held() - bottom halves or interrupts disabled? */
static inline bool rcu_read_lock_bh_held(void)
{
	return softirq_count() != 0 || irqs_disabled();
}

/** rcu_read_lock_sched_held() - preemption or interrupts disabled? */
static inline bool rcu_read_lock_sched_held(void)
{
	return preempt_count() != 0 || irqs_disabled();
}

/** rcu_read_lock_any_held() - in any kind of RCU reader? */
static inline bool rcu_read_lock_any_held(void)
{
	return rcu_read_lock_held() || rcu_read_lock_sched_held();
}

/* ---- pointers ---- */

/* Marks pointers that RCU protects (sparse's annotation, empty here). */
#define __rcu

#ifndef CONFIG_PROVE_RCU
#define CONFIG_PROVE_RCU CONFIG_DEBUG_ATOMIC_SLEEP
#endif

/*
 * lockdep-RCU's report: "WARNING: suspicious RCU usage" and @msg at
 * @file:@line.  Any context.
 */
void lockdep_rcu_suspicious(const char *file, int line, const char *msg);

#if CONFIG_PROVE_RCU
#define RCU_LOCKDEP_WARN(c, msg)                                               \
	do {                                                                   \
		if (unlikely(c))                                               \
			lockdep_rcu_suspicious(__FILE__, __LINE__, msg);       \
	} while (0)
#else
#define RCU_LOCKDEP_WARN(c, msg)                                               \
	do {                                                                   \
		(void)sizeof(c);                                               \
	} while (0)
#endif

#define __pk_rcu_load(p) __atomic_load_n(&(p), __ATOMIC_CONSUME)

/** rcu_access_pointer() - the pointer's value, not to be dereferenced. */
#define rcu_access_pointer(p) __atomic_load_n(&(p), __ATOMIC_RELAXED)

/** rcu_dereference_raw() - rcu_dereference() without any check. */
#define rcu_dereference_raw(p) __pk_rcu_load(p)

/**
 * rcu_dereference_check() - load an RCU-protected pointer in a reader, or
 * where @c says the update side's lock is held; otherwise "suspicious
 * rcu_dereference_check() usage!" is reported.
 */
#define rcu_dereference_check(p, c)                                            \
	({                                                                     \
		RCU_LOCKDEP_WARN(!((c) || rcu_read_lock_held()),               \
				 "suspicious rcu_dereference_check() usage!"); \
		__pk_rcu_load(p);                                              \
	})
#define rcu_dereference_bh_check(p, c)                                         \
	({                                                                     \
		RCU_LOCKDEP_WARN(!((c) || rcu_read_lock_bh_held()),            \
				 "suspicious rcu_dereference_bh_check() "      \
				 "usage!");                                    \
		__pk_rcu_load(p);                                              \
	})
#define rcu_dereference_sched_check(p, c)                                      \
	({                                                                     \
		RCU_LOCKDEP_WARN(!((c) || rcu_read_lock_sched_held()),         \
				 "suspicious rcu_dereference_sched_check() "   \
				 "usage!");                                    \
		__pk_rcu_load(p);                                              \
	})

/** rcu_dereference() - load an RCU-protected pointer inside a reader. */
#define rcu_dereference(p) rcu_dereference_check(p, 0)
/** rcu_dereference_bh() - the same inside rcu_read_lock_bh(). */
#define rcu_dereference_bh(p) rcu_dereference_bh_check(p, 0)
/** rcu_dereference_sched() - the same inside rcu_read_lock_sched(). */
#define rcu_dereference_sched(p) rcu_dereference_sched_check(p, 0)

/**
 * rcu_dereference_protected() - load on the update side, where @c (the
 * lock that excludes updaters held) makes it safe; reports otherwise.
 */
#define rcu_dereference_protected(p, c)                                        \
	({                                                                     \
		RCU_LOCKDEP_WARN(!(c), "suspicious "                           \
				       "rcu_dereference_protected() usage!");  \
		__atomic_load_n(&(p), __ATOMIC_RELAXED);                       \
	})

/** rcu_assign_pointer() - publish @v at @p (release order).  Any context. */
#define rcu_assign_pointer(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

/** RCU_INIT_POINTER() - store without ordering (NULL, or not yet seen). */
#define RCU_INIT_POINTER(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELAXED)

/** rcu_replace_pointer() - publish @v at @rcu_ptr, return the old value. */
#define rcu_replace_pointer(rcu_ptr, ptr, c)                                   \
	({                                                                     \
		__typeof__(ptr) __old =                                        \
			rcu_dereference_protected((rcu_ptr), (c));             \
		rcu_assign_pointer((rcu_ptr), (ptr));                          \
		__old;                                                         \
	})

/* ---- updaters ---- */

/**
 * synchronize_rcu() - wait until every reader that began before the call
 * has ended (a grace period)
 *
 * Task context or a thread that is not a vCPU; may sleep (might_sleep()
 * reports a call from atomic context), not inside a reader: a call inside
 * rcu_read_lock() (or rt's local_bh_disable()) is reported and returns at
 * once, without waiting.
 */
void synchronize_rcu(void);

/**
 * synchronize_rcu_expedited() - synchronize_rcu(), fast: every vCPU is
 * interrupted to report its state at once.  Same contexts.
 */
void synchronize_rcu_expedited(void);

/**
 * call_rcu() - run @func(@head) after a grace period
 *
 * Task, softirq or hardirq context, any thread; not NMI (reported, and
 * the callback is still run later).  Callbacks run in the RCU softirq of
 * the CPU that queued them (in its rcuc kthread under rt; in the
 * grace-period kthread for threads that are not vCPUs).
 */
void call_rcu(struct rcu_head *head, rcu_callback_t func);

/**
 * rcu_barrier() - wait until every callback queued so far has run
 *
 * Task context or a thread that is not a vCPU; may sleep.
 */
void rcu_barrier(void);

/*
 * kfree_rcu(ptr, rhf) - kfree(@ptr) after a grace period, @rhf its
 * struct rcu_head member.  Same contexts as call_rcu().
 */
void pk_kvfree_call_rcu(struct rcu_head *head, void *ptr);
#define kfree_rcu(ptr, rhf)                                                    \
	do {                                                                   \
		__typeof__(ptr) ___p = (ptr);                                  \
		if (___p)                                                      \
			pk_kvfree_call_rcu(&___p->rhf, (void *)___p);          \
	} while (0)
#define kvfree_rcu(ptr, rhf) kfree_rcu(ptr, rhf)

/**
 * kvfree_rcu_mightsleep() - kvfree(@ptr) after a grace period, without an
 * rcu_head: waits for it.  Task context, may sleep.
 */
void pk_kvfree_rcu_mightsleep(void *ptr);
#define kvfree_rcu_mightsleep(ptr) pk_kvfree_rcu_mightsleep(ptr)
#define kfree_rcu_mightsleep(ptr) pk_kvfree_rcu_mightsleep(ptr)

/* ---- polled grace periods ---- */

/**
 * get_state_synchronize_rcu() - a cookie that poll_state_synchronize_rcu()
 * finds done once a full grace period has passed from now.  Any context.
 */
unsigned long get_state_synchronize_rcu(void);
/** start_poll_synchronize_rcu() - the same, and start that grace period. */
unsigned long start_poll_synchronize_rcu(void);
/** poll_state_synchronize_rcu() - has @oldstate's grace period passed? */
bool poll_state_synchronize_rcu(unsigned long oldstate);
/** cond_synchronize_rcu() - synchronize_rcu() unless it already passed. */
void cond_synchronize_rcu(unsigned long oldstate);
/** get_completed_synchronize_rcu() - a cookie that is always done. */
unsigned long get_completed_synchronize_rcu(void);

/* ---- tuning, statistics (tests, torture) ---- */

/**
 * pk_rcu_set_stall_timeout_ms() - the RCU CPU stall warning timeout
 * (rcupdate.rcu_cpu_stall_timeout; 21 s by default, $PREEMPT_RCU_STALL_MS).
 * 0 turns the warnings off.  Any context.
 */
void pk_rcu_set_stall_timeout_ms(long ms);

/**
 * pk_rcu_set_boost() - RCU_BOOST under rt: after @delay_ms of a grace
 * period, boost its preempted readers to SCHED_FIFO @rt_prio (the
 * kernel's 500 ms and rcutree.kthread_prio).  Any context.
 */
void pk_rcu_set_boost(int rt_prio, long delay_ms);

struct pk_rcu_stats {
	unsigned long gp_seq;	     /* grace periods ended, times 2 */
	unsigned long gps;	     /* grace periods completed */
	unsigned long exp_gps;	     /* expedited grace periods */
	unsigned long cbs_invoked;   /* callbacks run */
	unsigned long cbs_queued;    /* callbacks queued */
	unsigned long blocked_tasks; /* readers preempted in their section */
	unsigned long boosts;	     /* readers boosted */
	unsigned long stalls;	     /* stall warnings printed */
	unsigned long nmi_call_rcu;  /* call_rcu() from NMI */
};
/** pk_rcu_stats() - counters since the library loaded.  Any context. */
struct pk_rcu_stats pk_rcu_stats(void);

/*
 * For the torture test's deliberately broken grace period: callbacks
 * that run this many grace periods early (0: correct).  Tests only.
 */
void pk_rcu_torture_set_early(int gps);

#endif /* PREEMPT_RCUPDATE_H */
