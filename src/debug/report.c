// SPDX-License-Identifier: MIT
/*
 * The report machinery: formatting, rate limiting, the hook, taint and
 * panic_on_warn.  Every check in the debug layer ends here.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "../port/sim.h"

static pk_report_hook_t report_hook;
static void *report_hook_arg;
static int panic_on_warn = -1; /* -1: not yet read from the environment */
static unsigned long nr_reports;
static bool tainted;
static unsigned long last_report_ns[PK_REPORT_NR];

/* Bumped by pk_debug_ratelimit_reset(); once-only checks compare it. */
unsigned int pk_debug_generation;

static const char *const kind_names[PK_REPORT_NR] = {
	[PK_REPORT_WARN] = "warn",
	[PK_REPORT_BUG] = "bug",
	[PK_REPORT_MIGHT_SLEEP] = "might_sleep",
	[PK_REPORT_CANT_SLEEP] = "cant_sleep",
	[PK_REPORT_CANT_MIGRATE] = "cant_migrate",
	[PK_REPORT_PREEMPT_COUNT] = "preempt_count",
	[PK_REPORT_SCHED_ATOMIC] = "sched_atomic",
	[PK_REPORT_IRQ] = "irq",
	[PK_REPORT_SOFTIRQ] = "softirq",
	[PK_REPORT_RCU] = "rcu",
	[PK_REPORT_RCU_STALL] = "rcu_stall",
	[PK_REPORT_LOCKDEP] = "lockdep",
	[PK_REPORT_BLOCKING] = "blocking",
};

const char *pk_report_kind_str(enum pk_report_kind kind)
{
	if ((unsigned int)kind >= PK_REPORT_NR)
		return "unknown";
	return kind_names[kind];
}

void pk_rbuf_printf(struct pk_rbuf *buf, const char *fmt, ...)
{
	size_t room = sizeof(buf->text) - buf->len;
	va_list ap;
	int n;

	if (room <= 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf->text + buf->len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		buf->len += (size_t)n < room ? (size_t)n : room - 1;
}

static unsigned long now_ns(void)
{
	return (unsigned long)pk_clock_ns();
}

bool pk_ratelimit_ok(enum pk_report_kind kind)
{
	unsigned long now = now_ns();
	unsigned long last =
		__atomic_load_n(&last_report_ns[kind], __ATOMIC_RELAXED);

	if (last && now - last < 1000000000UL)
		return false;
	/* Two racing reporters: only the one that wins the exchange prints. */
	return __atomic_compare_exchange_n(&last_report_ns[kind], &last, now,
					   false, __ATOMIC_RELAXED,
					   __ATOMIC_RELAXED);
}

void pk_debug_ratelimit_reset(void)
{
	for (int i = 0; i < PK_REPORT_NR; i++)
		__atomic_store_n(&last_report_ns[i], 0, __ATOMIC_RELAXED);
	__atomic_add_fetch(&pk_debug_generation, 1, __ATOMIC_RELAXED);
}

unsigned long pk_report_count(void)
{
	return __atomic_load_n(&nr_reports, __ATOMIC_RELAXED);
}

pk_report_hook_t pk_set_report_hook(pk_report_hook_t hook, void *arg)
{
	pk_report_hook_t old = report_hook;

	report_hook_arg = arg;
	__atomic_store_n(&report_hook, hook, __ATOMIC_RELEASE);
	return old;
}

static bool panic_on_warn_enabled(void)
{
	if (panic_on_warn < 0) {
		const char *env = getenv("PREEMPT_PANIC_ON_WARN");

		panic_on_warn = env && strcmp(env, "0") != 0 && *env;
	}
	return panic_on_warn;
}

bool pk_set_panic_on_warn(bool on)
{
	bool old = panic_on_warn_enabled();

	panic_on_warn = on;
	return old;
}

const char *pk_taint_str(void)
{
	return __atomic_load_n(&tainted, __ATOMIC_RELAXED)
		       ? "Tainted: G        W"
		       : "Not tainted";
}

static void write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			return;
		p += n;
		len -= (size_t)n;
	}
}

/* ---- deferred reports (printk's deferred console) ---- */

#define DEFERRED_SLOTS 16

enum { SLOT_FREE, SLOT_WRITING, SLOT_READY, SLOT_FLUSHING };

/*
 * Preallocated, claimed lock-free: a handler may interrupt a writer on its
 * own thread (an NMI in an interrupt's report), so a slot per CPU would
 * not do; a shared pool of slots serves every CPU and nesting level.
 */
static struct deferred {
	int state;
	unsigned long seq;
	enum pk_report_kind kind;
	const char *file;
	int line;
	size_t len;
	char text[PK_REPORT_MAX];
} deferred[DEFERRED_SLOTS];
static unsigned long deferred_seq, deferred_dropped;
static int flushing;
int pk_nr_deferred;

__thread int pk_in_signal;

/*
 * Only a signal handler is hostile: a handler run at an enabling edge in
 * task context interrupted nothing but local_irq_enable().
 */
bool pk_report_deferred(void)
{
	return pk_in_signal != 0;
}

static void report_out(enum pk_report_kind kind, const char *file, int line,
		       const char *text, size_t len)
{
	struct pk_report report = {
		.kind = kind,
		.file = file,
		.line = line,
		.text = text,
		.len = len,
	};
	pk_report_hook_t hook = __atomic_load_n(&report_hook, __ATOMIC_ACQUIRE);

	pk_host_calls_enter();
	/* dump_stack() is no report: stderr, no hook. */
	if (kind == PK_REPORT_NR || !hook || !hook(&report, report_hook_arg))
		write_all(STDERR_FILENO, text, len);
	pk_host_calls_exit();
	/* A simulated run ends at its first report, with how to replay it. */
	if (kind != PK_REPORT_NR && pk_sim_active())
		pk_sim_fail("a report ended the run");
}

/* Signal context: keep it for task context, allocating nothing. */
static void defer(enum pk_report_kind kind, const char *file, int line,
		  const struct pk_rbuf *buf)
{
	for (int i = 0; i < DEFERRED_SLOTS; i++) {
		struct deferred *d = &deferred[i];
		int free_state = SLOT_FREE;

		if (!__atomic_compare_exchange_n(
			    &d->state, &free_state, SLOT_WRITING, false,
			    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			continue;
		d->seq = __atomic_fetch_add(&deferred_seq, 1, __ATOMIC_RELAXED);
		d->kind = kind;
		d->file = file;
		d->line = line;
		d->len = buf->len;
		memcpy(d->text, buf->text, buf->len);
		__atomic_store_n(&d->state, SLOT_READY, __ATOMIC_RELEASE);
		__atomic_add_fetch(&pk_nr_deferred, 1, __ATOMIC_RELEASE);
		return;
	}
	__atomic_add_fetch(&deferred_dropped, 1, __ATOMIC_RELAXED);
}

/* The oldest ready slot, claimed; NULL when none is left. */
static struct deferred *claim_oldest(void)
{
	struct deferred *best = NULL;

	for (int i = 0; i < DEFERRED_SLOTS; i++) {
		struct deferred *d = &deferred[i];

		if (__atomic_load_n(&d->state, __ATOMIC_ACQUIRE) ==
			    SLOT_READY &&
		    (!best || d->seq < best->seq))
			best = d;
	}
	if (best)
		__atomic_store_n(&best->state, SLOT_FLUSHING, __ATOMIC_RELAXED);
	return best;
}

/* Under the flushing flag: one flusher expands at a time. */
static void flush_locked(void)
{
	static struct pk_rbuf out;
	unsigned long dropped;
	struct deferred *d;

	while ((d = claim_oldest())) {
		out.len = 0;
		pk_rbuf_expand(&out, d->text, d->len, true);
		out.text[out.len] = '\0';
		report_out(d->kind, d->file, d->line, out.text, out.len);
		__atomic_sub_fetch(&pk_nr_deferred, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&d->state, SLOT_FREE, __ATOMIC_RELEASE);
	}
	dropped = __atomic_exchange_n(&deferred_dropped, 0, __ATOMIC_RELAXED);
	if (dropped) {
		out.len = 0;
		pk_rbuf_printf(&out, "** %lu printk messages dropped **\n",
			       dropped);
		write_all(STDERR_FILENO, out.text, out.len);
	}
}

/* This thread is flushing: a hook that reaches a flush point goes on. */
static __thread int flushing_here;

void pk_report_flush(void)
{
	while (__atomic_load_n(&pk_nr_deferred, __ATOMIC_ACQUIRE) ||
	       __atomic_load_n(&deferred_dropped, __ATOMIC_RELAXED)) {
		if (pk_report_deferred() || flushing_here)
			return;
		/* Another thread flushes, not preemptible: it will be done
		 * soon, and whoever called us expects the reports out. */
		if (__atomic_exchange_n(&flushing, 1, __ATOMIC_ACQUIRE)) {
			pk_host_yield();
			continue;
		}
		/* Not switched out holding the flag: a waiter on this vCPU
		 * would spin for ever. */
		preempt_disable();
		flushing_here = 1;
		pk_host_calls_enter();
		flush_locked();
		pk_host_calls_exit();
		flushing_here = 0;
		__atomic_store_n(&flushing, 0, __ATOMIC_RELEASE);
		preempt_enable();
	}
}

/* Exit: nothing kept may be lost. */
__attribute__((destructor)) static void flush_at_exit(void)
{
	pk_report_flush();
}

/* Read here, not in a handler: getenv() is not async-signal-safe. */
__attribute__((constructor)) static void read_panic_on_warn(void)
{
	panic_on_warn_enabled();
}

/* BUG or panic in a signal handler: the text now, bare, then abort. */
static void emit_fatal_unsymbolized(struct pk_rbuf *buf)
{
	struct pk_rbuf out;

	out.len = 0;
	pk_rbuf_expand(&out, buf->text, buf->len, false);
	write_all(STDERR_FILENO, out.text, out.len);
}

static void die_if_fatal(enum pk_report_kind kind)
{
	if (kind == PK_REPORT_BUG)
		abort();
	if (kind != PK_REPORT_NR && panic_on_warn_enabled()) {
		static const char msg[] =
			"Kernel panic - not syncing: panic_on_warn set ...\n";

		write_all(STDERR_FILENO, msg, sizeof(msg) - 1);
		abort();
	}
}

void pk_report_emit(enum pk_report_kind kind, const char *file, int line,
		    struct pk_rbuf *buf)
{
	bool fatal = kind == PK_REPORT_BUG ||
		     (kind != PK_REPORT_NR && panic_on_warn_enabled());

	buf->text[buf->len] = '\0';
	if (kind != PK_REPORT_NR) {
		__atomic_add_fetch(&nr_reports, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&tainted, true, __ATOMIC_RELAXED);
	}
	if (pk_report_deferred()) {
		if (fatal)
			emit_fatal_unsymbolized(buf);
		else
			defer(kind, file, line, buf);
	} else {
		pk_report_flush(); /* the older ones first */
		report_out(kind, file, line, buf->text, buf->len);
	}
	die_if_fatal(kind);
}

void pk_console_write(const char *text, size_t len)
{
	struct pk_rbuf buf;

	if (len > PK_REPORT_MAX - 1)
		len = PK_REPORT_MAX - 1;
	if (pk_report_deferred()) {
		/* A copy into a free slot: no lock, no allocation. */
		memcpy(buf.text, text, len);
		buf.len = len;
		defer(PK_REPORT_NR, NULL, 0, &buf);
		return;
	}
	pk_report_flush(); /* the older ones first */
	write_all(STDERR_FILENO, text, len);
}

/* ---- who is running ---- */

static __thread int thread_cpu = -1;
static int nr_thread_cpus;

/* Set by the scheduler: on a vCPU the task and CPU, not the thread. */
bool (*pk_identity_hook)(int *pid, char comm[16], int *cpu);

int pk_current_pid(void)
{
	int pid, cpu;
	char comm[16];

	if (pk_identity_hook && pk_identity_hook(&pid, comm, &cpu))
		return pid;
	return (int)gettid();
}

const char *pk_current_comm(char comm[16])
{
	int pid, cpu;

	if (pk_identity_hook && pk_identity_hook(&pid, comm, &cpu))
		return comm;
	if (prctl(PR_GET_NAME, comm, 0, 0, 0) != 0)
		strcpy(comm, "?");
	comm[15] = '\0';
	return comm;
}

int pk_current_cpu(void)
{
	int pid, cpu;
	char comm[16];

	if (pk_identity_hook && pk_identity_hook(&pid, comm, &cpu))
		return cpu;
	/* Without a machine each thread is its own CPU, numbered on demand. */
	if (thread_cpu < 0)
		thread_cpu = __atomic_fetch_add(&nr_thread_cpus, 1,
						__ATOMIC_RELAXED);
	return thread_cpu;
}
