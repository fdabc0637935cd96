// SPDX-License-Identifier: MIT
/*
 * Whole-splat reading for `preempt decode`.  A count in a kernel report is
 * what one printer saw at one moment; what the caller held follows only
 * from which printer it was, what that printer had added itself, and
 * which layout of the word the kernel used.  Facts from
 * kernel/sched/core.c (__schedule_bug(), __might_resched(),
 * __cant_sleep()), lib/smp_processor_id.c, kernel/softirq.c,
 * kernel/workqueue.c, kernel/exit.c and kernel/locking/lockdep.c.
 */
#include <ctype.h>
#include <inttypes.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "splat.h"

/* ---- prefixes ---- */

static const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* "<3>" printk level. */
static const char *skip_level(const char *s)
{
	const char *p = s;

	if (*p != '<' || !isdigit((unsigned char)p[1]))
		return s;
	for (p++; isdigit((unsigned char)*p); p++)
		;
	return *p == '>' ? p + 1 : s;
}

/* "4,622,406528882,-;" and "0,16627,40311380557,-,caller=C0;" (kmsg). */
static const char *skip_kmsg(const char *s)
{
	const char *p = s;
	int commas = 0;

	if (!isdigit((unsigned char)*p))
		return s;
	for (; *p && *p != ';' && p - s < 64; p++) {
		if (*p == ',')
			commas++;
		else if (commas < 3 && !isdigit((unsigned char)*p))
			return s;
	}
	return *p == ';' && commas >= 3 ? p + 1 : s;
}

/* "[  12.345678]", "[2021/07/05, 13:43:52.725]", "[    C1]", "[ T123]". */
static const char *skip_bracket(const char *s)
{
	const char *p = s + 1, *q;

	if (*s != '[')
		return s;
	p = skip_spaces(p);
	q = p;
	if ((*q == 'C' || *q == 'T') && isdigit((unsigned char)q[1])) {
		for (q++; isdigit((unsigned char)*q); q++)
			;
		return *q == ']' ? q + 1 : s;
	}
	for (; *q && *q != ']'; q++)
		if (!isdigit((unsigned char)*q) && !strchr(". /,:", *q))
			return s;
	return *q == ']' && q > p ? q + 1 : s;
}

/*
 * "Jun 16 20:40:39 host kernel: ", "kernel: ", rsyslog's
 * "2011-06-13T12:59:32.897951+02:00 (none) kernel: " and a journal's
 * month in the locale's own letters ("кві 09 19:54:36 spock kernel: ").
 */
static const char *skip_syslog(const char *s)
{
	const char *k = strstr(s, "kernel: ");

	if (!k || k - s > 64)
		return s;
	for (const char *p = s; p < k; p++)
		if (!isalnum((unsigned char)*p) && !strchr(" :._-+()", *p) &&
		    !((unsigned char)*p & 0x80))
			return s;
	return k + 8;
}

/* Android's "C1 [ swapper/1] " after the timestamp. */
static const char *skip_android(const char *s)
{
	const char *p = s;

	if (*p != 'C' || !isdigit((unsigned char)p[1]))
		return s;
	for (p++; isdigit((unsigned char)*p); p++)
		;
	if (p[0] != ' ' || p[1] != '[')
		return s;
	p = strchr(p, ']');
	return p && p[1] == ' ' ? p + 2 : s;
}

const char *splat_strip(const char *line)
{
	const char *s = line, *prev;

	do {
		prev = s;
		s = skip_spaces(s);
		/* quoted mail, and commit messages' "  | " */
		while (*s == '>' || (*s == '|' && (s[1] == ' ' || !s[1])))
			s = skip_spaces(s + 1);
		s = skip_level(s);
		s = skip_kmsg(s);
		s = skip_syslog(s);
		s = skip_bracket(s);
		s = skip_android(skip_spaces(s));
	} while (s != prev);
	return s;
}

/* ---- headers ---- */

static const struct {
	enum splat_printer p;
	const char *text;
} headers[] = {
	/* "Debug: " before 2.6.1x, "BUG: " after */
	{SPLAT_SLEEP, "sleeping function called from invalid context"},
	/* 2.6.0 to 2.6.17 printed it without "BUG: ", before 2.6.9 with
	 * no count at all */
	{SPLAT_SCHED, "scheduling while atomic: "},
	{SPLAT_SCHED, "bad: scheduling while atomic!"},
	{SPLAT_SOFTIRQ, "huh, entered softirq "},
	{SPLAT_WORKQUEUE, "BUG: workqueue leaked "},
	{SPLAT_CANT_SLEEP, "BUG: assuming atomic context"},
	{SPLAT_CANT_SLEEP, "BUG: assuming non migratable context"},
};

static bool has_smp_id(const char *line)
{
	const char *u = strstr(line, "BUG: using ");

	return u && strstr(u, " in preemptible [");
}

/* 2.6 -RT i386 show_registers(): "ds: 007b   es: 007b   ss: 0068
 * preempt: 00000005". */
static bool has_oops_preempt(const char *line)
{
	return !strncmp(line, "ds: ", 4) && strstr(line, " ss: ") &&
	       strstr(line, " preempt: ");
}

static bool has_lockdep_state(const char *line)
{
	const char *p = strstr(line, "[HC");

	return p && strstr(p, ":SC") && strstr(p, ":HE");
}

enum splat_printer splat_header(const char *line)
{
	for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++)
		if (strstr(line, headers[i].text))
			return headers[i].p;
	if (has_smp_id(line))
		return SPLAT_SMP_ID;
	if (strstr(line, "exited with preempt_count ") &&
	    !strstr(line, "huh, entered"))
		return SPLAT_EXIT;
	if (has_lockdep_state(line))
		return SPLAT_LOCKDEP_IRQ;
	if (has_oops_preempt(line))
		return SPLAT_OOPS_REGS;
	return SPLAT_NONE;
}

const char *splat_printer_name(enum splat_printer p)
{
	static const char *const names[] = {
		[SPLAT_NONE] = "none",
		[SPLAT_SLEEP] = "sleeping_function",
		[SPLAT_SCHED] = "scheduling_while_atomic",
		[SPLAT_SMP_ID] = "smp_processor_id",
		[SPLAT_SOFTIRQ] = "softirq_leak",
		[SPLAT_WORKQUEUE] = "workqueue_leak",
		[SPLAT_EXIT] = "exit_leak",
		[SPLAT_CANT_SLEEP] = "cant_sleep",
		[SPLAT_LOCKDEP_IRQ] = "lockdep_irq_state",
		[SPLAT_OOPS_REGS] = "oops_registers",
	};
	return names[p];
}

const char *splat_verdict_name(enum splat_verdict v)
{
	static const char *const names[] = {
		[SV_DECODED] = "decoded",
		[SV_IMBALANCE] = "imbalance",
		[SV_CORRUPT] = "corrupt",
		[SV_NOT_PRINTED] = "not_printed",
		[SV_INCONSISTENT] = "inconsistent",
	};
	return names[v];
}

/* ---- small helpers ---- */

static void vappend(char *buf, size_t len, bool space, const char *fmt,
		    va_list ap)
{
	size_t used = strlen(buf);

	if (used + 1 >= len)
		return;
	if (space && used)
		buf[used++] = ' ', buf[used] = '\0';
	vsnprintf(buf + used, len - used, fmt, ap);
}

/* Append to @buf. */
static void __attribute__((format(printf, 3, 4)))
add(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(buf, len, false, fmt, ap);
	va_end(ap);
}

/* Append a sentence to @buf, a space after what is there. */
static void __attribute__((format(printf, 3, 4)))
add_sentence(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(buf, len, true, fmt, ap);
	va_end(ap);
}

#define WHY(s, ...) add_sentence((s)->why, sizeof((s)->why), __VA_ARGS__)
#define NOTE(s, ...) add_sentence((s)->notes, sizeof((s)->notes), __VA_ARGS__)

/* Match @re against @line; @m gets up to @nm groups. */
static bool rx(const char *re, const char *line, regmatch_t *m, size_t nm)
{
	regex_t r;
	bool ok;

	if (regcomp(&r, re, REG_EXTENDED))
		return false;
	ok = !regexec(&r, line, nm, m, 0);
	regfree(&r);
	return ok;
}

static void grp(const char *line, const regmatch_t *m, char *buf, size_t len)
{
	size_t n = m->rm_so < 0 ? 0 : (size_t)(m->rm_eo - m->rm_so);

	if (n >= len)
		n = len - 1;
	memcpy(buf, line + (m->rm_so < 0 ? 0 : m->rm_so), n);
	buf[n] = '\0';
}

static bool hexval(const char *line, const regmatch_t *m, uint64_t *v, int base)
{
	char t[40], *end;

	grp(line, m, t, sizeof(t));
	if (!t[0] || strlen(t) > 16)
		return false;
	*v = strtoull(t, &end, base);
	return !*end;
}

/* ---- layouts of the word through the years ---- */

struct era {
	const char *name;
	unsigned int hardirq_shift, hardirq_bits, nmi_shift, nmi_bits;
	uint32_t preempt_active; /* x86's; 0 once it was gone */
	uint32_t valid;		 /* every bit that may be set */
};

enum { ERA_3X, ERA_313, ERA_2020, ERA_2026, NR_ERAS };

static const struct era eras[NR_ERAS] = {
	/* up to 3.12: hardirq 10 bits, NMI bit 26, PREEMPT_ACTIVE bit 28
	 * on x86 (bit 30 on 32-bit ARM) */
	[ERA_3X] = {"3.x (up to 3.12: hardirq 16-25, NMI 26, PREEMPT_ACTIVE "
		    "bit 28 on x86)",
		    16, 10, 26, 1, 0x10000000, 0x57ffffff},
	/* 3.13 to 4.3: hardirq 4 bits, NMI bit 20, PREEMPT_ACTIVE bit 21 */
	[ERA_313] = {"3.13-4.3 (hardirq 16-19, NMI 20, PREEMPT_ACTIVE bit 21)",
		     16, 4, 20, 1, 0x00200000, 0x803fffff},
	[ERA_2020] = {"2020 (4.4 on: hardirq 16-19, NMI 20-23)", 16, 4, 20, 4,
		      0, 0x80ffffff},
	[ERA_2026] = {"2026 (irq-disable depth 16-23, hardirq 24-27, NMI 28)",
		      24, 4, 28, 1, 0, 0x9fffffff},
};

/* Which era a version line names; -1 when there is none. */
static int era_of_version(const struct splat *s)
{
	int v = s->kv_major * 100 + s->kv_minor;

	if (!s->kv_major)
		return -1;
	if (v < 313)
		return ERA_3X;
	if (v < 404)
		return ERA_313;
	if (v < 703)
		return ERA_2020;
	return ERA_2026;
}

static unsigned int field(uint64_t v, unsigned int shift, unsigned int bits)
{
	return (unsigned int)((v >> shift) & ((1U << bits) - 1));
}

static void describe(uint64_t v, const struct era *e, char *buf, size_t len)
{
	unsigned int pre = field(v, 0, 8), soft = field(v, 8, 8);
	unsigned int hard = field(v, e->hardirq_shift, e->hardirq_bits);
	unsigned int nmi = field(v, e->nmi_shift, e->nmi_bits);
	unsigned int irqoff = e == &eras[ERA_2026] ? field(v, 16, 8) : 0;
	const char *sep = "";

	buf[0] = '\0';
	if (nmi) {
		add(buf, len, "NMI");
		sep = " that interrupted a ";
	}
	if (hard > nmi) {
		add(buf, len, "%shardirq (nesting %u)", sep, hard - nmi);
		sep = " that interrupted a ";
	}
	if (soft & 1) {
		add(buf, len, "%ssoftirq being served", sep);
		sep = " ";
	}
	if (!*sep)
		add(buf, len, "task");
	if (soft >> 1)
		add(buf, len, ", bh disabled %u level%s", soft >> 1,
		    soft >> 1 == 1 ? "" : "s");
	if (irqoff)
		add(buf, len, ", irqs disabled (depth %u)", irqoff);
	if (pre)
		add(buf, len, ", preempt depth %u", pre);
	if (!v)
		add(buf, len, ", nothing held (preemptible if irqs are on)");
}

/* ---- below zero ---- */

/*
 * Missing exits can take a count below zero by at most what the fields
 * below bit 20 hold (preempt, softirq, hardirq nesting); anything deeper is
 * no imbalance but garbage.
 */
#define IMBALANCE_MAX 0xfffff

/*
 * A count below zero, as a 32-bit word or as x86's preempt_count(),
 * which masks bit 31 (the inverted need-resched) and so prints -0x100 as
 * 7fffff00.
 */
static bool below_zero(uint64_t v, int64_t *n, bool *masked)
{
	if (v > UINT32_MAX)
		return false;
	*masked = false;
	if (v & 0x80000000u) {
		*n = (int32_t)(uint32_t)v;
		return *n >= -IMBALANCE_MAX;
	}
	if ((v & 0x7f000000u) == 0x7f000000u) {
		*n = (int32_t)(uint32_t)(v | 0x80000000u);
		*masked = true;
		return *n >= -IMBALANCE_MAX;
	}
	return false;
}

static void imbalance_words(int64_t n, char *buf, size_t len)
{
	uint64_t m = (uint64_t)-n;

	if (m % 0x10000 == 0)
		snprintf(buf, len,
			 "%" PRIu64 " hardirq exit%s too many (HARDIRQ_OFFSET "
			 "0x10000)",
			 m / 0x10000, m == 0x10000 ? "" : "s");
	else if (m % 0x200 == 0)
		snprintf(buf, len,
			 "%" PRIu64 " local_bh_enable()%s too many "
			 "(SOFTIRQ_DISABLE_OFFSET 0x200)",
			 m / 0x200, m == 0x200 ? "" : "s");
	else if (m % 0x100 == 0)
		snprintf(buf, len,
			 "%" PRIu64 " softirq exit%s too many (SOFTIRQ_OFFSET "
			 "0x100)",
			 m / 0x100, m == 0x100 ? "" : "s");
	else if (m < 0x100)
		snprintf(buf, len, "%" PRIu64 " preempt_enable()%s too many", m,
			 m == 1 ? "" : "s");
	else
		snprintf(buf, len, "-0x%" PRIx64 " below zero", m);
}

static void set_imbalance(struct splat *s, int64_t n, const char *what)
{
	char w[128];

	s->verdict = SV_IMBALANCE;
	s->imbalance = n;
	imbalance_words(n, w, sizeof(w));
	snprintf(s->context, sizeof(s->context),
		 "imbalance %s0x%" PRIx64 ": %s", n < 0 ? "-" : "",
		 (uint64_t)(n < 0 ? -n : n), w);
	WHY(s, "%s", what);
	if (s->x86_masked)
		WHY(s, "x86's preempt_count() masks bit 31 (the inverted "
		       "need-resched bit), so a count below zero prints "
		       "with 7f... instead of ff...");
	WHY(s, "Not decoded field by field: a negative count has no fields.");
}

/* ---- era choice and the caller's count ---- */

static bool looks_like_address(uint64_t v)
{
	return v > UINT32_MAX || (v >= 0xc0000000u && v < 0xff000000u) ||
	       (v >= 0x80000000u && v < 0xbf000000u);
}

static bool era_fits(const struct era *e, uint64_t v)
{
	return !(v & ~(uint64_t)(e->valid | e->preempt_active));
}

/* Strips PREEMPT_ACTIVE where the era had it; fills s->layout. */
static uint64_t choose_era(struct splat *s, uint64_t v, const struct era **out)
{
	int e = era_of_version(s);

	if (e == ERA_2026 && s->printer == SPLAT_SLEEP &&
	    s->irqs_disabled == 1 && !(v & 0x00ff0000u)) {
		e = ERA_2020;
		WHY(s,
		    "Kernel %s, but irqs_disabled() is 1 and bits 16-23 "
		    "(the 2026 layout's irq-disable depth) are 0: this "
		    "kernel does not count interrupt disabling in "
		    "preempt_count, so its word has the 2020 layout.",
		    s->kernel);
	} else if (e >= 0) {
		WHY(s, "Layout from the splat's own version line (%s).",
		    s->kernel);
	}
	if (e >= 0) {
		*out = &eras[e];
		snprintf(s->layout, sizeof(s->layout), "%s", eras[e].name);
	} else if (v < 0x10000) {
		*out = &eras[ERA_2020];
		snprintf(s->layout, sizeof(s->layout),
			 "any (every layout "
			 "agrees below bit 16)");
	} else {
		*out = NULL;
		s->layout[0] = '\0';
		for (int i = s->era_floor; i < NR_ERAS; i++)
			if (era_fits(&eras[i], v)) {
				if (!*out)
					*out = &eras[i];
				add(s->layout, sizeof(s->layout), "%s%s",
				    s->layout[0] ? " or " : "",
				    i == ERA_3X	    ? "3.x"
				    : i == ERA_313  ? "3.13-4.3"
				    : i == ERA_2020 ? "2020"
						    : "2026");
			}
		if (!*out)
			return v;
		WHY(s, "No version line: the layouts that fit are %s.",
		    s->layout);
		if (s->era_floor == ERA_2020)
			WHY(s, "The printer's format dates the kernel to 5.16 "
			       "or later, so older layouts are out.");
		if (era_fits(&eras[ERA_2026], v) && (v & 0x00ff0000u))
			NOTE(s, "In the 2026 layout bits 16-23 would be the "
				"irq-disable depth, not hardirq nesting.");
	}
	if ((*out)->preempt_active && (v & (*out)->preempt_active)) {
		s->preempt_active = (*out)->preempt_active;
		NOTE(s,
		     "PREEMPT_ACTIVE (0x%08x) is set: the scheduler was "
		     "entered through preempt_schedule() or cond_resched(); "
		     "it is a marker, not a nesting level.",
		     (*out)->preempt_active);
		v &= ~(uint64_t)(*out)->preempt_active;
	} else if (e < 0 && (v & 0x40000000u) && !(v & 0x80000000u) &&
		   era_fits(&eras[ERA_3X], v & ~0x40000000u)) {
		s->preempt_active = 0x40000000u;
		NOTE(s, "Bit 30 is PREEMPT_ACTIVE on 32-bit ARM before 4.4.");
		v &= ~0x40000000ull;
	}
	return v;
}

/*
 * A count that cannot be one is flagged, never decoded.  Otherwise the era
 * is chosen and the value comes back in @out without PREEMPT_ACTIVE.
 */
static bool check_corrupt(struct splat *s, uint64_t v, uint64_t *out,
			  const struct era **e)
{
	size_t notes_len;

	if (looks_like_address(v)) {
		s->verdict = SV_CORRUPT;
		snprintf(s->context, sizeof(s->context),
			 "corrupt: 0x%" PRIx64 " is not a count", v);
		WHY(s, "The value looks like a kernel address (a stack or heap "
		       "pointer written over the count), not a count.");
		return true;
	}
	notes_len = strlen(s->notes);
	*out = choose_era(s, v, e);
	if (!*e || !era_fits(*e, *out)) {
		/* garbage has no PREEMPT_ACTIVE marker to take out */
		s->preempt_active = 0;
		s->notes[notes_len] = '\0';
		s->verdict = SV_CORRUPT;
		snprintf(s->context, sizeof(s->context),
			 "corrupt: 0x%" PRIx64 " sets bits no layout uses", v);
		WHY(s, "Bits are set that no layout of the word defines.");
		if (v <= UINT32_MAX && (v & 0x80000000u))
			WHY(s,
			    "Read as a count below zero it would be -0x%x: "
			    "deeper than every preempt, softirq and hardirq "
			    "level together, which no run of missing exits "
			    "reaches.",
			    (unsigned int)-(int32_t)(uint32_t)v);
		return true;
	}
	return false;
}

/* Decode @v as what the caller held, in the era chosen for it. */
static void caller_holds(struct splat *s, uint64_t v)
{
	const struct era *e;
	uint64_t c;
	int64_t n;

	if (below_zero(v, &n, &s->x86_masked)) {
		set_imbalance(s, n, "The count is below zero.");
		return;
	}
	if (check_corrupt(s, v, &c, &e))
		return;
	s->verdict = SV_DECODED;
	s->caller_known = true;
	s->caller = (int64_t)c;
	describe(c, e, s->context, sizeof(s->context));
}

/* ---- whole-splat facts ---- */

/*
 * Where reports name the kernel; group 2 is the version.  The
 * "Tainted:" line, lockdep's "3.15.0 #406 Not tainted", the 2.6 i386
 * oops' "EFLAGS: 00010097   (2.6.10-rc2-mm1-rt-v0.7.28-0)", and a
 * version line a mail wrapped onto a line of its own ("6.9.0-rc2 #128").
 */
static const char *const version_res[] = {
	"(Not tainted|Tainted:[^0-9(]*)[[:space:]]*\\(?([0-9]+\\.[0-9]+"
	"[^[:space:])]*)",
	"^()([0-9]+\\.[0-9]+[^[:space:]]*) #[0-9]+ (Not )?[Tt]ainted",
	"^(EFLAGS: [[:xdigit:]]+ +)\\(([0-9]+\\.[0-9]+[^)[:space:]]*)\\)",
	"^()([0-9]+\\.[0-9]+\\.[0-9]+[^[:space:]]*) #[0-9]+[[:space:]]*$",
};

static void read_version(struct splat *s, const char *line)
{
	regmatch_t m[3];
	const char *dot;
	size_t i, n = sizeof(version_res) / sizeof(version_res[0]);

	if (s->kernel[0])
		return;
	for (i = 0; i < n && !rx(version_res[i], line, m, 3); i++)
		;
	if (i == n)
		return;
	grp(line, &m[2], s->kernel, sizeof(s->kernel));
	s->kv_major = atoi(s->kernel);
	dot = strchr(s->kernel, '.');
	s->kv_minor = dot ? atoi(dot + 1) : 0;
	if (strstr(line, "PREEMPT_RT") || strstr(line, "PREEMPT RT") ||
	    strstr(s->kernel, "-rt"))
		s->rt = true;
}

static void read_comm(struct splat *s, const char *line)
{
	regmatch_t m[2];

	if (!rx("Comm: ([^[:space:]]+)", line, m, 2) &&
	    !rx("comm: ([^[:space:]]+)", line, m, 2) &&
	    !rx("^Process (.+) \\(pid: ", line, m, 2) &&
	    !rx("name: ([^[:space:]]+)", line, m, 2))
		return;
	if (!s->comm[0])
		grp(line, &m[1], s->comm, sizeof(s->comm));
}

/* "pid: 1, name: swapper/0" and "CPU: 4 UID: 0 PID: 1 Comm: ...". */
static void read_pid(struct splat *s, const char *line)
{
	regmatch_t m[2];

	if (s->pid >= 0)
		return;
	if (rx("[^a-zA-Z]pid: ([0-9]+), name: ", line, m, 2) ||
	    rx("PID: ([0-9]+) (UID: [0-9]+ )?Comm: ", line, m, 2) ||
	    rx("\\(pid: ([0-9]+),", line, m, 2))
		s->pid = atol(line + m[1].rm_so);
}

static void read_markers(struct splat *s, const char *line)
{
	static const char *const marks[] = {"<NMI>", "<IRQ>", "<SOFTIRQ>",
					    "<TASK>"};

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (!strncmp(line, marks[i], strlen(marks[i])) &&
		    !s->stack[0]) {
			snprintf(s->stack, sizeof(s->stack), "%.*s",
				 (int)strlen(marks[i]) - 2, marks[i] + 1);
		}
	if (strstr(line, "rt_spin_lock") || strstr(line, "spinlock_rt.c") ||
	    strstr(line, "rt_mutex"))
		s->rt = true;
}

static void read_might_sleep(struct splat *s, const char *line)
{
	regmatch_t m[6];

	if (rx("in_atomic\\(\\): ?([0-9]+)( \\[([[:xdigit:]]+)\\])?, "
	       "irqs_disabled\\(\\): ?([0-9]+)",
	       line, m, 5)) {
		s->in_atomic = atoi(line + m[1].rm_so);
		s->irqs_disabled = atoi(line + m[4].rm_so);
		if (m[3].rm_so >= 0 && hexval(line, &m[3], &s->printed, 16))
			s->have_count = s->rt_bracket = true;
	}
	if (rx("^preempt_count: (0x)?([[:xdigit:]]+), expected: "
	       "(0x)?([[:xdigit:]]+)",
	       line, m, 5) &&
	    hexval(line, &m[2], &s->printed, 16) &&
	    hexval(line, &m[4], &s->expected, 16)) {
		s->have_count = s->have_expected = true;
		s->era_floor = ERA_2020; /* this line is 5.16's */
	}
	if (rx("RCU nest depth: (-?[0-9]+), expected: ([0-9]+)", line, m, 3)) {
		s->have_rcu = true;
		s->rcu_depth = atol(line + m[1].rm_so);
		s->rcu_expected = atol(line + m[2].rm_so);
	}
}

static void read_preempt_off(struct splat *s, const char *line,
			     const char *next)
{
	const char *p = strstr(line, "Preemption disabled at:");
	const char *at;

	if (!p || s->preempt_off_at[0])
		return;
	at = skip_spaces(p + strlen("Preemption disabled at:"));
	if (!*at && next)
		at = next;
	snprintf(s->preempt_off_at, sizeof(s->preempt_off_at), "%s", at);
}

/*
 * The 2.6 -RT patch's latency tracer (print_traces()) after a report:
 * "| preempt count: 00000005 ]" (2004: "preempt count: 00000002"), then
 * one ".. " entry per level, naming who took it.  Some versions list
 * print_traces() itself: that level is the tracer's own.
 */
static void read_trace(struct splat *s, const char *line)
{
	regmatch_t m[2];

	if (!s->have_trace) {
		if (rx("^preempt count: ([[:xdigit:]]{8})", line, m, 2))
			s->have_trace =
				hexval(line, &m[1], &s->trace_count, 16);
		return;
	}
	if (strncmp(line, ".. ", 3))
		return;
	s->trace_levels++;
	if (strstr(line, "print_traces+"))
		s->trace_self++;
	else if (strstr(line, " __schedule+") || strstr(line, " schedule+"))
		s->trace_sched++;
	else if (strstr(line, " die+"))
		s->trace_die++;
}

static void read_line(struct splat *s, const char *line, const char *next)
{
	read_version(s, line);
	read_pid(s, line);
	read_trace(s, line);
	if (!strncmp(line, "caller is ", 10))
		s->caller_is = true;
	read_comm(s, line);
	read_markers(s, line);
	read_preempt_off(s, line, next);
	if (s->printer == SPLAT_SLEEP || s->printer == SPLAT_CANT_SLEEP)
		read_might_sleep(s, line);
}

/* ---- the header lines' own numbers ---- */

static void read_sched_header(struct splat *s, const char *line)
{
	regmatch_t m[4];

	/* 2.6.0 to 2.6.2x: comm/0xCOUNT/pid; later comm/pid/0xCOUNT (comm
	 * may hold '/'). */
	if (rx("scheduling while atomic: (.*)/[0-9]+/0x([[:xdigit:]]+)"
	       "[[:space:]]*$",
	       line, m, 3)) {
		grp(line, &m[1], s->comm, sizeof(s->comm));
		s->have_count = hexval(line, &m[2], &s->printed, 16);
		if (rx("/([0-9]+)/0x[[:xdigit:]]+", line, m, 2))
			s->pid = atol(line + m[1].rm_so);
	} else if (rx("scheduling while atomic: (.*)/0x([[:xdigit:]]+)/[0-9]+",
		      line, m, 3)) {
		grp(line, &m[1], s->comm, sizeof(s->comm));
		s->have_count = hexval(line, &m[2], &s->printed, 16);
		s->sched_old_fmt = true;
		if (rx("/0x[[:xdigit:]]+/([0-9]+)", line, m, 2))
			s->pid = atol(line + m[1].rm_so);
	}
}

/* "comm/pid" where @re's two groups are. */
static bool read_comm_pid(struct splat *s, const char *line, const char *re)
{
	regmatch_t m[3];

	if (!rx(re, line, m, 3))
		return false;
	grp(line, &m[1], s->comm, sizeof(s->comm));
	s->pid = atol(line + m[2].rm_so);
	return true;
}

static void read_header(struct splat *s, const char *line)
{
	regmatch_t m[8];

	switch (s->printer) {
	case SPLAT_SCHED:
		read_sched_header(s, line);
		break;
	case SPLAT_SLEEP: /* 2.6 -RT: "... invalid context comm(pid) at" */
		if (rx("invalid context (.+)\\(([0-9]+)\\)( at |$)", line, m,
		       4))
			grp(line, &m[1], s->comm, sizeof(s->comm));
		break;
	case SPLAT_OOPS_REGS:
		if (rx(" preempt: ?([[:xdigit:]]{8})", line, m, 2))
			s->have_count = hexval(line, &m[1], &s->printed, 16);
		break;
	case SPLAT_SMP_ID:
		if (rx("in preemptible \\[([[:xdigit:]]+)\\] code:", line, m,
		       2))
			s->have_count = hexval(line, &m[1], &s->printed, 16);
		read_comm_pid(s, line, "code: (.*)/([0-9]+)");
		break;
	case SPLAT_SOFTIRQ:
		if (rx("with preempt_count ([[:xdigit:]]+), exited with "
		       "([[:xdigit:]]+)",
		       line, m, 3))
			s->have_count = hexval(line, &m[1], &s->entered, 16) &&
					hexval(line, &m[2], &s->printed, 16);
		break;
	case SPLAT_WORKQUEUE:
		if (rx("leaked lock or atomic: (.*)/0x([[:xdigit:]]+)/[0-9]+",
		       line, m, 3)) {
			grp(line, &m[1], s->comm, sizeof(s->comm));
			s->have_count = hexval(line, &m[2], &s->printed, 16);
		} else if (rx("leaked [a-zA-Z ,]+: ([^[]+)\\[", line, m, 2))
			grp(line, &m[1], s->comm, sizeof(s->comm));
		break;
	case SPLAT_EXIT:
		if (rx("(note: (.*)\\[[0-9]+\\] )?exited with preempt_count "
		       "(-?[0-9]+)",
		       line, m, 4)) {
			long long d = strtoll(line + m[3].rm_so, NULL, 10);

			if (m[2].rm_so >= 0)
				grp(line, &m[2], s->comm, sizeof(s->comm));
			s->printed = (uint64_t)(uint32_t)d;
			s->have_count = true;
		}
		break;
	case SPLAT_LOCKDEP_IRQ:
		if (rx("([^[:space:]]+) \\[HC([0-9]+)\\[([0-9]+)\\]:SC([0-9]+)"
		       "\\[([0-9]+)\\]:HE([01]):SE([01])\\]",
		       line, m, 8)) {
			char t[64];

			char *slash;

			grp(line, &m[1], t, sizeof(t));
			slash = strrchr(t, '/'); /* comm/pid */
			if (slash)
				*slash = '\0';
			snprintf(s->comm, sizeof(s->comm), "%s", t);
			s->hc = atoi(line + m[2].rm_so);
			s->hc_n = atoi(line + m[3].rm_so);
			s->sc = atoi(line + m[4].rm_so);
			s->sc_n = atoi(line + m[5].rm_so);
			s->he = atoi(line + m[6].rm_so);
			s->se = atoi(line + m[7].rm_so);
		}
		break;
	default:
		break;
	}
}

static void read_wq_new(struct splat *s, const char *line)
{
	regmatch_t m[7];

	if (!rx("preempt=0x([[:xdigit:]]+) lock=([0-9]+)->([0-9]+) "
		"RCU=([0-9]+)->([0-9]+)",
		line, m, 6))
		return;
	s->wq_new = true;
	s->have_count = hexval(line, &m[1], &s->printed, 16);
	s->lock_from = atol(line + m[2].rm_so);
	s->lock_to = atol(line + m[3].rm_so);
	s->rcu_from = atol(line + m[4].rm_so);
	s->rcu_to = atol(line + m[5].rm_so);
}

/* ---- per printer ---- */

static void idle_and_threads(struct splat *s)
{
	/* pid 1 runs as "swapper/0" until it execs init: not idle */
	if (!strncmp(s->comm, "swapper", 7) && s->pid <= 0) {
		s->idle = true;
		NOTE(s,
		     "%s is the idle task: since 2.6.12 it runs with a "
		     "baseline preempt_count of 1 and must never sleep.",
		     s->comm);
	}
	/* 2.6 -RT named its interrupt threads "IRQ 1" */
	if (!strncmp(s->comm, "irq/", 4) ||
	    (!strncmp(s->comm, "IRQ ", 4) &&
	     isdigit((unsigned char)s->comm[4]))) {
		s->threaded_irq = true;
		NOTE(s,
		     "%s is a threaded interrupt handler: a kernel thread, "
		     "so task context (in_task() is 1) where sleeping is "
		     "allowed.",
		     s->comm);
	}
	if (s->stack[0])
		NOTE(s, "The call trace runs on the %s stack (<%s> marker).",
		     s->stack, s->stack);
	if (s->rt)
		NOTE(s,
		     "PREEMPT_RT: spinlock_t, rwlock_t and local_bh_disable() "
		     "do not show in preempt_count there; a nonzero count "
		     "is a raw spinlock, preempt_disable() or a hardirq.");
	if (s->preempt_off_at[0])
		NOTE(s, "Preemption was last disabled at %s.",
		     s->preempt_off_at);
}

/*
 * Before 2.6.23 (CFS) schedule() checked in_atomic() and printed before
 * its own preempt_disable(); the format then was comm/0xCOUNT/pid.  From
 * 2.6.23 the check sits after it (schedule_debug()), in the same format
 * until the pid moved first.  Evidence, strongest first: the version
 * line, the -RT latency tracer's list of who holds each level, the -RT
 * patch's "caller is" line (its pre-CFS check).
 */
static bool sched_checked_before_disable(struct splat *s)
{
	int v = s->kv_major * 1000 + s->kv_minor;

	if (!s->sched_old_fmt)
		return false;
	if (s->kv_major) {
		int sub = 0;
		const char *p = strchr(s->kernel, '.');

		p = p ? strchr(p + 1, '.') : NULL;
		sub = p ? atoi(p + 1) : 0;
		if (v < 2006 || (v == 2006 && sub < 23)) {
			WHY(s,
			    "Kernel %s is older than 2.6.23: schedule() "
			    "checked in_atomic() and printed before its own "
			    "preempt_disable(), so the count is the "
			    "caller's.",
			    s->kernel);
			return true;
		}
		return false;
	}
	if (s->have_trace) {
		if (s->trace_sched)
			return false;
		WHY(s, "No version line, but the -RT latency tracer lists who "
		       "took each level and none is the scheduler's: this "
		       "kernel (before 2.6.23, by the comm/0xCOUNT/pid format) "
		       "printed before schedule()'s own preempt_disable(), so "
		       "the count is the caller's.");
		return true;
	}
	if (s->caller_is) {
		WHY(s, "No version line; the comm/0xCOUNT/pid format with the "
		       "-RT patch's \"caller is\" line is the pre-2.6.23 "
		       "check, made before schedule()'s own preempt_disable(): "
		       "the count is the caller's.");
		return true;
	}
	NOTE(s, "The comm/0xCOUNT/pid format was printed both before 2.6.23 "
		"(before schedule()'s preempt_disable(): then the caller held "
		"all of it) and by 2.6.23 to 2.6.2x (after it); without a "
		"version line the later reading is given.");
	return false;
}

static void do_sched(struct splat *s)
{
	uint64_t v = s->printed;
	const struct era *e;
	int64_t n;

	s->fn = "__schedule_bug, printed inside the scheduler";

	if (below_zero(v, &n, &s->x86_masked)) {
		s->own = -1;
		set_imbalance(s, n,
			      "The count schedule() saw was below "
			      "zero.");
		return;
	}
	if (v == 0) {
		s->own = 1;
		set_imbalance(s, -1,
			      "Printed 0, but schedule() disables "
			      "preemption itself before the check, so "
			      "the count must be at least 1: the caller "
			      "was one level below zero.");
		return;
	}
	if (check_corrupt(s, v, &v, &e))
		return;
	if ((v & 0xff) && sched_checked_before_disable(s)) {
		s->own = 0;
		s->fn = "schedule(), before its own preempt_disable()";
	} else if (v & 0xff) {
		s->own = 1;
		v -= 1;
		WHY(s, "__schedule_bug() prints from inside the scheduler, "
		       "after schedule()'s own preempt_disable() (in 3.x, "
		       "__schedule()'s): the printed count holds that level "
		       "(preempt depth >= 1 shows the kernel counts "
		       "preemption), so the caller held one level less.");
	} else {
		s->own = 0;
		WHY(s,
		    "The printed preempt depth is 0, so this kernel does not "
		    "count preempt_disable() (no CONFIG_PREEMPT_COUNT): "
		    "the scheduler's own level is not in the count, and "
		    "the caller held what is printed.");
	}
	s->verdict = SV_DECODED;
	s->caller_known = true;
	s->caller = (int64_t)v;
	describe(v, e, s->context, sizeof(s->context));
	if (s->idle && v == 1)
		NOTE(s, "The 1 left is the idle task's baseline: it held "
			"nothing more, yet it tried to sleep.");
}

/* 2.6.0 to 2.6.8: "bad: scheduling while atomic!" and no count. */
static void sched_no_count(struct splat *s)
{
	s->fn = "schedule(), before its own preempt_disable()";
	snprintf(s->context, sizeof(s->context),
		 "not printed: in_atomic() was 1 when schedule() was called");
	WHY(s, "Early 2.6 kernels printed \"bad: scheduling while atomic!\" "
	       "with no count, checking in_atomic() before schedule()'s own "
	       "preempt_disable(): the caller held a nonzero count, which "
	       "one is not said.");
}

static void do_sleep(struct splat *s)
{
	s->own = 0;
	s->fn = s->have_expected ? "__might_resched"
		: s->rt_bracket	 ? "the -RT patch's __might_sleep"
				 : "__might_sleep";
	if (s->rt_bracket && !s->rt) {
		s->rt = true;
		NOTE(s, "The bracketed count after in_atomic() is the 2.6 "
			"-RT patch's format: this is a PREEMPT_RT kernel.");
	}
	if (s->irqs_disabled > 1)
		NOTE(s,
		     "irqs_disabled(): %d is the raw interrupt-mask bit "
		     "0x80 (arm64's DAIF I, 32-bit ARM's CPSR I) that "
		     "older kernels printed: irqs were disabled.",
		     s->irqs_disabled);
	if (s->have_rcu && s->rcu_depth < s->rcu_expected)
		add(s->leak, sizeof(s->leak),
		    "RCU nest depth %ld, expected %ld: %ld "
		    "rcu_read_unlock() too many (an unbalanced unlock; "
		    "PREEMPT_RCU keeps the depth in the task)",
		    s->rcu_depth, s->rcu_expected,
		    s->rcu_expected - s->rcu_depth);
	else if (s->have_rcu && s->rcu_depth != s->rcu_expected)
		snprintf(s->leak, sizeof(s->leak),
			 "RCU nest depth %ld, expected %ld: %ld "
			 "rcu_read_lock() too many (PREEMPT_RCU keeps this "
			 "in the task, not in the count)",
			 s->rcu_depth, s->rcu_expected,
			 s->rcu_depth - s->rcu_expected);
	else if (s->have_rcu && s->rcu_depth)
		NOTE(s,
		     "RCU nest depth %ld is what the caller may hold here "
		     "(expected %ld: on PREEMPT_RT a spinlock_t may be taken "
		     "inside an RCU reader): no RCU leak.",
		     s->rcu_depth, s->rcu_expected);
	if (!s->have_count) {
		s->verdict = SV_NOT_PRINTED;
		if (s->in_atomic < 0)
			snprintf(s->context, sizeof(s->context),
				 "not printed, and no in_atomic() line");
		else
			snprintf(s->context, sizeof(s->context),
				 "not printed: in_atomic() %d, "
				 "irqs_disabled() %d",
				 s->in_atomic, s->irqs_disabled);
		WHY(s, "Before 5.16 this printer gave no count: in_atomic() 1 "
		       "says preempt_count() was above the expected offset "
		       "(preemption, bh or an interrupt; a spinlock only "
		       "on PREEMPT_COUNT kernels), irqs_disabled() 1 that "
		       "interrupts were off.");
		return;
	}
	if (s->rt_bracket)
		WHY(s, "The -RT patch's __might_sleep() prints preempt_count() "
		       "in brackets as the caller left it: the printer adds "
		       "nothing.");
	else
		WHY(s, "__might_resched() prints preempt_count() as the caller "
		       "left it: the printer adds nothing.");
	if (s->have_expected && s->printed < s->expected &&
	    s->printed <= 0xff) {
		s->caller_known = true;
		s->caller = (int64_t)s->printed;
		set_imbalance(s, (int64_t)s->printed - (int64_t)s->expected,
			      "The count is below the offset the caller "
			      "expected to hold (e.g. cond_resched_lock()'s "
			      "lock level).");
		return;
	}
	caller_holds(s, s->printed);
	if (s->verdict == SV_DECODED && !s->caller && s->irqs_disabled)
		snprintf(s->context, sizeof(s->context),
			 "task with nothing counted, but irqs disabled");
	if (s->verdict == SV_DECODED && s->idle && (s->caller & 0xff) == 1)
		NOTE(s, "The preempt depth of 1 is the idle task's baseline, "
			"not a lock it took.");
}

/*
 * The 2.6 -RT i386 oops prints the registers from die(), which holds
 * die.lock (spin_lock_irq()) meanwhile: on a PREEMPT kernel that level is
 * in the count.
 */
static void do_oops(struct splat *s)
{
	uint64_t v = s->printed;

	s->fn = "die(), show_registers()";
	if (!(v & 0xff)) {
		s->own = 0;
		WHY(s, "The preempt depth is 0: die()'s lock is not counted "
		       "(no CONFIG_PREEMPT), so the count is the faulting "
		       "code's.");
	} else {
		s->own = 1;
		v -= (uint64_t)s->own;
		WHY(s, "die() prints the registers holding its die.lock "
		       "(spin_lock_irq()), whose preempt level is in the "
		       "count: the faulting code held one level less.");
		if (s->trace_die)
			WHY(s, "The -RT latency tracer lists die()'s level.");
	}
	caller_holds(s, v);
}

/* The -RT latency tracer's count as a second witness. */
static void trace_notes(struct splat *s)
{
	uint64_t t = s->trace_count - (uint64_t)s->trace_self;

	if (!s->have_trace)
		return;
	if (!s->rt) {
		s->rt = true;
		NOTE(s, "print_traces() was the 2.6 -RT patch's: this is a "
			"PREEMPT_RT kernel.");
	}
	NOTE(s,
	     "The -RT latency tracer printed preempt count 0x%" PRIx64
	     " with %d level%s listed",
	     s->trace_count, s->trace_levels, s->trace_levels == 1 ? "" : "s");
	if (s->trace_self)
		add(s->notes, sizeof(s->notes),
		    ", one of them print_traces()'s own: 0x%" PRIx64
		    " without it",
		    t);
	if (s->have_count && t == s->printed)
		add(s->notes, sizeof(s->notes), ", as the report says.");
	else if (s->have_count)
		add(s->notes, sizeof(s->notes),
		    ", not the report's 0x%" PRIx64
		    ": the count changed between the two prints.",
		    s->printed);
	else
		add(s->notes, sizeof(s->notes), ".");
}

static void do_smp_id(struct splat *s)
{
	if (s->printed > 1) {
		s->verdict = SV_INCONSISTENT;
		snprintf(s->context, sizeof(s->context),
			 "0x%" PRIx64 " cannot be printed by this check",
			 s->printed);
		WHY(s, "check_preemption_disabled() fires only when "
		       "preempt_count() is 0 and irqs are on.");
		return;
	}
	s->own = 1;
	s->verdict = SV_DECODED;
	s->caller_known = true;
	s->caller = 0;
	if (s->idle)
		NOTE(s, "The idle task at count 0: a kernel before 2.6.12, "
			"whose idle tasks still ran preemptible.");
	snprintf(s->context, sizeof(s->context),
		 "task, preemptible (count 0, irqs on)");
	if (s->printed == 0)
		WHY(s, "The check fires only at count 0 with irqs on; it then "
		       "disables preemption itself and newer kernels print "
		       "preempt_count() - 1 to take that level out: the "
		       "caller held 0.");
	else
		WHY(s, "The check fires only at count 0 with irqs on; older "
		       "kernels printed preempt_count() with the printer's own "
		       "preempt_disable() in it, hence 1: the caller held "
		       "0.");
}

static void do_softirq(struct splat *s)
{
	int64_t d = (int64_t)s->printed - (int64_t)s->entered;
	uint64_t ent = s->entered;
	bool m;
	int64_t n;

	s->own = 0;
	if (below_zero(s->printed, &n, &s->x86_masked)) {
		set_imbalance(s, n - (int64_t)ent,
			      "The handler returned with the count below "
			      "what it entered with.");
		return;
	}
	if (below_zero(ent, &n, &m) || looks_like_address(ent)) {
		uint64_t c;
		const struct era *e;

		check_corrupt(s, ent, &c, &e);
		return;
	}
	WHY(s, "handle_softirqs() compares the count before and after the "
	       "handler (both include SOFTIRQ_OFFSET 0x100): the difference "
	       "is what the handler leaked.");
	if (d < 0) {
		set_imbalance(s, d,
			      "The handler returned with less than it "
			      "entered with.");
		return;
	}
	snprintf(s->leak, sizeof(s->leak), "the handler leaked 0x%" PRIx64,
		 (uint64_t)d);
	caller_holds(s, (uint64_t)d);
}

static void do_workqueue(struct splat *s)
{
	s->own = 0;
	if (s->wq_new) {
		if (s->lock_to != s->lock_from)
			add_sentence(s->leak, sizeof(s->leak),
				     "lockdep held locks %ld -> %ld;",
				     s->lock_from, s->lock_to);
		if (s->rcu_to != s->rcu_from)
			add_sentence(s->leak, sizeof(s->leak),
				     "RCU depth %ld -> %ld "
				     "(an rcu_read_lock() without unlock, not "
				     "in the "
				     "count);",
				     s->rcu_from, s->rcu_to);
	}
	WHY(s, "A worker runs each work function at count 0, so the count "
	       "after it is what it leaked.");
	if (!s->printed && !s->leak[0])
		snprintf(s->leak, sizeof(s->leak),
			 "a lock (lockdep's held "
			 "lock list), not the count");
	caller_holds(s, s->printed);
	if (s->verdict == SV_DECODED && s->printed && !s->leak[0])
		snprintf(s->leak, sizeof(s->leak), "the count: 0x%" PRIx64,
			 s->printed);
}

static void do_exit(struct splat *s)
{
	s->own = 0;
	WHY(s, "do_exit() prints the count in decimal; a task exits at 0, so "
	       "all of it leaked.");
	caller_holds(s, s->printed);
}

static void do_cant_sleep(struct splat *s)
{
	s->own = 0;
	s->verdict = SV_NOT_PRINTED;
	snprintf(s->context, sizeof(s->context),
		 "preemptible where atomic context was assumed "
		 "(in_atomic() %d, irqs_disabled() %d)",
		 s->in_atomic, s->irqs_disabled);
	WHY(s, "cant_sleep() fires when the count is at or below the allowed "
	       "offset and irqs are on: the caller could have slept, but "
	       "the code asserted it could not.");
}

static void do_lockdep_irq(struct splat *s)
{
	uint64_t v = ((uint64_t)s->hc_n << 16) | ((uint64_t)s->sc_n << 8);

	s->own = 0;
	WHY(s,
	    "lockdep's [HC%d[%d]:SC%d[%d]:HE%d:SE%d]: HC and SC are "
	    "lockdep's own hardirq/softirq context flags, the bracketed "
	    "numbers hardirq_count() and softirq_count() shifted down, HE "
	    "and SE whether hardirqs and softirqs were enabled.",
	    s->hc, s->hc_n, s->sc, s->sc_n, s->he, s->se);
	caller_holds(s, v);
	if (!strcmp(s->stack, "NMI") && s->hc_n == 1 && !s->sc_n) {
		snprintf(s->context, sizeof(s->context), "NMI");
		WHY(s, "The trace runs on the NMI stack: nmi_enter() adds "
		       "HARDIRQ_OFFSET too, so lockdep's HC1[1] is the NMI, "
		       "not a hardirq.");
	}
	add(s->context, sizeof(s->context), "; hardirqs %s, softirqs %s",
	    s->he ? "enabled" : "disabled", s->se ? "enabled" : "disabled");
	s->printed = v;
	s->have_count = true;
}

static void analyse(struct splat *s)
{
	switch (s->printer) {
	case SPLAT_SCHED:
		if (s->have_count)
			do_sched(s);
		else
			sched_no_count(s);
		break;
	case SPLAT_SLEEP:
		do_sleep(s);
		break;
	case SPLAT_SMP_ID:
		if (s->have_count)
			do_smp_id(s);
		break;
	case SPLAT_SOFTIRQ:
		if (s->have_count)
			do_softirq(s);
		break;
	case SPLAT_WORKQUEUE:
		do_workqueue(s);
		break;
	case SPLAT_EXIT:
		do_exit(s);
		break;
	case SPLAT_CANT_SLEEP:
		do_cant_sleep(s);
		break;
	case SPLAT_LOCKDEP_IRQ:
		do_lockdep_irq(s);
		break;
	case SPLAT_OOPS_REGS:
		if (s->have_count)
			do_oops(s);
		break;
	case SPLAT_NONE:
		break;
	}
}

#define SPLAT_WINDOW 64

void splat_read(const char *const *lines, size_t n, size_t at, struct splat *s)
{
	size_t from = at > 4 ? at - 4 : 0, to = at + SPLAT_WINDOW;

	memset(s, 0, sizeof(*s));
	s->printer = splat_header(lines[at]);
	s->line = at + 1;
	s->in_atomic = s->irqs_disabled = -1;
	s->pid = -1;
	s->own = -1;
	s->verdict = SV_NOT_PRINTED;
	read_header(s, lines[at]);
	/* a mail wrapped the header after "code:": "swapper/0" follows */
	if (s->printer == SPLAT_SMP_ID && !s->comm[0] && at + 1 < n)
		read_comm_pid(s, lines[at + 1],
			      "^([^[:space:]/]+)/([0-9]+)[[:space:]]*$");
	if (to > n)
		to = n;
	for (size_t i = from; i < to; i++) {
		if (i > at && splat_header(lines[i]) != SPLAT_NONE)
			break;
		if (i > at && strstr(lines[i], "---[ end trace"))
			break;
		if (i >= at && s->printer == SPLAT_WORKQUEUE)
			read_wq_new(s, lines[i]);
		if (i < at) { /* lockdep's version line comes first */
			read_version(s, lines[i]);
			continue;
		}
		read_line(s, lines[i], i + 1 < n ? lines[i + 1] : NULL);
	}
	idle_and_threads(s);
	analyse(s);
	trace_notes(s);
}

/* ---- lockdep's lock lines ---- */

/*
 * Which numbering the kernel printed wait types in.  With
 * CONFIG_PROVE_RAW_LOCK_NESTING spinlock_t has a type of its own (3) and
 * sleeping locks are 4, a task's context 5; without it spinlock_t is 2
 * like raw_spinlock_t, sleeping locks 3, a task's context 4.  A 4 in a
 * lock's pair, or context 5 or 3, proves the first; context 4 the second.
 */
enum splat_wait_numbering splat_wait_numbering(const char *const *lines,
					       size_t n)
{
	regmatch_t m[3];

	for (size_t i = 0; i < n; i++) {
		if (rx("\\}-\\{([0-9]):([0-9])\\}", lines[i], m, 3) &&
		    (lines[i][m[1].rm_so] == '4' ||
		     lines[i][m[2].rm_so] == '4'))
			return WAIT_NUM_NESTING;
		if (rx("^context-\\{([0-9]):[0-9]\\}$", lines[i], m, 2)) {
			char c = lines[i][m[1].rm_so];

			if (c == '5' || c == '3')
				return WAIT_NUM_NESTING;
			if (c == '4')
				return WAIT_NUM_CLASSIC;
		}
	}
	return WAIT_NUM_UNKNOWN;
}

static const char *wait_type(int w, enum splat_wait_numbering num)
{
	switch (w) {
	case 0:
		return "none (not checked: an SRCU domain, a bare lockdep_map)";
	case 1:
		return "wait-free (an RCU reader)";
	case 2:
		return num == WAIT_NUM_NESTING
			       ? "spinning (raw_spinlock_t, bit spinlock)"
		       : num == WAIT_NUM_CLASSIC
			       ? "spinning (raw_spinlock_t or spinlock_t)"
			       : "spinning (raw_spinlock_t; spinlock_t too "
				 "without CONFIG_PROVE_RAW_LOCK_NESTING)";
	case 3:
		return num == WAIT_NUM_NESTING
			       ? "spinlock_t-like (spins, sleeps on "
				 "PREEMPT_RT: "
				 "spinlock_t, rwlock_t, local_lock_t)"
		       : num == WAIT_NUM_CLASSIC
			       ? "sleeping (mutex, rwsem)"
			       : "sleeping (mutex, rwsem), or spinlock_t-like "
				 "(sleeps on PREEMPT_RT) with "
				 "CONFIG_PROVE_RAW_LOCK_NESTING";
	case 4:
		return num == WAIT_NUM_CLASSIC ? "any (a task)"
					       : "sleeping (mutex, rwsem)";
	case 5:
		return "any (a task)";
	default:
		return "unknown";
	}
}

/* Documentation/locking/lockdep-design.rst's table: ever in irq or not,
 * ever with irqs enabled or not. */
static const char *usage_char(char c)
{
	switch (c) {
	case '.':
		return "never in irq, never with irqs enabled";
	case '-':
		return "in irq, never with irqs enabled";
	case '+':
		return "with irqs enabled, never in irq";
	case '?':
		return "in irq and with irqs enabled";
	default:
		return "?";
	}
}

/*
 * The context line of "BUG: Invalid wait context": what the context
 * itself allowed, before the held locks lowered it.
 */
static bool wait_context_line(const char *line, enum splat_wait_numbering num,
			      char *buf, size_t len)
{
	regmatch_t m[2];
	int w;

	if (!rx("^context-\\{([0-9]):[0-9]\\}$", line, m, 2))
		return false;
	w = line[m[1].rm_so] - '0';
	if (num == WAIT_NUM_UNKNOWN)
		num = w == 4 ? WAIT_NUM_CLASSIC : WAIT_NUM_NESTING;
	buf[0] = '\0';
	add(buf, len, "wait context %d: the context allows locks up to %s", w,
	    wait_type(w, num));
	if (num == WAIT_NUM_NESTING && w == 3)
		add(buf, len,
		    " (a softirq, or hardirq code PREEMPT_RT runs "
		    "in a thread)");
	else if (w == 2)
		add(buf, len,
		    " (hardirq code that stays hard even on "
		    "PREEMPT_RT)");
	add(buf, len,
	    "; the held locks' inner types lower it, and the lock "
	    "taken must not wait in a stronger way");
	return true;
}

bool splat_held_lock(const char *line, enum splat_wait_numbering num,
		     const char **role, char *name, size_t nlen, char *buf,
		     size_t len)
{
	static const char *const states[] = {"hardirq",	   "hardirq-read",
					     "softirq",	   "softirq-read",
					     "reclaim_fs", "reclaim_fs-read"};
	regmatch_t m[9];
	char usage[16];
	size_t nu;

	if (wait_context_line(line, num, buf, len)) {
		*role = "wait_context";
		snprintf(name, nlen, "%s", "");
		return true;
	}
	/* " #0: addr (name)", "addr (name)" (the lock being taken) or
	 * "-> #1 (name)" (a dependency chain's entry) */
	if (!rx("^(#[0-9]+: +([[:xdigit:]]+ )?|[[:xdigit:]]{8,16} |-> #[0-9]+ )"
		"\\((.+)\\)\\{([-.+?]{4,6})\\}(-\\{([0-9]):([0-9])\\})?"
		"(, at: .*|:)$",
		line, m, 9))
		return false;
	*role = line[0] == '#'	 ? "held_lock"
		: line[0] == '-' ? "chain_lock"
				 : "lock";
	grp(line, &m[3], name, nlen);
	grp(line, &m[4], usage, sizeof(usage));
	nu = strlen(usage);
	buf[0] = '\0';
	add(buf, len, "lock %s, usage {%s}:", name, usage);
	for (size_t i = 0; i < nu && i < 6; i++)
		add(buf, len, " %s %s%s", states[i], usage_char(usage[i]),
		    i + 1 < nu ? ";" : "");
	if (m[5].rm_so >= 0) {
		int outer = line[m[6].rm_so] - '0',
		    inner = line[m[7].rm_so] - '0';

		add(buf, len, "; wait types {%d:%d}: outer %s, inner %s", outer,
		    inner, wait_type(outer, num), wait_type(inner, num));
	}
	return true;
}
