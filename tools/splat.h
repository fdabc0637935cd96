/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_TOOLS_SPLAT_H
#define PREEMPT_TOOLS_SPLAT_H

/*
 * Whole-splat reading for `preempt decode`: which printer wrote a report,
 * what that printer added to the count itself, which layout of the word
 * the kernel used, and what the caller really held.  Exposed for the
 * tests.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum splat_printer {
	SPLAT_NONE,
	SPLAT_SLEEP,	   /* __might_resched()/__might_sleep() */
	SPLAT_SCHED,	   /* __schedule_bug() */
	SPLAT_SMP_ID,	   /* check_preemption_disabled() */
	SPLAT_SOFTIRQ,	   /* "huh, entered softirq" */
	SPLAT_WORKQUEUE,   /* process_one_work()'s leak check */
	SPLAT_EXIT,	   /* do_exit()'s "exited with preempt_count" */
	SPLAT_CANT_SLEEP,  /* __cant_sleep()/__cant_migrate() */
	SPLAT_LOCKDEP_IRQ, /* lockdep's [HCn[n]:SCn[n]:HEn:SEn] */
	SPLAT_OOPS_REGS,   /* 2.6 -RT i386 oops: "ss: 0068   preempt: %08x" */
};

enum splat_verdict {
	SV_DECODED,	/* the caller's count, decoded */
	SV_IMBALANCE,	/* below zero or below the printer's own level */
	SV_CORRUPT,	/* not a count at all */
	SV_NOT_PRINTED, /* the printer gave no number */
	SV_INCONSISTENT /* a number this printer cannot print */
};

#define SPLAT_TEXT 640

struct splat {
	enum splat_printer printer;
	unsigned long line;
	char comm[64];
	long pid; /* -1 when the report does not say */
	char kernel[64];
	int kv_major, kv_minor; /* 0 when the splat has no version line */
	bool rt, idle, threaded_irq;
	char stack[16]; /* "IRQ", "NMI", "SOFTIRQ" marker seen, or "" */

	bool have_count;
	uint64_t printed;
	bool have_expected;
	uint64_t expected;
	int in_atomic, irqs_disabled; /* -1: not printed */
	bool have_rcu;
	long rcu_depth, rcu_expected;
	char preempt_off_at[96];
	int hc, hc_n, sc, sc_n, he, se; /* lockdep's irq state */
	bool wq_new;
	long lock_from, lock_to, rcu_from, rcu_to;
	uint64_t entered;   /* softirq: the count on entry */
	bool rt_bracket;    /* "in_atomic():1 [%08x]": the -RT patch's */
	bool sched_old_fmt; /* "comm/0x%08x/pid": 2.6.0 to 2.6.2x */
	bool caller_is;	    /* -RT's "caller is" line after the header */
	int era_floor;	    /* the printer's format rules out older eras */
	/* the 2.6 -RT latency tracer's "preempt count: %08x" and its list */
	bool have_trace;
	uint64_t trace_count;
	int trace_levels, trace_self, trace_sched, trace_die;
	const char *fn; /* the printing function, for the title */

	/* results */
	enum splat_verdict verdict;
	int own; /* the printer's own preempt levels in the count, -1 unknown */
	bool caller_known;
	int64_t caller; /* what the caller held, when known */
	int64_t imbalance;
	bool x86_masked;
	uint32_t preempt_active; /* the PREEMPT_ACTIVE bit stripped, or 0 */
	char layout[96];
	char context[256];
	char leak[160];
	char why[SPLAT_TEXT];
	char notes[SPLAT_TEXT];
};

/* Printk, syslog, kmsg, caller-id and mail-quote prefixes skipped. */
const char *splat_strip(const char *line);

/* The printer whose report starts at @line (stripped), or SPLAT_NONE. */
enum splat_printer splat_header(const char *line);

/*
 * Read the splat whose header is lines[at] among @n stripped lines, and
 * work out what the caller held.
 */
void splat_read(const char *const *lines, size_t n, size_t at, struct splat *s);

const char *splat_printer_name(enum splat_printer p);
const char *splat_verdict_name(enum splat_verdict v);

enum splat_wait_numbering {
	WAIT_NUM_UNKNOWN,
	WAIT_NUM_NESTING, /* CONFIG_PROVE_RAW_LOCK_NESTING: spinlock_t 3 */
	WAIT_NUM_CLASSIC, /* without: spinlock_t 2, sleeping locks 3 */
};

/* The numbering of the wait types in @lines, from what they print. */
enum splat_wait_numbering splat_wait_numbering(const char *const *lines,
					       size_t n);

/*
 * A lockdep lock line explained into @buf: " #0: ffff... (&lock){+.+.}-
 * {2:2}, at: f+0x1/0x2" (@role "held_lock"), the lock being taken
 * ("ffff... (&lock)...", "lock"), a dependency chain's "-> #1 (&lock)...:"
 * ("chain_lock"), or an invalid wait context's "context-{5:5}"
 * ("wait_context", @name empty).
 */
bool splat_held_lock(const char *line, enum splat_wait_numbering num,
		     const char **role, char *name, size_t nlen, char *buf,
		     size_t len);

#endif /* PREEMPT_TOOLS_SPLAT_H */
