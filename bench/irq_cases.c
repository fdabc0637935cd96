// SPDX-License-Identifier: MIT
/*
 * The irq layer's hot paths in loops, each beside what it stands in for,
 * compiled with the debug checks off as a user compiles against the
 * headers (bench/CMakeLists.txt passes CONFIG_DEBUG_PREEMPT=0 and
 * CONFIG_DEBUG_ATOMIC_SLEEP=0; CONFIG_TRACE_IRQFLAGS follows them).
 *
 * Masking:  local_irq_save()+local_irq_restore(), the lazy pair, against
 *           pthread_sigmask() blocking PK_SIGIRQ and setting the old mask
 *           back, the pair it replaces.
 * Bottom halves: local_bh_disable()+local_bh_enable(), nothing pending.
 * Delivery: irq_raise() at the calling thread's own CPU, a full round
 *           trip (pending bit, pthread_kill(), the signal, hardirq entry,
 *           the handler, exit), against a bare SA_SIGINFO handler on
 *           another real-time signal sent with pthread_kill(pthread_self()).
 *           A signal a thread sends itself is delivered before the
 *           tgkill() syscall returns, so every iteration is one whole trip.
 * Replay:   the raise made with interrupts disabled: the signal finds the
 *           depth non-zero and returns, local_irq_restore() runs the line.
 *
 * Every loop that raises or signals counts what its handler saw and
 * compares it with what it sent; bench_irq_verify() checks the totals
 * against the CPU's own pk_irq_stats().
 */
#if !defined(CONFIG_DEBUG_PREEMPT) || CONFIG_DEBUG_PREEMPT ||                  \
	!defined(CONFIG_DEBUG_ATOMIC_SLEEP) || CONFIG_DEBUG_ATOMIC_SLEEP
#define BENCH_MISCONFIGURED 1
#else
#define BENCH_MISCONFIGURED 0
#endif
_Static_assert(!BENCH_MISCONFIGURED,
	       "compile with -DCONFIG_DEBUG_PREEMPT=0 "
	       "-DCONFIG_DEBUG_ATOMIC_SLEEP=0 (see bench/CMakeLists.txt)");

#include <pthread.h>
#include <signal.h>
#include <string.h>

#include <preempt/bottom_half.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/preempt.h>

#include "irq_cases.h"

#if defined(__has_attribute) && __has_attribute(__noclone__)
#define BENCH_LOOP static __attribute__((__noinline__, __noclone__)) void
#else
#define BENCH_LOOP static __attribute__((__noinline__)) void
#endif

/* The line the delivery cases raise, and the bare signal's offset. */
#define BENCH_IRQ_LINE 7
#define BENCH_BARE_SIGNAL_OFFSET 5 /* SIGRTMIN + 5: PK_SIGIRQ is + 2 */

static int bench_cpu = -1;
static int bare_signal_nr;

/* What the handlers saw. */
static volatile unsigned long irq_calls, bare_calls;

/* What the loops sent, and the loops whose handlers saw something else. */
static struct {
	unsigned long direct, replayed, bare;
	unsigned long bad_loops, bad_returns;
} sent;

static struct pk_irq_stats stats_at_setup;

static irqreturn_t bench_irq_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	irq_calls++;
	return IRQ_HANDLED;
}

static void bare_signal_handler(int sig, siginfo_t *info, void *uctx)
{
	(void)sig;
	(void)info;
	(void)uctx;
	bare_calls++;
}

static void account(unsigned long *total, long iters, unsigned long seen,
		    int err)
{
	*total += (unsigned long)iters;
	if (seen != (unsigned long)iters)
		sent.bad_loops++;
	if (err)
		sent.bad_returns++;
}

/* The lazy pair (the count layer's "local_irq_save+restore", again). */
BENCH_LOOP bench_irq_lazy_pair(long iters)
{
	for (long i = 0; i < iters; i++) {
		unsigned long flags;

		local_irq_save(flags);
		local_irq_restore(flags);
	}
}

/* The real way to keep a signal out for a while: two syscalls. */
BENCH_LOOP bench_irq_sigmask_pair(long iters)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, PK_SIGIRQ);
	for (long i = 0; i < iters; i++) {
		pthread_sigmask(SIG_BLOCK, &block, &old);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
}

/* Out of line in the library; nothing pending, so no softirq runs. */
BENCH_LOOP bench_bh_pair(long iters)
{
	for (long i = 0; i < iters; i++) {
		local_bh_disable();
		local_bh_enable();
	}
}

BENCH_LOOP bench_signal_bare(long iters)
{
	pthread_t self = pthread_self();
	unsigned long before = bare_calls;
	int sig = bare_signal_nr, err = 0;

	for (long i = 0; i < iters; i++)
		err |= pthread_kill(self, sig);
	account(&sent.bare, iters, bare_calls - before, err);
}

BENCH_LOOP bench_irq_delivered(long iters)
{
	unsigned long before = irq_calls;
	int cpu = bench_cpu, err = 0;

	for (long i = 0; i < iters; i++)
		err |= irq_raise(BENCH_IRQ_LINE, cpu);
	account(&sent.direct, iters, irq_calls - before, err);
}

BENCH_LOOP bench_irq_replayed(long iters)
{
	unsigned long before = irq_calls;
	int cpu = bench_cpu, err = 0;

	for (long i = 0; i < iters; i++) {
		unsigned long flags;

		local_irq_save(flags);
		err |= irq_raise(BENCH_IRQ_LINE, cpu);
		local_irq_restore(flags);
	}
	account(&sent.replayed, iters, irq_calls - before, err);
}

int bench_irq_setup(void)
{
	struct sigaction sa;
	int err;

	bench_cpu = pk_irq_cpu_register();
	if (bench_cpu < 0) {
		fprintf(stderr, "bench: pk_irq_cpu_register: %s\n",
			strerror(-bench_cpu));
		return -1;
	}
	err = request_irq(BENCH_IRQ_LINE, bench_irq_handler, 0, "bench",
			  (void *)&irq_calls);
	if (err) {
		fprintf(stderr, "bench: request_irq(%d): %s\n", BENCH_IRQ_LINE,
			strerror(-err));
		return -1;
	}
	/* The library's own flags: no kernel mask change on entry. */
	bare_signal_nr = SIGRTMIN + BENCH_BARE_SIGNAL_OFFSET;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = bare_signal_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(bare_signal_nr, &sa, NULL)) {
		perror("bench: sigaction");
		return -1;
	}
	stats_at_setup = pk_irq_stats(bench_cpu);
	return 0;
}

int bench_irq_verify(FILE *out)
{
	struct pk_irq_stats now = pk_irq_stats(bench_cpu);
	unsigned long raises = sent.direct + sent.replayed;
	unsigned long handled = now.handled - stats_at_setup.handled;
	unsigned long raised = now.raised - stats_at_setup.raised;
	unsigned long deferred = now.deferred - stats_at_setup.deferred;
	unsigned long replayed = now.replayed - stats_at_setup.replayed;
	int ok = !sent.bad_loops && !sent.bad_returns && irq_calls == raises &&
		 handled == raises && raised == raises &&
		 deferred == sent.replayed && replayed == sent.replayed &&
		 bare_calls == sent.bare;

	fprintf(out,
		"delivery: %lu irq_raise() -> %lu handler calls (pk_irq_stats: "
		"handled %lu, raised %lu, deferred %lu, replayed %lu; "
		"%lu raised with irqs off); %lu pthread_kill() -> %lu bare "
		"handler calls; %s\n",
		raises, (unsigned long)irq_calls, handled, raised, deferred,
		replayed, sent.replayed, sent.bare, (unsigned long)bare_calls,
		ok ? "every one delivered once" : "MISMATCH");
	if (sent.bad_loops || sent.bad_returns)
		fprintf(out,
			"delivery: %lu loops saw another count than they sent, "
			"%lu had failed calls\n",
			sent.bad_loops, sent.bad_returns);
	return ok ? 0 : -1;
}

#define ENTRY(label, fn_, ref_, signals_)                                      \
	{                                                                      \
		.name = label, .debug = 0, .symbol = #fn_, .fn = fn_,          \
		.ref = #ref_, .signals = signals_,                             \
	}

const struct bench_case bench_cases_irq[] = {
	ENTRY("local_irq_save+restore", bench_irq_lazy_pair,
	      bench_irq_lazy_pair, 0),
	ENTRY("pthread_sigmask block+setmask", bench_irq_sigmask_pair,
	      bench_irq_lazy_pair, 0),
	ENTRY("local_bh_disable+enable", bench_bh_pair,
	      bench_preempt_pair_nodebug, 0),
	ENTRY("bare signal: pthread_kill(self)", bench_signal_bare,
	      bench_signal_bare, 1),
	ENTRY("irq_raise(self): delivered", bench_irq_delivered,
	      bench_signal_bare, 1),
	ENTRY("irq_raise(self) irqs off: replay", bench_irq_replayed,
	      bench_signal_bare, 1),
	{.name = NULL},
};
