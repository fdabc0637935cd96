// SPDX-License-Identifier: MIT
/*
 * Softirqs, ksoftirqd and tasklets.
 *
 * Pending softirqs run at irq_exit() when that leaves no interrupt context,
 * and at local_bh_enable() when the bh count drops to zero outside
 * interrupt context; one run restarts while new ones are raised, at most
 * MAX_SOFTIRQ_RESTART times and MAX_SOFTIRQ_TIME, and stops early when a
 * reschedule is owed; the rest goes to the CPU's ksoftirqd.  Under the rt
 * model irq_exit() never runs them: ksoftirqd or local_bh_enable() does.
 *
 * On a CPU that is no vCPU, ksoftirqd is a thread of its own that works on
 * its CPU's pending mask.  softirq_owner keeps the softirq handlers of one
 * CPU from ever running in both at once, which is the serialization
 * softirq code relies on.  The word cannot stop another host thread, so
 * there the CPU thread's outermost bh-disabled section also holds
 * softirq_owner (OWNER_BH): ksoftirqd backs off and the enable serves what
 * is pending.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <time.h>

#include <preempt/bottom_half.h>
#include <preempt/bug.h>
#include <preempt/debug.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/lockdep.h>
#include <preempt/sched.h>
#include <preempt/tracepoint.h>

#include "../debug/report.h"
#include "irq.h"
#include "../port/sim.h"

#define MAX_SOFTIRQ_TIME_NS 2000000L
#define MAX_SOFTIRQ_RESTART 10

/* OWNER_BH: the CPU thread's bh-disabled section, not a softirq run. */
enum { OWNER_NONE, OWNER_CPU, OWNER_KSOFTIRQD, OWNER_BH };

const char *const softirq_to_name[NR_SOFTIRQS] = {
	"HI",	    "TIMER",   "NET_TX", "NET_RX",  "BLOCK",
	"IRQ_POLL", "TASKLET", "SCHED",	 "HRTIMER", "RCU",
};

static void (*softirq_vec[NR_SOFTIRQS])(void);

void open_softirq(int nr, void (*action)(void))
{
	if (WARN_ON(nr < 0 || nr >= NR_SOFTIRQS))
		return;
	__atomic_store_n(&softirq_vec[nr], action, __ATOMIC_RELEASE);
}

/* The CPU of this thread; a plain thread becomes one on first use. */
static struct pk_irq_cpu *this_cpu_or_register(void)
{
	if (!pk_this_irq_cpu && pk_irq_cpu_register() < 0)
		return NULL;
	return pk_this_irq_cpu;
}

unsigned int local_softirq_pending(void)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;

	return c ? __atomic_load_n(&c->softirq_pending, __ATOMIC_RELAXED) : 0;
}

static void (*ksoftirqd_task_wake)(void *task);

void pk_irq_cpu_set_ksoftirqd(int cpu, void *task, void (*wake)(void *task))
{
	struct pk_irq_cpu *c = pk_irq_cpu(cpu);

	if (!c)
		return;
	if (wake)
		ksoftirqd_task_wake = wake;
	__atomic_store_n(&c->ksoftirqd_task, task, __ATOMIC_RELEASE);
}

static void wakeup_softirqd(struct pk_irq_cpu *c)
{
	void *task = __atomic_load_n(&c->ksoftirqd_task, __ATOMIC_ACQUIRE);

	if (task) {
		pk_stat_inc(c, ksoftirqd_wakeups);
		ksoftirqd_task_wake(task);
		return;
	}
	/* sem_post() is async-signal-safe; post once per wake-up. */
	if (!__atomic_exchange_n(&c->ksoftirqd_woken, 1, __ATOMIC_SEQ_CST)) {
		pk_stat_inc(c, ksoftirqd_wakeups);
		sem_post(&c->ksoftirqd_wake);
	}
}

void raise_softirq_irqoff(unsigned int nr)
{
	struct pk_irq_cpu *c = this_cpu_or_register();

	if (WARN_ON_ONCE(nr >= NR_SOFTIRQS) || !c)
		return;
	lockdep_assert_irqs_disabled();
	__atomic_fetch_or(&c->softirq_pending, 1U << nr, __ATOMIC_SEQ_CST);
	/*
	 * In interrupt or bh-disabled context it runs at irq exit or bh
	 * enable; otherwise nothing would run it soon but ksoftirqd.
	 */
	if (!in_interrupt())
		wakeup_softirqd(c);
}

void raise_softirq(unsigned int nr)
{
	unsigned long flags;

	local_irq_save(flags);
	raise_softirq_irqoff(nr);
	local_irq_restore(flags);
}

static bool softirq_trylock(struct pk_irq_cpu *c, int owner)
{
	int none = OWNER_NONE;

	return __atomic_compare_exchange_n(&c->softirq_owner, &none, owner,
					   false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static void softirq_unlock(struct pk_irq_cpu *c)
{
	__atomic_store_n(&c->softirq_owner, OWNER_NONE, __ATOMIC_RELEASE);
}

static long now_ns(void)
{
	return (long)pk_clock_ns();
}

static void report_softirq_leak(unsigned int nr, void (*action)(void),
				unsigned int before, unsigned int after)
{
	struct pk_rbuf buf = {0};
	char sym[160];

	pk_rbuf_printf(&buf,
		       "huh, entered softirq %u %s %016lx with preempt_count "
		       "%08x, exited with %08x?\n",
		       nr, softirq_to_name[nr], (unsigned long)action, before,
		       after);
	pk_rbuf_printf(&buf, "softirq action: %s\n",
		       pk_sym_str((unsigned long)action, sym, sizeof(sym)));
	pk_rbuf_backtrace(&buf);
	pk_report_emit(PK_REPORT_SOFTIRQ, NULL, 0, &buf);
}

/* The word, with an rt task's bh state folded in where the kernel has it. */
static unsigned int context_count(void)
{
	return (unsigned int)preempt_count() | softirq_count();
}

static void run_vector(struct pk_irq_cpu *c, unsigned int nr, bool ksoftirqd)
{
	void (*action)(void) =
		__atomic_load_n(&softirq_vec[nr], __ATOMIC_ACQUIRE);
	unsigned int before = (unsigned int)preempt_count();
	unsigned int before_bh = pk_softirq_disable_cnt;
	unsigned int shown = context_count();

	if (!action)
		return;
	pk_trace(softirq_entry, nr);
	action();
	pk_trace(softirq_exit, nr);
	if (unlikely(preempt_count() != (int)before ||
		     pk_softirq_disable_cnt != before_bh)) {
		report_softirq_leak(nr, action, shown, context_count());
		preempt_count_set((int)before);
		pk_softirq_disable_cnt = before_bh;
	}
	if (ksoftirqd)
		pk_stat_inc(c, softirq_ksoftirqd);
	else
		pk_stat_inc(c, softirq_inline);
}

/*
 * The kernel's handle_softirqs(): entered with interrupts disabled and the
 * CPU's softirq_owner held.  Handlers run with interrupts enabled, so a
 * hardirq (or its replay) can interrupt them.
 */
/*
 * Run from irq exit inside the interrupt's signal handler, where the
 * kernel holds PK_SIGIRQ back (irq.c): let it in while the actions run
 * with interrupts enabled, as hardirqs nest in softirqs in the kernel.
 */
static void softirq_irq_window(bool open)
{
	sigset_t set;

	if (!pk_in_signal)
		return;
	sigemptyset(&set);
	sigaddset(&set, PK_SIGIRQ);
	sigprocmask(open ? SIG_UNBLOCK : SIG_BLOCK, &set, NULL);
}

static void handle_softirqs(struct pk_irq_cpu *c, bool ksoftirqd, bool rt)
{
	long end = now_ns() + MAX_SOFTIRQ_TIME_NS;
	int restart = MAX_SOFTIRQ_RESTART;
	unsigned int pending;

	/* rt: the task serves them preemptibly, its word untouched. */
	if (rt)
		pk_softirq_disable_cnt += SOFTIRQ_OFFSET;
	else
		__preempt_count_add(SOFTIRQ_OFFSET);
	for (;;) {
		pending = __atomic_exchange_n(&c->softirq_pending, 0,
					      __ATOMIC_SEQ_CST);
		local_irq_enable();
		softirq_irq_window(true);
		for (unsigned int nr = 0; pending; nr++, pending >>= 1)
			if (pending & 1)
				run_vector(c, nr, ksoftirqd);
		softirq_irq_window(false);
		local_irq_disable();
		if (!__atomic_load_n(&c->softirq_pending, __ATOMIC_SEQ_CST))
			break;
		if (now_ns() >= end || need_resched() || --restart == 0) {
			wakeup_softirqd(c);
			break;
		}
	}
	if (rt)
		pk_softirq_disable_cnt -= SOFTIRQ_OFFSET;
	else
		__preempt_count_sub(SOFTIRQ_OFFSET);
}

/* From irq_exit(), interrupts disabled, no interrupt context left. */
void pk_softirq_irq_exit(struct pk_irq_cpu *c)
{
	if (!c)
		return;
	/* PREEMPT_RT: softirqs run in task context only. */
	if (preempt_model_rt()) {
		wakeup_softirqd(c);
		return;
	}
	/* ksoftirqd is at it: it will see these too. */
	if (!softirq_trylock(c, OWNER_CPU))
		return;
	handle_softirqs(c, false, false);
	softirq_unlock(c);
}

/*
 * Task context may wait for ksoftirqd to finish its pass (as PREEMPT_RT's
 * local_bh_enable() waits on the softirq lock), unless it took all.
 */
static bool softirq_lock_task(struct pk_irq_cpu *c)
{
	while (!softirq_trylock(c, OWNER_CPU)) {
		if (!local_softirq_pending())
			return false;
		pk_host_yield();
	}
	return true;
}

/* From local_bh_enable(), task context. */
static void do_softirq(void)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;
	unsigned long flags;

	if (in_interrupt() || !c)
		return;
	local_irq_save(flags);
	if (local_softirq_pending() && softirq_lock_task(c)) {
		handle_softirqs(c, !pthread_equal(c->thread, pthread_self()),
				false);
		softirq_unlock(c);
	}
	local_irq_restore(flags);
}

/*
 * ---- PREEMPT_RT bottom halves ----
 * A task's bh state is pk_softirq_disable_cnt (saved with the task), and
 * its outermost preemptible bh section holds the CPU's bh lock, a sleeping
 * lock with PI: two tasks' bh sections on one CPU exclude each other as
 * the word's would, while both stay preemptible.
 */

#define BH_RT_LOCKED 1U /* this task holds its CPU's bh lock */

static const struct pk_bh_rt_ops *bh_rt_ops;
static bool bh_rt;

void pk_softirq_set_rt_ops(const struct pk_bh_rt_ops *ops)
{
	bh_rt_ops = ops;
}

void pk_softirq_set_rt(bool rt)
{
	__atomic_store_n(&bh_rt, rt && bh_rt_ops, __ATOMIC_RELEASE);
}

/* Interrupt handlers and threads outside the machine use the word. */
static bool bh_in_task(void)
{
	return unlikely(__atomic_load_n(&bh_rt, __ATOMIC_RELAXED)) &&
	       !(preempt_count() & (NMI_MASK | HARDIRQ_MASK)) &&
	       bh_rt_ops->task();
}

/* @cnt may carry a raw spinlock's preempt offset: that goes in the word. */
static void rt_bh_disable(unsigned int cnt)
{
	if (WARN_ONCE((pk_softirq_disable_cnt & SOFTIRQ_MASK) +
				      (cnt & SOFTIRQ_MASK) >
			      SOFTIRQ_MASK,
		      "local_bh_disable() nested too deep"))
		return;
	/* Not preemptible: nothing else can run here to need excluding. */
	if (!(pk_softirq_disable_cnt & SOFTIRQ_MASK) && preemptible()) {
		bh_rt_ops->lock();
		pk_softirq_disable_cnt |= BH_RT_LOCKED;
	}
	pk_softirq_disable_cnt += cnt & SOFTIRQ_MASK;
	__preempt_count_add(cnt & ~SOFTIRQ_MASK);
}

/* Holding the bh: serve what is pending, preemptibly. */
static void rt_run_softirqs(struct pk_irq_cpu *c, bool ksoftirqd)
{
	unsigned long flags;

	local_irq_save(flags);
	/* Held only by another bh section of this CPU, which will see these. */
	if (softirq_trylock(c, ksoftirqd ? OWNER_KSOFTIRQD : OWNER_CPU)) {
		handle_softirqs(c, ksoftirqd, true);
		softirq_unlock(c);
	}
	local_irq_restore(flags);
}

static void rt_bh_enable(unsigned int cnt, bool ksoftirqd)
{
	unsigned int bh = cnt & SOFTIRQ_MASK;
	struct pk_irq_cpu *c = pk_this_irq_cpu;

	WARN_ON_ONCE(irqs_disabled());
	if (WARN_ONCE((pk_softirq_disable_cnt & SOFTIRQ_MASK &
		       ~SOFTIRQ_OFFSET) < bh,
		      "local_bh_enable() without local_bh_disable()"))
		return;
	__preempt_count_sub(cnt & ~SOFTIRQ_MASK);
	if ((pk_softirq_disable_cnt & SOFTIRQ_MASK) == bh && c &&
	    local_softirq_pending()) {
		/* Only holding the bh lock, which also pins us to the CPU:
		 * a section begun atomically took neither. */
		if (preemptible() && (pk_softirq_disable_cnt & BH_RT_LOCKED))
			rt_run_softirqs(c, ksoftirqd);
		else
			wakeup_softirqd(c);
	}
	pk_softirq_disable_cnt -= bh;
	if (pk_softirq_disable_cnt == BH_RT_LOCKED) {
		pk_softirq_disable_cnt = 0;
		bh_rt_ops->unlock();
	}
	if (cnt & ~SOFTIRQ_MASK)
		preempt_check_resched();
	if (!(pk_softirq_disable_cnt & SOFTIRQ_MASK) && bh_rt_ops->ended)
		bh_rt_ops->ended();
}

/* ---- bh-disabled sections of a thread-backed CPU ---- */

/*
 * The CPU of a thread whose ksoftirqd is another host thread, for an
 * outermost bh disable in task context (@cnt disables bh).  On a vCPU
 * ksoftirqd is a task, which a bh-disabled (so non-preemptible) section
 * keeps off the CPU by itself; a hardirq handler cannot wait.
 */
static struct pk_irq_cpu *bh_thread_cpu(unsigned int cnt)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;

	if (!c || !(cnt & SOFTIRQ_MASK) || softirq_count() ||
	    (preempt_count() & (NMI_MASK | HARDIRQ_MASK)))
		return NULL;
	if (__atomic_load_n(&c->ksoftirqd_task, __ATOMIC_ACQUIRE) ||
	    !pthread_equal(c->thread, pthread_self()))
		return NULL;
	return c;
}

/*
 * Wait out a ksoftirqd pass and hold the CPU's softirqs off until the
 * matching enable.  Task context; the count is not raised yet, so an irq
 * exit meanwhile only tries the owner word and leaves the work pending.
 */
static void bh_thread_claim(unsigned int cnt)
{
	struct pk_irq_cpu *c = bh_thread_cpu(cnt);

	if (!c || softirq_trylock(c, OWNER_BH))
		return;
	pk_stat_inc(c, bh_waits);
	while (!softirq_trylock(c, OWNER_BH))
		pk_host_yield();
}

/* Does this thread's bh-disabled section hold its CPU's softirqs off? */
static struct pk_irq_cpu *bh_thread_held(void)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;

	if (!c || softirq_count() ||
	    __atomic_load_n(&c->softirq_owner, __ATOMIC_RELAXED) != OWNER_BH ||
	    !pthread_equal(c->thread, pthread_self()))
		return NULL;
	return c;
}

/*
 * The outermost enable of a held section: serve what is pending (not with
 * interrupts disabled, a caller's bug already warned about), then let go.
 * ksoftirqd may have backed off meanwhile: what is still pending is its.
 */
static void bh_thread_release(struct pk_irq_cpu *c)
{
	unsigned long flags;

	local_irq_save(flags);
	if (!flags && local_softirq_pending())
		handle_softirqs(c, false, false);
	softirq_unlock(c);
	if (local_softirq_pending())
		wakeup_softirqd(c);
	local_irq_restore(flags);
}

/* ---- bottom-half disabling ---- */

void __local_bh_disable_ip(unsigned long ip, unsigned int cnt)
{
	if (bh_in_task()) {
		rt_bh_disable(cnt);
		return;
	}
	/* 127 levels fill the softirq byte; one more would spill into hardirq.
	 */
	if (WARN_ONCE(softirq_count() + (cnt & SOFTIRQ_MASK) > SOFTIRQ_MASK,
		      "local_bh_disable() nested too deep"))
		return;
	bh_thread_claim(cnt);
	__preempt_count_add(cnt);
	if (CONFIG_DEBUG_PREEMPT && (unsigned int)preempt_count() == cnt)
		pk_preempt_disable_ip = ip;
	/* A bh-off section is a preemptoff one, as in the kernel. */
	if (CONFIG_DEBUG_PREEMPT)
		pk_trace(preempt_add, ip, (int)cnt);
}

void __local_bh_enable_ip(unsigned long ip, unsigned int cnt)
{
	struct pk_irq_cpu *c;

	(void)ip;
	if (bh_in_task()) {
		rt_bh_enable(cnt, false);
		return;
	}
	WARN_ON_ONCE(in_hardirq());
	WARN_ON_ONCE(irqs_disabled());
	/* The bh-disabled part is the even part of the softirq byte. */
	/* cnt may carry spin_lock_bh()'s preempt offset too. */
	if (WARN_ONCE((softirq_count() & ~SOFTIRQ_OFFSET) <
			      (cnt & SOFTIRQ_MASK),
		      "local_bh_enable() without local_bh_disable()"))
		return;
	/* Keep preemption off until pending softirqs have run. */
	__preempt_count_sub(cnt - 1);
	c = bh_thread_held();
	if (c)
		bh_thread_release(c);
	else if (!in_interrupt() && !irqs_disabled() && local_softirq_pending())
		do_softirq();
	preempt_count_dec();
	preempt_check_resched();
}

/* ---- ksoftirqd ---- */

static void ksoftirqd_run(struct pk_irq_cpu *c)
{
	while (__atomic_load_n(&c->softirq_pending, __ATOMIC_SEQ_CST) &&
	       !__atomic_load_n(&c->ksoftirqd_stop, __ATOMIC_SEQ_CST)) {
		if (!softirq_trylock(c, OWNER_KSOFTIRQD)) {
			/* The CPU's bh enable serves them, or wakes us. */
			if (__atomic_load_n(&c->softirq_owner,
					    __ATOMIC_RELAXED) == OWNER_BH)
				return;
			pk_host_yield();
			continue;
		}
		local_irq_disable();
		handle_softirqs(c, true, false);
		local_irq_enable();
		softirq_unlock(c);
		/* handle_softirqs() woke us for what it left: consume that. */
		pk_store_mb(&c->ksoftirqd_woken, 0);
	}
}

void pk_ksoftirqd_run(void)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;

	if (!c || !local_softirq_pending())
		return;
	/* rt: a bh section of its own, which serves them on the way out. */
	if (bh_in_task()) {
		rt_bh_disable(SOFTIRQ_DISABLE_OFFSET);
		rt_bh_enable(SOFTIRQ_DISABLE_OFFSET, true);
		return;
	}
	/*
	 * A task on the CPU: an irq exit on this CPU releases the owner word
	 * before it returns, and a holder is never preempted, so it is free
	 * unless the CPU's old ksoftirqd thread is finishing a pass.
	 */
	if (!softirq_trylock(c, OWNER_KSOFTIRQD))
		return;
	local_irq_disable();
	handle_softirqs(c, true, false);
	local_irq_enable();
	softirq_unlock(c);
}

/* ---- ktimers (rt) ---- */

void pk_irq_cpu_set_ktimers(int cpu, void *task)
{
	struct pk_irq_cpu *c = pk_irq_cpu(cpu);

	if (c)
		__atomic_store_n(&c->ktimers_task, task, __ATOMIC_RELEASE);
}

void raise_timer_softirq(unsigned int nr)
{
	struct pk_irq_cpu *c = this_cpu_or_register();
	void *task =
		c ? __atomic_load_n(&c->ktimers_task, __ATOMIC_ACQUIRE) : NULL;

	if (!task || !ksoftirqd_task_wake) {
		raise_softirq_irqoff(nr);
		return;
	}
	__atomic_fetch_or(&c->timer_pending, 1U << nr, __ATOMIC_SEQ_CST);
	ksoftirqd_task_wake(task);
}

bool pk_ktimers_pending(void)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;

	return c && __atomic_load_n(&c->timer_pending, __ATOMIC_SEQ_CST);
}

/*
 * As PREEMPT_RT's ktimers: hand the timer bits to the CPU's pending mask
 * and serve everything pending in a bh section of our own, at our FIFO
 * priority (a holder of the bh lock is boosted to it).
 */
void pk_ktimers_run(void)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;
	unsigned int timers;

	if (!c)
		return;
	timers = __atomic_exchange_n(&c->timer_pending, 0, __ATOMIC_SEQ_CST);
	__atomic_fetch_or(&c->softirq_pending, timers, __ATOMIC_SEQ_CST);
	/* The enable serves what is pending, in whichever bh this is. */
	local_bh_disable();
	local_bh_enable();
}

static void *ksoftirqd_thread(void *arg)
{
	struct pk_irq_cpu *c = arg;
	char name[16];

	snprintf(name, sizeof(name), "ksoftirqd/%d", c->cpu);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	/* Works for its CPU, but is not its thread: it never gets signals. */
	pk_this_irq_cpu = c;
	for (;;) {
		while (sem_wait(&c->ksoftirqd_wake) != 0 && errno == EINTR)
			;
		if (__atomic_load_n(&c->ksoftirqd_stop, __ATOMIC_SEQ_CST))
			break;
		pk_store_mb(&c->ksoftirqd_woken, 0);
		ksoftirqd_run(c);
	}
	pk_this_irq_cpu = NULL;
	return NULL;
}

int pk_ksoftirqd_start(struct pk_irq_cpu *c)
{
	sigset_t block, old;
	int err;

	if (sem_init(&c->ksoftirqd_wake, 0, 0) != 0)
		return -errno;
	/* Created with the interrupt signals blocked, which it inherits. */
	sigemptyset(&block);
	sigaddset(&block, PK_SIGIRQ);
	sigaddset(&block, PK_SIGNMI);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	err = pthread_create(&c->ksoftirqd, NULL, ksoftirqd_thread, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		sem_destroy(&c->ksoftirqd_wake);
		return -err;
	}
	return 0;
}

void pk_ksoftirqd_stop(struct pk_irq_cpu *c)
{
	pk_store_mb(&c->ksoftirqd_stop, 1);
	sem_post(&c->ksoftirqd_wake);
	pthread_join(c->ksoftirqd, NULL);
	sem_destroy(&c->ksoftirqd_wake);
}

/* ---- tasklets ---- */

static bool test_and_set_state(struct tasklet_struct *t, int bit)
{
	return __atomic_fetch_or(&t->state, 1UL << bit, __ATOMIC_SEQ_CST) &
	       (1UL << bit);
}

static bool test_state(struct tasklet_struct *t, int bit)
{
	return __atomic_load_n(&t->state, __ATOMIC_SEQ_CST) & (1UL << bit);
}

static void clear_state(struct tasklet_struct *t, int bit)
{
	__atomic_fetch_and(&t->state, ~(1UL << bit), __ATOMIC_SEQ_CST);
}

void tasklet_setup(struct tasklet_struct *t,
		   void (*callback)(struct tasklet_struct *))
{
	*t = (struct tasklet_struct){.use_callback = true,
				     .callback = callback};
}

void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long),
		  unsigned long data)
{
	*t = (struct tasklet_struct){.func = func, .data = data};
}

static void tasklet_push(struct pk_irq_cpu *c, int hi, struct tasklet_struct *t)
{
	struct tasklet_struct *old =
		__atomic_load_n(&c->tasklets[hi], __ATOMIC_RELAXED);

	do
		t->next = old;
	while (!__atomic_compare_exchange_n(&c->tasklets[hi], &old, t, true,
					    __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED));
}

static void tasklet_enqueue(struct tasklet_struct *t, int hi)
{
	struct pk_irq_cpu *c = this_cpu_or_register();

	if (!c) {
		clear_state(t, TASKLET_STATE_SCHED);
		return;
	}
	tasklet_push(c, hi, t);
	raise_softirq(hi ? HI_SOFTIRQ : TASKLET_SOFTIRQ);
}

void tasklet_schedule(struct tasklet_struct *t)
{
	if (!test_and_set_state(t, TASKLET_STATE_SCHED))
		tasklet_enqueue(t, 0);
}

void tasklet_hi_schedule(struct tasklet_struct *t)
{
	if (!test_and_set_state(t, TASKLET_STATE_SCHED))
		tasklet_enqueue(t, 1);
}

/* The list is a stack; run in the order scheduled. */
static struct tasklet_struct *tasklet_take(struct pk_irq_cpu *c, int hi)
{
	struct tasklet_struct *list =
		__atomic_exchange_n(&c->tasklets[hi], NULL, __ATOMIC_ACQUIRE);
	struct tasklet_struct *fifo = NULL;

	while (list) {
		struct tasklet_struct *next = list->next;

		list->next = fifo;
		fifo = list;
		list = next;
	}
	return fifo;
}

static bool tasklet_try_run(struct tasklet_struct *t)
{
	if (test_and_set_state(t, TASKLET_STATE_RUN))
		return false;
	if (__atomic_load_n(&t->count, __ATOMIC_SEQ_CST)) {
		clear_state(t, TASKLET_STATE_RUN);
		return false;
	}
	clear_state(t, TASKLET_STATE_SCHED);
	if (t->use_callback)
		t->callback(t);
	else
		t->func(t->data);
	clear_state(t, TASKLET_STATE_RUN);
	return true;
}

static void tasklet_action_common(int hi)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;
	struct tasklet_struct *t = c ? tasklet_take(c, hi) : NULL;

	while (t) {
		struct tasklet_struct *next = t->next;

		/* Disabled or running elsewhere: try again next time. */
		if (!tasklet_try_run(t)) {
			tasklet_push(c, hi, t);
			__atomic_fetch_or(
				&c->softirq_pending,
				1U << (hi ? HI_SOFTIRQ : TASKLET_SOFTIRQ),
				__ATOMIC_SEQ_CST);
		}
		t = next;
	}
}

/*
 * A program's kernel/workqueue.c runs its BH workqueues' items here, ahead
 * of the tasklets, as the kernel's tasklet softirqs do.
 */
extern void workqueue_softirq_action(bool highpri) __attribute__((weak));

static void tasklet_action(void)
{
	if (workqueue_softirq_action)
		workqueue_softirq_action(false);
	tasklet_action_common(0);
}

static void tasklet_hi_action(void)
{
	if (workqueue_softirq_action)
		workqueue_softirq_action(true);
	tasklet_action_common(1);
}

__attribute__((constructor)) static void softirq_init(void)
{
	open_softirq(TASKLET_SOFTIRQ, tasklet_action);
	open_softirq(HI_SOFTIRQ, tasklet_hi_action);
}

/*
 * Under rt the tasklet may be running in a softirq we preempted on this
 * CPU: cycling the CPU's bh lock lets it finish, boosted.
 */
static void tasklet_wait_step(void)
{
	if (bh_in_task()) {
		local_bh_disable();
		local_bh_enable();
	}
	pk_host_yield();
}

void tasklet_disable(struct tasklet_struct *t)
{
	__atomic_add_fetch(&t->count, 1, __ATOMIC_SEQ_CST);
	while (test_state(t, TASKLET_STATE_RUN))
		tasklet_wait_step();
}

void tasklet_enable(struct tasklet_struct *t)
{
	__atomic_sub_fetch(&t->count, 1, __ATOMIC_SEQ_CST);
}

void tasklet_kill(struct tasklet_struct *t)
{
	might_sleep();
	while (test_and_set_state(t, TASKLET_STATE_SCHED))
		while (test_state(t, TASKLET_STATE_SCHED))
			tasklet_wait_step();
	while (test_state(t, TASKLET_STATE_RUN))
		tasklet_wait_step();
	clear_state(t, TASKLET_STATE_SCHED);
}
