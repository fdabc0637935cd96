/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_DEBUG_H
#define PREEMPT_DEBUG_H

/*
 * The kernel's context checks (CONFIG_DEBUG_ATOMIC_SLEEP) and the report
 * machinery behind every splat: hook, rate limit, panic_on_warn.
 *
 * Build with -DCONFIG_DEBUG_ATOMIC_SLEEP=0 (or the library with
 * -DPREEMPT_DEBUG=OFF) to compile the checks out.
 */

#include <stdbool.h>
#include <stddef.h>
#include <preempt/bug.h>
#include <preempt/preempt.h>

#ifndef CONFIG_DEBUG_ATOMIC_SLEEP
#define CONFIG_DEBUG_ATOMIC_SLEEP CONFIG_DEBUG_PREEMPT
#endif

void __might_sleep(const char *file, int line);
void __might_resched(const char *file, int line, unsigned int offsets);
void __cant_sleep(const char *file, int line, int preempt_offset);
void __cant_migrate(const char *file, int line);

/**
 * might_resched() - preemption point of the voluntary model
 *
 * Task context.  Reschedules if owed under voluntary; nothing otherwise.
 */
void might_resched(void);

#if CONFIG_DEBUG_ATOMIC_SLEEP
/**
 * might_sleep() - annotate code that may sleep
 *
 * Reports (rate-limited) when called in atomic context, with interrupts
 * disabled, or inside non_block_start(); a preemption point under the
 * voluntary model.
 */
#define might_sleep()                                                          \
	do {                                                                   \
		__might_sleep(__FILE__, __LINE__);                             \
		might_resched();                                               \
	} while (0)
/** cant_sleep() - report unless in atomic context. */
#define cant_sleep() __cant_sleep(__FILE__, __LINE__, 0)
/** cant_migrate() - report unless migration is impossible here. */
#define cant_migrate() __cant_migrate(__FILE__, __LINE__)
#else
#define might_sleep() might_resched()
#define cant_sleep()                                                           \
	do {                                                                   \
	} while (0)
#define cant_migrate()                                                         \
	do {                                                                   \
	} while (0)
#endif

/*
 * The per-task counters that reports and checks read, pk_non_block_count
 * and pk_migrate_disable_count, live in TLS in <preempt/preempt.h>'s
 * struct pk_task_vars, saved and loaded with the task at each context
 * switch; pk_preempt_disable_ip beside it goes with the word (per vCPU).
 */

/*
 * RCU's per-task reader state, kept here (below the rcu layer) because
 * might_sleep() prints it: the rcu_read_lock() nesting of the running task
 * (saved and loaded at context switch), and whether the machine runs
 * PREEMPT_RCU, where that nesting is rcu_preempt_depth().
 */
extern __thread int pk_rcu_nesting __attribute__((tls_model("initial-exec")));
extern int pk_rcu_preempt_flavour;

/* __might_resched()'s @offsets: preempt count below, RCU depth above. */
#define MIGHT_RESCHED_RCU_SHIFT 8
#define MIGHT_RESCHED_PREEMPT_MASK ((1U << MIGHT_RESCHED_RCU_SHIFT) - 1)

/* rcu_preempt_depth(), for the layers below the rcu layer. */
static inline int pk_rcu_preempt_depth(void)
{
	return __atomic_load_n(&pk_rcu_preempt_flavour, __ATOMIC_RELAXED)
		       ? pk_task_tls(pk_rcu_nesting)
		       : 0;
}

/*
 * The RCU depth the sleeping checks compare (__might_resched() and rt's
 * spinlock_t, which passes it as allowed): rcu_preempt_depth(), and one
 * more for a PREEMPT_RT bh-disabled section, a reader of its own whose
 * state is the task's (the kernel's rt local_bh_disable() takes
 * rcu_read_lock(), so its depth counts the section).  Zero outside rt's
 * task context: bottom halves are in the word there.
 */
static inline int pk_rcu_sleep_depth(void)
{
	return pk_rcu_preempt_depth() +
	       !!(pk_task_tls(pk_softirq_disable_cnt) & SOFTIRQ_MASK);
}

/** non_block_start() - sleeping is forbidden until non_block_end(). */
#define non_block_start() (pk_task_tls(pk_non_block_count)++)
/** non_block_end() - end a non_block_start() section. */
#define non_block_end() WARN_ON(pk_task_tls(pk_non_block_count)-- == 0)

/* Is the current task pinned by migrate_disable()? */
#define pk_migration_disabled() (pk_task_tls(pk_migrate_disable_count) != 0)

/* ---- reports ---- */

enum pk_report_kind {
	PK_REPORT_WARN,		 /* WARN_ON() and friends */
	PK_REPORT_BUG,		 /* BUG_ON(): aborts after the hook */
	PK_REPORT_MIGHT_SLEEP,	 /* sleeping function in invalid context */
	PK_REPORT_CANT_SLEEP,	 /* assuming atomic context */
	PK_REPORT_CANT_MIGRATE,	 /* assuming non migratable context */
	PK_REPORT_PREEMPT_COUNT, /* DEBUG_PREEMPT: count underflow/overflow */
	PK_REPORT_SCHED_ATOMIC,	 /* scheduling while atomic */
	PK_REPORT_IRQ,		 /* interrupt handler leaked count */
	PK_REPORT_SOFTIRQ,	 /* softirq handler leaked count */
	PK_REPORT_RCU,		 /* suspicious RCU usage (lockdep-RCU) */
	PK_REPORT_RCU_STALL,	 /* RCU CPU stall warning */
	PK_REPORT_LOCKDEP,	 /* the lock validator (lockdep.h) */
	PK_REPORT_BLOCKING,	 /* blocking host call in atomic context */
	PK_REPORT_NR,
};

/**
 * struct pk_report - one report, as printed
 * @kind: which check fired
 * @file: source file of the check's call site (or NULL)
 * @line: its line
 * @text: the whole report, newline-terminated lines
 * @len: strlen(@text)
 */
struct pk_report {
	enum pk_report_kind kind;
	const char *file;
	int line;
	const char *text;
	size_t len;
};

/*
 * Return true to keep the report off stderr.  Never called in a signal
 * handler: a report raised in one (an interrupt or NMI handler, a softirq
 * run at interrupt exit, the fault handler) reaches the hook when it is
 * flushed (see pk_report_flush()), in task context, possibly on another
 * thread.  Any other report reaches it in the context that raised it,
 * which may be a handler run at an interrupt-enabling edge.
 */
typedef bool (*pk_report_hook_t)(const struct pk_report *report, void *arg);

/**
 * pk_blocking_set_enabled() - turn the blocking host-call detector on/off
 *
 * Any context.  On by default when the library is built with its debug
 * checks; $PREEMPT_BLOCKING=0/1 and machine_config.blocking override it.
 * Returns the previous state.  See docs/blocking.md.
 */
bool pk_blocking_set_enabled(bool on);

/**
 * pk_blocking_suppress() - never report the host functions in @names
 * @names: names separated by commas or white space ("write,usleep");
 *         NULL: report every function again
 *
 * Task context.  Adds to $PREEMPT_BLOCKING_SUPPRESS and the file named by
 * $PREEMPT_BLOCKING_SUPPRESS_FILE.  Returns 0, or -EINVAL when a name is
 * not a wrapped function (the others still apply).
 */
int pk_blocking_suppress(const char *names);

/**
 * pk_set_report_hook() - route reports to @hook (NULL: stderr only)
 *
 * Task context.  Returns the previous hook.
 */
pk_report_hook_t pk_set_report_hook(pk_report_hook_t hook, void *arg);

/**
 * pk_set_panic_on_warn() - abort after any report (the kernel's
 * panic_on_warn); also set by PREEMPT_PANIC_ON_WARN=1 in the environment.
 *
 * Any context.  Returns the previous setting.
 */
bool pk_set_panic_on_warn(bool on);

/**
 * pk_debug_ratelimit_reset() - forget rate limits and once-only state, so
 * the next report of each kind prints.  For tests.
 */
void pk_debug_ratelimit_reset(void);

/**
 * pk_report_flush() - print the reports deferred from signal handlers
 *
 * Reports raised in a signal handler (interrupt and NMI handlers, softirqs
 * run at interrupt exit, the fault handler) are kept, unsymbolized, in a
 * preallocated buffer.  They are symbolized and printed (or handed to the
 * hook) here, in the order they were raised.  The library also flushes at
 * every report outside a signal handler, at every might_sleep() that
 * passes, after an irq_raise() or an interrupt replay, in the idle loop,
 * at CPU unregistration, machine shutdown and exit.
 *
 * Task context; does nothing in a signal handler or in interrupt context.
 */
void pk_report_flush(void);

/** pk_report_count() - reports raised so far (printed, hooked or deferred). */
unsigned long pk_report_count(void);

/** pk_report_kind_str() - short name of a report kind. */
const char *pk_report_kind_str(enum pk_report_kind kind);

/**
 * dump_stack() - print a symbolized backtrace of the caller to stderr
 *
 * Task context (symbolizing reads ELF files).
 */
void dump_stack(void);

/**
 * pk_console_write() - @len bytes of text to the console (stderr), in
 * order with the reports.  Any context: in a signal handler (interrupt,
 * NMI) the text is kept in a preallocated slot and printed by the next
 * task-context flush, as printk's deferred console does.
 */
void pk_console_write(const char *text, size_t len);

#endif /* PREEMPT_DEBUG_H */
