// SPDX-License-Identifier: MIT
/*
 * RCU on the machine: grace periods, callbacks, quiescent states, the
 * blocked-readers list of PREEMPT_RCU, expedited grace periods, RCU_BOOST,
 * stall warnings.  The kernel's kernel/rcu/tree.c and tree_plugin.h
 * describe the same machinery for many more CPUs; here one level of
 * "tree" (one rcu_node) is enough for at most 64 vCPUs.
 *
 * A grace period has a number: rcu_state.gp_seq is odd while one runs and
 * even between them.  A cookie (the grace-period number a caller needs)
 * is the even value gp_seq reaches once a full grace period has passed
 * from the moment it was taken (rcu_seq_snap()).
 *
 * The grace-period kthread starts a grace period by asking every vCPU for
 * a quiescent state (rdp->qs_pending) and by noting the preempted readers
 * already on the blocked list; it ends it when every vCPU has answered,
 * those readers have left, and the readers of threads that are not vCPUs
 * that began before it have ended.  vCPUs answer from the context switch,
 * from the tick when it interrupted code outside any reader, and from
 * cond_resched(); an idle vCPU answers at its next tick.
 *
 * Callbacks wait on their CPU in three segments (done, wait, next) tagged
 * with the grace-period number they need; the tick sees ready ones and
 * raises RCU_SOFTIRQ (wakes the CPU's rcuc kthread under rt).
 *
 * Lock order: rq lock -> rcu_state.lock (the switch hook); boost_lock ->
 * rcu_state.lock and boost_lock -> the rt_mutex code's lock -> rq lock.
 * Nothing wakes a task or changes a priority under rcu_state.lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <preempt/bug.h>
#include <preempt/interrupt.h>
#include <preempt/irq_work.h>
#include <preempt/mutex.h>
#include <preempt/rcupdate.h>
#include <preempt/rtmutex.h>
#include <preempt/sched.h>
#include <preempt/slab.h>
#include <preempt/wait.h>

#include "../debug/report.h"
#include "../sched/sched_internal.h"
#include "rcu_internal.h"
#include "../port/sim.h"

#define PK_RCU_EXP_IRQ 57 /* the expedited grace period's IPI */
#define PK_RCU_NMI_IRQ 58 /* a stall's NMI backtrace of a CPU */
#define HOST_RDP (&rcu_data[PK_NR_CPUS])
#define ULONG_CMP_GE(a, b) ((long)((a) - (b)) >= 0)
#define ULONG_CMP_LT(a, b) ((long)((a) - (b)) < 0)
#define KFREE_OFFSET_MAX 4096 /* func below this: kfree_rcu's offset */

enum {
	SPECIAL_BLOCKED = 1, /* on the blocked list: unlock takes it off */
	SPECIAL_EXP = 2,     /* an expedited grace period waits for us */
	SPECIAL_NEED_QS = 4, /* a normal grace period waits for us */
};

enum {
	BLOCKED_LIST = 1, /* task is on rcu_state.blkd */
	BLOCKED_GP = 2,	  /* ... and holds the current grace period */
	BLOCKED_EXP = 4,  /* ... and the current expedited one */
};

/* Per vCPU (and one for every thread that is not a vCPU). */
struct rcu_data {
	int lock; /* raw; interrupts off while held */
	struct rcu_head *done, **done_tail;
	struct rcu_head *wait, **wait_tail;
	struct rcu_head *next, **next_tail;
	unsigned long wait_seq, next_seq;
	long n_cbs;
	int qs_pending;	 /* the current grace period waits for us */
	int exp_pending; /* the current expedited one does */
	unsigned long ticks_this_gp;
	struct task_struct *rcuc;
	int rcuc_work;
	int nmi_dump; /* a stall report asked for this CPU's backtrace */
	/*
	 * The kernel's dynticks counter, simplified: bit 0 while the vCPU
	 * sleeps in idle, plus 2 per batch of handlers running on it.
	 * Exactly 1: asleep in idle, in no handler, so in no reader.
	 */
	int eqs;
	/* The idle task that set the idle mark: a switch away from it (a
	 * preemption at the enabling edge after the mark) lifts the mark
	 * until it runs again.  This vCPU's thread only. */
	struct task_struct *eqs_owner;
} __attribute__((aligned(64)));

static struct rcu_data rcu_data[PK_NR_CPUS + 1];

/* The idle mark and the handler count, fenced (see rcu_eqs_quiescent()). */
static void eqs_add(struct rcu_data *rdp, int delta)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_add_fetch(&rdp->eqs, delta, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static struct {
	int lock; /* raw; interrupts off while held */
	unsigned long gp_seq;
	unsigned long gp_seq_needed;
	long gp_start_ns;
	int ncpus;
	struct list_head blkd; /* readers preempted in their section */
	int gp_blocked;	       /* of them, holding the grace period */
	int exp_blocked;       /* ... the expedited one */
	unsigned long host_ctr;
	struct rcu_head *nmi_cbs; /* call_rcu() from NMI, pushed lock-free */
	int booted;
	int use_rcuc;
	struct task_struct *gp_kthread;
	int boost_lock;
	struct pk_rcu_stats stats;
} rcu_state = {
	.blkd = LIST_HEAD_INIT(rcu_state.blkd),
	.host_ctr = 1,
};

static DECLARE_WAIT_QUEUE_HEAD(gp_wq);	       /* grace period ended */
static DECLARE_WAIT_QUEUE_HEAD(gp_kthread_wq); /* work for the kthread */
static DECLARE_WAIT_QUEUE_HEAD(exp_wq);	       /* an expedited GP's news */
static DEFINE_MUTEX(exp_mutex);
static DEFINE_MUTEX(gp_mutex); /* one driver of normal grace periods */
static pthread_mutex_t nomachine_gp_lock = PTHREAD_MUTEX_INITIALIZER;
static enum pk_rcu_flavour boot_flavour = PK_RCU_FLAVOUR_AUTO;
static long stall_timeout_ms = 21000;
static int boost_rt_prio = 1;
static long boost_delay_ms = 500;

#define STAT_INC(field)                                                        \
	__atomic_add_fetch(&rcu_state.stats.field, 1, __ATOMIC_RELAXED)

bool pk_rcu_booted(void)
{
	return __atomic_load_n(&rcu_state.booted, __ATOMIC_ACQUIRE);
}

void pk_rcu_poll_pause(void)
{
	if (pk_this_rq)
		schedule_timeout_uninterruptible(1);
	else
		pk_host_yield();
}

/* ---- grace-period numbers ---- */

static unsigned long gp_seq_load(void)
{
	return __atomic_load_n(&rcu_state.gp_seq, __ATOMIC_ACQUIRE);
}

/* The even number gp_seq reaches once a full grace period from now ends. */
static unsigned long rcu_seq_snap(void)
{
	unsigned long s;

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	s = gp_seq_load();
	return (s + 3) & ~1UL;
}

static bool rcu_seq_done(unsigned long s)
{
	return ULONG_CMP_GE(gp_seq_load(), s);
}

/* Ask for the grace period that ends at @s; wake the kthread if new. */
static void request_gp(unsigned long s)
{
	unsigned long old =
		__atomic_load_n(&rcu_state.gp_seq_needed, __ATOMIC_RELAXED);

	do {
		if (ULONG_CMP_GE(old, s))
			return;
	} while (!__atomic_compare_exchange_n(&rcu_state.gp_seq_needed, &old, s,
					      false, __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	if (pk_rcu_booted())
		wake_up(&gp_kthread_wq);
}

static bool gp_needed(void)
{
	return ULONG_CMP_LT(
		gp_seq_load(),
		__atomic_load_n(&rcu_state.gp_seq_needed, __ATOMIC_ACQUIRE));
}

/* ---- flavour ---- */

/*
 * PREEMPT_RT selects PREEMPT_RCU whatever was asked for: its readers take
 * sleeping locks, and its bh-disabled sections are preemptible readers
 * that only the blocked list can wait for.
 */
static bool flavour_preempt_for_model(void)
{
	if (boot_flavour == PK_RCU_FLAVOUR_PREEMPT || preempt_model_rt())
		return true;
	if (boot_flavour == PK_RCU_FLAVOUR_SCHED)
		return false;
	return preempt_model_preemptible();
}

int pk_rcu_set_boot_flavour(enum pk_rcu_flavour flavour)
{
	if (pk_machine_running())
		return -EBUSY;
	if ((unsigned int)flavour > PK_RCU_FLAVOUR_PREEMPT)
		return -EINVAL;
	boot_flavour = flavour;
	return 0;
}

__attribute__((constructor)) static void rcu_environment(void)
{
	const char *f = getenv("PREEMPT_RCU");
	const char *stall = getenv("PREEMPT_RCU_STALL_MS");

	if (f && !strcasecmp(f, "preempt"))
		boot_flavour = PK_RCU_FLAVOUR_PREEMPT;
	else if (f && !strcasecmp(f, "sched"))
		boot_flavour = PK_RCU_FLAVOUR_SCHED;
	if (stall && *stall)
		stall_timeout_ms = strtol(stall, NULL, 10);
}

void pk_rcu_set_stall_timeout_ms(long ms)
{
	__atomic_store_n(&stall_timeout_ms, ms, __ATOMIC_RELAXED);
}

void pk_rcu_set_boost(int rt_prio, long delay_ms)
{
	if (rt_prio >= 1 && rt_prio < MAX_RT_PRIO)
		__atomic_store_n(&boost_rt_prio, rt_prio, __ATOMIC_RELAXED);
	__atomic_store_n(&boost_delay_ms, delay_ms, __ATOMIC_RELAXED);
}

struct pk_rcu_stats pk_rcu_stats(void)
{
	struct pk_rcu_stats s;

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	memcpy(&s, &rcu_state.stats, sizeof(s));
	s.gp_seq = gp_seq_load();
	return s;
}

/* ---- readers of threads that are not vCPUs ---- */

/*
 * Each such thread publishes, while in a reader, the host counter it saw
 * at its outermost rcu_read_lock() (0 outside).  A grace period bumps the
 * counter and waits for every thread showing an older value: those began
 * before it.  The fences pair (store, fence, load on both sides), so a
 * reader either shows up or sees the update.
 */
struct host_reader {
	unsigned long snap;
	int in_use;
	struct host_reader *next;
};

static struct host_reader *host_readers;
static pthread_key_t host_reader_key;
static __thread struct host_reader *my_host_reader;
static __thread int host_reader_sched; /* the outermost lock disabled
					  preemption: non-preemptible */

static void host_reader_release(void *p)
{
	struct host_reader *r = p;

	__atomic_store_n(&r->snap, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&r->in_use, 0, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static void host_reader_key_init(void)
{
	if (pthread_key_create(&host_reader_key, host_reader_release))
		BUG();
}

/*
 * Records come from a static pool first: a host thread's first reader may
 * be an interrupt handler (a host signal handler) on its irq-layer CPU,
 * where calloc() could deadlock on the malloc lock the interrupted code
 * holds.  Only beyond the pool, in task context, does it allocate.
 */
#define PK_HOST_READERS_STATIC 256
static struct host_reader host_reader_pool[PK_HOST_READERS_STATIC];
static unsigned int host_reader_pool_used;

static struct host_reader *host_reader_new(void)
{
	unsigned int i =
		__atomic_fetch_add(&host_reader_pool_used, 1, __ATOMIC_RELAXED);
	struct host_reader *r;

	if (i < PK_HOST_READERS_STATIC)
		return &host_reader_pool[i];
	/* Records are reused, so this takes that many live readers. */
	BUG_ON(in_hardirq() || in_nmi());
	r = calloc(1, sizeof(*r));
	if (!r)
		BUG();
	return r;
}

static struct host_reader *host_reader_get(void)
{
	struct host_reader *r = my_host_reader;

	if (likely(r))
		return r;
	/* Reuse a record a finished thread left. */
	for (r = __atomic_load_n(&host_readers, __ATOMIC_ACQUIRE); r;
	     r = r->next)
		if (__atomic_compare_exchange_n(&r->in_use, &(int){0}, 1, false,
						__ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED))
			break;
	if (!r) {
		r = host_reader_new();
		r->in_use = 1;
		r->next = __atomic_load_n(&host_readers, __ATOMIC_RELAXED);
		while (!__atomic_compare_exchange_n(&host_readers, &r->next, r,
						    false, __ATOMIC_SEQ_CST,
						    __ATOMIC_RELAXED))
			;
	}
	pthread_setspecific(host_reader_key, r);
	my_host_reader = r;
	return r;
}

static unsigned long host_gp_begin(void)
{
	unsigned long target =
		__atomic_add_fetch(&rcu_state.host_ctr, 1, __ATOMIC_SEQ_CST);

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return target;
}

static bool host_readers_done(unsigned long target)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (struct host_reader *r =
		     __atomic_load_n(&host_readers, __ATOMIC_ACQUIRE);
	     r; r = r->next) {
		unsigned long s = __atomic_load_n(&r->snap, __ATOMIC_ACQUIRE);

		if (s && ULONG_CMP_LT(s, target))
			return false;
	}
	return true;
}

static int host_readers_blocking(unsigned long target)
{
	int n = 0;

	for (struct host_reader *r =
		     __atomic_load_n(&host_readers, __ATOMIC_ACQUIRE);
	     r; r = r->next) {
		unsigned long s = __atomic_load_n(&r->snap, __ATOMIC_ACQUIRE);

		n += s && ULONG_CMP_LT(s, target);
	}
	return n;
}

void __pk_rcu_read_lock_slow(void)
{
	if (pk_this_rq) {
		/* A vCPU: learn the machine's flavour once, then go fast. */
		pk_rcu_thread_mode = pk_rcu_preemptible() ? PK_RCU_MODE_PREEMPT
							  : PK_RCU_MODE_SCHED;
		__rcu_read_lock(); /* the caller records it */
		return;
	}
	if (pk_rcu_nesting == 0)
		host_reader_sched = pk_rcu_booted()
					    ? !pk_rcu_preemptible()
					    : !flavour_preempt_for_model();
	if (host_reader_sched)
		preempt_disable();
	if (pk_rcu_nesting++ == 0) {
		struct host_reader *r = host_reader_get();

		__atomic_store_n(
			&r->snap,
			__atomic_load_n(&rcu_state.host_ctr, __ATOMIC_SEQ_CST),
			__ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	}
}

void __pk_rcu_read_unlock_slow(void)
{
	bool sched = host_reader_sched;

	if (pk_this_rq) {
		/* Locked before this thread learned its mode: cannot be. */
		pk_rcu_thread_mode = pk_rcu_preemptible() ? PK_RCU_MODE_PREEMPT
							  : PK_RCU_MODE_SCHED;
		__rcu_read_unlock();
		return;
	}
	if (WARN_ON_ONCE(pk_rcu_nesting <= 0))
		return;
	if (--pk_rcu_nesting == 0) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		__atomic_store_n(&my_host_reader->snap, 0, __ATOMIC_RELEASE);
	}
	if (sched)
		preempt_enable();
}

/* ---- quiescent states ---- */

/*
 * Through pk_task_tls(): callers such as rcu_cond_resched_qs() read it
 * after rcu_deferred_qs(), whose wake-ups and enabling edges may switch
 * this task to another vCPU thread; arm64 would keep the old thread
 * pointer and answer for the CPU the task left.
 */
static struct rcu_data *this_rdp(void)
{
	struct rq *rq = pk_task_tls(pk_this_rq);

	return rq ? &rcu_data[rq->cpu] : HOST_RDP;
}

static bool all_cpus_quiescent(void);
static void rcu_deferred_qs(bool from_irq);
static void rcu_deferred_qs_switch(void);

/*
 * This vCPU passed a quiescent state.  The fences order the readers
 * before it and after it against the grace period's start and end.
 * @may_wake: not under a runqueue lock, so the last answer may wake the
 * grace-period kthread at once instead of at its next poll.
 */
static void report_qs(struct rcu_data *rdp, bool may_wake)
{
	struct task_struct *k;
	bool gp = __atomic_load_n(&rdp->qs_pending, __ATOMIC_RELAXED);
	bool exp;

	if (!gp && !__atomic_load_n(&rdp->exp_pending, __ATOMIC_RELAXED))
		return;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&rdp->qs_pending, 0, __ATOMIC_RELEASE);
	/* An expedited grace period that began since the check is answered
	 * too: its waiter must hear it. */
	exp = __atomic_exchange_n(&rdp->exp_pending, 0, __ATOMIC_ACQ_REL);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!may_wake)
		return;
	k = __atomic_load_n(&rcu_state.gp_kthread, __ATOMIC_ACQUIRE);
	if (gp && k && k != current && all_cpus_quiescent())
		wake_up_process(k);
	if (exp)
		wake_up(&exp_wq);
}

/*
 * PREEMPT_RT keeps a task's bottom-half state in the task, where a
 * preemption can find it: a bh-disabled section is a reader
 * (rcu_read_lock_bh_held()) that may be preempted, as the kernel's rt
 * local_bh_disable(), which takes rcu_read_lock() for this.  Zero
 * outside rt.
 */
static bool rt_bh_reader(void)
{
	return pk_task_tls(pk_softirq_disable_cnt) & SOFTIRQ_MASK;
}

/* Is the code an interrupt landed on outside every kind of reader? */
static bool interrupted_outside_reader(void)
{
	return hardirq_count() == HARDIRQ_OFFSET &&
	       !(preempt_count() & (PREEMPT_MASK | NMI_MASK)) &&
	       !softirq_count() && pk_rcu_nesting == 0;
}

static bool rdp_has_ready_cbs(struct rcu_data *rdp)
{
	struct rcu_head *wait = __atomic_load_n(&rdp->wait, __ATOMIC_RELAXED);

	return __atomic_load_n(&rdp->done, __ATOMIC_RELAXED) ||
	       (wait && rcu_seq_done(rdp->wait_seq)) ||
	       (!wait && __atomic_load_n(&rdp->next, __ATOMIC_RELAXED) &&
		rcu_seq_done(rdp->next_seq));
}

/*
 * rt: tasks above the grace-period kthread can starve the timers that
 * would wake it (ktimers runs at SCHED_FIFO 1); the tick wakes it when a
 * preempted reader has held the grace period past the boost delay.
 */
static void rcu_tick_boost_check(void)
{
	struct task_struct *k = rcu_state.gp_kthread;

	if (!k || !(gp_seq_load() & 1) ||
	    !__atomic_load_n(&rcu_state.gp_blocked, __ATOMIC_RELAXED))
		return;
	if (pk_now_ns() - rcu_state.gp_start_ns >=
	    __atomic_load_n(&boost_delay_ms, __ATOMIC_RELAXED) * 1000000L)
		wake_up_process(k);
}

/* The kernel's jiffies_to_sched_qs: nine ticks at HZ=1000. */
static long resched_after_ns(void)
{
	long hz = pk_machine_hz();
	long ticks = 3 * (1 + (hz > 250) + (hz > 500));

	return ticks * (1000000000L / hz);
}

/*
 * The tick interrupted a reader of some kind while this CPU owes the
 * grace period an answer.  A task that never switches and spends most of
 * its time in such sections would otherwise leave the grace period to the
 * rare tick that lands between two of them.  A PREEMPT_RCU reader reports
 * at its outermost unlock, as the kernel's need_qs (which waits a second
 * first, leaving the job to its force-quiescent-state rescheduling until
 * then; here the tick is the only asker).  A preempt-disabled section of
 * a preemptible model ends in a preemption point, which reports when
 * need-resched sends it into preempt_schedule(): set once the grace
 * period is as old as the kernel's jiffies_to_sched_qs (then its
 * resched_cpu()), as it may also end the task's time slice early.  Timed
 * from the grace period's start (ordered before qs_pending), not by a
 * count of ticks the start would have to reset.
 */
static void ask_reader_for_qs(struct rcu_data *rdp)
{
	if (!__atomic_load_n(&rdp->qs_pending, __ATOMIC_ACQUIRE))
		return;
	if (pk_rcu_preemptible() && pk_rcu_nesting > 0)
		pk_rcu_special |= SPECIAL_NEED_QS;
	else if (preempt_model_preemptible() && in_hardirq() &&
		 (preempt_count() & (PREEMPT_MASK | SOFTIRQ_MASK)) &&
		 pk_now_ns() - __atomic_load_n(&rcu_state.gp_start_ns,
					       __ATOMIC_RELAXED) >=
			 resched_after_ns())
		set_preempt_need_resched();
}

static void rcu_tick(void)
{
	struct rcu_data *rdp = this_rdp();

	if (rdp == HOST_RDP)
		return;
	rdp->ticks_this_gp++;
	if (in_hardirq() ? interrupted_outside_reader()
			 : preempt_count() == 0 && pk_rcu_nesting == 0 &&
				   !rt_bh_reader()) {
		rcu_deferred_qs(in_hardirq());
		report_qs(rdp, true);
	} else {
		ask_reader_for_qs(rdp);
	}
	if (rcu_state.use_rcuc)
		rcu_tick_boost_check();
	if (!rdp_has_ready_cbs(rdp))
		return;
	if (rcu_state.use_rcuc && rdp->rcuc) {
		pk_store_mb(&rdp->rcuc_work, 1);
		wake_up_process(rdp->rcuc);
	} else {
		raise_softirq(RCU_SOFTIRQ);
	}
}

/*
 * Task context outside every reader of the sched kind
 * (rcu_read_lock_sched_held()): interrupts, preemption and bottom halves
 * (the task's own under rt) enabled.
 */
static bool task_outside_sched_readers(void)
{
	return in_task() && !irqs_disabled() &&
	       !(preempt_count() & PREEMPT_MASK) && !softirq_count();
}

/* rcu_all_qs(): cond_resched() of the none and voluntary models. */
static void rcu_cond_resched_qs(void)
{
	if (pk_this_rq && pk_rcu_nesting == 0 && task_outside_sched_readers()) {
		rcu_deferred_qs(false);
		report_qs(this_rdp(), true);
	}
}

/* ---- lockdep-RCU ---- */

void lockdep_rcu_suspicious(const char *file, int line, const char *msg)
{
	struct pk_rbuf buf = {0};
	char comm[16];
	int depth = pk_task_tls(pk_rcu_nesting);

	if (!pk_ratelimit_ok(PK_REPORT_RCU))
		return;
	pk_current_comm(comm);
	pk_rbuf_printf(&buf, "\n=============================\n"
			     "WARNING: suspicious RCU usage\n");
	pk_rbuf_printf(&buf, "libpreempt %s\n", pk_taint_str());
	pk_rbuf_printf(&buf,
		       "-----------------------------\n"
		       "%s:%d %s\n\n"
		       "other info that might help us debug this:\n\n",
		       file, line, msg);
	pk_rbuf_printf(&buf, "rcu_scheduler_active = 2, debug_locks = 1\n");
	if (depth > 0) {
		pk_rbuf_printf(&buf, "%d lock%s held by %s/%d:\n", depth,
			       depth > 1 ? "s" : "", comm, pk_current_pid());
		for (int i = 0; i < depth && i < 8; i++)
			pk_rbuf_printf(&buf, " #%d: (rcu_read_lock){....}\n",
				       i);
	} else {
		pk_rbuf_printf(&buf, "no locks held by %s/%d.\n", comm,
			       pk_current_pid());
	}
	pk_rbuf_printf(&buf, "\nstack backtrace:\n");
	pk_rbuf_printf(&buf, "CPU: %d PID: %d Comm: %s %s (model: %s)\n",
		       pk_current_cpu(), pk_current_pid(), comm, pk_taint_str(),
		       preempt_model_str(preempt_model()));
	pk_rbuf_backtrace(&buf);
	pk_report_emit(PK_REPORT_RCU, file, line, &buf);
}

/* schedule() called by the task itself, not a preemption. */
static void rcu_voluntary(void)
{
	if (!pk_rcu_preemptible() || !pk_this_rq)
		return;
	if (pk_task_tls(pk_rcu_nesting) <= 0) {
		rcu_deferred_qs_switch(); /* rcu_note_context_switch() */
		return;
	}
	lockdep_rcu_suspicious(__FILE__, __LINE__,
			       "Voluntary context switch within RCU "
			       "read-side critical section!");
}

/* ---- the context switch (rq lock held, interrupts off) ---- */

static void rcu_sched_out(struct task_struct *prev, struct task_struct *next)
{
	struct rcu_data *rdp = this_rdp();
	int nesting = pk_rcu_nesting;

	(void)next;
	if (rdp == HOST_RDP)
		return;
	if (unlikely(rdp->eqs_owner == prev))
		eqs_add(rdp, -1); /* the next task may read */
	if ((nesting > 0 || rt_bh_reader()) && pk_rcu_preemptible() &&
	    !(prev->pk_rcu_blocked & BLOCKED_LIST)) {
		/* For a stall report, which cannot walk a stack that is not
		 * running; ends at the interrupted pc when preempted from an
		 * interrupt's return. */
		prev->pk_rcu_blocked_nr =
			__atomic_load_n(&stall_timeout_ms, __ATOMIC_RELAXED) > 0
				? pk_stack_capture_to_signal(
					  prev->pk_rcu_blocked_ips,
					  (int)(sizeof(prev->pk_rcu_blocked_ips) /
						sizeof(unsigned long)))
				: 0;
		pk_raw_lock(&rcu_state.lock);
		prev->pk_rcu_blocked = BLOCKED_LIST;
		list_add_tail(&prev->pk_rcu_node, &rcu_state.blkd);
		if (rdp->qs_pending) {
			prev->pk_rcu_blocked |= BLOCKED_GP;
			rcu_state.gp_blocked++;
		}
		if (rdp->exp_pending) {
			prev->pk_rcu_blocked |= BLOCKED_EXP;
			rcu_state.exp_blocked++;
		}
		pk_raw_unlock(&rcu_state.lock);
		pk_rcu_special |= SPECIAL_BLOCKED;
		STAT_INC(blocked_tasks);
	}
	/* The reader, if any, is on the list now: the CPU is quiescent. */
	report_qs(rdp, false);
	prev->rcu_read_lock_nesting = nesting;
	prev->pk_rcu_special = pk_rcu_special;
}

static void rcu_sched_in(struct task_struct *prev, struct task_struct *next)
{
	struct rcu_data *rdp = this_rdp();

	(void)prev;
	if (rdp != HOST_RDP && unlikely(rdp->eqs_owner == next))
		eqs_add(rdp, 1);
	pk_rcu_nesting = next->rcu_read_lock_nesting;
	pk_rcu_special = next->pk_rcu_special;
}

/* ---- PREEMPT_RCU: the outermost unlock of a special reader ---- */

static void unboost(struct task_struct *t)
{
	unsigned long flags;

	local_irq_save(flags);
	pk_raw_lock(&rcu_state.boost_lock);
	/* What its locks' waiters lend it stays. */
	pk_rt_mutex_adjust_prio(t);
	pk_raw_unlock(&rcu_state.boost_lock);
	local_irq_restore(flags);
}

/*
 * Settle what the reader that ended left in pk_rcu_special (the kernel's
 * rcu_preempt_deferred_qs_irqrestore()): report the quiescent state that
 * was asked for, leave the blocked list, drop the boost.  Called outside
 * every kind of reader, with interrupts off as @flags saved them.
 */
static void rcu_deferred_qs_irqrestore(unsigned long flags)
{
	struct task_struct *t = current;
	int special, boosted = 0;
	bool exp_unblocked = false;

	special = pk_task_tls(pk_rcu_special);
	pk_task_tls(pk_rcu_special) = 0;
	if (special & (SPECIAL_EXP | SPECIAL_NEED_QS))
		report_qs(this_rdp(), true);
	if (special & SPECIAL_BLOCKED) {
		pk_raw_lock(&rcu_state.lock);
		if (t->pk_rcu_blocked & BLOCKED_LIST)
			list_del_init(&t->pk_rcu_node);
		if (t->pk_rcu_blocked & BLOCKED_GP)
			rcu_state.gp_blocked--;
		if (t->pk_rcu_blocked & BLOCKED_EXP)
			exp_unblocked = --rcu_state.exp_blocked == 0;
		t->pk_rcu_blocked = 0;
		boosted = t->pk_rcu_boosted;
		t->pk_rcu_boosted = 0;
		pk_raw_unlock(&rcu_state.lock);
	}
	local_irq_restore(flags);
	if (exp_unblocked)
		wake_up(&exp_wq);
	if (boosted)
		unboost(t);
}

/* An unlock left something for later, and no PREEMPT_RCU reader is open. */
static bool deferred_qs_pending(void)
{
	return unlikely(pk_task_tls(pk_rcu_special)) &&
	       pk_task_tls(pk_rcu_nesting) == 0;
}

static void deferred_qs_settle(void)
{
	unsigned long flags;

	local_irq_save(flags);
	rcu_deferred_qs_irqrestore(flags);
}

/*
 * Settle what an unlock had to leave for later, at a point outside every
 * kind of reader: in task context with nothing disabled, or in a handler
 * (@from_irq) whose interrupted code was there.
 */
static void rcu_deferred_qs(bool from_irq)
{
	if (deferred_qs_pending() && (from_irq || task_outside_sched_readers()))
		deferred_qs_settle();
}

/*
 * schedule() in task context: the switch ends every section of the task,
 * even an atomic one that schedule_debug() is about to report and close,
 * so what an unlock deferred settles whatever the count says, as at the
 * kernel's rcu_note_context_switch().  Not an rt bh-disabled section,
 * which may sleep and stays a reader: the switch puts it on the list.  Left
 * pending, a task that sleeps there would hold every grace period from the
 * blocked list.
 */
static void rcu_deferred_qs_switch(void)
{
	if (deferred_qs_pending() && in_task() && !rt_bh_reader())
		deferred_qs_settle();
}

/*
 * exit_rcu(): a task that returns inside rcu_read_lock() is reported and
 * its reader closed, or PREEMPT_RCU would put the dead task on the
 * blocked list at its last switch, to hold every later grace period and
 * to be freed while listed there.
 */
static void rcu_task_exit(void)
{
	int nesting = pk_task_tls(pk_rcu_nesting);

	if (likely(nesting <= 0 && !pk_task_tls(pk_rcu_special)))
		return;
	if (nesting > 0) {
		/* The other flavour's reader is a preempt-off section, which
		 * pk_task_exit() reported and closed already. */
		if (pk_rcu_preemptible())
			lockdep_rcu_suspicious(__FILE__, __LINE__,
					       "Task exited inside an RCU "
					       "read-side critical section!");
		pk_task_tls(pk_rcu_nesting) = 0;
	}
	rcu_deferred_qs_switch();
}

void __pk_rcu_read_unlock_special(void)
{
	/* NMI code may not touch the state: the bits wait for the
	 * interrupted code's next quiescent point. */
	if (in_nmi())
		return;
	/*
	 * Still inside a reader of the sched kind (rcu_read_lock_sched_held():
	 * interrupts, preemption or bottom halves off): neither this CPU's
	 * answer nor this task's place on the blocked list may go yet, or a
	 * grace period could end inside that section.  Keep the bits and ask
	 * for the next preemption point, as the kernel's deferred quiescent
	 * state; the tick, schedule() and preempt_schedule() settle them.
	 */
	if (task_outside_sched_readers())
		deferred_qs_settle();
	else
		set_preempt_need_resched();
}

/* ---- callbacks ---- */

static void rdp_init(struct rcu_data *rdp)
{
	rdp->done_tail = &rdp->done;
	rdp->wait_tail = &rdp->wait;
	rdp->next_tail = &rdp->next;
}

__attribute__((constructor)) static void rcu_data_init(void)
{
	for (int i = 0; i <= PK_NR_CPUS; i++)
		rdp_init(&rcu_data[i]);
}

static void seg_append(struct rcu_head ***tail, struct rcu_head *head)
{
	head->next = NULL;
	**tail = head;
	*tail = &head->next;
}

/* Move the list @from (tail @from_tail) to the end of @to. */
static void seg_splice(struct rcu_head **from, struct rcu_head ***from_tail,
		       struct rcu_head ***to_tail)
{
	if (!*from)
		return;
	**to_tail = *from;
	*to_tail = *from_tail;
	*from = NULL;
	*from_tail = from;
}

/* Under rdp->lock: @head needs grace period @s. */
static void rdp_enqueue(struct rcu_data *rdp, struct rcu_head *head,
			unsigned long s)
{
	if (!rdp->wait || rdp->wait_seq == s) {
		if (!rdp->wait)
			rdp->wait_seq = s;
		seg_append(&rdp->wait_tail, head);
	} else {
		/* Later than the wait segment: waiting longer is safe. */
		if (!rdp->next || ULONG_CMP_LT(rdp->next_seq, s))
			rdp->next_seq = s;
		seg_append(&rdp->next_tail, head);
	}
	__atomic_add_fetch(&rdp->n_cbs, 1, __ATOMIC_SEQ_CST);
}

/*
 * Under rdp->lock: what the ended grace periods made ready.  A next
 * segment with no wait segment ahead of it (left by shutdown's adoption,
 * or by a barrier) moves up first.
 */
static void rdp_advance(struct rcu_data *rdp)
{
	for (;;) {
		if (!rdp->wait && rdp->next) {
			seg_splice(&rdp->next, &rdp->next_tail,
				   &rdp->wait_tail);
			rdp->wait_seq = rdp->next_seq;
		}
		if (!rdp->wait || !rcu_seq_done(rdp->wait_seq))
			return;
		seg_splice(&rdp->wait, &rdp->wait_tail, &rdp->done_tail);
	}
}

static void invoke_one(struct rcu_head *head)
{
	rcu_callback_t f = head->func;
	uintptr_t off = (uintptr_t)f;

	if (off < KFREE_OFFSET_MAX)
		kfree((char *)head - off);
	else
		f(head);
	STAT_INC(cbs_invoked);
}

/* Run @rdp's ready callbacks; they are not in any reader. */
static long rdp_invoke(struct rcu_data *rdp)
{
	struct rcu_head *list, *next;
	unsigned long flags;
	long n = 0;

	local_irq_save(flags);
	pk_raw_lock(&rdp->lock);
	rdp_advance(rdp);
	list = rdp->done;
	rdp->done = NULL;
	rdp->done_tail = &rdp->done;
	pk_raw_unlock(&rdp->lock);
	local_irq_restore(flags);
	for (; list; list = next, n++) {
		next = list->next;
		invoke_one(list);
	}
	/* Counted down only now: rcu_barrier() must see them in flight. */
	__atomic_sub_fetch(&rdp->n_cbs, n, __ATOMIC_SEQ_CST);
	/* Callbacks left for a later grace period: make sure it comes. */
	if (__atomic_load_n(&rdp->wait, __ATOMIC_RELAXED))
		request_gp(rdp->wait_seq);
	if (__atomic_load_n(&rdp->next, __ATOMIC_RELAXED))
		request_gp(rdp->next_seq);
	return n;
}

static void rcu_softirq(void)
{
	rdp_invoke(this_rdp());
}

static void report_nmi_call_rcu(void)
{
	pk_warn_kind(PK_REPORT_WARN,
		     "call_rcu() from NMI context: not NMI-safe; the callback "
		     "is deferred to the grace-period kthread");
}

/* NMI can wake nobody: its callbacks wake the kthread from hardirq. */
static void nmi_cbs_wake(struct irq_work *work)
{
	(void)work;
	wake_up(&gp_kthread_wq);
}

static DEFINE_IRQ_WORK(nmi_cbs_work, nmi_cbs_wake);

static void __call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	struct rcu_data *rdp;
	unsigned long flags, s;

	head->func = func;
	if (unlikely(in_nmi())) {
		STAT_INC(nmi_call_rcu);
		report_nmi_call_rcu();
		head->next =
			__atomic_load_n(&rcu_state.nmi_cbs, __ATOMIC_RELAXED);
		while (!__atomic_compare_exchange_n(
			&rcu_state.nmi_cbs, &head->next, head, false,
			__ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
			;
		if (pk_rcu_booted())
			irq_work_queue(&nmi_cbs_work);
		return;
	}
	local_irq_save(flags);
	rdp = this_rdp();
	pk_raw_lock(&rdp->lock);
	s = rcu_seq_snap();
	rdp_enqueue(rdp, head, s);
	pk_raw_unlock(&rdp->lock);
	local_irq_restore(flags);
	STAT_INC(cbs_queued);
	request_gp(s);
}

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	__call_rcu(head, func);
}

void pk_kvfree_call_rcu(struct rcu_head *head, void *ptr)
{
	uintptr_t off = (uintptr_t)((char *)head - (char *)ptr);

	if (WARN_ON_ONCE(off >= KFREE_OFFSET_MAX))
		return;
	__call_rcu(head, (rcu_callback_t)off);
}

void pk_kvfree_rcu_mightsleep(void *ptr)
{
	if (!ptr)
		return;
	synchronize_rcu();
	kfree(ptr);
}

/* Callbacks queued from NMI: onto the host list, in task context. */
static void drain_nmi_cbs(void)
{
	struct rcu_head *list =
		__atomic_exchange_n(&rcu_state.nmi_cbs, NULL, __ATOMIC_SEQ_CST);
	struct rcu_head *next;
	unsigned long flags;
	unsigned long s;

	for (; list; list = next) {
		next = list->next;
		local_irq_save(flags);
		pk_raw_lock(&HOST_RDP->lock);
		s = rcu_seq_snap();
		rdp_enqueue(HOST_RDP, list, s);
		pk_raw_unlock(&HOST_RDP->lock);
		local_irq_restore(flags);
		STAT_INC(cbs_queued);
		request_gp(s);
	}
}

/* ---- stall warnings ---- */

static char task_state_char(const struct task_struct *t)
{
	unsigned int s = __atomic_load_n(&t->__state, __ATOMIC_RELAXED);

	return s == TASK_RUNNING ? 'R' : s & TASK_UNINTERRUPTIBLE ? 'D' : 'S';
}

/*
 * sched_show_task() of each reader that holds the grace period, with the
 * stack it had when preempted (a switched-out stack is not walked here).
 * Copied under the lock, symbolized after: libdw takes a host lock.
 */
static void print_blocked_tasks(struct pk_rbuf *buf)
{
	struct {
		char comm[16];
		char state;
		int pid, prio, nr;
		unsigned long ips[12];
	} b[8];
	struct task_struct *t, *tn;
	unsigned long flags;
	int n = 0, more = 0;

	local_irq_save(flags);
	pk_raw_lock(&rcu_state.lock);
	list_for_each_entry_safe(t, tn, &rcu_state.blkd, pk_rcu_node)
	{
		if (!(t->pk_rcu_blocked & BLOCKED_GP))
			continue;
		if (n == (int)(sizeof(b) / sizeof(b[0]))) {
			more++;
			continue;
		}
		memcpy(b[n].comm, t->comm, sizeof(b[n].comm));
		b[n].comm[sizeof(b[n].comm) - 1] = 0;
		b[n].state = task_state_char(t);
		b[n].pid = t->pid;
		b[n].prio = t->prio;
		b[n].nr = t->pk_rcu_blocked_nr;
		memcpy(b[n].ips, t->pk_rcu_blocked_ips, sizeof(b[n].ips));
		n++;
	}
	pk_raw_unlock(&rcu_state.lock);
	local_irq_restore(flags);
	for (int i = 0; i < n; i++) {
		pk_rbuf_printf(buf,
			       "task:%-15.15s state:%c pid:%-5d prio:%d "
			       "(preempted in a reader)\n",
			       b[i].comm, b[i].state, b[i].pid, b[i].prio);
		if (b[i].nr)
			pk_rbuf_trace(buf, b[i].ips, b[i].nr);
	}
	if (more)
		pk_rbuf_printf(buf, "... and %d more blocked readers\n", more);
}

/*
 * rcu_dump_cpu_stacks(): each stalled vCPU prints its own backtrace from
 * an NMI, which lands even where interrupts are off (a report of its own,
 * deferred as every report from a handler is).
 */
static void nmi_backtrace_stalled(int ncpus)
{
	int self = raw_smp_processor_id();

	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (cpu == self || !__atomic_load_n(&rcu_data[cpu].qs_pending,
						    __ATOMIC_ACQUIRE))
			continue;
		pk_store_mb(&rcu_data[cpu].nmi_dump, 1);
		irq_raise(PK_RCU_NMI_IRQ, pk_vcpu_irq_cpu(cpu));
	}
}

static irqreturn_t rcu_nmi_backtrace(int irq, void *dev)
{
	struct rcu_data *rdp = this_rdp();
	struct pk_rbuf buf = {0};
	char comm[16];

	(void)irq;
	(void)dev;
	if (rdp == HOST_RDP ||
	    !__atomic_exchange_n(&rdp->nmi_dump, 0, __ATOMIC_SEQ_CST))
		return IRQ_NONE;
	pk_current_comm(comm);
	pk_rbuf_printf(&buf, "NMI backtrace for cpu %d\n",
		       raw_smp_processor_id());
	pk_rbuf_printf(&buf, "CPU: %d PID: %d Comm: %s %s (model: %s)\n",
		       raw_smp_processor_id(), pk_current_pid(), comm,
		       pk_taint_str(), preempt_model_str(preempt_model()));
	pk_rbuf_backtrace(&buf);
	pk_report_emit(PK_REPORT_RCU_STALL, NULL, 0, &buf);
	return IRQ_HANDLED;
}

static void print_stall(long elapsed_ms, unsigned long host_target)
{
	struct pk_rbuf buf = {0};
	struct task_struct *t, *tn;
	unsigned long flags, q = 0;
	int ncpus = rcu_state.ncpus, hz = pk_machine_hz();
	unsigned long ticks =
		(unsigned long)(elapsed_ms * (hz ? hz : 1000) / 1000);

	for (int i = 0; i <= PK_NR_CPUS; i++)
		q += __atomic_load_n(&rcu_data[i].n_cbs, __ATOMIC_RELAXED);
	pk_rbuf_printf(&buf, "rcu: INFO: %s detected stalls on CPUs/tasks:\n",
		       pk_rcu_preemptible() ? "rcu_preempt" : "rcu_sched");
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct rcu_data *rdp = &rcu_data[cpu];

		if (!__atomic_load_n(&rdp->qs_pending, __ATOMIC_ACQUIRE))
			continue;
		pk_rbuf_printf(&buf, "rcu: \t%d-....: (%lu ticks this GP)\n",
			       cpu, rdp->ticks_this_gp);
	}
	local_irq_save(flags);
	pk_raw_lock(&rcu_state.lock);
	if (rcu_state.gp_blocked) {
		pk_rbuf_printf(&buf,
			       "rcu: \tTasks blocked on level-0 rcu_node (CPUs "
			       "0-%d):",
			       ncpus - 1);
		list_for_each_entry_safe(t, tn, &rcu_state.blkd,
					 pk_rcu_node) if (t->pk_rcu_blocked &
							  BLOCKED_GP)
			pk_rbuf_printf(&buf, " P%d", t->pid);
		pk_rbuf_printf(&buf, "\n");
	}
	pk_raw_unlock(&rcu_state.lock);
	local_irq_restore(flags);
	if (host_target && host_readers_blocking(host_target))
		pk_rbuf_printf(&buf,
			       "rcu: \tThreads outside the machine in "
			       "readers: %d\n",
			       host_readers_blocking(host_target));
	pk_rbuf_printf(&buf,
		       "rcu: \t(detected by %d, t=%lu jiffies, g=%ld, q=%lu "
		       "ncpus=%d)\n",
		       raw_smp_processor_id(), ticks, (long)gp_seq_load(), q,
		       ncpus);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct rq *rq = pk_cpu_rq(cpu);
		struct task_struct *curr;

		if (!__atomic_load_n(&rcu_data[cpu].qs_pending,
				     __ATOMIC_ACQUIRE) ||
		    !rq)
			continue;
		curr = __atomic_load_n(&rq->curr, __ATOMIC_ACQUIRE);
		pk_rbuf_printf(&buf, "Sending NMI from CPU %d to CPUs %d:\n",
			       raw_smp_processor_id(), cpu);
		pk_rbuf_printf(&buf, "Task dump for CPU %d:\n", cpu);
		pk_rbuf_printf(&buf,
			       "task:%-15.15s state:%c pid:%-5d prio:%d\n",
			       curr->comm, task_state_char(curr), curr->pid,
			       curr->prio);
	}
	print_blocked_tasks(&buf);
	pk_rbuf_backtrace(&buf);
	STAT_INC(stalls);
	pk_report_emit(PK_REPORT_RCU_STALL, NULL, 0, &buf);
	nmi_backtrace_stalled(ncpus);
}

/* ---- RCU_BOOST (rt) ---- */

static void boost_blocked_readers(void)
{
	int prio = MAX_RT_PRIO - 1 -
		   __atomic_load_n(&boost_rt_prio, __ATOMIC_RELAXED);

	for (;;) {
		struct task_struct *t = NULL, *p, *tn;
		unsigned long flags;

		local_irq_save(flags);
		pk_raw_lock(&rcu_state.boost_lock);
		pk_raw_lock(&rcu_state.lock);
		list_for_each_entry_safe(
			p, tn, &rcu_state.blkd,
			pk_rcu_node) if ((p->pk_rcu_blocked & BLOCKED_GP) &&
					 !p->pk_rcu_boosted && p->prio > prio)
		{
			t = p;
			break;
		}
		if (t) {
			/* The priority, for the rt_mutex code's deboost. */
			t->pk_rcu_boosted = prio + 1;
			get_task_struct(t);
		}
		pk_raw_unlock(&rcu_state.lock);
		if (t)
			pk_rt_mutex_adjust_prio(t);
		pk_raw_unlock(&rcu_state.boost_lock);
		local_irq_restore(flags);
		if (!t)
			return;
		STAT_INC(boosts);
		put_task_struct(t);
	}
}

/* ---- grace periods ---- */

static bool all_cpus_quiescent(void)
{
	for (int cpu = 0; cpu < rcu_state.ncpus; cpu++)
		if (__atomic_load_n(&rcu_data[cpu].qs_pending,
				    __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/*
 * rcu_implicit_dynticks_qs(): a vCPU found asleep in idle, in no handler,
 * after the grace period began holds no reader that began before it, and
 * any reader it starts later sees what the updater did before it: it
 * owes nothing, and is not woken to say so.
 */
static bool rcu_eqs_quiescent(int cpu)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return __atomic_load_n(&rcu_data[cpu].eqs, __ATOMIC_SEQ_CST) == 1;
}

/* @pending: the offset of qs_pending or exp_pending in struct rcu_data. */
static void scan_eqs(size_t pending)
{
	for (int cpu = 0; cpu < rcu_state.ncpus; cpu++) {
		int *p = (int *)((char *)&rcu_data[cpu] + pending);

		if (__atomic_load_n(p, __ATOMIC_ACQUIRE) &&
		    rcu_eqs_quiescent(cpu))
			__atomic_store_n(p, 0, __ATOMIC_RELEASE);
	}
}

static void gp_start(void)
{
	unsigned long flags;
	struct task_struct *t, *tn;

	local_irq_save(flags);
	pk_raw_lock(&rcu_state.lock);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&rcu_state.gp_seq, rcu_state.gp_seq + 1,
			 __ATOMIC_RELEASE);
	rcu_state.gp_start_ns = pk_now_ns();
	rcu_state.ncpus = num_online_cpus();
	for (int cpu = 0; cpu < rcu_state.ncpus; cpu++) {
		rcu_data[cpu].ticks_this_gp = 0;
		__atomic_store_n(&rcu_data[cpu].qs_pending, 1,
				 __ATOMIC_RELEASE);
	}
	rcu_state.gp_blocked = 0;
	list_for_each_entry_safe(t, tn, &rcu_state.blkd, pk_rcu_node)
	{
		t->pk_rcu_blocked |= BLOCKED_GP;
		rcu_state.gp_blocked++;
	}
	pk_raw_unlock(&rcu_state.lock);
	local_irq_restore(flags);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void gp_end(void)
{
	unsigned long flags;

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	local_irq_save(flags);
	pk_raw_lock(&rcu_state.lock);
	__atomic_store_n(&rcu_state.gp_seq, rcu_state.gp_seq + 1,
			 __ATOMIC_RELEASE);
	pk_raw_unlock(&rcu_state.lock);
	local_irq_restore(flags);
	STAT_INC(gps);
	wake_up_all(&gp_wq);
}

static bool gp_done(unsigned long host_target)
{
	return all_cpus_quiescent() &&
	       __atomic_load_n(&rcu_state.gp_blocked, __ATOMIC_ACQUIRE) == 0 &&
	       host_readers_done(host_target);
}

/* One grace period, driven by the kthread. */
static void run_gp(void)
{
	unsigned long host_target;
	long stall_at = 0, stall_ms;

	gp_start();
	host_target = host_gp_begin();
	/* The driver itself is in no reader: its CPU is quiescent. */
	rcu_cond_resched_qs();
	scan_eqs(offsetof(struct rcu_data, qs_pending));
	/* Ask the others now rather than at their next tick, as the
	 * kernel's force-quiescent-state scan. */
	for (int cpu = 0; cpu < rcu_state.ncpus; cpu++)
		if (__atomic_load_n(&rcu_data[cpu].qs_pending,
				    __ATOMIC_ACQUIRE))
			irq_raise(PK_RCU_EXP_IRQ, pk_vcpu_irq_cpu(cpu));
	stall_ms = __atomic_load_n(&stall_timeout_ms, __ATOMIC_RELAXED);
	if (stall_ms > 0)
		stall_at = rcu_state.gp_start_ns + stall_ms * 1000000L;
	while (!gp_done(host_target)) {
		long now = pk_now_ns();

		if (stall_at && now >= stall_at) {
			print_stall((now - rcu_state.gp_start_ns) / 1000000L,
				    host_target);
			/* As the kernel: again after three more timeouts. */
			stall_at = now + 3 * stall_ms * 1000000L;
		}
		if (pk_machine_rt() &&
		    __atomic_load_n(&rcu_state.gp_blocked, __ATOMIC_ACQUIRE) &&
		    now - rcu_state.gp_start_ns >=
			    __atomic_load_n(&boost_delay_ms, __ATOMIC_RELAXED) *
				    1000000L)
			boost_blocked_readers();
		if (current == rcu_state.gp_kthread)
			schedule_timeout_uninterruptible(1);
		else
			pk_rcu_poll_pause(); /* a caller drives it
						(gp_by_caller) */
		rcu_cond_resched_qs();
		scan_eqs(offsetof(struct rcu_data, qs_pending));
	}
	gp_end();
}

static void invoke_host_cbs(void)
{
	drain_nmi_cbs();
	rdp_invoke(HOST_RDP);
}

static bool gp_kthread_has_work(void)
{
	return kthread_should_stop() || gp_needed() ||
	       __atomic_load_n(&rcu_state.nmi_cbs, __ATOMIC_RELAXED) ||
	       rdp_has_ready_cbs(HOST_RDP);
}

static int rcu_gp_kthread(void *arg)
{
	(void)arg;
	while (!kthread_should_stop()) {
		/* Every source of work wakes it: no polling, so an idle
		 * machine stays idle (the kernel's RCU kthread sleeps too). */
		wait_event(gp_kthread_wq, gp_kthread_has_work());
		drain_nmi_cbs();
		if (gp_needed()) {
			mutex_lock(&gp_mutex);
			if (gp_needed())
				run_gp();
			mutex_unlock(&gp_mutex);
		}
		local_bh_disable();
		invoke_host_cbs();
		local_bh_enable();
	}
	return 0;
}

/* No machine: only threads read; the caller drives the grace period. */
static void gp_nomachine(void)
{
	unsigned long target;

	pthread_mutex_lock(&nomachine_gp_lock);
	gp_start();
	rcu_state.ncpus = 0;
	target = host_gp_begin();
	while (!host_readers_done(target))
		pk_host_yield();
	gp_end();
	invoke_host_cbs();
	pthread_mutex_unlock(&nomachine_gp_lock);
}

/* Could a grace period end without waking anything?  Racy: a hint. */
static bool others_asleep(void)
{
	int self = pk_this_rq ? pk_this_rq->cpu : -1, n = num_online_cpus();

	if (!list_empty(&rcu_state.blkd) ||
	    host_readers_blocking(
		    __atomic_load_n(&rcu_state.host_ctr, __ATOMIC_SEQ_CST) + 1))
		return false;
	for (int cpu = 0; cpu < n; cpu++)
		if (cpu != self && !rcu_eqs_quiescent(cpu))
			return false;
	return true;
}

/*
 * synchronize_rcu() on an idle machine: the caller drives the grace period
 * itself, as liburcu's updaters do, instead of waking the kthread and
 * being woken by it (two host wake-ups, where the grace period itself
 * takes a scan).  Only when no grace period runs or is asked for and every
 * other vCPU sleeps in idle; if one wakes meanwhile, the caller still
 * finishes the grace period, polling.
 */
static bool gp_by_caller(unsigned long cookie)
{
	bool done;

	if ((gp_seq_load() & 1) || gp_needed() || !others_asleep() ||
	    !mutex_trylock(&gp_mutex))
		return false;
	if (!(gp_seq_load() & 1) && !gp_needed() &&
	    !poll_state_synchronize_rcu(cookie))
		run_gp();
	mutex_unlock(&gp_mutex);
	done = poll_state_synchronize_rcu(cookie);
	/* What the kthread would have done after it: host callbacks. */
	if (gp_kthread_has_work())
		wake_up(&gp_kthread_wq);
	return done;
}

/*
 * A grace period asked for inside a reader waits for that reader: under
 * PREEMPT_RCU (and rt's bh-disabled section, a reader too) the caller's
 * sleep lists it as a preempted reader, and its grace period never ends.
 * Reported in lockdep-RCU's words and repaired as other misuse is: the
 * caller does not wait.  A reader of the sched kind alone (preemption or
 * interrupts off) is might_sleep()'s to report, and the switch's repair
 * lets its grace period end.
 */
static bool gp_wait_in_reader(const char *msg)
{
	bool reader = rcu_read_lock_held() || rt_bh_reader();

	(void)msg; /* unused where the debug checks are compiled out */
	RCU_LOCKDEP_WARN(reader, msg);
	return reader;
}

void synchronize_rcu(void)
{
	unsigned long cookie;

	might_sleep();
	if (gp_wait_in_reader("Illegal synchronize_rcu() in RCU read-side "
			      "critical section"))
		return;
	if (!pk_rcu_booted()) {
		gp_nomachine();
		return;
	}
	cookie = rcu_seq_snap();
	if (gp_by_caller(cookie))
		return;
	request_gp(cookie);
	wait_event(gp_wq, poll_state_synchronize_rcu(cookie));
}

unsigned long get_state_synchronize_rcu(void)
{
	return rcu_seq_snap();
}

unsigned long start_poll_synchronize_rcu(void)
{
	unsigned long s = rcu_seq_snap();

	request_gp(s);
	return s;
}

bool poll_state_synchronize_rcu(unsigned long oldstate)
{
	if (rcu_seq_done(oldstate)) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		return true;
	}
	return false;
}

void cond_synchronize_rcu(unsigned long oldstate)
{
	if (!poll_state_synchronize_rcu(oldstate))
		synchronize_rcu();
}

unsigned long get_completed_synchronize_rcu(void)
{
	/* Always at least as old as gp_seq: even, and done. */
	return gp_seq_load() & ~1UL;
}

/* ---- rcu_barrier ---- */

struct barrier_head {
	struct rcu_head rh;
	int *count;
	struct completion *done;
};

static void barrier_cb(struct rcu_head *rh)
{
	struct barrier_head *b = (struct barrier_head *)rh;

	if (__atomic_sub_fetch(b->count, 1, __ATOMIC_SEQ_CST) == 0)
		complete(b->done);
}

/* Behind every callback @rdp holds; false if it holds none. */
static bool entrain(struct rcu_data *rdp, struct barrier_head *b)
{
	unsigned long flags;
	bool queued = true;

	local_irq_save(flags);
	pk_raw_lock(&rdp->lock);
	if (rdp->next)
		seg_append(&rdp->next_tail, &b->rh);
	else if (rdp->wait)
		seg_append(&rdp->wait_tail, &b->rh);
	else if (rdp->done || __atomic_load_n(&rdp->n_cbs, __ATOMIC_SEQ_CST))
		/* Behind those being invoked right now, too: this CPU runs
		 * its callbacks one batch after the other. */
		seg_append(&rdp->done_tail, &b->rh);
	else
		queued = false;
	if (queued)
		__atomic_add_fetch(&rdp->n_cbs, 1, __ATOMIC_SEQ_CST);
	pk_raw_unlock(&rdp->lock);
	local_irq_restore(flags);
	return queued;
}

void rcu_barrier(void)
{
	static struct barrier_head heads[PK_NR_CPUS + 1];
	static DEFINE_MUTEX(barrier_mutex);
	DECLARE_COMPLETION(done);
	int count = 1;

	might_sleep();
	if (!pk_rcu_booted()) {
		pthread_mutex_lock(&nomachine_gp_lock);
		drain_nmi_cbs();
		pthread_mutex_unlock(&nomachine_gp_lock);
		while (HOST_RDP->n_cbs)
			gp_nomachine();
		return;
	}
	mutex_lock(&barrier_mutex);
	drain_nmi_cbs();
	for (int i = 0; i <= PK_NR_CPUS; i++) {
		struct rcu_data *rdp = &rcu_data[i];

		if (i < PK_NR_CPUS && i >= num_online_cpus())
			continue;
		heads[i].rh.func = barrier_cb;
		heads[i].count = &count;
		heads[i].done = &done;
		__atomic_add_fetch(&count, 1, __ATOMIC_SEQ_CST);
		if (!entrain(rdp, &heads[i]))
			__atomic_sub_fetch(&count, 1, __ATOMIC_SEQ_CST);
		else
			request_gp(rcu_seq_snap());
	}
	wake_up(&gp_kthread_wq);
	if (__atomic_sub_fetch(&count, 1, __ATOMIC_SEQ_CST) != 0)
		wait_for_completion(&done);
	mutex_unlock(&barrier_mutex);
}

/* ---- expedited grace periods ---- */

static irqreturn_t rcu_exp_handler(int irq, void *dev)
{
	struct rcu_data *rdp = this_rdp();

	(void)irq;
	(void)dev;
	if (rdp == HOST_RDP)
		return IRQ_HANDLED;
	if (interrupted_outside_reader()) {
		rcu_deferred_qs(true);
		report_qs(rdp, true);
	} else if (!__atomic_load_n(&rdp->exp_pending, __ATOMIC_ACQUIRE)) {
		/* A normal grace period's kick: the tick will answer. */
	} else if (pk_rcu_preemptible() && pk_rcu_nesting > 0) {
		/* The reader reports at its outermost unlock. */
		pk_rcu_special |= SPECIAL_EXP;
	} else {
		/* A non-preemptible reader: ask for the switch after it. */
		set_preempt_need_resched();
	}
	return IRQ_HANDLED;
}

static bool exp_done(unsigned long host_target)
{
	for (int cpu = 0; cpu < rcu_state.ncpus; cpu++)
		if (__atomic_load_n(&rcu_data[cpu].exp_pending,
				    __ATOMIC_ACQUIRE))
			return false;
	return __atomic_load_n(&rcu_state.exp_blocked, __ATOMIC_ACQUIRE) == 0 &&
	       host_readers_done(host_target);
}

static void exp_kick_cpus(void)
{
	for (int cpu = 0; cpu < rcu_state.ncpus; cpu++)
		if (__atomic_load_n(&rcu_data[cpu].exp_pending,
				    __ATOMIC_ACQUIRE))
			irq_raise(PK_RCU_EXP_IRQ, pk_vcpu_irq_cpu(cpu));
}

/*
 * Spin a moment (an idle machine answers at once), then sleep: a CPU's
 * report from its IPI or a reader's unlock wakes us, as the kernel's
 * expedited wait queue.  A report made at a context switch (under the
 * run-queue lock) or a host thread's unlock wakes no one: the tick-long
 * timeout catches those, and each round kicks the CPUs still owing.
 */
static void exp_wait(unsigned long host_target)
{
	exp_kick_cpus();
	for (int round = 0; round < 256; round++) {
		if (exp_done(host_target))
			return;
		pk_cpu_relax();
		rcu_cond_resched_qs();
	}
	while (!wait_event_timeout(exp_wq, exp_done(host_target), 1)) {
		exp_kick_cpus();
		rcu_cond_resched_qs();
	}
}

void synchronize_rcu_expedited(void)
{
	struct task_struct *t, *tn;
	unsigned long flags, host_target;
	int ncpus;

	might_sleep();
	if (gp_wait_in_reader("Illegal synchronize_rcu_expedited() in RCU "
			      "read-side critical section"))
		return;
	if (!pk_rcu_booted()) {
		gp_nomachine();
		return;
	}
	mutex_lock(&exp_mutex);
	local_irq_save(flags);
	pk_raw_lock(&rcu_state.lock);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	ncpus = num_online_cpus();
	if (ncpus > rcu_state.ncpus)
		rcu_state.ncpus = ncpus;
	for (int cpu = 0; cpu < ncpus; cpu++)
		__atomic_store_n(&rcu_data[cpu].exp_pending, 1,
				 __ATOMIC_RELEASE);
	rcu_state.exp_blocked = 0;
	list_for_each_entry_safe(t, tn, &rcu_state.blkd, pk_rcu_node)
	{
		t->pk_rcu_blocked |= BLOCKED_EXP;
		rcu_state.exp_blocked++;
	}
	pk_raw_unlock(&rcu_state.lock);
	local_irq_restore(flags);
	host_target = host_gp_begin();
	rcu_cond_resched_qs();
	scan_eqs(offsetof(struct rcu_data, exp_pending));
	exp_wait(host_target);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	STAT_INC(exp_gps);
	mutex_unlock(&exp_mutex);
}

/* ---- rcuc kthreads (rt) ---- */

static int rcuc_kthread(void *arg)
{
	struct rcu_data *rdp = arg;

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!__atomic_load_n(&rdp->rcuc_work, __ATOMIC_SEQ_CST) &&
		    !kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
		pk_store_mb(&rdp->rcuc_work, 0);
		local_bh_disable();
		rdp_invoke(rdp);
		local_bh_enable();
	}
	return 0;
}

/* ---- boot and shutdown ---- */

static void rcu_boot(bool started)
{
	int n = num_online_cpus();

	if (!started) {
		/* Chosen once, kept across run-time model switches. */
		__atomic_store_n(&pk_rcu_preempt_flavour,
				 flavour_preempt_for_model(), __ATOMIC_RELEASE);
		rcu_state.use_rcuc = pk_machine_rt();
		return;
	}
	rcu_state.ncpus = n;
	if (request_irq(PK_RCU_EXP_IRQ, rcu_exp_handler,
			IRQF_SHARED | IRQF_NO_THREAD, "rcu_exp", rcu_data))
		BUG();
	if (request_nmi(PK_RCU_NMI_IRQ, rcu_nmi_backtrace, 0, "rcu_nmi_bt",
			rcu_data))
		BUG();
	for (int cpu = 0; rcu_state.use_rcuc && cpu < n; cpu++) {
		struct task_struct *k = kthread_create(
			rcuc_kthread, &rcu_data[cpu], "rcuc/%d", cpu);

		if (!k)
			BUG();
		kthread_bind(k, cpu);
		sched_set_fifo_low(k);
		rcu_data[cpu].rcuc = k;
		wake_up_process(k);
	}
	rcu_state.gp_kthread = kthread_create(
		rcu_gp_kthread, NULL, "%s",
		pk_rcu_preemptible() ? "rcu_preempt" : "rcu_sched");
	if (!rcu_state.gp_kthread)
		BUG();
	/* Under rt it must outrank the tasks it boosts readers above
	 * (rcutree.kthread_prio). */
	if (rcu_state.use_rcuc)
		pk_sched_setscheduler(
			rcu_state.gp_kthread, SCHED_FIFO,
			__atomic_load_n(&boost_rt_prio, __ATOMIC_RELAXED));
	__atomic_store_n(&rcu_state.booted, 1, __ATOMIC_RELEASE);
	wake_up_process(rcu_state.gp_kthread);
	pk_srcu_boot();
}

/* Whatever a vCPU still holds goes to the host list, for later. */
static void adopt_orphan_cbs(void)
{
	for (int cpu = 0; cpu < PK_NR_CPUS; cpu++) {
		struct rcu_data *rdp = &rcu_data[cpu];
		unsigned long flags;

		local_irq_save(flags);
		pk_raw_lock(&HOST_RDP->lock);
		pk_raw_lock(&rdp->lock);
		if (rdp->n_cbs) {
			seg_splice(&rdp->done, &rdp->done_tail,
				   &HOST_RDP->next_tail);
			seg_splice(&rdp->wait, &rdp->wait_tail,
				   &HOST_RDP->next_tail);
			seg_splice(&rdp->next, &rdp->next_tail,
				   &HOST_RDP->next_tail);
			HOST_RDP->next_seq = rcu_seq_snap();
			__atomic_add_fetch(
				&HOST_RDP->n_cbs,
				__atomic_exchange_n(&rdp->n_cbs, 0,
						    __ATOMIC_SEQ_CST),
				__ATOMIC_SEQ_CST);
		}
		pk_raw_unlock(&rdp->lock);
		pk_raw_unlock(&HOST_RDP->lock);
		local_irq_restore(flags);
	}
}

static void rcu_shutdown(void)
{
	if (!pk_rcu_booted())
		return;
	pk_srcu_shutdown();
	rcu_barrier();
	__atomic_store_n(&rcu_state.booted, 0, __ATOMIC_RELEASE);
	kthread_stop(rcu_state.gp_kthread);
	rcu_state.gp_kthread = NULL;
	for (int cpu = 0; cpu < PK_NR_CPUS; cpu++) {
		if (!rcu_data[cpu].rcuc)
			continue;
		kthread_stop(rcu_data[cpu].rcuc);
		rcu_data[cpu].rcuc = NULL;
	}
	free_irq(PK_RCU_EXP_IRQ, rcu_data);
	free_nmi(PK_RCU_NMI_IRQ, rcu_data);
	adopt_orphan_cbs();
	for (int cpu = 0; cpu < PK_NR_CPUS; cpu++) {
		rcu_data[cpu].qs_pending = 0;
		rcu_data[cpu].exp_pending = 0;
	}
	/* Nothing runs on the blocked list once every task has exited. */
	WARN_ON_ONCE(!list_empty(&rcu_state.blkd));
	rcu_state.gp_seq_needed = rcu_state.gp_seq;
}

/*
 * ct_idle_enter()/exit(): the fences order the readers before the sleep
 * before the mark, and the mark before the readers after it, against a
 * grace period that finds the mark (rcu_eqs_quiescent()).
 */
static void rcu_idle_eqs(bool enter)
{
	struct rcu_data *rdp = this_rdp();

	if (rdp == HOST_RDP)
		return;
	rdp->eqs_owner = enter ? current : NULL;
	eqs_add(rdp, enter ? 1 : -1);
}

/* ct_irq_enter()/exit(): a handler on an idle vCPU may read. */
static void rcu_irq(int delta)
{
	struct rcu_data *rdp = this_rdp();

	if (rdp == HOST_RDP)
		return;
	eqs_add(rdp, 2 * delta);
}

/* rcu_needs_cpu(): callbacks wait here, so this CPU's tick must run. */
static bool rcu_needs_cpu(void)
{
	struct rcu_data *rdp = this_rdp();

	return rdp != HOST_RDP &&
	       __atomic_load_n(&rdp->n_cbs, __ATOMIC_RELAXED);
}

const struct pk_rcu_sched_hooks pk_rcu_sched_ops = {
	.sched_out = rcu_sched_out,
	.sched_in = rcu_sched_in,
	.boot = rcu_boot,
	.shutdown = rcu_shutdown,
	.tick = rcu_tick,
	.voluntary = rcu_voluntary,
	.qs = rcu_cond_resched_qs,
	/* Idle is a quiescent state, and the idle loop is outside readers. */
	.idle = rcu_cond_resched_qs,
	.needs_cpu = rcu_needs_cpu,
	.idle_eqs = rcu_idle_eqs,
	.irq = rcu_irq,
	.exit = rcu_task_exit,
};

__attribute__((constructor)) static void rcu_init(void)
{
	open_softirq(RCU_SOFTIRQ, rcu_softirq);
}
