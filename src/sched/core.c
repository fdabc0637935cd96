// SPDX-License-Identifier: MIT
/*
 * The scheduler core: runqueues, schedule(), wake-ups and the preemption
 * entry points of every model.
 *
 * Each vCPU has a runqueue: a FIFO list per real-time priority (0..99, a
 * bitmap finds the most urgent) above one round-robin list for the normal
 * class.  curr is not on the lists; a task preempted goes back (real-time
 * to the head of its list, as the kernel does, normal to the tail).
 *
 * The word is per vCPU (x86's per-CPU preempt_count): every switch happens
 * with the same count (schedule's preempt_disable plus the rq lock, the
 * kernel's FORK_PREEMPT_COUNT, and interrupts disabled), so it needs no
 * saving, and neither do the debug addresses of its open sections.  What
 * is per task and lives in the vCPU thread's TLS while the task runs
 * (errno, the migrate-disable and non-block depths, the rt bh state) is
 * saved and loaded at the switch.
 *
 * A task may resume on another vCPU thread: after pk_context_switch() the
 * code re-reads everything per-CPU (finish_task_switch() takes this_rq()
 * afresh); nothing computed from the thread pointer before the switch is
 * used after it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <preempt/bug.h>
#include <preempt/debug.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/lockdep.h>
#include <preempt/preempt.h>
#include <preempt/sched.h>
#include <preempt/tracepoint.h>

#include "../debug/report.h"
#include "../irq/irq.h"
#include "../port/switch.h"
#include "sched_internal.h"
#include "../port/sim.h"

/*
 * Without a machine, and on threads that are no vCPU: the thread's own
 * task, counted like any other, and per-thread counters.  Its memory
 * comes from mmap(), not malloc(), because the first get_current() may
 * be in an interrupt handler; the thread's reference goes at its exit.
 */
static __thread struct task_struct *host_task;
static __thread struct task_struct host_task_fallback; /* mmap failed */
static __thread struct pk_sched_stats host_stats;
static pthread_key_t host_task_key;

static void host_task_exit(void *p)
{
	host_task = NULL;
	put_task_struct(p);
}

__attribute__((constructor)) static void host_task_key_init(void)
{
	/* Made first thing, its index is small: setting it never allocates. */
	if (pthread_key_create(&host_task_key, host_task_exit))
		BUG();
}

static struct task_struct *host_task_alloc(void)
{
	struct task_struct *p = mmap(NULL, sizeof(*p), PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		p = &host_task_fallback;
		p->pk_refs = 1 << 30; /* the thread's TLS: never freed */
	} else {
		p->pk_refs = 1; /* the thread's, dropped at its exit */
		pthread_setspecific(host_task_key, p);
	}
	p->pid = (int)gettid();
	pk_current_comm(p->comm);
	p->prio = DEFAULT_PRIO;
	p->pk_normal_prio = DEFAULT_PRIO;
	p->cpu = -1;
	INIT_LIST_HEAD(&p->pk_run_node);
	return p;
}

void pk_host_task_free(struct task_struct *p)
{
	if (p != &host_task_fallback)
		munmap(p, sizeof(*p));
}

struct task_struct *get_current(void)
{
	struct task_struct *p = pk_current;

	if (p)
		return p;
	p = host_task;
	if (unlikely(!p))
		host_task = p = host_task_alloc();
	return p;
}

static struct pk_sched_stats *this_stats(void)
{
	struct rq *rq = pk_this_rq;

	return rq ? &rq->stats : &host_stats;
}

struct pk_sched_stats pk_sched_stats(void)
{
	return *this_stats();
}

struct pk_sched_stats pk_sched_cpu_stats(int cpu)
{
	struct pk_sched_stats s = {0};
	struct rq *rq = pk_cpu_rq(cpu);

	if (rq)
		memcpy(&s, &rq->stats, sizeof(s));
	return s;
}

/*
 * Past this a raw lock's holder is taken to have lost its host CPU: a
 * runqueue lock is held for a few microseconds at most, a host time slice
 * lasts milliseconds.
 */
#define RAW_LOCK_SPIN_NS 50000L

/*
 * The contended half of pk_raw_lock(), after its first try failed.  It
 * waits reading the word, so the holder's line is not pulled away by
 * exchanges, and yields the host CPU only once the wait outlasts any
 * hold: a yield is a system call whose exit delivers pending signals,
 * dearer than the holds it would skip (bench_idle part 2's ping-pong).
 */
void pk_raw_lock_slow(int *lock)
{
	long start = 0;

	do {
		for (int i = 0;
		     i < 64 && __atomic_load_n(lock, __ATOMIC_RELAXED); i++)
			pk_cpu_relax();
		if (!__atomic_load_n(lock, __ATOMIC_RELAXED))
			continue;
		if (!start)
			start = pk_now_ns();
		else if (pk_now_ns() - start > RAW_LOCK_SPIN_NS)
			pk_host_yield();
	} while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE));
}

/* ---- runqueue lists ---- */

static bool is_rt(const struct task_struct *p)
{
	return p->prio < MAX_RT_PRIO;
}

static void enqueue_task(struct rq *rq, struct task_struct *p, bool head)
{
	if (is_rt(p)) {
		struct list_head *q = &rq->rt_queue[p->prio];

		head ? list_add(&p->pk_run_node, q)
		     : list_add_tail(&p->pk_run_node, q);
		rq->rt_bitmap[p->prio / 64] |= 1ULL << (p->prio % 64);
	} else {
		list_add_tail(&p->pk_run_node, &rq->fair_queue);
	}
	rq->nr_queued++;
	p->pk_on_rq = 1;
}

static void dequeue_task(struct rq *rq, struct task_struct *p)
{
	list_del_init(&p->pk_run_node);
	if (is_rt(p) && list_empty(&rq->rt_queue[p->prio]))
		rq->rt_bitmap[p->prio / 64] &= ~(1ULL << (p->prio % 64));
	rq->nr_queued--;
}

/*
 * enqueue_task(prev) at the tail, then dequeue_task() of the queue's head,
 * in one step, for a normal @prev going back on a non-empty normal queue
 * with no real-time task waiting (the caller checks): the head is the
 * task to run, the count of queued tasks does not change.  With the head
 * alone on the queue, @prev simply takes its place.
 */
static __always_inline struct task_struct *rotate_fair(struct rq *rq,
						       struct task_struct *prev)
{
	struct list_head *head = &rq->fair_queue, *first = head->next;
	struct list_head *node = &prev->pk_run_node;

	/*
	 * Unlink the head, then add @prev at the tail: the tail is read
	 * after the unlink, so with the head alone on the queue it is the
	 * list head itself and no case is apart.  The barriers keep each
	 * pair of stores two plain moves: GCC's vectorizer would pair them
	 * through an SSE register, three instructions for two.
	 */
	first->next->prev = head;
	head->next = first->next;
	node->next = head;
	barrier();
	node->prev = head->prev;
	head->prev->next = node;
	head->prev = node;
	first->next = first;
	barrier();
	first->prev = first;
	/* prev's pk_on_rq is 1 already: a running task's stays set (only
	 * a sleep clears it, and a sleeping task is not preempted). */
	return list_entry(first, struct task_struct, pk_run_node);
}

/* The most urgent queued task, or NULL. */
static struct task_struct *peek_next(struct rq *rq)
{
	/* One test when no real-time task waits, the common case. */
	if (rq->rt_bitmap[0] | rq->rt_bitmap[1]) {
		int w = rq->rt_bitmap[0] ? 0 : 1;
		int prio = w * 64 + __builtin_ctzll(rq->rt_bitmap[w]);

		return list_first_entry(&rq->rt_queue[prio], struct task_struct,
					pk_run_node);
	}
	if (!list_empty(&rq->fair_queue))
		return list_first_entry(&rq->fair_queue, struct task_struct,
					pk_run_node);
	return NULL;
}

/* ---- need-resched, local and remote ---- */

void pk_resched_curr(struct rq *rq, bool lazy)
{
	/* The lazy model only defers what the normal class wants. */
	lazy = lazy && preempt_model_lazy() && rq->curr != rq->idle;
	if (rq == pk_this_rq) {
		/* The idle loop restarts its futex wait after a signal
		 * (SA_RESTART): a changed word makes the wait return. */
		if (rq->curr == rq->idle)
			__atomic_add_fetch(&rq->idle_seq, 1, __ATOMIC_SEQ_CST);
		if (lazy)
			rq->lazy_resched = 1;
		else
			set_preempt_need_resched();
		return;
	}
	/* Another CPU's word is its own: ask it to fold the bit in itself. */
	if (lazy)
		__atomic_compare_exchange_n(&rq->resched_remote, &(int){0}, 1,
					    false, __ATOMIC_SEQ_CST,
					    __ATOMIC_RELAXED);
	else
		pk_store_mb(&rq->resched_remote, 2);
	__atomic_add_fetch(&rq->idle_seq, 1, __ATOMIC_SEQ_CST);
	/* A polling idle loop sees the word move; a sleeping one looks at
	 * the queue and the flag when the futex returns: no IPI needed. */
	if (__atomic_load_n(&rq->polling, __ATOMIC_SEQ_CST))
		return;
	pk_host_futex_wake(&rq->idle_seq, 1);
	if (!__atomic_load_n(&rq->idle_sleeping, __ATOMIC_SEQ_CST) &&
	    !__atomic_load_n(&rq->in_idle, __ATOMIC_SEQ_CST))
		irq_raise(PK_RESCHED_IRQ, rq->irq_cpu);
}

/* The reschedule IPI, in hardirq context on the target. */
void pk_resched_ipi(struct rq *rq)
{
	int want;

	pk_ttwu_pending(rq);
	want = __atomic_exchange_n(&rq->resched_remote, 0, __ATOMIC_SEQ_CST);

	if (want == 2 || (want == 1 && !preempt_model_lazy()))
		set_preempt_need_resched();
	else if (want == 1)
		rq->lazy_resched = 1;
}

/* Should @p, just made runnable on @rq, take the CPU from curr? */
static void check_preempt_curr(struct rq *rq, struct task_struct *p)
{
	struct task_struct *curr = rq->curr;

	if (curr == rq->idle)
		pk_resched_curr(rq, false);
	else if (p->prio < curr->prio)
		pk_resched_curr(rq, !is_rt(p));
}

/* ---- the switch ---- */

static __always_inline void save_task_tls(struct rq *rq, struct task_struct *p)
{
	p->pk_saved_errno = *rq->errno_loc;
	p->pk_saved_vars = pk_cpu_tls.vars;
}

static __always_inline void load_task_tls(struct rq *rq, struct task_struct *p)
{
	*rq->errno_loc = p->pk_saved_errno;
	pk_cpu_tls.vars = p->pk_saved_vars;
}

/*
 * Hooks change only while no machine runs, so the switch reads the chain
 * without a lock.
 */
static struct pk_switch_hook *switch_hooks;

/*
 * Anything to run at a switch: the rcu layer's table (linked in or not,
 * fixed for the process) or a registered hook.  One test on the switch's
 * fast path instead of one per kind.
 */
static bool switch_hooks_any;

static void switch_hooks_update(void)
{
	switch_hooks_any = pk_rcu_hooks != NULL || switch_hooks != NULL;
}

/*
 * Also at every boot: a constructor may register a hook, or boot a
 * machine, before this file's constructors ran.
 */
void pk_switch_hooks_boot(void)
{
	switch_hooks_update();
}

int pk_switch_hook_register(struct pk_switch_hook *hook)
{
	if (pk_machine_running())
		return -EBUSY;
	hook->pk_next = switch_hooks;
	switch_hooks = hook;
	switch_hooks_update();
	return 0;
}

int pk_switch_hook_unregister(struct pk_switch_hook *hook)
{
	if (pk_machine_running())
		return -EBUSY;
	for (struct pk_switch_hook **pp = &switch_hooks; *pp;
	     pp = &(*pp)->pk_next) {
		if (*pp == hook) {
			*pp = hook->pk_next;
			switch_hooks_update();
			return 0;
		}
	}
	return -ENOENT;
}

/* Not cold: RCU's hooks run at every switch of a program that links it. */
static void run_sched_out(struct task_struct *prev, struct task_struct *next)
{
	if (pk_rcu_hooks)
		pk_rcu_hooks->sched_out(prev, next);
	for (struct pk_switch_hook *h = switch_hooks; h; h = h->pk_next)
		if (h->sched_out)
			h->sched_out(prev, next);
}

static void run_sched_in(struct task_struct *prev, struct task_struct *next)
{
	if (pk_rcu_hooks)
		pk_rcu_hooks->sched_in(prev, next);
	for (struct pk_switch_hook *h = switch_hooks; h; h = h->pk_next)
		if (h->sched_in)
			h->sched_in(prev, next);
}

/*
 * After the switch, in the task that now runs, on whatever vCPU it landed:
 * let the previous task go (it may be dead, or wanted elsewhere) and drop
 * the rq lock and the interrupt-disable the switch held.
 */
static __attribute__((noinline)) void
finish_task_switch_slow(struct rq *rq, struct task_struct *prev,
			unsigned int extra)
{
	bool dead = prev && prev->__state == TASK_DEAD;

	if (unlikely(switch_hooks_any))
		run_sched_in(prev, rq->curr);
	rq->prev = 0;
	if (prev)
		__atomic_store_n(&prev->pk_on_cpu, 0, __ATOMIC_RELEASE);
	pk_raw_unlock(&rq->lock);
	__preempt_count_sub(PREEMPT_LOCK_OFFSET);
	local_irq_enable();
	if (dead)
		put_task_struct(prev);
	if (extra)
		__preempt_count_sub(extra);
}

/*
 * @extra: count of the caller's own to drop as well (yield()'s
 * preempt_disable()), in the same sub as the rq lock's, after the enable:
 * interrupts replayed there run with preemption off either way.
 */
static __always_inline void __finish_task_switch(unsigned int extra)
{
	/* Read afresh: this task may have resumed on another vCPU thread. */
	struct rq *rq = pk_task_tls(pk_this_rq);
	uintptr_t prev_slow = rq->prev;
	struct task_struct *prev = (struct task_struct *)prev_slow;

	/* Hooks to run or a dead task to let go: the rare case, apart.  The
	 * switcher knew, and said so in rq->prev.  rq->prev is left as it
	 * is: only the next switch's finish reads it, and that switch sets
	 * it first. */
	if (unlikely(prev_slow & PK_PREV_SLOW)) {
		/* A tail call: the fast path's frame saves nothing. */
		finish_task_switch_slow(
			rq, (struct task_struct *)(prev_slow & ~PK_PREV_SLOW),
			extra);
		return;
	}
	__atomic_store_n(&prev->pk_on_cpu, 0, __ATOMIC_RELEASE);
	pk_raw_unlock(&rq->lock);
	if (extra && !CONFIG_TRACE_IRQFLAGS) {
		/* The depth is 1 (the add that took the lock set it): one sub
		 * enables and gives back both counts.  Pending lines run after
		 * it, as after any enabling edge in a preemptible task. */
		__pk_word_sub(HARDIRQ_DISABLE_OFFSET + PREEMPT_LOCK_OFFSET +
			      extra);
		barrier();
		if (unlikely(__pk_irq_pending()))
			pk_irq_replay();
		pk_sim_hook(PK_SIM_IRQ_ON);
		return;
	}
	if (extra) {
		local_irq_enable();
		__preempt_count_sub(PREEMPT_LOCK_OFFSET + extra);
		return;
	}
	__preempt_count_sub(PREEMPT_LOCK_OFFSET);
	local_irq_enable();
}

/* Out of line for a new task's first run (pk_schedule_tail()). */
static __attribute__((noinline)) void finish_task_switch(void)
{
	__finish_task_switch(0);
}

/* The first code a new task runs (the kernel's schedule_tail()). */
void pk_schedule_tail(void)
{
	finish_task_switch();
	/* FORK_PREEMPT_COUNT: the switch's own preempt_disable(). */
	preempt_enable();
}

static void report_schedule_atomic(struct task_struct *prev)
{
	struct pk_rbuf buf = {0};

	pk_rbuf_printf(&buf, "BUG: scheduling while atomic: %s/%d/0x%08x\n",
		       prev->comm, prev->pid, preempt_count());
	if (CONFIG_DEBUG_PREEMPT && pk_preempt_disable_ip) {
		pk_rbuf_printf(&buf, "Preemption disabled at:\n");
		pk_rbuf_ip_sym(&buf, pk_preempt_disable_ip);
	}
	pk_rbuf_backtrace(&buf);
	pk_report_emit(PK_REPORT_SCHED_ATOMIC, NULL, 0, &buf);
}

static void ttwu_pending_locked(struct rq *rq);

/*
 * The switch proper, rq lock held, @next chosen and not @prev.  Returns
 * the context that switched back to @prev, in the task that resumes: it
 * is a tail call of __schedule_preempt() and __schedule_sleep() (and of
 * their slow paths), so it returns straight into __schedule(), which
 * finishes it.  No frame of theirs lives across the switch, so the
 * switch's own register save is the only one.
 */
static __always_inline struct pk_context *
switch_to_next(struct rq *rq, struct task_struct *prev,
	       struct task_struct *next, bool hooks)
{
	/* No slice to refill: every task starts with one, and the tick
	 * refills it the moment it runs out (pk_sched_tick()). */
	rq->curr = next;
	__atomic_store_n(&rq->curr_prio, next->prio, __ATOMIC_RELAXED);
	/* The fast paths (!hooks) switch away from a live task, with no
	 * hooks to run: the finish's fast path. */
	rq->prev = (uintptr_t)prev |
		   (hooks && (switch_hooks_any || prev->__state == TASK_DEAD)
			    ? PK_PREV_SLOW
			    : 0);
	__atomic_store_n(&next->pk_on_cpu, 1, __ATOMIC_RELAXED);
	rq->stats.nr_switches++;
	if (hooks && unlikely(switch_hooks_any))
		run_sched_out(prev, next);
	save_task_tls(rq, prev);
	load_task_tls(rq, next);
	pk_current = next;
	return pk_context_switch(prev->pk_ctx, next->pk_ctx);
}

/*
 * Pick with the rq lock held, and switch.  Returns NULL when @prev keeps
 * the CPU (everything undone), else as switch_to_next().
 */
static __always_inline struct pk_context *__schedule_locked(struct rq *rq,
							    bool preempt)
{
	struct task_struct *prev = rq->curr, *next;

	/* A signal that the sleep admits ends it before it begins. */
	if (!preempt && prev->__state != TASK_RUNNING &&
	    signal_pending_state(prev->__state, prev))
		__atomic_store_n(&prev->__state, TASK_RUNNING,
				 __ATOMIC_RELAXED);
	/* Leaving idle, kicks need the IPI again: said before the look at
	 * the list below, which then sees any push whose kick skipped it. */
	if (prev == rq->idle)
		pk_store_mb(&rq->in_idle, 0);
	/* Wake-ups pushed here since the last kick: queue them now, without
	 * waiting for the IPI's signal (a host that is slow to deliver it
	 * would hold them back). */
	if (unlikely(__atomic_load_n(&rq->wake_list, __ATOMIC_RELAXED)))
		ttwu_pending_locked(rq);
	/* A dead task leaves for good, even if preempted on its way out. */
	if ((!preempt && prev->__state != TASK_RUNNING) ||
	    prev->__state == TASK_DEAD)
		prev->pk_on_rq = 0; /* going to sleep */
	else if (prev != rq->idle)
		enqueue_task(rq, prev, preempt && is_rt(prev));

	next = peek_next(rq);
	if (next) {
		dequeue_task(rq, next);
	} else {
		next = rq->idle;
		/* The idle task resumes in its loop, which looks first. */
		__atomic_store_n(&rq->in_idle, 1, __ATOMIC_RELAXED);
	}
	clear_preempt_need_resched();
	rq->lazy_resched = 0;

	if (next == prev) {
		pk_raw_unlock(&rq->lock);
		__preempt_count_sub(PREEMPT_LOCK_OFFSET);
		local_irq_enable();
		return NULL;
	}
	/* A queued task's cpu is already its queue's (every enqueue sets
	 * it first, so the fast paths leave it alone); the idle task's is
	 * set here too, to be sure. */
	next->cpu = rq->cpu;
	return switch_to_next(rq, prev, next, true);
}

/* The slow paths, out of line: they keep the fast paths free of calls,
 * so that those need no registers saved. */
static __attribute__((noinline)) struct pk_context *
__schedule_slow(struct rq *rq, bool preempt)
{
	return __schedule_locked(rq, preempt);
}

static __attribute__((noinline)) struct pk_context *
__schedule_contended(struct rq *rq, bool preempt)
{
	pk_raw_lock_slow(&rq->lock);
	return __schedule_locked(rq, preempt);
}

/* The switch with hooks to run (RCU linked in, say): they are calls. */
static __attribute__((noinline)) struct pk_context *
switch_to_next_hooked(struct rq *rq, struct task_struct *prev,
		      struct task_struct *next)
{
	return switch_to_next(rq, prev, next, true);
}

/*
 * The rq lock's first try, as pk_raw_lock()'s: a fetch-or of its one bit,
 * which x86 does in one lock bts whose carry is the answer (an exchange
 * needs the 1 in a register and a test of what it returns).
 */
static __always_inline bool rq_trylock(struct rq *rq)
{
	return !(__atomic_fetch_or(&rq->lock, 1, __ATOMIC_ACQUIRE) & 1);
}

/*
 * Every way in passed schedule_debug() (count zero, so interrupts on) and
 * then preempt_disable(): interrupts go off with no depth to read.
 * Without the irq tracer, one add takes them and the rq lock's preemption
 * count; preemption is off already, so before the lock.  True when the
 * lock is taken; else it is the caller's to take (contended).
 */
static __always_inline bool __schedule_enter(struct rq *rq)
{
	if (CONFIG_TRACE_IRQFLAGS) {
		__pk_irq_disable_from(0, _THIS_IP_);
		__preempt_count_add(PREEMPT_LOCK_OFFSET);
	} else {
		__pk_word_add(HARDIRQ_DISABLE_OFFSET + PREEMPT_LOCK_OFFSET);
	}
	return likely(rq_trylock(rq));
}

/*
 * Can a preempted or yielding @prev, a normal task, go to the back of the
 * normal queue and the queue's head run next?  Not when anything more
 * urgent is around (a real-time task, wake-ups to queue), nor when there is
 * no other normal task to run, nor for the idle task, which is never
 * queued.
 */
static __always_inline bool rotate_fair_ok(struct rq *rq,
					   struct task_struct *prev)
{
	/* Wake-ups and real-time tasks waiting: one test for both. */
	uint64_t urgent =
		(uintptr_t)__atomic_load_n(&rq->wake_list, __ATOMIC_RELAXED) |
		rq->rt_bitmap[0] | rq->rt_bitmap[1];

	return !(urgent || prev == rq->idle || is_rt(prev) ||
		 list_empty(&rq->fair_queue));
}

/*
 * A preemption or a yield: @prev stays runnable.  The usual case -- a
 * normal task, others of its class queued, no real-time task waiting,
 * nothing on the wake list -- rotates it into the queue and switches to
 * the head without a call (the switch hooks, when there are any, are one
 * tail call); anything else takes the full path.
 */
static __attribute__((noinline)) struct pk_context *__schedule_preempt(void)
{
	struct rq *rq = pk_this_rq;
	struct task_struct *prev, *next;

	if (unlikely(!__schedule_enter(rq)))
		return __schedule_contended(rq, true);
	prev = rq->curr;
	if (unlikely(prev->__state == TASK_DEAD || !rotate_fair_ok(rq, prev)))
		return __schedule_slow(rq, true);
	clear_preempt_need_resched();
	rq->lazy_resched = 0;
	/* The queue's head is another task: prev was not on the queue. */
	next = rotate_fair(rq, prev);
	if (unlikely(switch_hooks_any))
		return switch_to_next_hooked(rq, prev, next);
	return switch_to_next(rq, prev, next, false);
}

/* A sleep (schedule() with a state set), or a running task's schedule(). */
static __attribute__((noinline)) struct pk_context *__schedule_sleep(void)
{
	struct rq *rq = pk_this_rq;

	if (unlikely(!__schedule_enter(rq)))
		return __schedule_contended(rq, false);
	return __schedule_slow(rq, false);
}

/*
 * The kernel's __schedule(): pick the most urgent task and switch to it.
 * Entered with preempt_disable() done; @preempt: the task is being
 * preempted, so it stays runnable whatever its state says.
 */
static __always_inline void __schedule(bool preempt)
{
	if (preempt ? __schedule_preempt() : __schedule_sleep())
		finish_task_switch();
}

static void count_resched(enum pk_resched_kind kind)
{
	this_stats()->resched[kind]++;
}

/*
 * The kernel's schedule_debug(), on every way into the scheduler: may the
 * caller switch?  Atomic in task context: reported, count repaired, yes.
 * In interrupt context, no: the handler's frame, its count and the CPU's
 * softirq ownership only its own exit can undo; the task stays running,
 * so a sleep becomes a busy wait and the machine goes on.
 */
static bool schedule_debug(void)
{
	/* One test: the count includes the interrupt-disable depth. */
	if (likely(!preempt_count()))
		return true;
	report_schedule_atomic(current);
	if (!in_task()) {
		__set_current_state(TASK_RUNNING);
		return false;
	}
	/* The kernel's repair: the next task must not inherit the count. */
	preempt_count_set(0);
	return true;
}

/* A host thread's task: the host runs it; it sleeps on its state word. */
static void host_schedule(void)
{
	clear_preempt_need_resched();
	if (__atomic_load_n(&current->__state, __ATOMIC_SEQ_CST) ==
	    TASK_RUNNING)
		pk_host_yield();
	else
		pk_host_park(0);
}

/*
 * Park the calling host thread's task until a wake-up sets it running or
 * CLOCK_MONOTONIC reaches @deadline_ns (0: no deadline).  Its state word
 * is the futex: a wake-up between the caller's state change and the wait
 * changes the word, so the wait returns at once.  Returns false at the
 * deadline, with the task set running.
 */
bool pk_host_park(long long deadline_ns)
{
	struct task_struct *p = current;
	unsigned int state;

	while ((state = __atomic_load_n(&p->__state, __ATOMIC_SEQ_CST)) !=
	       TASK_RUNNING) {
		/* A signal sent before the state was set woke nobody. */
		if (signal_pending_state(state, p)) {
			__set_current_state(TASK_RUNNING);
			return true;
		}
		if (deadline_ns && deadline_ns <= pk_clock_ns()) {
			__set_current_state(TASK_RUNNING);
			return false;
		}
		pk_host_futex_wait(&p->__state, state, deadline_ns);
	}
	return true;
}

/* One entry for every way in: the check, then the switch loop. */
static void schedule_common(bool preempt)
{
	if (!schedule_debug())
		return;
	if (!pk_this_rq) {
		host_schedule();
		return;
	}
	do {
		preempt_disable();
		__schedule(preempt);
		preempt_enable_no_resched();
	} while (need_resched());
}

/*
 * A workqueue implementation's view of its workers sleeping and waking
 * (the kernel's sched_submit_work() / sched_update_worker()).  The
 * library's own workers go to workqueue.c; a program that brings its own
 * workqueue code (kernel/workqueue.c style) defines these two, and its
 * PF_WQ_WORKER tasks are reported to it.
 */
extern void wq_worker_sleeping(struct task_struct *task) __attribute__((weak));
extern void wq_worker_running(struct task_struct *task) __attribute__((weak));

static void worker_sleeping(struct task_struct *p)
{
	if (p->pk_worker)
		pk_wq_worker_sleeping(p);
	else if (wq_worker_sleeping)
		wq_worker_sleeping(p);
}

static void worker_running(struct task_struct *p)
{
	if (p->pk_worker)
		pk_wq_worker_running(p);
	else if (wq_worker_running)
		wq_worker_running(p);
}

void schedule(void)
{
	struct task_struct *p = pk_current;
	/* Not on the way out: do_task_dead() is no sleep, and the worker's
	 * pool may already have freed what pk_worker points to. */
	bool worker =
		p && (p->flags & (PF_WQ_WORKER | PF_EXITING)) == PF_WQ_WORKER &&
		in_task();

	/* Only a real sleep tells the pool: it may start another worker. */
	if (worker &&
	    __atomic_load_n(&p->__state, __ATOMIC_SEQ_CST) != TASK_RUNNING) {
		preempt_disable();
		worker_sleeping(p);
		preempt_enable_no_resched();
	}
	if (pk_rcu_hooks)
		pk_rcu_hooks->voluntary();
	schedule_common(false);
	if (worker)
		worker_running(p);
}

/*
 * The idle task is never preempted: it leaves through its own loop, which
 * restarts the tick and ends RCU's extended quiescent state first (the
 * kernel's idle task runs with preemption disabled).  Preempted at an
 * enabling edge inside idle_sleep(), a vCPU would run a task with its
 * tick stopped (no time slices: a queued task starves) and RCU told it is
 * idle.
 */
static bool running_idle(void)
{
	return pk_current == pk_this_rq->idle;
}

/* A reschedule from a preemption point of kind @kind. */
static void preempt_schedule_common(enum pk_resched_kind kind)
{
	if (pk_this_rq && running_idle())
		return; /* need-resched stays set: the idle loop sees it */
	count_resched(kind);
	if (!pk_this_rq) {
		clear_preempt_need_resched();
		return;
	}
	/* Traced, unlike the kernel's: the preempt tracer must see the
	 * switch's preempt-off section close in the task that resumes. */
	schedule_common(true);
}

void preempt_schedule(void)
{
	/* Under none and voluntary preempt_enable() is no preemption point. */
	if (!preempt_model_preemptible())
		return;
	if (likely(!preemptible()))
		return;
	/* Out of every preempt-disabled section: RCU may have asked for it. */
	if (pk_rcu_hooks) {
		pk_rcu_hooks->qs();
		/* Its wake-up may have rescheduled already, at its unlock. */
		if (!test_preempt_need_resched())
			return;
	}
	preempt_schedule_common(PK_RESCHED_PREEMPT_ENABLE);
}

void preempt_schedule_notrace(void)
{
	preempt_schedule();
}

int _cond_resched(void)
{
	pk_sim_lib_point(PK_SIM_COND_RESCHED);
	/* full, lazy and rt preempt by themselves: cond_resched() is empty. */
	if (preempt_model_preemptible())
		return 0;
	if (pk_rcu_hooks)
		pk_rcu_hooks->qs();
	if (!should_resched(0))
		return 0;
	preempt_schedule_common(PK_RESCHED_COND_RESCHED);
	return 1;
}

void might_resched(void)
{
	if (preempt_model_voluntary())
		_cond_resched();
}

/*
 * yield()'s way in without the irq tracer: preemption, interrupts and the
 * rq lock's count in one update.  schedule_debug() left the count at zero,
 * so the word holds nothing but the need-resched bit, which the switch
 * clears (every way through __schedule() does): on x86 one store of the
 * result, with need-resched cleared, a single instruction no signal
 * splits.  A handler that ran since the check left the count as it found
 * it, and a reschedule it asked for is the one this call serves; from the
 * store on, interrupts wait.  Elsewhere the word takes only atomic
 * read-modify-writes (<preempt/preempt.h>): the add, and the clear later.
 */
#if defined(__x86_64__) || defined(__i386__)
#define YIELD_WORD_STORE 1
#else
#define YIELD_WORD_STORE 0
#endif

static __always_inline void yield_enter_word(void)
{
#if YIELD_WORD_STORE
	__asm__ __volatile__("movl %1, %0"
			     : "=m"(pk_preempt_word)
			     : "i"(PREEMPT_ENABLED + PREEMPT_DISABLE_OFFSET +
				   HARDIRQ_DISABLE_OFFSET + PREEMPT_LOCK_OFFSET)
			     : "memory");
#else
	__pk_word_add(PREEMPT_DISABLE_OFFSET + HARDIRQ_DISABLE_OFFSET +
		      PREEMPT_LOCK_OFFSET);
#endif
}

/*
 * yield()'s __schedule(true), its usual case in yield()'s own frame: the
 * switch is a call, and the finish and preempt_enable_no_resched() follow
 * it inline, so no frame of __schedule_preempt() and no call of
 * finish_task_switch() is paid per switch.  Whatever way this task was
 * switched out, it comes back here with the count every switch leaves: the
 * preemption, the rq lock, interrupts off.  Without the irq tracer one add
 * takes all three; one sub after the enable gives back two.  @prev ran
 * yield() and set its own state running, so it is not dead (the dead test
 * of __schedule_preempt() is not needed).
 */
/*
 * What yield() does after its switch, and its rare cases: out of line and
 * reached by tail calls, so that nothing of yield()'s own lives across the
 * switch and it saves no register of its caller's (the port's switch
 * saves them all): the finish re-reads what it needs, as it must anyway
 * on a task that may have moved to another vCPU.
 */
static __attribute__((noinline)) void yield_finish(void)
{
	/* Switched: there is a switch to finish, no test of last; with it
	 * the preempt_enable_no_resched(). */
	__finish_task_switch(PREEMPT_DISABLE_OFFSET);
}

static __attribute__((noinline)) void yield_slow(struct rq *rq, bool contended)
{
	struct pk_context *last = contended ? __schedule_contended(rq, true)
					    : __schedule_slow(rq, true);

	if (last)
		finish_task_switch();
	preempt_enable_no_resched();
}

static __attribute__((noinline)) void yield_host(void)
{
	set_current_state(TASK_RUNNING);
	if (schedule_debug())
		pk_host_yield();
}

/* @hooks: the caller found hooks to run (constant once inlined). */
static __always_inline void yield_schedule(bool hooks)
{
	struct rq *rq;
	struct task_struct *prev, *next;

	if (CONFIG_TRACE_IRQFLAGS) {
		preempt_disable();
		/* After the disable: from here on no migration. */
		rq = pk_this_rq;
		if (unlikely(!__schedule_enter(rq)))
			return yield_slow(rq, true);
	} else {
		yield_enter_word();
		rq = pk_this_rq;
		if (unlikely(!rq_trylock(rq)))
			return yield_slow(rq, true);
	}
	prev = rq->curr;
	if (unlikely(!rotate_fair_ok(rq, prev)))
		return yield_slow(rq, false);
	if (CONFIG_TRACE_IRQFLAGS || !YIELD_WORD_STORE)
		clear_preempt_need_resched();
	rq->lazy_resched = 0;
	next = rotate_fair(rq, prev);
	if (hooks)
		switch_to_next_hooked(rq, prev, next);
	else
		switch_to_next(rq, prev, next, false);
	yield_finish();
}

/* preempt_count() != 0, on x86 one test of the word in place. */
static __always_inline bool yield_count_nonzero(void)
{
#if defined(__x86_64__) || defined(__i386__)
	bool nonzero;

	__asm__ __volatile__("testl %2, %1"
			     : "=@ccnz"(nonzero)
			     : "m"(pk_preempt_word),
			       "i"(~PREEMPT_NEED_RESCHED));
	return nonzero;
#else
	return preempt_count() != 0;
#endif
}

/* schedule_debug()'s report and repair, out of line: yield() tests the
 * count itself. */
static __attribute__((noinline)) void yield_atomic(void)
{
	if (schedule_debug())
		yield_schedule(false);
}

/*
 * The hooked path (RCU linked in, or a registered hook): the kernel's
 * yield() is a schedule(), so RCU hears of it as of one, before the
 * count's check as there (rcu_note_context_switch()): a deferred unlock
 * settles, and a switch inside a reader is reported.  Apart, so that the
 * plain path pays only the test that picks this one.
 */
static __attribute__((noinline)) void yield_hooked(void)
{
	if (pk_rcu_hooks)
		pk_rcu_hooks->voluntary();
	if (unlikely(yield_count_nonzero()) && !schedule_debug())
		return;
	yield_schedule(true);
}

void yield(void)
{
	if (!pk_this_rq)
		return yield_host();
	/* A vCPU always has its task at hand: no get_current() call.  A
	 * plain store, as __set_current_state(): the barrier of
	 * set_current_state() orders a sleep's state before its condition
	 * test, and there is no condition here; the rq lock orders the rest. */
	__atomic_store_n(&pk_current->__state, TASK_RUNNING, __ATOMIC_RELAXED);
	/* Hooks change only while no machine runs: one test picks the path. */
	if (unlikely(switch_hooks_any))
		return yield_hooked();
	/* Once, even with nothing else to run: no need-resched loop. */
	if (unlikely(yield_count_nonzero()))
		return yield_atomic();
	yield_schedule(false);
}

/*
 * Would interrupt return preempt the interrupted task?  The irq layer's
 * question, in the interrupt's signal handler or at a replay, with the
 * interrupted code's count.  @uctx: where the interrupt landed, NULL for a
 * replay at an enabling edge (a call of the task's own, like
 * preempt_enable()) or a return the handler already judged.
 */
static bool irq_return_wanted(const void *uctx)
{
	struct task_struct *curr = pk_current;

	if (!pk_this_rq || !curr || !preemptible())
		return false;
	/* Return to "user" code: preempt in every model, lazy flag too. */
	if (curr->pk_in_user && pk_this_rq->lazy_resched)
		set_preempt_need_resched();
	if (!need_resched())
		return false;
	if (!curr->pk_in_user && !preempt_model_preemptible())
		return false;
	if (uctx && !pk_safe_to_preempt(uctx, curr->pk_stack_top)) {
		pk_this_rq->stats.deferred_unsafe++;
		return false;
	}
	return true;
}

/*
 * Interrupt return (the kernel's irqentry_exit_cond_resched()), in the
 * task's context: after the handler, on the task's stack.
 */
static void irq_return_hook(const void *uctx)
{
	if (!irq_return_wanted(uctx))
		return;
	/* Outside every preempt-disabled section, as preempt_schedule(). */
	if (pk_rcu_hooks)
		pk_rcu_hooks->qs();
	preempt_schedule_common(PK_RESCHED_IRQ_RETURN);
}

/* Reports on a vCPU name the running task and the vCPU. */
static bool task_identity(int *pid, char comm[16], int *cpu)
{
	struct task_struct *p = pk_current;

	if (!pk_this_rq || !p)
		return false;
	*pid = p->pid;
	snprintf(comm, 16, "%s", p->comm);
	*cpu = pk_this_rq->cpu;
	return true;
}

bool (*pk_lockdep_user_hook)(struct task_struct *p);

/*
 * An interrupt returning to a task in user mode: the kernel's exit to user
 * mode checks the locks held (a handler may have leaked one).  Signal
 * context, the interrupted thread's task.
 */
static void irq_user_return(void)
{
	struct task_struct *p = pk_current ? pk_current : host_task;
	bool (*user_check)(struct task_struct *) =
		__atomic_load_n(&pk_lockdep_user_hook, __ATOMIC_RELAXED);

	if (p && p->pk_in_user && lockdep_depth(p) && user_check)
		user_check(p);
}

__attribute__((constructor)) static void install_irq_return_hook(void)
{
	pk_irq_user_return_hook = irq_user_return;
	pk_irq_return_hook = irq_return_hook;
	pk_irq_return_wanted = irq_return_wanted;
	pk_irq_exit_hook = pk_nohz_irq_exit;
	pk_irq_rcu_hook = pk_irq_rcu;
	pk_identity_hook = task_identity;
}

void enter_user(void)
{
	struct task_struct *p = current;
	bool (*user_check)(struct task_struct *) =
		__atomic_load_n(&pk_lockdep_user_hook, __ATOMIC_RELAXED);

	if (lockdep_depth(p) && user_check)
		user_check(p);
	p->pk_in_user = 1;
}

void exit_user(void)
{
	current->pk_in_user = 0;
}

/* ---- wake-ups ---- */

static struct rq *lock_task_rq(struct task_struct *p)
{
	for (;;) {
		struct rq *rq =
			pk_cpu_rq(__atomic_load_n(&p->cpu, __ATOMIC_ACQUIRE));

		pk_raw_lock(&rq->lock);
		if (rq->cpu == p->cpu)
			return rq;
		pk_raw_unlock(&rq->lock);
	}
}

/* Where a waking task goes: the least loaded CPU it may use. */
static int select_task_rq(struct task_struct *p)
{
	int best = -1, n = num_online_cpus();
	unsigned int best_load = ~0U;

	for (int i = 0; i < n; i++) {
		struct rq *rq = pk_cpu_rq((p->cpu + i) % n);
		unsigned int load;

		if (!(p->pk_cpus_allowed & (1ULL << rq->cpu)))
			continue;
		load = __atomic_load_n(&rq->nr_queued, __ATOMIC_RELAXED) +
		       (rq->curr != rq->idle);
		if (load < best_load) {
			best_load = load;
			best = rq->cpu;
		}
	}
	return best >= 0 ? best : p->cpu;
}

/* Claims the wake-up of @p in @state: a racing waker now sees TASK_RUNNING. */
static bool claim_wakeup(struct task_struct *p, unsigned int state)
{
	unsigned int s = __atomic_load_n(&p->__state, __ATOMIC_SEQ_CST);

	do {
		if (!(s & state))
			return false;
	} while (!__atomic_compare_exchange_n(&p->__state, &s, TASK_RUNNING,
					      false, __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST));
	return true;
}

/*
 * Host threads' wake-ups held back by a waker under a wait queue's lock
 * (preemption and interrupts off there): the futex wake is a host system
 * call, made once the lock is let go (the kernel's wake_q).  Set only with
 * the lock held, so the task cannot move to another thread meanwhile.
 */
static __thread struct pk_wake_q *host_wake_q;

/* Futex wakes of host threads made from a vCPU with preemption or
 * interrupts off (tests/sched/test_host_wake.c wants none). */
unsigned long pk_host_wakes_atomic;

static void host_futex_wake(unsigned int *word)
{
	if (pk_task_tls(pk_this_rq) && (preempt_count() || irqs_disabled()))
		__atomic_add_fetch(&pk_host_wakes_atomic, 1, __ATOMIC_RELAXED);
	pk_host_futex_wake(word, 1);
}

void pk_wake_q_start(struct pk_wake_q *q)
{
	q->nr = 0;
	pk_task_tls(host_wake_q) = q;
}

void pk_wake_q_stop(void)
{
	pk_task_tls(host_wake_q) = NULL;
}

/* The wakes held back; wherever the caller runs now (the words stay
 * valid futex addresses: a stale one is a spurious wake-up, allowed). */
void pk_wake_q_flush(struct pk_wake_q *q)
{
	for (int i = 0; i < q->nr; i++)
		host_futex_wake(q->word[i]);
}

/* A host thread's task: claim the wake-up on its state word, then wake it. */
static int host_wake(struct task_struct *p, unsigned int state)
{
	struct pk_wake_q *q;

	if (!claim_wakeup(p, state))
		return 0;
	q = pk_task_tls(host_wake_q);
	if (q && q->nr < PK_WAKE_Q_MAX) {
		q->word[q->nr++] = &p->__state;
		return 1;
	}
	host_futex_wake(&p->__state);
	return 1;
}

/*
 * Its switch-out may still be saving its registers on another vCPU,
 * whose host thread may be off the host CPU: spin a little, then yield.
 */
static void wait_off_cpu(struct task_struct *p)
{
	for (int spins = 0; __atomic_load_n(&p->pk_on_cpu, __ATOMIC_ACQUIRE);
	     spins++) {
		if (spins > 100)
			pk_host_yield();
		else
			pk_cpu_relax();
	}
}

/*
 * ---- the wake list (the kernel's ttwu_queue) ----
 *
 * A wake-up for another CPU pushes the task on that CPU's list without
 * taking its runqueue lock; the push that finds the list empty kicks the
 * CPU (one IPI for the batch), and the CPU queues the whole batch under
 * its own lock, with interrupts off.
 */
static int wake_list_mode; /* machine_config.wake_list */

void pk_wake_list_configure(int mode)
{
	__atomic_store_n(&wake_list_mode, mode, __ATOMIC_RELAXED);
}

/*
 * Does a wake-up of @p for @cpu go on its wake list?  Never for this CPU.
 * By default when @cpu runs its idle task, as the kernel's
 * ttwu_queue_cond() decides for CPUs that share a cache: an idle CPU
 * drains the list in its loop, while a busy one would take a signal per
 * batch where locking its runqueue costs the waker less.  But a real-time
 * @p that preempts the busy CPU's task owes it a signal either way (the
 * reschedule IPI): that one carries the batch, and the waker takes no
 * lock of the other CPU's (bench_idle, part 3).  The priority read is a
 * hint taken without that lock: a stale one only picks the other path.
 */
static bool use_wake_list(int cpu, const struct task_struct *p)
{
	int mode = __atomic_load_n(&wake_list_mode, __ATOMIC_RELAXED);
	struct rq *rq;

	if (mode < 0 || (pk_this_rq && cpu == pk_this_rq->cpu))
		return false;
	if (mode > 0)
		return true;
	rq = pk_cpu_rq(cpu);
	if (__atomic_load_n(&rq->curr, __ATOMIC_RELAXED) == rq->idle)
		return true;
	return is_rt(p) &&
	       p->prio < __atomic_load_n(&rq->curr_prio, __ATOMIC_RELAXED);
}

/* True if the list was empty: the caller owes the kick. */
static bool wake_list_push(struct rq *rq, struct task_struct *p)
{
	struct task_struct *head =
		__atomic_load_n(&rq->wake_list, __ATOMIC_RELAXED);

	do
		p->pk_wake_next = head;
	while (!__atomic_compare_exchange_n(&rq->wake_list, &head, p, true,
					    __ATOMIC_SEQ_CST,
					    __ATOMIC_RELAXED));
	return !head;
}

/* Kicks @rq's CPU for the wake list a push found empty. */
static void wake_list_kick(struct rq *rq)
{
	/* Bumped before the polling test: see idle_poll(). */
	__atomic_add_fetch(&rq->idle_seq, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&rq->polling, __ATOMIC_SEQ_CST))
		return;
	/*
	 * Asleep in the host: the futex.  In the idle task otherwise, on its
	 * way into the loop or round it, no IPI: the loop looks at the list
	 * and compares the word before any sleep (the word moved), and a
	 * switch away from idle looks after it clears in_idle.  A busy CPU
	 * gets the IPI.
	 */
	if (__atomic_load_n(&rq->idle_sleeping, __ATOMIC_SEQ_CST))
		pk_host_futex_wake(&rq->idle_seq, 1);
	else if (!__atomic_load_n(&rq->in_idle, __ATOMIC_SEQ_CST))
		irq_raise(PK_RESCHED_IRQ, rq->irq_cpu);
}

/*
 * Queue what other CPUs woke for @rq; on @rq's own CPU, interrupts off.
 * The list is last-pushed first: reversed, the batch queues in wake order.
 */
static void ttwu_pending_locked(struct rq *rq)
{
	struct task_struct *p, *next, *fifo = NULL;

	p = __atomic_exchange_n(&rq->wake_list, NULL, __ATOMIC_SEQ_CST);
	if (!p)
		return;
	rq->stats.wake_batches++;
	for (; p; p = next) {
		next = p->pk_wake_next;
		p->pk_wake_next = fifo;
		fifo = p;
	}
	for (p = fifo; p; p = next) {
		/* Read first: once queued it may run, sleep and be pushed
		 * again elsewhere. */
		next = p->pk_wake_next;
		rq->stats.wake_list_tasks++;
		enqueue_task(rq, p, false);
		pk_trace(sched_wakeup, p, rq->cpu);
		check_preempt_curr(rq, p);
	}
}

void pk_ttwu_pending(struct rq *rq)
{
	lockdep_assert_irqs_disabled();
	if (!__atomic_load_n(&rq->wake_list, __ATOMIC_RELAXED))
		return;
	pk_raw_lock(&rq->lock);
	ttwu_pending_locked(rq);
	pk_raw_unlock(&rq->lock);
}

/* Drops what try_to_wake_up() holds; returns @ret. */
static int ttwu_unlock(struct task_struct *p, unsigned long flags, int ret)
{
	pk_raw_unlock(&p->pk_wake_lock);
	preempt_enable_no_resched_notrace();
	local_irq_restore(flags);
	return ret;
}

/*
 * The wake-up is claimed by a compare-and-swap from a state it may wake
 * (claim_wakeup()), never by a plain store: the task changes its own
 * state without any lock, and may have gone on since the first check
 * (taken the sleep back, slept again in another state, or died).  A store
 * of TASK_RUNNING would undo that: a dead task queued again (issue 19: the
 * arm64 crash in pk_port_switch), or an uninterruptible sleep ended by a
 * wake-up for an interruptible one.
 */
static int try_to_wake_up(struct task_struct *p, unsigned int state)
{
	unsigned long flags;
	struct rq *rq;
	int cpu;

	if (!p->pk_ctx)
		return host_wake(p, state);
	local_irq_save(flags);
	preempt_disable_notrace();
	pk_raw_lock(&p->pk_wake_lock);
	if (!(__atomic_load_n(&p->__state, __ATOMIC_SEQ_CST) & state))
		return ttwu_unlock(p, flags, 0);
	/* Before the runqueue lock: a simulation may let the task run on. */
	pk_sim_lib_point(PK_SIM_LOCK);
	/*
	 * Still current (not asleep yet) or queued: it need only run on.
	 * Asked under the lock __schedule() reads the state under, so a task
	 * seen here on the runqueue does not sleep after the claim.
	 */
	if (__atomic_load_n(&p->pk_on_rq, __ATOMIC_SEQ_CST)) {
		int ret = -1;

		rq = lock_task_rq(p);
		if (p->pk_on_rq)
			ret = claim_wakeup(p, state);
		pk_raw_unlock(&rq->lock);
		if (ret >= 0)
			return ttwu_unlock(p, flags, ret);
	}
	/* Off its CPU, only wakers (on its wake lock) change its state. */
	wait_off_cpu(p);
	if (!claim_wakeup(p, state))
		return ttwu_unlock(p, flags, 0);
	cpu = (p->__state & TASK_NEW) || p->pk_saved_vars.migrate_disable
		      ? p->cpu
		      : select_task_rq(p);
	if (use_wake_list(cpu, p)) {
		bool kick;

		rq = pk_cpu_rq(cpu);
		/* Where a lock_task_rq() looks for it while in flight. */
		__atomic_store_n(&p->cpu, cpu, __ATOMIC_RELEASE);
		kick = wake_list_push(rq, p);
		pk_raw_unlock(&p->pk_wake_lock);
		local_irq_restore(flags);
		preempt_enable_no_resched();
		/*
		 * The kick is a host system call: made with preemption and
		 * interrupts as the caller had them (issue 19, target 8),
		 * and a reschedule owed meanwhile is taken after it.
		 */
		if (kick)
			wake_list_kick(rq);
		preempt_check_resched();
		return 1;
	}
	rq = pk_cpu_rq(cpu);
	pk_raw_lock(&rq->lock);
	p->cpu = cpu;
	enqueue_task(rq, p, false);
	pk_trace(sched_wakeup, p, cpu);
	check_preempt_curr(rq, p);
	pk_raw_unlock(&rq->lock);
	pk_raw_unlock(&p->pk_wake_lock);
	local_irq_restore(flags);
	preempt_enable();
	pk_sim_lib_point(PK_SIM_WAKE);
	return 1;
}

int wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL | TASK_NEW);
}

int wake_up_state(struct task_struct *p, unsigned int state)
{
	return try_to_wake_up(p, state);
}

/* ---- idle balancing ---- */

/* A queued task of @src that may move to @cpu, or NULL. */
static struct task_struct *find_movable(struct rq *src, int cpu)
{
	struct task_struct *p, *n;

	list_for_each_entry_safe(
		p, n, &src->fair_queue,
		pk_run_node) if ((p->pk_cpus_allowed & (1ULL << cpu)) &&
				 !p->pk_saved_vars.migrate_disable &&
				 !__atomic_load_n(&p->pk_on_cpu,
						  __ATOMIC_ACQUIRE)) return p;
	for (int prio = 0; prio < MAX_RT_PRIO; prio++)
		list_for_each_entry_safe(
			p, n, &src->rt_queue[prio],
			pk_run_node) if ((p->pk_cpus_allowed & (1ULL << cpu)) &&
					 !p->pk_saved_vars.migrate_disable &&
					 !__atomic_load_n(
						 &p->pk_on_cpu,
						 __ATOMIC_ACQUIRE)) return p;
	return NULL;
}

/*
 * An idle CPU pulls a waiting task from a busy one (the kernel's
 * newidle balance), respecting affinity and migrate_disable().  Only
 * trylocks on the other runqueue, so two idle CPUs never deadlock.
 */
bool pk_idle_balance(struct rq *rq)
{
	struct task_struct *p = NULL;
	unsigned long flags;

	for (int i = 1; i < num_online_cpus() && !p; i++) {
		struct rq *src = pk_cpu_rq((rq->cpu + i) % num_online_cpus());

		if (!__atomic_load_n(&src->nr_queued, __ATOMIC_ACQUIRE))
			continue;
		local_irq_save(flags);
		if (!__atomic_exchange_n(&src->lock, 1, __ATOMIC_ACQUIRE)) {
			p = find_movable(src, rq->cpu);
			if (p)
				dequeue_task(src, p);
			pk_raw_unlock(&src->lock);
		}
		local_irq_restore(flags);
	}
	if (!p)
		return false;
	local_irq_save(flags);
	pk_raw_lock(&rq->lock);
	p->cpu = rq->cpu;
	enqueue_task(rq, p, false);
	set_preempt_need_resched();
	pk_raw_unlock(&rq->lock);
	local_irq_restore(flags);
	return true;
}

/* ---- the tick ---- */

/* Tasks wait here while a CPU idles: wake it, it pulls one. */
static void kick_idle_cpu(struct rq *busy)
{
	for (int i = 1; i < num_online_cpus(); i++) {
		struct rq *rq = pk_cpu_rq((busy->cpu + i) % num_online_cpus());

		if (__atomic_load_n(&rq->curr, __ATOMIC_ACQUIRE) == rq->idle) {
			__atomic_add_fetch(&rq->idle_seq, 1, __ATOMIC_SEQ_CST);
			pk_host_futex_wake(&rq->idle_seq, 1);
			return;
		}
	}
}

bool pk_need_resched_lazy(void)
{
	struct rq *rq = pk_this_rq;

	return rq && __atomic_load_n(&rq->lazy_resched, __ATOMIC_RELAXED);
}

/*
 * A program's own irq_work_tick() in plain C, if it defines one; kernel
 * code's (linux/irq_work.h labels it pk_kernel_irq_work_tick) is the
 * kernel side's or a program's own kernel/irq_work.c.
 */
extern void irq_work_tick(void) __attribute__((weak));
extern void pk_kernel_irq_work_tick(void) __attribute__((weak));

/* A program's kernel/workqueue.c: its worker ran through this tick. */
extern void wq_worker_tick(struct task_struct *task) __attribute__((weak));

/*
 * Run time at the tick's grain, then the workqueue's look at a worker of a
 * program's kernel/workqueue.c (the library's own have pk_worker): one
 * that runs long is CPU-intensive there, and its pool starts another.
 */
static void account_tick(struct rq *rq, struct task_struct *curr)
{
	if (curr == rq->idle)
		return;
	curr->se.sum_exec_runtime += (uint64_t)(1000000000L / pk_machine_hz());
	if (wq_worker_tick && !curr->pk_worker &&
	    (curr->flags & (PF_WQ_WORKER | PF_EXITING)) == PF_WQ_WORKER)
		wq_worker_tick(curr);
}

void pk_sched_tick(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	struct task_struct *next;

	account_tick(rq, curr);

	/* update_process_times()'s order: lazy irq_work, then timers. */
	pk_irq_work_tick();
	if (irq_work_tick)
		irq_work_tick();
	if (pk_kernel_irq_work_tick)
		pk_kernel_irq_work_tick();

	if (pk_timers_due(rq))
		raise_timer_softirq(TIMER_SOFTIRQ);
	if (pk_rcu_hooks)
		pk_rcu_hooks->tick();
	if (__atomic_load_n(&rq->nr_queued, __ATOMIC_ACQUIRE))
		kick_idle_cpu(rq);
	pk_raw_lock(&rq->lock);
	/* Lazy: what the normal class asked for is due by now. */
	if (rq->lazy_resched) {
		rq->lazy_resched = 0;
		set_preempt_need_resched();
	}
	if (curr != rq->idle && curr->policy != SCHED_FIFO &&
	    --curr->pk_slice <= 0) {
		curr->pk_slice = curr->policy == SCHED_RR ? PK_RR_SLICE_TICKS
							  : PK_SLICE_TICKS;
		next = peek_next(rq);
		if (next && next->prio <= curr->prio)
			pk_resched_curr(rq, !is_rt(curr));
	}
	pk_raw_unlock(&rq->lock);
}

/* ---- priorities and affinity ---- */

int pk_sched_setscheduler(struct task_struct *p, int policy, int rt_prio)
{
	if (policy == SCHED_NORMAL)
		rt_prio = 0;
	else if (policy != SCHED_FIFO && policy != SCHED_RR)
		return -EINVAL;
	else if (rt_prio < 1 || rt_prio > MAX_RT_PRIO - 1)
		return -EINVAL;
	/* Takes effect the next time it is queued; callers set it up front. */
	p->policy = policy;
	p->prio = policy == SCHED_NORMAL ? DEFAULT_PRIO
					 : MAX_RT_PRIO - 1 - rt_prio;
	p->pk_normal_prio = p->prio;
	p->pk_slice = policy == SCHED_RR ? PK_RR_SLICE_TICKS : PK_SLICE_TICKS;
	return 0;
}

void pk_sched_set_prio(struct task_struct *p, int prio)
{
	unsigned long flags;
	struct rq *rq;

	/* Without a machine, or a thread's own pseudo-task: nothing queued. */
	if (!pk_machine_running() || !p->pk_ctx) {
		p->prio = prio;
		return;
	}
	local_irq_save(flags);
	preempt_disable_notrace();
	/*
	 * Runnable but neither queued nor running: a wake-up or a pull is
	 * moving it between runqueues and will queue it by its prio.  Wait
	 * for that, or the prio would change under the enqueue.
	 */
	for (;;) {
		rq = lock_task_rq(p);
		if (p == rq->curr || p == rq->idle ||
		    !list_empty(&p->pk_run_node) ||
		    __atomic_load_n(&p->__state, __ATOMIC_ACQUIRE) !=
			    TASK_RUNNING)
			break;
		pk_raw_unlock(&rq->lock);
		/* It may be on this CPU's own wake list, whose IPI waits
		 * for interrupts on. */
		if (pk_this_rq)
			pk_ttwu_pending(pk_this_rq);
		pk_cpu_relax();
	}
	if (p != rq->curr && !list_empty(&p->pk_run_node)) {
		/* Queued: move it to the list of its new priority. */
		dequeue_task(rq, p);
		p->prio = prio;
		enqueue_task(rq, p, false);
		check_preempt_curr(rq, p);
	} else {
		bool worse = prio > p->prio;
		struct task_struct *next;

		p->prio = prio;
		next = peek_next(rq);
		/* Running and unboosted below a waiter: give the CPU up. */
		if (p == rq->curr && worse && next && next->prio < prio)
			pk_resched_curr(rq, false);
	}
	pk_raw_unlock(&rq->lock);
	local_irq_restore(flags);
	preempt_enable();
}

void sched_set_fifo(struct task_struct *p)
{
	pk_sched_setscheduler(p, SCHED_FIFO, MAX_RT_PRIO / 2);
}

void sched_set_fifo_low(struct task_struct *p)
{
	pk_sched_setscheduler(p, SCHED_FIFO, 1);
}

void sched_set_normal(struct task_struct *p, int nice)
{
	(void)nice; /* one normal class, round-robin: nice is not modelled */
	pk_sched_setscheduler(p, SCHED_NORMAL, 0);
}

int set_cpus_allowed_ptr(struct task_struct *p, cpumask_t mask)
{
	int n = num_online_cpus();
	cpumask_t online = n >= 64 ? ~0ULL : (1ULL << n) - 1;

	if (!(mask & online))
		return -EINVAL;
	__atomic_store_n(&p->pk_cpus_allowed, mask, __ATOMIC_RELAXED);
	/* A running task moves at its next wake-up. */
	return 0;
}

void kthread_bind(struct task_struct *k, int cpu)
{
	if (WARN_ON(!(k->__state & TASK_NEW)))
		return;
	k->cpu = cpu;
	k->pk_cpus_allowed = 1ULL << cpu;
}

/* ---- CPU numbers ---- */

static __thread int host_cpu = -1;
static int nr_host_cpus;

int raw_smp_processor_id(void)
{
	struct rq *rq = pk_this_rq;

	if (rq)
		return rq->cpu;
	/* Without a machine, each thread is its own CPU. */
	if (host_cpu < 0)
		host_cpu =
			__atomic_fetch_add(&nr_host_cpus, 1, __ATOMIC_RELAXED);
	return host_cpu;
}

void pk_check_preemption_disabled(const char *what)
{
	struct task_struct *p = current;
	char comm[16], sym[160];

	if (likely(preempt_count() || irqs_disabled() ||
		   pk_migrate_disable_count || !pk_this_rq))
		return;
	/* Pinned to one CPU: it cannot move either. */
	if (!(p->pk_cpus_allowed & (p->pk_cpus_allowed - 1)))
		return;
	if (!pk_ratelimit_ok(PK_REPORT_WARN))
		return;
	snprintf(comm, sizeof(comm), "%s", p->comm);
	pk_warn_kind(PK_REPORT_WARN,
		     "BUG: using %s() in preemptible [%08x] code: %s/%d\n"
		     "caller is %s",
		     what, preempt_count(), comm, p->pid,
		     pk_sym_str((unsigned long)__builtin_return_address(0), sym,
				sizeof(sym)));
}
