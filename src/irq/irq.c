// SPDX-License-Identifier: MIT
/*
 * Interrupt delivery: a virtual interrupt controller per CPU, real-time
 * signals directed at the CPU's thread, hardirq/NMI entry and exit, and the
 * lazy-disable protocol.
 *
 * Raise:   raised[irq]++, then set the line's bit in the CPU's pending
 *          bitmap; only the raise that finds the bitmap empty sends the
 *          signal (an APIC's edge), so signals never pile up.
 * Signal:  interrupts disabled in the interrupted code (depth != 0)?
 *          note pk_irq_soft_pending and return: the lines stay pending and
 *          no further signal comes until they are taken.  Otherwise enter
 *          hardirq context and dispatch.
 * Enable:  the edge that brings the depth to zero sees soft_pending and
 *          dispatches, in hardirq context, before it returns.
 * Dispatch: take the bitmap, and per line take raised[irq] (the number of
 *          raises this call covers; 0 means an earlier call covered them).
 *
 * A handler therefore never runs while the code it interrupts has
 * interrupts disabled, and every raise is accounted to exactly one call.
 *
 * Threaded handlers: a primary that returns IRQ_WAKE_THREAD sets its
 * action's thread_pending and wakes the action's thread, a task the
 * scheduler made through the thread ops; the thread takes the flag and runs
 * thread_fn, so raises while it runs make it run once more, never lost.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <preempt/bottom_half.h>
#include <preempt/debug.h>
#include <preempt/hardirq.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/tracepoint.h>

#include "../debug/report.h"
#include "../port/irqret.h"
#include "../port/sim.h"
#include "irq.h"

#define IRQ_MAX_SHARED 4
/*
 * Our handlers nested on one thread beyond this only note the interrupt:
 * the irq stack holds that many frames with room to spare.
 */
#define PK_IRQ_NEST_MAX 8

struct irq_action {
	irq_handler_t handler;	 /* NULL: not taking raises; published last */
	irq_handler_t thread_fn; /* run by the thread, in task context */
	void *dev_id;
	const char *name;
	unsigned long flags;
	unsigned int irq;
	/*
	 * Under desc->lock.  The slot stays claimed after its handler is
	 * cleared until its thread has exited, so a new request cannot
	 * change thread_fn and dev_id under a thread still running them.
	 */
	int claimed;
	int forced;	    /* rt: the request_irq() handler is thread_fn */
	void *thread;	    /* the scheduler's task, or NULL */
	int thread_pending; /* asked for by a primary, not yet taken */
};

struct irq_desc {
	pthread_mutex_t lock; /* request/free only, task context */
	int nmi;
	int in_progress; /* CPUs inside this line's handlers */
	struct irq_action action[IRQ_MAX_SHARED];
};

static struct irq_desc irq_descs[PK_NR_IRQS];
static struct pk_irq_cpu cpu_table[PK_NR_CPUS];
static pthread_mutex_t cpu_table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t irq_setup_once = PTHREAD_ONCE_INIT;
static pthread_key_t cpu_exit_key;

/* pk_irq_soft_pending: in the count layer's struct pk_cpu_tls. */
void (*pk_irq_return_hook)(const void *uctx);
bool (*pk_irq_return_wanted)(const void *uctx);
void (*pk_irq_exit_hook)(void *owner);
void (*pk_irq_user_return_hook)(void);
void (*pk_irq_rcu_hook)(void *owner, int delta);

static inline void irq_rcu_hook(struct pk_irq_cpu *c, int delta)
{
	void (*hook)(void *, int) =
		__atomic_load_n(&pk_irq_rcu_hook, __ATOMIC_RELAXED);

	if (hook && c->owner)
		hook(c->owner, delta);
}
__thread struct pk_irq_cpu *pk_this_irq_cpu;
__thread int pk_hardirq_config __attribute__((tls_model("initial-exec")));
static __thread unsigned int irq_coalesced;

/* Set once, never cleared: a late wake-up may still read it. */
static const struct pk_irq_thread_ops *thread_ops;
static int threads_on; /* new threads may be made (a machine runs) */

struct pk_irq_cpu *pk_irq_cpu(int cpu)
{
	if (cpu < 0 || cpu >= PK_NR_CPUS)
		return NULL;
	return &cpu_table[cpu];
}

int pk_irq_this_cpu(void)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;

	return c && pthread_equal(c->thread, pthread_self()) ? c->cpu : -1;
}

void pk_irq_cpu_set_owner(void *owner)
{
	if (pk_irq_this_cpu() >= 0)
		pk_this_irq_cpu->owner = owner;
}

void *pk_irq_cpu_owner(void)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;

	return c ? c->owner : NULL;
}

unsigned int pk_irq_coalesced(void)
{
	return irq_coalesced;
}

/* ---- entry and exit ---- */

void irq_enter(void)
{
	preempt_count_add(HARDIRQ_OFFSET);
}

void irq_exit(void)
{
	preempt_count_sub(HARDIRQ_OFFSET);
	if (!in_interrupt() && local_softirq_pending())
		pk_softirq_irq_exit(pk_this_irq_cpu);
}

static void report_irq_leak(unsigned int irq, const struct irq_action *a,
			    unsigned int before, unsigned int after)
{
	char sym[160];

	pk_warn_kind(PK_REPORT_IRQ,
		     "irq %u handler %s [%s] preempt leak: %08x -> %08x", irq,
		     pk_sym_str((unsigned long)a->handler, sym, sizeof(sym)),
		     a->name ? a->name : "?", before, after);
}

static void report_irq_enabled(unsigned int irq, const struct irq_action *a)
{
	char sym[160];

	pk_warn_kind(PK_REPORT_IRQ, "irq %u handler %s enabled interrupts", irq,
		     pk_sym_str((unsigned long)a->handler, sym, sizeof(sym)));
}

static void report_no_thread(unsigned int irq, const struct irq_action *a)
{
	pk_warn_kind(PK_REPORT_IRQ,
		     "IRQ %u device %s returned IRQ_WAKE_THREAD but no thread "
		     "function available.",
		     irq, a->name ? a->name : "?");
}

/*
 * The primary asked for the thread.  Called inside the line's in_progress
 * window, which free_irq() and the shutdown wait out before they stop the
 * thread: the task read here is alive until the primary returns.
 */
static void irq_wake_thread(unsigned int irq, struct irq_action *a)
{
	/* Sequentially consistent, against the stopper's exchange and its
	 * read of in_progress. */
	void *thread = __atomic_load_n(&a->thread, __ATOMIC_SEQ_CST);

	if (!thread) {
		/* Thread stopped at shutdown: only a thread_fn-less action
		 * asking is a driver bug. */
		if (!a->thread_fn && !in_nmi())
			report_no_thread(irq, a);
		return;
	}
	/* Flag first: a thread that just found none sleeps, then is woken. */
	pk_store_mb(&a->thread_pending, 1);
	__atomic_load_n(&thread_ops, __ATOMIC_ACQUIRE)->wake(thread);
}

/* One handler: it must leave the count and the interrupt state as found. */
static void run_action(unsigned int irq, struct irq_action *a,
		       irq_handler_t handler)
{
	unsigned int before = (unsigned int)preempt_count(), after;
	/* rt threads it unless it must stay hard (request_irq() below). */
	int outer = pk_hardirq_config_enter(!a->thread_fn &&
					    !(a->flags & IRQF_NO_THREAD));
	irqreturn_t ret;

	pk_trace(irq_entry, irq, a->name);
	ret = handler((int)irq, a->dev_id);
	pk_hardirq_config = outer;
	pk_trace(irq_exit, irq, (int)ret);
	if (ret == IRQ_WAKE_THREAD)
		irq_wake_thread(irq, a);
	if (unlikely(!irqs_disabled())) {
		report_irq_enabled(irq, a);
		__preempt_count_add(HARDIRQ_DISABLE_OFFSET);
	}
	after = (unsigned int)preempt_count();
	if (unlikely(after != before)) {
		report_irq_leak(irq, a, before, after);
		preempt_count_set((int)before);
	}
}

static void handle_line(struct pk_irq_cpu *c, unsigned int irq)
{
	struct irq_desc *desc = &irq_descs[irq];
	unsigned int n =
		__atomic_exchange_n(&c->raised[irq], 0, __ATOMIC_SEQ_CST);
	unsigned int outer = irq_coalesced; /* an NMI may nest in a handler */

	if (!n)
		return;
	__atomic_add_fetch(&desc->in_progress, 1, __ATOMIC_SEQ_CST);
	irq_coalesced = n;
	for (int i = 0; i < IRQ_MAX_SHARED; i++) {
		struct irq_action *a = &desc->action[i];
		irq_handler_t handler =
			__atomic_load_n(&a->handler, __ATOMIC_ACQUIRE);

		if (handler)
			run_action(irq, a, handler);
	}
	irq_coalesced = outer;
	__atomic_sub_fetch(&desc->in_progress, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&c->stats.raised, n, __ATOMIC_RELAXED);
	pk_stat_inc(c, handled);
}

static void handle_pending(struct pk_irq_cpu *c, uint64_t *pending)
{
	uint64_t bits;

	while ((bits = __atomic_exchange_n(pending, 0, __ATOMIC_SEQ_CST))) {
		while (bits) {
			handle_line(c, (unsigned int)__builtin_ctzll(bits));
			bits &= bits - 1;
		}
	}
}

/*
 * Entered with interrupts enabled in the interrupted code.  Interrupt entry
 * disables them (handlers run with irqs_disabled()); a signal that lands
 * meanwhile only notes soft_pending, which the loop picks up.
 */
static void irq_dispatch(struct pk_irq_cpu *c)
{
	irq_rcu_hook(c, 1);
	do {
		pk_irq_soft_pending = 0;
		__preempt_count_add(HARDIRQ_DISABLE_OFFSET);
		/* Interrupt entry is an irqs-off section, as the CPU's is. */
		if (CONFIG_TRACE_IRQFLAGS)
			pk_trace(irqs_off, _THIS_IP_);
		irq_enter();
		handle_pending(c, &c->pending);
		irq_exit();
		if (CONFIG_TRACE_IRQFLAGS)
			pk_trace(irqs_on, _THIS_IP_);
		__pk_word_and(~HARDIRQ_DISABLE_MASK);
		barrier();
	} while (pk_irq_soft_pending);
	irq_rcu_hook(c, -1);
}

void pk_irq_replay(void)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;

	pk_irq_soft_pending = 0;
	if (!c || !pthread_equal(c->thread, pthread_self()))
		return;
	pk_stat_inc(c, replayed);
	irq_dispatch(c);
	if (pk_irq_exit_hook && c->owner)
		pk_irq_exit_hook(c->owner);
	if (pk_irq_user_return_hook)
		pk_irq_user_return_hook();
	/* Back in task context (if the edge was): print what it raised. */
	pk_report_flush_point();
	if (pk_irq_return_hook)
		pk_irq_return_hook(NULL);
}

static struct pk_irq_cpu *signal_cpu(void)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;

	/* Never run handlers on a thread that is not the CPU's own. */
	if (!c || !pthread_equal(c->thread, pthread_self()))
		return NULL;
	return c;
}

/* Dispatches this thread is inside (a signal may nest in one's tail). */
static __thread int dispatch_depth;

/* Not inlined: the errno address is computed after any switch. */
static __attribute__((noinline)) void set_errno(int value)
{
	errno = value;
}

/* A POSIX timer of this CPU expired: its line is raised, overruns too. */
static void timer_raise(struct pk_irq_cpu *c, const siginfo_t *info)
{
	unsigned int irq = (unsigned int)info->si_value.sival_int;

	if (irq >= PK_NR_IRQS)
		return;
	__atomic_add_fetch(&c->raised[irq], 1U + (unsigned int)info->si_overrun,
			   __ATOMIC_SEQ_CST);
	__atomic_fetch_or(&c->pending, 1ULL << irq, __ATOMIC_SEQ_CST);
}

/* A simulated timer is its table index, kept apart from host timer ids. */
#define SIM_TIMER_BASE 0x51700000UL

static bool sim_timer(timer_t timer, int *id)
{
	uintptr_t v = (uintptr_t)timer;

	if (v < SIM_TIMER_BASE || v >= SIM_TIMER_BASE + 0x10000)
		return false;
	*id = (int)(v - SIM_TIMER_BASE);
	return true;
}

int pk_irq_timer_create(unsigned int irq, timer_t *timer)
{
	struct sigevent sev;

	if (irq >= PK_NR_IRQS || pk_irq_this_cpu() < 0)
		return -EINVAL;
	if (pk_sim_active()) {
		int id = pk_sim_timer_create(pk_this_irq_cpu, irq);

		if (id < 0)
			return id;
		*timer = (timer_t)(SIM_TIMER_BASE + (uintptr_t)id);
		return 0;
	}
	memset(&sev, 0, sizeof(sev));
	/* Directed at this thread, never at the process. */
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = PK_SIGIRQ;
	sev.sigev_value.sival_int = (int)irq;
	sev._sigev_un._tid = gettid();
	return timer_create(CLOCK_MONOTONIC, &sev, timer) ? -errno : 0;
}

int pk_irq_timer_arm(timer_t timer, long long first_ns, long long period_ns,
		     bool abs)
{
	struct itimerspec its = {0};
	int id;

	if (sim_timer(timer, &id)) {
		if (first_ns && !abs)
			first_ns += pk_clock_ns();
		pk_sim_timer_set(id, first_ns, period_ns);
		return 0;
	}
	its.it_value.tv_sec = first_ns / 1000000000L;
	its.it_value.tv_nsec = first_ns % 1000000000L;
	its.it_interval.tv_sec = period_ns / 1000000000L;
	its.it_interval.tv_nsec = period_ns % 1000000000L;
	return timer_settime(timer, abs ? TIMER_ABSTIME : 0, &its, NULL)
		       ? -errno
		       : 0;
}

void pk_irq_timer_delete(timer_t timer)
{
	int id;

	if (sim_timer(timer, &id))
		pk_sim_timer_delete(id);
	else
		timer_delete(timer);
}

int pk_irq_timer_start(unsigned int irq, long period_ns, timer_t *timer)
{
	int err;

	if (period_ns <= 0)
		return -EINVAL;
	err = pk_irq_timer_create(irq, timer);
	if (err)
		return err;
	err = pk_irq_timer_arm(*timer, period_ns, period_ns, false);
	if (err)
		pk_irq_timer_delete(*timer);
	return err;
}

/*
 * One resched signal queued per thread at most.  PK_SIGRESCHED is a
 * realtime signal, which the kernel queues once per send instead of
 * merging, and its handler does not block itself (it may switch tasks):
 * a backlog built up while interrupt handlers held it back would be
 * delivered as that many nested frames on the task stack.  About a hundred
 * of them overflowed a 256 KiB task stack under qemu-user, where handlers
 * are slow.  The one queued request reads need-resched when it runs, so
 * it stands for every request made meanwhile.
 */
static __thread int resched_queued __attribute__((tls_model("initial-exec")));

/*
 * The interrupted code is preemptible: interrupt return may switch it out.
 * Not here, on the irq stack, where the frame would stay behind for the
 * next interrupt to overwrite: PK_SIGRESCHED, blocked while this handler
 * runs, is delivered on the task stack as soon as this frame is gone.
 */
static void ask_resched(void)
{
	if (resched_queued)
		return;
	resched_queued = 1;
	tgkill(getpid(), gettid(), PK_SIGRESCHED);
}

/* Interrupt return resumes the task to preempt it (irqret.h), not a signal. */
static bool irq_return_redirects;

/* Called by the port on the task's stack after a redirected return. */
static void irq_return_from_redirect(void)
{
	int saved_errno = errno;

	/* errno as resched_signal() keeps it: the switch may change thread */
	if (pk_irq_return_hook)
		pk_irq_return_hook(NULL);
	set_errno(saved_errno);
}

void pk_irq_return_configure(int how)
{
	irq_return_redirects =
		how >= 0 && pk_port_irq_return_init(irq_return_from_redirect);
}

/*
 * Interrupt return owes the interrupted task a preemption check.  Where
 * the port can, the handler returns into the task's own context on its
 * stack, which switches there as the kernel's preempt_schedule_irq() does:
 * no second signal, but only when the check says so, here with the
 * interrupted context at hand.
 */
static void irq_return_preempt(struct pk_irq_cpu *c, void *uctx)
{
	bool (*wanted)(const void *) =
		__atomic_load_n(&pk_irq_return_wanted, __ATOMIC_RELAXED);

	if (!irq_return_redirects || !wanted) {
		pk_stat_inc(c, resched_signals);
		ask_resched();
	} else if (wanted(uctx)) {
		pk_stat_inc(c, return_redirects);
		pk_port_irq_return_redirect(uctx);
	}
}

static void irq_signal(int sig, siginfo_t *info, void *uctx)
{
	int saved_errno = errno;
	struct pk_irq_cpu *c = signal_cpu();

	(void)sig;
	(void)uctx;
	if (c) {
		pk_signal_enter();
		if (info->si_code == SI_TIMER)
			timer_raise(c, info);
		/* Too deep on the irq stack: the dispatch below takes it. */
		if (irqs_disabled() || pk_in_signal > PK_IRQ_NEST_MAX) {
			pk_irq_soft_pending = 1;
			pk_stat_inc(c, deferred);
		} else {
			dispatch_depth++;
			irq_dispatch(c);
			dispatch_depth--;
			if (pk_irq_exit_hook && c->owner)
				pk_irq_exit_hook(c->owner);
			if (pk_irq_user_return_hook && pk_in_signal == 1)
				pk_irq_user_return_hook();
			/*
			 * Not from inside another dispatch or another of our
			 * handlers (an NMI's tail): that one would resume
			 * elsewhere with its CPU's state cached.  Only a CPU
			 * with a runqueue (owner) has tasks to switch, and the
			 * hook switches only for an owed reschedule (or, under
			 * lazy, one it promotes itself): no signal otherwise.
			 */
			if (pk_irq_return_hook && pk_in_signal == 1 &&
			    c->owner && !preempt_count() &&
			    (test_preempt_need_resched() ||
			     preempt_model_lazy()))
				irq_return_preempt(c, uctx);
		}
		pk_signal_exit();
	}
	errno = saved_errno;
}

/*
 * Interrupt return, on the task stack: the interrupt frame is gone, this
 * one is the task's and goes with it if the hook switches it out.
 */
static void resched_signal(int sig, siginfo_t *info, void *uctx)
{
	int saved_errno = errno;

	(void)sig;
	(void)info;
	resched_queued = 0; /* delivered: the next request queues anew */
	/* Set up on the irq stack after all (an interrupt came in first and
	 * this one nested in it): switching here would leave the frame
	 * there.  Need-resched stays set for the next preemption point. */
	if (!signal_cpu() || !pk_irq_return_hook || pk_in_signal ||
	    pk_on_irq_stack()) {
		errno = saved_errno;
		return;
	}
	/*
	 * The hook may switch tasks; this task may come back on another
	 * thread.  errno is per task (saved and loaded at the switch): set
	 * it before, and after only through a fresh __errno_location().
	 */
	errno = saved_errno;
	pk_irq_return_hook(uctx);
	pk_irq_stack_fix_frame(uctx);
	set_errno(saved_errno);
}

static void nmi_signal(int sig, siginfo_t *info, void *uctx)
{
	int saved_errno = errno;
	struct pk_irq_cpu *c = signal_cpu();

	(void)sig;
	(void)info;
	(void)uctx;
	if (c) {
		pk_signal_enter();
		/* NMIs run with interrupts disabled, as a CPU enters them. */
		__preempt_count_add(HARDIRQ_DISABLE_OFFSET);
		irq_rcu_hook(c, 1);
		nmi_enter();
		handle_pending(c, &c->nmi_pending);
		nmi_exit();
		irq_rcu_hook(c, -1);
		pk_stat_inc(c, nmi);
		__preempt_count_sub(HARDIRQ_DISABLE_OFFSET);
		/* An interrupt deferred during the NMI is taken on its return.
		 */
		barrier();
		if (!irqs_disabled() && pk_irq_soft_pending)
			irq_dispatch(c);
		pk_signal_exit();
	}
	errno = saved_errno;
}

/* ---- CPUs ---- */

/*
 * Interrupts and NMIs on the CPU's irq stack (SA_ONSTACK); the resched
 * signal on the task stack, and held back while an interrupt handler runs
 * so that it comes after that frame is gone.
 */
static void install_handler(int sig, void (*fn)(int, siginfo_t *, void *),
			    bool on_irq_stack)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	/* No kernel mask otherwise: masking is soft, in the word.  The
	 * resched handler must not mask anything: it switches tasks, and
	 * the next task would run with the mask. */
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (on_irq_stack) {
		/*
		 * Not SA_NODEFER: the kernel holds the signal back while its
		 * own handler runs.  A realtime signal queued again and again
		 * (qemu-user queues every host expiry of a timer) would else
		 * be delivered nested, frame on frame, before any handler
		 * instruction ran, and overflow the irq stack.  Softirqs
		 * that irq exit runs let PK_SIGIRQ in again (softirq.c).
		 */
		sa.sa_flags = (sa.sa_flags & ~SA_NODEFER) | SA_ONSTACK;
		sigaddset(&sa.sa_mask, PK_SIGRESCHED);
	}
	if (sigaction(sig, &sa, NULL) != 0)
		BUG();
	pk_unwind_note_handler((void *)fn);
}

static void cpu_exit_destructor(void *arg)
{
	struct pk_irq_cpu *c = arg;

	/* The key's value is cleared before this runs: put it back so the
	 * unregistration finds its CPU. */
	pk_this_irq_cpu = c;
	pk_irq_cpu_unregister();
}

static void irq_setup(void)
{
	void *warm[2];

	for (int i = 0; i < PK_NR_IRQS; i++)
		pthread_mutex_init(&irq_descs[i].lock, NULL);
	pthread_key_create(&cpu_exit_key, cpu_exit_destructor);
	/* backtrace() loads libgcc's unwinder on first use: not in a signal. */
	backtrace(warm, 2);
	install_handler(PK_SIGIRQ, irq_signal, true);
	install_handler(PK_SIGNMI, nmi_signal, true);
	install_handler(PK_SIGRESCHED, resched_signal, false);
	pk_stack_guard_install();
}

static void unblock_irq_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, PK_SIGIRQ);
	sigaddset(&set, PK_SIGNMI);
	sigaddset(&set, PK_SIGRESCHED);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

static struct pk_irq_cpu *claim_cpu_slot(void)
{
	for (int i = 0; i < PK_NR_CPUS; i++) {
		struct pk_irq_cpu *c = &cpu_table[i];

		if (!__atomic_load_n(&c->online, __ATOMIC_ACQUIRE) &&
		    !c->ksoftirqd_stop) {
			/* Everything but users: a raiser of the old CPU may
			 * still be counted in (it backs off, seeing it
			 * offline). */
			size_t skip = offsetof(struct pk_irq_cpu, users);
			size_t rest = skip + sizeof(c->users);

			memset(c, 0, skip);
			memset((char *)c + rest, 0, sizeof(*c) - rest);
			c->cpu = i;
			return c;
		}
	}
	return NULL;
}

int pk_irq_cpu_register(void)
{
	struct pk_irq_cpu *c;

	if (pk_irq_this_cpu() >= 0)
		return pk_this_irq_cpu->cpu;
	pthread_once(&irq_setup_once, irq_setup);
	if (pk_irq_stack_on() != 0)
		return -ENOMEM;
	pthread_mutex_lock(&cpu_table_lock);
	c = claim_cpu_slot();
	if (!c) {
		pthread_mutex_unlock(&cpu_table_lock);
		pk_irq_stack_off();
		return -EBUSY;
	}
	c->thread = pthread_self();
	c->sim_id = pk_sim_self();
	if (pk_ksoftirqd_start(c) != 0) {
		pthread_mutex_unlock(&cpu_table_lock);
		pk_irq_stack_off();
		return -EAGAIN;
	}
	pk_this_irq_cpu = c;
	pthread_setspecific(cpu_exit_key, c);
	unblock_irq_signals();
	pk_store_mb(&c->online, 1);
	pthread_mutex_unlock(&cpu_table_lock);
	return c->cpu;
}

void pk_irq_cpu_unregister(void)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;

	if (pk_irq_this_cpu() < 0)
		return;
	might_sleep();
	pk_store_mb(&c->online, 0);
	/* A raiser past its online check still sends to this thread. */
	while (__atomic_load_n(&c->users, __ATOMIC_SEQ_CST))
		pk_host_yield();
	pthread_mutex_lock(&cpu_table_lock);
	c->ksoftirqd_stop = 1;
	pk_ksoftirqd_stop(c);
	c->ksoftirqd_stop = 0;
	pthread_setspecific(cpu_exit_key, NULL);
	pk_this_irq_cpu = NULL;
	pk_irq_soft_pending = 0;
	pthread_mutex_unlock(&cpu_table_lock);
	/* No signal comes here any more (no raiser is inside). */
	pk_irq_stack_off();
	pk_report_flush();
}

struct pk_irq_stats pk_irq_stats(int cpu)
{
	struct pk_irq_stats s = {0};
	struct pk_irq_cpu *c = pk_irq_cpu(cpu);

	if (c)
		memcpy(&s, &c->stats, sizeof(s));
	return s;
}

/* ---- lines ---- */

/* The kernel's irq_default_primary_handler(): the thread does the work. */
static irqreturn_t default_primary(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQ_WAKE_THREAD;
}

static int free_slot(struct irq_desc *desc, unsigned long flags, int nmi)
{
	int slot = -1, used = 0, shared = 1;

	for (int i = 0; i < IRQ_MAX_SHARED; i++) {
		struct irq_action *a = &desc->action[i];

		if (!a->claimed) {
			if (slot < 0)
				slot = i;
			continue;
		}
		used++;
		shared &= !!(a->flags & IRQF_SHARED);
	}
	if (used && (!shared || !(flags & IRQF_SHARED) || desc->nmi != nmi))
		return -1;
	return slot;
}

/*
 * Under desc->lock: make @a's thread.  A handler the rt model would thread
 * stays in hardirq context when no machine can run its thread.
 */
static int setup_thread(unsigned int irq, struct irq_action *a,
			irq_handler_t *handler)
{
	const struct pk_irq_thread_ops *ops;
	void *thread = NULL;
	int err = -ENODEV;

	ops = __atomic_load_n(&threads_on, __ATOMIC_ACQUIRE)
		      ? __atomic_load_n(&thread_ops, __ATOMIC_ACQUIRE)
		      : NULL;
	if (ops)
		err = ops->create(a, irq, a->name, &thread);
	if (err && a->forced && err == -ENODEV) {
		*handler = a->thread_fn;
		a->thread_fn = NULL;
		a->forced = 0;
		return 0;
	}
	if (err)
		return err;
	pk_store_mb(&a->thread, thread);
	if (!*handler)
		*handler = default_primary;
	return 0;
}

static int setup_irq(unsigned int irq, irq_handler_t handler,
		     irq_handler_t thread_fn, unsigned long flags,
		     const char *name, void *dev_id, int nmi)
{
	struct irq_desc *desc;
	struct irq_action *a;
	int slot, err = 0;

	if (irq >= PK_NR_IRQS || (!handler && !thread_fn) || (nmi && thread_fn))
		return -EINVAL;
	might_sleep();
	pthread_once(&irq_setup_once, irq_setup);
	desc = &irq_descs[irq];
	pthread_mutex_lock(&desc->lock);
	slot = free_slot(desc, flags, nmi);
	if (slot < 0) {
		pthread_mutex_unlock(&desc->lock);
		return -EBUSY;
	}
	a = &desc->action[slot];
	a->dev_id = dev_id;
	a->name = name;
	a->flags = flags;
	a->irq = irq;
	a->thread = NULL;
	a->thread_pending = 0;
	a->thread_fn = thread_fn;
	/* rt: threadirqs for all but the lines that must stay hard. */
	a->forced = !nmi && !thread_fn && preempt_model_rt() &&
		    !(flags & IRQF_NO_THREAD);
	if (a->forced) {
		a->thread_fn = handler;
		handler = NULL;
	}
	if (a->thread_fn)
		err = setup_thread(irq, a, &handler);
	if (!err) {
		a->claimed = 1;
		desc->nmi = nmi;
		__atomic_store_n(&a->handler, handler, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&desc->lock);
	return err;
}

int request_threaded_irq(unsigned int irq, irq_handler_t handler,
			 irq_handler_t thread_fn, unsigned long flags,
			 const char *name, void *dev_id)
{
	return setup_irq(irq, handler, thread_fn, flags, name, dev_id, 0);
}

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev_id)
{
	if (!handler)
		return -EINVAL;
	return setup_irq(irq, handler, NULL, flags, name, dev_id, 0);
}

int request_nmi(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev_id)
{
	if (!handler)
		return -EINVAL;
	return setup_irq(irq, handler, NULL, flags, name, dev_id, 1);
}

/* synchronize_irq(): no CPU may still be inside the line's primaries. */
static void synchronize_line(struct irq_desc *desc)
{
	while (__atomic_load_n(&desc->in_progress, __ATOMIC_SEQ_CST))
		pk_host_yield();
}

/*
 * Take @a's thread and stop it, once no primary can still be waking it.
 * Whoever takes the pointer stops it: free_irq() and the shutdown may race.
 */
static void stop_thread(struct irq_desc *desc, struct irq_action *a)
{
	void *thread = __atomic_exchange_n(&a->thread, NULL, __ATOMIC_SEQ_CST);

	if (!thread)
		return;
	synchronize_line(desc);
	thread_ops->stop(thread);
}

static const char *remove_irq(unsigned int irq, void *dev_id, int nmi)
{
	struct irq_action *found = NULL;
	struct irq_desc *desc;
	const char *name = NULL;

	if (irq >= PK_NR_IRQS)
		return NULL;
	might_sleep();
	desc = &irq_descs[irq];
	pthread_mutex_lock(&desc->lock);
	for (int i = 0; i < IRQ_MAX_SHARED && !found; i++) {
		struct irq_action *a = &desc->action[i];

		if (a->claimed && a->handler && a->dev_id == dev_id &&
		    desc->nmi == nmi) {
			found = a;
			name = a->name ? a->name : "";
			pk_store_mb(&a->handler, NULL);
		}
	}
	pthread_mutex_unlock(&desc->lock);
	WARN(!name, "Trying to free already-free IRQ %u", irq);
	synchronize_line(desc);
	if (!found)
		return NULL;
	/* Outside the lock: the thread may need this CPU to exit. */
	stop_thread(desc, found);
	pthread_mutex_lock(&desc->lock);
	found->thread_fn = NULL;
	found->thread_pending = 0;
	found->forced = 0;
	found->claimed = 0;
	pthread_mutex_unlock(&desc->lock);
	return name;
}

const char *free_irq(unsigned int irq, void *dev_id)
{
	return remove_irq(irq, dev_id, 0);
}

const char *free_nmi(unsigned int irq, void *dev_id)
{
	return remove_irq(irq, dev_id, 1);
}

/* ---- threads ---- */

/* At shutdown: no thread outlives the machine that runs it. */
static void stop_all_threads(void)
{
	for (unsigned int irq = 0; irq < PK_NR_IRQS; irq++) {
		struct irq_desc *desc = &irq_descs[irq];

		pthread_mutex_lock(&desc->lock);
		for (int i = 0; i < IRQ_MAX_SHARED; i++) {
			struct irq_action *a = &desc->action[i];

			if (!__atomic_load_n(&a->thread, __ATOMIC_SEQ_CST))
				continue;
			/* A forced handler goes back where rt took it from. */
			if (a->forced && a->handler) {
				__atomic_store_n(&a->handler, a->thread_fn,
						 __ATOMIC_RELEASE);
				a->forced = 0;
			}
			stop_thread(desc, a);
		}
		pthread_mutex_unlock(&desc->lock);
	}
}

void pk_irq_set_thread_ops(const struct pk_irq_thread_ops *ops)
{
	might_sleep();
	pthread_once(&irq_setup_once, irq_setup);
	if (ops) {
		__atomic_store_n(&thread_ops, ops, __ATOMIC_RELEASE);
		__atomic_store_n(&threads_on, 1, __ATOMIC_RELEASE);
		return;
	}
	/* Requests see threads_on under their line's lock: once it is off,
	 * the walk below finds every thread made. */
	pk_store_mb(&threads_on, 0);
	if (thread_ops)
		stop_all_threads();
}

bool pk_irq_thread_pending(void *action)
{
	struct irq_action *a = action;

	return __atomic_load_n(&a->thread_pending, __ATOMIC_SEQ_CST);
}

static void report_thread_leak(const struct irq_action *a, unsigned int before,
			       unsigned int after)
{
	char sym[160];

	pk_warn_kind(PK_REPORT_IRQ,
		     "irq %u thread function %s [%s] preempt leak: %08x -> "
		     "%08x",
		     a->irq,
		     pk_sym_str((unsigned long)a->thread_fn, sym, sizeof(sym)),
		     a->name ? a->name : "?", before, after);
}

bool pk_irq_thread_run(void *action)
{
	struct irq_action *a = action;
	unsigned int before, after;

	/* Taken before the call: a raise while it runs asks for another. */
	if (!__atomic_exchange_n(&a->thread_pending, 0, __ATOMIC_SEQ_CST))
		return false;
	before = (unsigned int)preempt_count();
	/*
	 * A forced-threaded handler runs bh-disabled, as the kernel's
	 * irq_forced_thread_fn() does: the softirqs it raises run here, at
	 * the enable, not after a wake-up of ksoftirqd.
	 */
	if (a->forced)
		local_bh_disable();
	a->thread_fn((int)a->irq, a->dev_id);
	if (a->forced)
		local_bh_enable();
	after = (unsigned int)preempt_count();
	if (unlikely(after != before)) {
		report_thread_leak(a, before, after);
		preempt_count_set((int)before);
	}
	return true;
}

static bool line_requested(struct irq_desc *desc)
{
	for (int i = 0; i < IRQ_MAX_SHARED; i++)
		if (__atomic_load_n(&desc->action[i].handler, __ATOMIC_ACQUIRE))
			return true;
	return false;
}

/*
 * Simulated: no signal.  A raise at this thread's CPU is taken at once,
 * as the signal to itself would be; another CPU takes it when the
 * simulation next gives it the machine (pk_irq_sim_take()).
 */
static void sim_raise(struct pk_irq_cpu *c)
{
	if (c == pk_this_irq_cpu && pthread_equal(c->thread, pthread_self()))
		pk_irq_sim_take();
	else
		pk_sim_kick(c->sim_id);
}

void pk_irq_sim_timer_fire(void *cookie, unsigned int irq)
{
	struct pk_irq_cpu *c = cookie;

	__atomic_add_fetch(&c->raised[irq], 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_or(&c->pending, 1ULL << irq, __ATOMIC_SEQ_CST);
	/* Its own CPU too: the clock may have moved inside its wait. */
	pk_sim_kick(c->sim_id);
}

/*
 * The simulation gave this CPU the machine (or passed a point on it):
 * what is pending is taken as the signals would have taken it.  An NMI
 * is a signal to this thread, delivered before tgkill() returns.
 */
void pk_irq_sim_take(void)
{
	struct pk_irq_cpu *c = pk_this_irq_cpu;

	if (!c || !pthread_equal(c->thread, pthread_self()))
		return;
	if (__atomic_load_n(&c->nmi_pending, __ATOMIC_SEQ_CST))
		tgkill(getpid(), gettid(), PK_SIGNMI);
	if (!__atomic_load_n(&c->pending, __ATOMIC_SEQ_CST))
		return;
	if (irqs_disabled() || dispatch_depth) {
		pk_irq_soft_pending = 1;
		return;
	}
	pk_sim_event(
		PK_SIM_EV_IRQ,
		__builtin_ctzll(__atomic_load_n(&c->pending, __ATOMIC_RELAXED)),
		NULL);
	pk_irq_replay();
}

int irq_raise(unsigned int irq, int cpu)
{
	struct pk_irq_cpu *c = pk_irq_cpu(cpu);
	struct irq_desc *desc;
	uint64_t *pending, old;
	int ret = 0;

	if (irq >= PK_NR_IRQS || !line_requested(&irq_descs[irq]))
		return -EINVAL;
	if (!c)
		return -ENODEV;
	desc = &irq_descs[irq];
	__atomic_add_fetch(&c->users, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&c->online, __ATOMIC_SEQ_CST)) {
		ret = -ENODEV;
		goto out;
	}
	pending = desc->nmi ? &c->nmi_pending : &c->pending;
	__atomic_add_fetch(&c->raised[irq], 1, __ATOMIC_SEQ_CST);
	old = __atomic_fetch_or(pending, 1ULL << irq, __ATOMIC_SEQ_CST);
	/*
	 * One signal carries every line pending at its delivery: a raise
	 * that finds another line pending rides on that one's signal.  Not
	 * a raise at this thread's own CPU, which is handled before it
	 * returns: the other raiser, on another thread, may not have sent
	 * its signal yet.  A signal that finds nothing left is harmless.
	 */
	if (pk_sim_active())
		sim_raise(c);
	else if (!old || pthread_equal(c->thread, pthread_self()))
		pthread_kill(c->thread, desc->nmi ? PK_SIGNMI : PK_SIGIRQ);
out:
	__atomic_sub_fetch(&c->users, 1, __ATOMIC_SEQ_CST);
	/* A raise at this thread's own CPU has been handled by now. */
	pk_report_flush_point();
	return ret;
}
