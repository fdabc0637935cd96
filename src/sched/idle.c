// SPDX-License-Identifier: MIT
/*
 * The idle loop: poll a little (the haltpoll cpuidle governor's adaptive
 * window), then stop the periodic tick (NO_HZ_IDLE, the kernel's
 * tick_nohz_idle_enter()/exit()) and sleep in the host on the idle futex.
 *
 * A stopped tick is not a dead one: it becomes a one-shot aimed at the
 * first timer_list entry of the CPU, so timers still expire on time; the
 * clock gives jiffies back when it restarts.  Anything that changes what
 * the sleep should wait for (a timer armed here, an interrupt on the idle
 * CPU) bumps the futex word, and the loop decides again.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <time.h>

#include <preempt/interrupt.h>
#include <preempt/irq_work.h>
#include <preempt/irqflags.h>
#include <preempt/preempt.h>
#include <preempt/sched.h>

#include "../debug/report.h"
#include "sched_internal.h"
#include "../port/sim.h"

static int nohz_on = 1;
static long poll_max_ns = 200000;

/* The haltpoll governor's shape: start small, double, halve. */
#define POLL_GROW_START_NS 10000L
/* 64 pauses take a few microseconds: far longer means the host preempted
 * the polling thread. */
#define POLL_STEAL_NS 20000L
/*
 * ... and then polling waits before it tries again, since an overloaded
 * host would take it away again: 1 ms after a steal, doubling with each
 * steal up to 100 ms, halving with each poll the host left alone.  A host
 * kthread's odd time slice costs a millisecond of polling, not a tenth of
 * a second; a host that keeps taking the CPU keeps polling off.
 */
#define POLL_STEAL_BACKOFF_MIN_NS 1000000L
#define POLL_STEAL_BACKOFF_MAX_NS 100000000L

void pk_idle_configure(int nohz, int idle_poll_us)
{
	__atomic_store_n(&nohz_on, nohz >= 0, __ATOMIC_RELAXED);
	poll_max_ns = idle_poll_us < 0 ? 0
		      : idle_poll_us   ? idle_poll_us * 1000L
				       : 200000L;
}

bool pk_nohz_enabled(void)
{
	return __atomic_load_n(&nohz_on, __ATOMIC_RELAXED);
}

/* Make the idle loop of @rq look again at what it waits for. */
void pk_nohz_kick(struct rq *rq)
{
	__atomic_add_fetch(&rq->idle_seq, 1, __ATOMIC_SEQ_CST);
	if (rq != pk_this_rq)
		pk_host_futex_wake(&rq->idle_seq, 1);
}

/*
 * From interrupt return on this CPU: the handler may have queued work the
 * sleep does not know of (a callback, a timer, irq_work), so the wait
 * (restarted under SA_RESTART, which compares the word again) returns.
 */
void pk_nohz_irq_exit(void *owner)
{
	struct rq *rq = owner;

	if (__atomic_load_n(&rq->idle_sleeping, __ATOMIC_RELAXED) &&
	    pk_nohz_enabled())
		__atomic_add_fetch(&rq->idle_seq, 1, __ATOMIC_SEQ_CST);
}

/* Handlers on a vCPU, for RCU: an idle one is quiescent only outside them. */
void pk_irq_rcu(void *owner, int delta)
{
	(void)owner;
	if (pk_rcu_hooks && pk_rcu_hooks->irq)
		pk_rcu_hooks->irq(delta);
}

/* @first_ns: absolute on the monotonic clock if @abs, 0 disarms. */
static void tick_program(struct rq *rq, long first_ns, long period_ns, bool abs)
{
	pk_irq_timer_arm(rq->tick, first_ns, period_ns, abs);
}

/* The periodic tick again, and jiffies caught up.  Interrupts off. */
static void tick_restart(struct rq *rq)
{
	long period = 1000000000L / pk_machine_hz();

	pk_raw_lock(&rq->timer_lock);
	__atomic_store_n(&rq->tick_stopped, 0, __ATOMIC_RELAXED);
	rq->nohz_next_set = 0;
	pk_raw_unlock(&rq->timer_lock);
	rq->stats.tick_restarts++;
	pk_jiffies_advance();
	tick_program(rq, period, period, false);
}

/* tick_nohz_idle_exit(). */
static void nohz_idle_exit(struct rq *rq)
{
	unsigned long flags;

	if (!__atomic_load_n(&rq->tick_stopped, __ATOMIC_RELAXED))
		return;
	local_irq_save(flags);
	tick_restart(rq);
	local_irq_restore(flags);
}

/*
 * Should the tick stop for this sleep?  Not while RCU has callbacks here
 * or irq_work waits for the tick (the kernel's rcu_needs_cpu() and
 * irq_work_needs_cpu()), nor when the first timer is due within a tick.
 * Interrupts off.
 */
/* Kernel code's irq_work (linux/irq_work.h's label), if linked. */
extern bool pk_kernel_irq_work_needs_cpu(void) __attribute__((weak));

static bool tick_needed(unsigned long now, bool have_next, unsigned long next)
{
	if (!pk_nohz_enabled() || irq_work_needs_cpu())
		return true;
	if (pk_kernel_irq_work_needs_cpu && pk_kernel_irq_work_needs_cpu())
		return true;
	if (pk_rcu_hooks && pk_rcu_hooks->needs_cpu &&
	    pk_rcu_hooks->needs_cpu())
		return true;
	return have_next && (long)(next - now) <= 1;
}

/*
 * tick_nohz_idle_enter(): stop the periodic tick, or aim it at the first
 * timer.  Under timer_lock, so an enqueue either is seen here or sees
 * tick_stopped and kicks.  Interrupts off.
 */
static void nohz_idle_enter(struct rq *rq)
{
	unsigned long now = pk_jiffies(), next = 0;
	bool have_next, program;

	pk_raw_lock(&rq->timer_lock);
	have_next = pk_timers_next(rq, &next);
	if (tick_needed(now, have_next, next)) {
		pk_raw_unlock(&rq->timer_lock);
		if (rq->tick_stopped)
			tick_restart(rq);
		return;
	}
	program = !rq->tick_stopped || rq->nohz_next_set != have_next ||
		  (have_next && rq->nohz_next != next);
	if (!rq->tick_stopped)
		rq->stats.tick_stops++;
	__atomic_store_n(&rq->tick_stopped, 1, __ATOMIC_RELAXED);
	rq->nohz_next_set = have_next;
	rq->nohz_next = next;
	pk_raw_unlock(&rq->timer_lock);
	if (program)
		tick_program(rq, have_next ? pk_jiffy_ns(next) : 0, 0, true);
}

/* Something for this CPU: the futex word moved or work is queued. */
static bool idle_has_work(struct rq *rq, unsigned int seq)
{
	return __atomic_load_n(&rq->idle_seq, __ATOMIC_ACQUIRE) != seq ||
	       need_resched() ||
	       __atomic_load_n(&rq->wake_list, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&rq->nr_queued, __ATOMIC_RELAXED);
}

/* ct_cpuidle_enter()/exit(): RCU need not ask this CPU while it idles. */
static void rcu_idle_mark(bool enter)
{
	unsigned long flags;

	if (!pk_rcu_hooks || !pk_rcu_hooks->idle_eqs)
		return;
	local_irq_save(flags);
	pk_rcu_hooks->idle_eqs(enter);
	local_irq_restore(flags);
}

/* The host took the polling thread's CPU: back off, longer each time. */
static void poll_stolen(struct rq *rq, long now)
{
	long backoff = rq->poll_backoff_ns * 2;

	if (backoff < POLL_STEAL_BACKOFF_MIN_NS)
		backoff = POLL_STEAL_BACKOFF_MIN_NS;
	if (backoff > POLL_STEAL_BACKOFF_MAX_NS)
		backoff = POLL_STEAL_BACKOFF_MAX_NS;
	rq->poll_backoff_ns = backoff;
	rq->poll_ns = 0;
	rq->poll_off_until = now + backoff;
	rq->stats.poll_steals++;
}

/* A poll the host left alone: the next steal backs off less. */
static void poll_spared(struct rq *rq)
{
	rq->poll_backoff_ns /= 2;
}

/*
 * The haltpoll window: poll up to rq->poll_ns for the word to move
 * (wakers see rq->polling and skip the futex wake and the IPI, the
 * kernel's TIF_POLLING_NRFLAG).  True if a wake-up came while polling.
 * Polling is idle to RCU, as the kernel's poll state, which cpuidle
 * enters inside ct_cpuidle_enter(): a grace period counts this CPU
 * quiescent instead of interrupting the poll to ask.
 */
static bool idle_poll(struct rq *rq, unsigned int seq)
{
	long start, now;
	bool hit = false, stolen = false;

	if (!rq->poll_ns)
		return false;
	if (rq->poll_off_until) {
		if (pk_now_ns() < rq->poll_off_until)
			return false;
		rq->poll_off_until = 0;
	}
	/* Idle is task context and outside every reader. */
	if (pk_rcu_hooks && pk_rcu_hooks->idle)
		pk_rcu_hooks->idle();
	rcu_idle_mark(true);
	pk_store_mb(&rq->polling, 1);
	start = now = pk_now_ns();
	while (now - start < rq->poll_ns) {
		long prev = now;

		for (int i = 0; i < 64; i++) {
			if (idle_has_work(rq, seq)) {
				hit = true;
				goto out;
			}
			pk_cpu_relax();
		}
		now = pk_now_ns();
		/*
		 * The host took the CPU away mid-poll (steal): a waker that
		 * skipped our wake-up now waits for the host to give it back.
		 * Stop polling until sleeps say it would pay again.
		 */
		if (now - prev > POLL_STEAL_NS) {
			poll_stolen(rq, now);
			stolen = true;
			break;
		}
	}
out:
	if (!stolen)
		poll_spared(rq);
	/* Off first: a waker that still saw it on bumped the word before,
	 * and the futex compares the word. */
	pk_store_mb(&rq->polling, 0);
	rcu_idle_mark(false);
	now = pk_now_ns();
	rq->stats.idle_polls++;
	rq->stats.poll_hits += hit;
	rq->stats.poll_ns += (unsigned long)(now - start);
	return hit;
}

/*
 * After a host sleep of @slept_ns: a wake-up that came within the window's
 * ceiling says polling would have caught it, so grow; a long sleep says
 * polling was wasted, so shrink (the haltpoll governor's rule).
 */
static void poll_adjust(struct rq *rq, long slept_ns)
{
	if (slept_ns < poll_max_ns) {
		rq->poll_ns =
			rq->poll_ns ? rq->poll_ns * 2 : POLL_GROW_START_NS;
		if (rq->poll_ns > poll_max_ns)
			rq->poll_ns = poll_max_ns;
	} else if (slept_ns > 2 * poll_max_ns) {
		rq->poll_ns /= 2;
		if (rq->poll_ns < POLL_GROW_START_NS)
			rq->poll_ns = 0;
	}
}

/* Remote reschedule requests the skipped IPI would have folded in. */
static void fold_remote_resched(struct rq *rq)
{
	if (__atomic_load_n(&rq->resched_remote, __ATOMIC_RELAXED) &&
	    __atomic_exchange_n(&rq->resched_remote, 0, __ATOMIC_SEQ_CST))
		set_preempt_need_resched();
}

static void idle_sleep(struct rq *rq, unsigned int seq)
{
	unsigned long flags;
	long start;

	/* Idle is task context and outside every reader. */
	if (pk_rcu_hooks && pk_rcu_hooks->idle)
		pk_rcu_hooks->idle();
	local_irq_save(flags);
	pk_store_mb(&rq->idle_sleeping, 1);
	/*
	 * The first sleep of an idle period keeps the tick: most are shorter
	 * than a tick (a wake-up ping-pong), and stopping and restarting it
	 * costs two host calls.  The tick's return sends the loop round
	 * again, and the second sleep stops it (a guess in the spirit of the
	 * kernel's idle governor, which keeps the tick for short idles).
	 */
	if (rq->idle_ticked)
		nohz_idle_enter(rq);
	rq->idle_ticked = 1;
	/* RCU need not ask this CPU for quiescent states while it sleeps. */
	if (pk_rcu_hooks && pk_rcu_hooks->idle_eqs)
		pk_rcu_hooks->idle_eqs(true);
	local_irq_restore(flags);
	start = pk_now_ns();
	pk_host_futex_wait(&rq->idle_seq, seq, 0);
	rcu_idle_mark(false);
	pk_store_mb(&rq->idle_sleeping, 0);
	if (poll_max_ns)
		poll_adjust(rq, pk_now_ns() - start);
}

/*
 * The idle loop: wait in the host until something is runnable.  The futex
 * word closes the race between "nothing to do" and sleeping: a waker bumps
 * it before the futex wake; the tick and IPI signals interrupt the wait.
 */
void pk_idle_loop(struct rq *rq)
{
	while (!__atomic_load_n(&rq->stopping, __ATOMIC_ACQUIRE)) {
		unsigned int seq;
		unsigned long flags;

		/* Looks below before any sleep: kicks need no IPI (as after
		 * each switch here, and at boot too). */
		__atomic_store_n(&rq->in_idle, 1, __ATOMIC_RELAXED);
		seq = __atomic_load_n(&rq->idle_seq, __ATOMIC_ACQUIRE);
		fold_remote_resched(rq);
		/* A kick that found the loop polling or asleep was no IPI. */
		local_irq_save(flags);
		pk_ttwu_pending(rq);
		local_irq_restore(flags);
		if (need_resched() ||
		    __atomic_load_n(&rq->nr_queued, __ATOMIC_ACQUIRE) ||
		    pk_idle_balance(rq)) {
			nohz_idle_exit(rq);
			rq->idle_ticked = 0;
			schedule();
			continue;
		}
		/* Idle is task context: print what handlers deferred. */
		pk_report_flush_point();
		if (idle_poll(rq, seq))
			continue;
		idle_sleep(rq, seq);
	}
	nohz_idle_exit(rq);
}
