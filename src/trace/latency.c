// SPDX-License-Identifier: MIT
/*
 * The latency report in ftrace's layout: the same header, the same flag
 * columns and event lines as /sys/kernel/tracing/trace shows after an
 * irqsoff-family tracer ran, so people (and scripts) who read those read
 * this.  The layout is ftrace's; the code is ours.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <preempt/interrupt.h>
#include <preempt/sched.h>

#include "../debug/report.h"
#include "trace_internal.h"

/*
 * The kernel's names for its preemption models in this header
 * (print_trace_header(), kernel/trace/trace.c): server, desktop, preempt,
 * lazy (since the lazy model, Linux 6.13) and preempt_rt.
 */
static const char *model_name(enum preempt_model model)
{
	switch (model) {
	case PREEMPT_MODEL_NONE:
		return "server";
	case PREEMPT_MODEL_VOLUNTARY:
		return "desktop";
	case PREEMPT_MODEL_FULL:
		return "preempt";
	case PREEMPT_MODEL_LAZY:
		return "lazy";
	case PREEMPT_MODEL_RT:
		return "preempt_rt";
	default:
		return "unknown";
	}
}

/* ftrace's delay mark: how long until the next event. */
static char delay_mark(uint64_t ns)
{
	static const struct {
		uint64_t over;
		char mark;
	} marks[] = {
		{1000000000ULL, '$'}, {100000000ULL, '@'}, {10000000ULL, '*'},
		{1000000ULL, '#'},    {100000ULL, '!'},	   {10000ULL, '+'},
	};

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (ns > marks[i].over)
			return marks[i].mark;
	return ' ';
}

static char irqs_off_flag(uint32_t w)
{
	bool irqs = w & HARDIRQ_DISABLE_MASK;
	bool bh = (w & SOFTIRQ_MASK) >> (SOFTIRQ_SHIFT + 1);

	return irqs && bh ? 'D' : irqs ? 'd' : bh ? 'b' : '.';
}

/*
 * An NMI adds a hardirq level of its own here, as in Linux; 'Z' means a
 * hardirq was already running under it.
 */
static char context_flag(uint32_t w)
{
	unsigned int nmi = (w & NMI_MASK) >> NMI_SHIFT;
	unsigned int hard = (w & HARDIRQ_MASK) >> HARDIRQ_SHIFT;
	bool soft = w & SOFTIRQ_OFFSET;

	if (nmi)
		return hard > nmi ? 'Z' : 'z';
	if (hard)
		return soft ? 'H' : 'h';
	return soft ? 's' : '.';
}

/*
 * ftrace's need-resched column, as it reads with lazy preemption: N for a
 * reschedule owed now (the bit folded into the word), l for a lazy one
 * (due at the tick), B for both.
 */
static char need_resched_flag(const struct pk_trace_entry *e)
{
	bool now = !(e->word & PREEMPT_NEED_RESCHED);
	bool lazy = e->flags & PK_TRACE_F_LAZY;

	if (now)
		return lazy ? 'B' : 'N';
	return lazy ? 'l' : '.';
}

static char nibble(unsigned int v)
{
	return v & 0xf ? "0123456789abcdef"[v & 0xf] : '.';
}

/* The five flag characters after the CPU number. */
void pk_trace_lat_flags(const struct pk_trace_entry *e, char flags[6])
{
	flags[0] = irqs_off_flag(e->word);
	flags[1] = need_resched_flag(e);
	flags[2] = context_flag(e->word);
	/* Both depths saturate at f, as ftrace's do. */
	flags[3] = nibble(
		(e->word & PREEMPT_MASK) > 15 ? 15 : e->word & PREEMPT_MASK);
	flags[4] = nibble(e->migrate > 15 ? 15 : e->migrate);
	flags[5] = '\0';
}

static const char *state_str(int state)
{
	if (state & TASK_DEAD)
		return "X";
	if (state & TASK_NEW)
		return "N";
	if (state & TASK_UNINTERRUPTIBLE)
		return "D";
	if (state & TASK_INTERRUPTIBLE)
		return "S";
	return "R";
}

static const char *vec_name(int vec)
{
	return vec >= 0 && vec < NR_SOFTIRQS ? softirq_to_name[vec] : "?";
}

/* The event's own text, as the kernel's tracepoints print theirs. */
void pk_trace_event_text(const struct pk_trace_entry *e, char *buf, size_t size)
{
	static const char *const ctx_names[] = {
		[PK_TRACE_IRQS_OFF] = "irq_disable",
		[PK_TRACE_IRQS_ON] = "irq_enable",
		[PK_TRACE_PREEMPT_OFF] = "preempt_disable",
		[PK_TRACE_PREEMPT_ON] = "preempt_enable",
	};
	char sym[200], psym[200];

	switch (e->type) {
	case PK_TRACE_IRQS_OFF:
	case PK_TRACE_IRQS_ON:
	case PK_TRACE_PREEMPT_OFF:
	case PK_TRACE_PREEMPT_ON:
		snprintf(buf, size, "%s: caller=%s parent=%s",
			 ctx_names[e->type],
			 pk_sym_str(e->ctx.ip, sym, sizeof(sym)),
			 pk_sym_str(e->ctx.parent, psym, sizeof(psym)));
		break;
	case PK_TRACE_IRQ_ENTRY:
		snprintf(buf, size, "irq_handler_entry: irq=%d name=%.16s",
			 e->irq.irq, e->irq.name);
		break;
	case PK_TRACE_IRQ_EXIT:
		snprintf(buf, size, "irq_handler_exit: irq=%d ret=%s",
			 e->irq.irq, e->irq.ret ? "handled" : "unhandled");
		break;
	case PK_TRACE_SOFTIRQ_ENTRY:
	case PK_TRACE_SOFTIRQ_EXIT:
		snprintf(buf, size, "softirq_%s: vec=%d [action=%s]",
			 e->type == PK_TRACE_SOFTIRQ_ENTRY ? "entry" : "exit",
			 e->softirq.vec, vec_name(e->softirq.vec));
		break;
	case PK_TRACE_SCHED_SWITCH:
		snprintf(buf, size,
			 "sched_switch: prev_comm=%.16s prev_pid=%d "
			 "prev_prio=%d prev_state=%s ==> next_comm=%.16s "
			 "next_pid=%d next_prio=%d",
			 e->comm, e->pid, e->sw.prev_prio,
			 state_str(e->sw.prev_state), e->sw.next_comm,
			 e->sw.next_pid, e->sw.next_prio);
		break;
	case PK_TRACE_SCHED_WAKEUP:
		snprintf(buf, size,
			 "sched_wakeup: comm=%.16s pid=%d prio=%d "
			 "target_cpu=%03d",
			 e->wakeup.comm, e->wakeup.pid, e->wakeup.prio,
			 e->wakeup.target_cpu);
		break;
	default:
		snprintf(buf, size, "unknown event %u", e->type);
	}
}

/* ftrace shows the idle tasks as <idle> (ours are swapper/N, as Linux's). */
const char *pk_trace_comm(const struct pk_trace_entry *e)
{
	return e->pid == 0 || !strncmp(e->comm, "swapper/", 8) ? "<idle>"
							       : e->comm;
}

static void print_event(FILE *out, const struct pk_trace_entry *e,
			uint64_t start, uint64_t next)
{
	char flags[6], text[320];

	pk_trace_lat_flags(e, flags);
	pk_trace_event_text(e, text, sizeof(text));
	fprintf(out, "%8.8s-%-7d %3d%s %4lluus%c: %s\n", pk_trace_comm(e),
		e->pid, e->cpu, flags,
		(unsigned long long)((e->ts - start) / 1000),
		delay_mark(next > e->ts ? next - e->ts : 0), text);
}

static const char *sym_name(unsigned long ip, char *buf, size_t size)
{
	unsigned long off, symsize;
	const char *file;
	int line;

	if (!pk_symbolize(ip, buf, size, &off, &symsize, &file, &line))
		snprintf(buf, size, "0x%lx", ip);
	return buf;
}

/*
 * ftrace ends a latency trace with the stack where the section ended: a
 * "<stack trace>" line as the last event's, then " => function" per frame.
 */
static void print_stack(FILE *out, const struct pk_trace_entry *last,
			const struct pk_trace_max *m)
{
	char flags[6];

	pk_trace_lat_flags(last, flags);
	fprintf(out, "%8.8s-%-7d %3d%s %4lluus : <stack trace>\n",
		pk_trace_comm(last), last->pid, last->cpu, flags,
		(unsigned long long)((last->ts - m->start_ts) / 1000));
	for (int i = 0; i < m->nr_stack; i++) {
		char name[200];

		fprintf(out, " => %s\n",
			sym_name(m->stack[i], name, sizeof(name)));
	}
}

static int policy_nice(const struct pk_trace_max *m)
{
	return m->prio >= MAX_RT_PRIO ? m->prio - DEFAULT_PRIO : 0;
}

static int policy_rt_prio(const struct pk_trace_max *m)
{
	return m->prio < MAX_RT_PRIO ? MAX_RT_PRIO - 1 - m->prio : 0;
}

static void print_header(FILE *out, const struct pk_trace_max *m)
{
	const char *tracer = pk_tracer_str(pk_tracer_state.tracer);
	char start[200], end[200];

	fprintf(out, "# tracer: %s\n#\n", tracer);
	fprintf(out, "# %s latency trace v1.1.5 on libpreempt\n", tracer);
	fprintf(out, "# -----------------------------------------------------"
		     "---------------\n");
	fprintf(out,
		"# latency: %llu us, #%lu/%lu, CPU#%d | (M:%s VP:0, KP:0, "
		"SP:0 HP:0 #P:%d)\n",
		(unsigned long long)(m->latency_ns / 1000), m->entries,
		m->total, m->cpu, model_name(preempt_model()),
		m->nr_cpus > 0 ? m->nr_cpus : 1);
	fprintf(out, "#    -----------------\n");
	fprintf(out,
		"#    | task: %.16s-%d (uid:0 nice:%d policy:%d rt_prio:%d)\n",
		m->pid ? m->comm : "<idle>", m->pid, policy_nice(m), m->policy,
		policy_rt_prio(m));
	fprintf(out, "#    -----------------\n");
	fprintf(out, "#  => started at: %s\n",
		sym_name(m->start_ip, start, sizeof(start)));
	fprintf(out, "#  => ended at:   %s\n#\n#\n",
		sym_name(m->end_ip, end, sizeof(end)));
}

static void print_legend(FILE *out)
{
	fputs("#                    _------=> CPU#            \n"
	      "#                   / _-----=> irqs-off/BH-disabled\n"
	      "#                  | / _----=> need-resched    \n"
	      "#                  || / _---=> hardirq/softirq \n"
	      "#                  ||| / _--=> preempt-depth   \n"
	      "#                  |||| / _-=> migrate-disable \n"
	      "#                  ||||| /     delay           \n"
	      "#  cmd     pid     |||||| time  |   caller     \n"
	      "#     \\   /        ||||||  \\    |    /       \n",
	      out);
}

int pk_trace_print_latency(FILE *out)
{
	struct pk_trace_entry *ev;
	struct pk_trace_max m;
	unsigned long n;

	if (!pk_trace_best(&m)) {
		fprintf(out, "# tracer: %s\n#\n# no section recorded\n",
			pk_tracer_str(pk_tracer_state.tracer));
		return -ENODATA;
	}
	ev = calloc(m.entries ? m.entries : 1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	n = pk_trace_max_events(ev, m.entries);
	m.entries = n;
	print_header(out, &m);
	print_legend(out);
	for (unsigned long i = 0; i < n; i++)
		print_event(out, &ev[i], m.start_ts,
			    i + 1 < n ? ev[i + 1].ts : ev[i].ts);
	if (n)
		print_stack(out, &ev[n - 1], &m);
	fputc('\n', out);
	free(ev);
	return 0;
}
