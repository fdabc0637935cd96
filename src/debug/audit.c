// SPDX-License-Identifier: MIT
/*
 * The dynamic half of `preempt audit`: every context predicate evaluated in
 * code built with -DCONFIG_PREEMPT_AUDIT=1 comes through pk_audit_pred(),
 * which notes, per call site, which answers it gave under which preemption
 * model and what a PREEMPT_COUNT=n kernel would have answered there.  At
 * exit the table goes to $PREEMPT_AUDIT_LOG for `preempt audit --run`, or
 * a short summary to stderr.
 *
 * Predicates are called from hardirq and NMI handlers too, so the table is
 * static and updated with atomics only: nothing here allocates or locks.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <preempt/preempt.h>
#include <preempt/sched.h>

#include "report.h"

#define AUDIT_SITES 4096 /* a power of two */

/*
 * One call site.  @seen has 4 bits per model: bit (answer << 1 | legacy),
 * both as booleans, so a site's whole history is one word.
 */
struct audit_site {
	unsigned long ip;
	unsigned int seen;
	unsigned int pred;
	unsigned long calls;
};

static struct audit_site sites[AUDIT_SITES];
static unsigned long sites_dropped;

static const char *const pred_names[PK_NR_PREDS] = {
	[PK_PRED_IN_NMI] = "in_nmi",
	[PK_PRED_IN_HARDIRQ] = "in_hardirq",
	[PK_PRED_IN_IRQ] = "in_irq",
	[PK_PRED_IN_SERVING_SOFTIRQ] = "in_serving_softirq",
	[PK_PRED_IN_SOFTIRQ] = "in_softirq",
	[PK_PRED_IN_INTERRUPT] = "in_interrupt",
	[PK_PRED_IN_TASK] = "in_task",
	[PK_PRED_IN_ATOMIC] = "in_atomic",
	[PK_PRED_IRQS_DISABLED] = "irqs_disabled",
	[PK_PRED_PREEMPTIBLE] = "preemptible",
};

/*
 * What a PREEMPT_COUNT=n kernel answers at the same place: its
 * preempt_disable() (and so every spinlock and non-preemptible RCU reader)
 * leaves the count alone, and its preemptible() is constant 0.  The other
 * fields (softirq, hardirq, NMI, irqs off) are counted there as here.
 */
static bool legacy_answer(enum pk_pred pred, int answer)
{
	switch (pred) {
	case PK_PRED_IN_ATOMIC:
		return (preempt_count() & ~PREEMPT_MASK) != 0;
	case PK_PRED_PREEMPTIBLE:
		return false;
	default:
		return answer != 0;
	}
}

static struct audit_site *site_of(unsigned long ip, enum pk_pred pred)
{
	unsigned int h = (unsigned int)((ip >> 2) * 0x9e3779b1u);

	for (unsigned int i = 0; i < AUDIT_SITES; i++) {
		struct audit_site *s = &sites[(h + i) & (AUDIT_SITES - 1)];
		unsigned long cur = __atomic_load_n(&s->ip, __ATOMIC_ACQUIRE);

		if (!cur) {
			unsigned long zero = 0;

			if (__atomic_compare_exchange_n(&s->ip, &zero, ip,
							false, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE)) {
				__atomic_store_n(&s->pred, pred,
						 __ATOMIC_RELAXED);
				return s;
			}
			cur = zero;
		}
		if (cur == ip)
			return s;
	}
	return NULL;
}

/**
 * pk_audit_pred() - note one answer of a context predicate
 * @pred:   which predicate
 * @answer: its answer, returned unchanged
 *
 * Any context, NMI included.  Called by the predicates of code built with
 * CONFIG_PREEMPT_AUDIT; not meant to be called directly.
 */
__attribute__((noinline)) int pk_audit_pred(enum pk_pred pred, int answer)
{
	unsigned long ip = (unsigned long)__builtin_return_address(0);
	unsigned int model = (unsigned int)preempt_model();
	unsigned int bit = (answer != 0) << 1 | legacy_answer(pred, answer);
	struct audit_site *s;

	if ((unsigned int)pred >= PK_NR_PREDS || model >= PREEMPT_MODEL_NR)
		return answer;
	s = site_of(ip, pred);
	if (!s) {
		__atomic_fetch_add(&sites_dropped, 1, __ATOMIC_RELAXED);
		return answer;
	}
	__atomic_fetch_or(&s->seen, 1u << (model * 4 + bit), __ATOMIC_RELAXED);
	__atomic_fetch_add(&s->calls, 1, __ATOMIC_RELAXED);
	return answer;
}

static bool differs_from_legacy(unsigned int seen)
{
	/* Per model: bit 1 is "answered 0, legacy 1", bit 2 the reverse. */
	for (int m = 0; m < PREEMPT_MODEL_NR; m++)
		if ((seen >> (m * 4)) & 0x6)
			return true;
	return false;
}

/*
 * One line per site, tab-separated, for `preempt audit --run`:
 * predicate, file, line, function, the seen word in hex, calls.
 */
struct site_place {
	char func[128];
	const char *file;
	int line;
};

/* Where @s is in the source; the return address is after the call, so
 * the line of the byte before it is the call's. */
static void site_place(const struct audit_site *s, struct site_place *p)
{
	unsigned long off, size;

	p->file = NULL;
	p->line = 0;
	if (!pk_symbolize(s->ip - 1, p->func, sizeof(p->func), &off, &size,
			  &p->file, &p->line))
		snprintf(p->func, sizeof(p->func), "%#lx", s->ip);
	if (!p->file)
		p->file = "?";
}

static void log_site(FILE *out, const struct audit_site *s)
{
	struct site_place p;

	site_place(s, &p);
	fprintf(out, "%s\t%s\t%d\t%s\t%x\t%lu\n", pred_names[s->pred], p.file,
		p.line, p.func, s->seen, s->calls);
}

static void summarise_site(const struct audit_site *s)
{
	struct site_place p;

	if (!differs_from_legacy(s->seen))
		return;
	site_place(s, &p);
	fprintf(stderr,
		"preempt audit: %s:%d: %s() in %s(): a PREEMPT_COUNT=n "
		"kernel answers otherwise here (`preempt audit --run` for "
		"details)\n",
		p.file, p.line, pred_names[s->pred], p.func);
}

/* At exit, on the exiting thread: task context, allocation allowed. */
__attribute__((destructor)) static void audit_flush(void)
{
	const char *path = getenv("PREEMPT_AUDIT_LOG");
	FILE *out = NULL;

	if (path && *path) {
		int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			      0644);

		out = fd >= 0 ? fdopen(fd, "a") : NULL;
		if (!out) {
			if (fd >= 0)
				close(fd);
			fprintf(stderr,
				"libpreempt: cannot write "
				"PREEMPT_AUDIT_LOG=%s\n",
				path);
			return;
		}
	}
	for (int i = 0; i < AUDIT_SITES; i++) {
		const struct audit_site *s = &sites[i];

		if (!__atomic_load_n(&s->ip, __ATOMIC_ACQUIRE))
			continue;
		if (out)
			log_site(out, s);
		else
			summarise_site(s);
	}
	if (sites_dropped)
		fprintf(out ? out : stderr,
			"#dropped\t%lu calls: more than %d call sites\n",
			sites_dropped, AUDIT_SITES);
	if (out)
		fclose(out);
}
