// SPDX-License-Identifier: MIT
/*
 * Chrome trace-event JSON (what chrome://tracing and Perfetto's UI open).
 * The machine is one process; each CPU gets three tracks: the contexts
 * (task slices as complete "X" events, hardirq and softirq spans as "B"/"E"
 * pairs, which nest inside them), and the interrupts-off and
 * preemption-off sections, which overlap each other and so need tracks of
 * their own.  Times are µs from the first event.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include <preempt/interrupt.h>

#include "trace_internal.h"

#define CHROME_PID 1
#define TID_IRQS_OFF 10000
#define TID_PREEMPT_OFF 20000

struct chrome {
	FILE *out;
	uint64_t t0;
	bool first;
};

/* What a walk over one slot's events carries: the output and its state. */
struct chrome_walk {
	struct chrome *c;
	void *state;
};

/* One slot's walk: the open task slice, context spans and sections. */
struct chrome_cpu {
	int tid;
	int pid;
	char comm[16];
	uint64_t task_start, irqs_start, preempt_start, last;
	int depth; /* open B events */
};

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

static void begin(struct chrome *c)
{
	fputs(c->first ? "\n" : ",\n", c->out);
	c->first = false;
}

static double us(const struct chrome *c, uint64_t ts)
{
	return ts > c->t0 ? (double)(ts - c->t0) / 1000.0 : 0.0;
}

static void thread_name(struct chrome *c, int tid, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void thread_name(struct chrome *c, int tid, const char *fmt, ...)
{
	char name[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	begin(c);
	fprintf(c->out,
		"{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
		"\"args\":{\"name\":",
		CHROME_PID, tid);
	json_str(c->out, name);
	fputs("}}", c->out);
	begin(c);
	fprintf(c->out,
		"{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,"
		"\"tid\":%d,\"args\":{\"sort_index\":%d}}",
		CHROME_PID, tid, tid);
}

static void complete(struct chrome *c, int tid, const char *cat,
		     const char *name, uint64_t from, uint64_t to)
{
	begin(c);
	fputs("{\"name\":", c->out);
	json_str(c->out, name);
	fprintf(c->out,
		",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,"
		"\"pid\":%d,\"tid\":%d}",
		cat, us(c, from), us(c, to) - us(c, from), CHROME_PID, tid);
}

static void span(struct chrome *c, int tid, char ph, const char *cat,
		 const char *name, uint64_t ts)
{
	begin(c);
	fputs("{\"name\":", c->out);
	json_str(c->out, name);
	fprintf(c->out,
		",\"cat\":\"%s\",\"ph\":\"%c\",\"ts\":%.3f,\"pid\":%d,"
		"\"tid\":%d}",
		cat, ph, us(c, ts), CHROME_PID, tid);
}

static void close_spans(struct chrome *c, struct chrome_cpu *s, uint64_t ts)
{
	while (s->depth > 0) {
		span(c, s->tid, 'E', "context", "", ts);
		s->depth--;
	}
}

static void end_task(struct chrome *c, struct chrome_cpu *s, uint64_t ts)
{
	char name[40];

	if (s->pid < 0)
		return;
	close_spans(c, s, ts);
	snprintf(name, sizeof(name), "%.16s-%d", s->pid ? s->comm : "<idle>",
		 s->pid);
	complete(c, s->tid, "task", name, s->task_start, ts);
	s->pid = -1;
}

static void start_task(struct chrome_cpu *s, int pid, const char *comm,
		       uint64_t ts)
{
	s->pid = pid;
	memcpy(s->comm, comm, sizeof(s->comm));
	s->comm[sizeof(s->comm) - 1] = '\0';
	s->task_start = ts;
}

static void context_event(struct chrome *c, struct chrome_cpu *s,
			  const struct pk_trace_entry *e)
{
	char name[48];

	switch (e->type) {
	case PK_TRACE_IRQ_ENTRY:
		snprintf(name, sizeof(name), "irq %d: %.16s", e->irq.irq,
			 e->irq.name);
		span(c, s->tid, 'B', "hardirq", name, e->ts);
		s->depth++;
		break;
	case PK_TRACE_SOFTIRQ_ENTRY:
		snprintf(name, sizeof(name), "softirq %s",
			 e->softirq.vec >= 0 && e->softirq.vec < NR_SOFTIRQS
				 ? softirq_to_name[e->softirq.vec]
				 : "?");
		span(c, s->tid, 'B', "softirq", name, e->ts);
		s->depth++;
		break;
	case PK_TRACE_IRQ_EXIT:
	case PK_TRACE_SOFTIRQ_EXIT:
		/* The ring may start inside a span: no B, so no E. */
		if (s->depth > 0) {
			span(c, s->tid, 'E', "context", "", e->ts);
			s->depth--;
		}
		break;
	case PK_TRACE_SCHED_SWITCH:
		end_task(c, s, e->ts);
		start_task(s, e->sw.next_pid, e->sw.next_comm, e->ts);
		break;
	default:
		break;
	}
}

static void section_event(struct chrome *c, struct chrome_cpu *s,
			  const struct pk_trace_entry *e)
{
	switch (e->type) {
	case PK_TRACE_IRQS_OFF:
		s->irqs_start = s->irqs_start ? s->irqs_start : e->ts;
		break;
	case PK_TRACE_IRQS_ON:
		if (s->irqs_start)
			complete(c, s->tid + TID_IRQS_OFF, "irqsoff",
				 "irqs off", s->irqs_start, e->ts);
		s->irqs_start = 0;
		break;
	case PK_TRACE_PREEMPT_OFF:
		s->preempt_start = s->preempt_start ? s->preempt_start : e->ts;
		break;
	case PK_TRACE_PREEMPT_ON:
		if (s->preempt_start)
			complete(c, s->tid + TID_PREEMPT_OFF, "preemptoff",
				 "preempt off", s->preempt_start, e->ts);
		s->preempt_start = 0;
		break;
	default:
		break;
	}
}

static void chrome_event(const struct pk_trace_entry *e, void *arg)
{
	struct chrome_walk *w = arg;
	struct chrome_cpu *s = w->state;
	struct chrome *c = w->c;

	/* A task seen without its switch (the ring's start, a host thread). */
	if (e->type != PK_TRACE_SCHED_SWITCH && e->pid != s->pid) {
		end_task(c, s, e->ts);
		start_task(s, e->pid, e->comm, e->ts);
	}
	if (e->type == PK_TRACE_SCHED_WAKEUP) {
		begin(c);
		fprintf(c->out,
			"{\"name\":\"wakeup "
			"%d\",\"cat\":\"sched\",\"ph\":\"i\","
			"\"s\":\"t\",\"ts\":%.3f,\"pid\":%d,\"tid\":%d}",
			e->wakeup.pid, us(c, e->ts), CHROME_PID, s->tid);
	}
	context_event(c, s, e);
	section_event(c, s, e);
	s->last = e->ts;
}

/* The vCPU a slot belongs to, or -1 for a plain thread. */
static void slot_scan(const struct pk_trace_entry *e, void *arg)
{
	struct chrome_walk *w = arg;
	struct chrome *c = w->c;
	int *vcpu = w->state;

	if (e->flags & PK_TRACE_F_VCPU)
		*vcpu = e->cpu;
	if (!c->t0 || e->ts < c->t0)
		c->t0 = e->ts;
}

static void print_cpu(struct chrome *c, struct pk_trace_cpu *t, unsigned int i)
{
	struct chrome_cpu s = {.pid = -1};
	int vcpu = -1;

	pk_trace_cpu_events(t, slot_scan, &(struct chrome_walk){c, &vcpu});
	s.tid = vcpu >= 0 ? vcpu : 1000 + (int)i;
	if (vcpu >= 0)
		thread_name(c, s.tid, "CPU %d", vcpu);
	else
		thread_name(c, s.tid, "thread %d", t->tid);
	thread_name(c, s.tid + TID_IRQS_OFF, "%s %d irqs-off",
		    vcpu >= 0 ? "CPU" : "thread", vcpu >= 0 ? vcpu : t->tid);
	thread_name(c, s.tid + TID_PREEMPT_OFF, "%s %d preempt-off",
		    vcpu >= 0 ? "CPU" : "thread", vcpu >= 0 ? vcpu : t->tid);
	pk_trace_cpu_events(t, chrome_event, &(struct chrome_walk){c, &s});
	end_task(c, &s, s.last);
}

static void find_t0(struct chrome *c)
{
	int vcpu;

	for (unsigned int i = 0; i < PK_TRACE_MAX_CPUS; i++) {
		struct pk_trace_cpu *t = pk_trace_cpu_at(i);

		if (t)
			pk_trace_cpu_events(t, slot_scan,
					    &(struct chrome_walk){c, &vcpu});
	}
}

int pk_trace_print_chrome(FILE *out)
{
	struct chrome c = {.out = out, .first = true};

	find_t0(&c);
	fputs("{\"traceEvents\":[", out);
	begin(&c);
	fprintf(out,
		"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,"
		"\"args\":{\"name\":\"libpreempt (%s)\"}}",
		CHROME_PID, pk_tracer_str(pk_tracer_state.tracer));
	for (unsigned int i = 0; i < PK_TRACE_MAX_CPUS; i++) {
		struct pk_trace_cpu *t = pk_trace_cpu_at(i);

		if (t)
			print_cpu(&c, t, i);
	}
	fputs("\n],\"displayTimeUnit\":\"ns\"}\n", out);
	return ferror(out) ? -EIO : 0;
}
