// SPDX-License-Identifier: MIT
/*
 * The tracers: the tracepoint functions behind include/preempt/tracepoint.h,
 * a ring per CPU, and the irqsoff/preemptoff/preemptirqsoff section logic.
 *
 * A CPU here is a host thread: a vCPU, or a plain thread that is its own
 * CPU.  The word and the sections it delimits are per thread, so a
 * section always starts and ends on the thread that keeps its state, even
 * when the task that opened it was switched out in between (the switch
 * itself runs with interrupts off, from prev's __schedule() to next's
 * finish_task_switch(), on one vCPU).
 *
 * Every function here may run in a signal handler that interrupted another
 * one on the same thread: state is only ever taken into locals first, and
 * the copy of a new maximum is skipped when it would nest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <preempt/debug.h>
#include <preempt/sched.h>
#include <preempt/trace.h>
#include <preempt/tracepoint.h>

#include "../debug/report.h"
#include "trace_internal.h"
#include "../port/sim.h"

struct pk_trace_state pk_tracer_state;

static __thread struct pk_trace_cpu *tls_cpu
	__attribute__((tls_model("initial-exec")));
static __thread unsigned int tls_gen __attribute__((tls_model("initial-exec")));

static uint64_t now_ns(void)
{
	return (uint64_t)pk_clock_ns();
}

/* A thread's first event of this trace gives it a CPU slot. */
static struct pk_trace_cpu *claim_cpu(unsigned int gen)
{
	struct pk_trace_cpu *t = NULL;
	unsigned int n;

	/* A signal handler's event meanwhile is dropped, not given a slot. */
	tls_cpu = NULL;
	tls_gen = gen;
	barrier();
	n = __atomic_fetch_add(&pk_tracer_state.nr_claimed, 1,
			       __ATOMIC_RELAXED);
	if (n < PK_TRACE_MAX_CPUS) {
		t = &pk_tracer_state.cpus[n];
		t->first = pk_ring_head(&pk_trace_buf_of(t)->ring);
		t->tid = (int)gettid();
		t->sect_on = 0;
		__atomic_store_n(&t->ready, gen, __ATOMIC_RELEASE);
	}
	tls_cpu = t;
	return t;
}

static struct pk_trace_cpu *this_trace_cpu(void)
{
	unsigned int gen =
		__atomic_load_n(&pk_tracer_state.gen, __ATOMIC_ACQUIRE);

	if (likely(tls_gen == gen))
		return tls_cpu;
	return claim_cpu(gen);
}

/* The word with the rt bottom-half state folded in, as the flags read. */
static uint32_t context_word(void)
{
	return (__pk_word() & ~SOFTIRQ_MASK) | (uint32_t)softirq_count();
}

static void fill_header(struct pk_trace_entry *e, enum pk_trace_type type)
{
	struct task_struct *p = current;

	e->ts = now_ns();
	e->word = context_word();
	e->type = (uint8_t)type;
	e->migrate = (uint8_t)(pk_migrate_disable_count & 0xff);
	/* Only a vCPU's tasks know their CPU; a plain thread is numbered. */
	e->flags = (p->cpu >= 0 ? PK_TRACE_F_VCPU : 0) |
		   (pk_need_resched_lazy() ? PK_TRACE_F_LAZY : 0);
	e->cpu = (uint8_t)(p->cpu >= 0 ? p->cpu : raw_smp_processor_id());
	e->pid = p->pid;
	memcpy(e->comm, p->comm, sizeof(e->comm));
	e->comm[sizeof(e->comm) - 1] = '\0';
}

static uint64_t record(struct pk_trace_cpu *t, struct pk_trace_entry *e)
{
	uint64_t idx = pk_ring_write(&pk_trace_buf_of(t)->ring, e);

	if (idx == UINT64_MAX)
		__atomic_add_fetch(&pk_tracer_state.lost, 1, __ATOMIC_RELAXED);
	return idx;
}

/*
 * The frame of @ip's function in @f: the return address nearest after @ip
 * (the call that reached the tracepoint returns into that function).  The
 * host's unwinder (pk_stack_capture(), async-signal-safe, see
 * src/debug/stacktrace.c) stands in for the kernel's CALLER_ADDR1, which
 * needs frame pointers.  -1 when no frame is near enough.
 */
static int frame_of(const unsigned long *f, int n, unsigned long ip)
{
	unsigned long best = 1UL << 16;
	int at = -1;

	for (int i = 0; i < n; i++) {
		unsigned long a = f[i];

		if (a >= ip && a - ip < best) {
			best = a - ip;
			at = i;
		}
	}
	return at;
}

/* The preemptirq events' parent=: the caller of @ip's function. */
static unsigned long parent_of(unsigned long ip)
{
	unsigned long f[12];
	int n = pk_stack_capture(f, 12, 0), at = frame_of(f, n, ip);

	return at >= 0 && at + 1 < n ? f[at + 1] : 0;
}

/* ftrace's stack block of a maximum: from @ip's function outwards. */
static void section_stack(struct pk_trace_section *s)
{
	unsigned long f[PK_TRACE_STACK + 8];
	int n = pk_stack_capture(f, PK_TRACE_STACK + 8, 0);
	int at = frame_of(f, n, s->end_ip);

	s->nr_stack = 0;
	for (int i = at < 0 ? 0 : at + 1; i < n && s->nr_stack < PK_TRACE_STACK;
	     i++)
		s->stack[s->nr_stack++] = f[i];
}

static uint64_t record_ctx(struct pk_trace_cpu *t, enum pk_trace_type type,
			   unsigned long ip, uint64_t *ts)
{
	struct pk_trace_entry e = {0};

	fill_header(&e, type);
	e.ctx.ip = ip;
	e.ctx.parent = parent_of(ip);
	*ts = e.ts;
	return record(t, &e);
}

/* ---- the latency tracers ---- */

static bool tracing_irqs(void)
{
	int tracer = pk_tracer_state.tracer;

	return tracer == PK_TRACER_IRQSOFF ||
	       tracer == PK_TRACER_PREEMPTIRQSOFF;
}

static bool tracing_preempt(void)
{
	int tracer = pk_tracer_state.tracer;

	return tracer == PK_TRACER_PREEMPTOFF ||
	       tracer == PK_TRACER_PREEMPTIRQSOFF;
}

/* Anything but the interrupt-disable depth holding the CPU. */
static bool preempt_held(void)
{
	return ((unsigned int)preempt_count() & ~HARDIRQ_DISABLE_MASK) != 0;
}

/* A section open since before the last tracing_on() missed its end. */
static bool section_open(const struct pk_trace_cpu *t, unsigned int epoch)
{
	return t->sect_on && t->sect_epoch == epoch;
}

static void section_start(struct pk_trace_cpu *t, uint64_t idx, uint64_t ts,
			  unsigned long ip)
{
	unsigned int epoch =
		__atomic_load_n(&pk_tracer_state.epoch, __ATOMIC_RELAXED);

	if (section_open(t, epoch) || in_nmi())
		return;
	t->sect_on = 0;
	barrier(); /* a nested stop sees a whole start or none */
	t->sect_ts = ts;
	t->sect_ip = ip;
	t->sect_idx = idx;
	t->sect_epoch = epoch;
	barrier();
	t->sect_on = 1;
}

static void section_stop(struct pk_trace_cpu *t, uint64_t idx, uint64_t ts,
			 unsigned long ip)
{
	struct pk_trace_section s;

	if (!t->sect_on || in_nmi())
		return;
	/* Its start was seen, its end missed while tracing was off. */
	if (t->sect_epoch !=
	    __atomic_load_n(&pk_tracer_state.epoch, __ATOMIC_RELAXED)) {
		t->sect_on = 0;
		return;
	}
	s.start_ts = t->sect_ts;
	s.start_ip = t->sect_ip;
	s.start_idx = t->sect_idx;
	barrier();
	t->sect_on = 0;
	s.end_ts = ts;
	s.end_ip = ip;
	s.end_idx = idx;
	if (s.end_ts - s.start_ts >
	    __atomic_load_n(&pk_tracer_state.max_latency_ns,
			    __ATOMIC_RELAXED)) {
		section_stack(&s);
		pk_trace_update_max(t, &s);
	}
}

/* ---- the tracepoints ---- */

/*
 * One outermost irqs-off/preempt-off edge: recorded, and when @counts (the
 * tracer watches this kind and nothing else keeps the section open) it
 * opens or closes the CPU's section.
 */
static void edge(enum pk_trace_type type, unsigned long ip, bool opens,
		 bool counts)
{
	struct pk_trace_cpu *t = this_trace_cpu();
	uint64_t ts, idx;

	if (!t)
		return;
	idx = record_ctx(t, type, ip, &ts);
	if (!counts)
		return;
	if (opens)
		section_start(t, idx, ts, ip);
	else
		section_stop(t, idx, ts, ip);
}

static void tp_irqs_off(unsigned long ip)
{
	edge(PK_TRACE_IRQS_OFF, ip, true, tracing_irqs());
}

static void tp_irqs_on(unsigned long ip)
{
	if (!irqs_disabled())
		return;
	/* preemptirqsoff: the section lasts while either is off. */
	edge(PK_TRACE_IRQS_ON, ip, false,
	     tracing_irqs() && !(tracing_preempt() && preempt_held()));
}

/* Only the outermost edge, and never an interrupt entry's own count. */
static bool preempt_edge(int val)
{
	unsigned int pc = (unsigned int)preempt_count() & ~HARDIRQ_DISABLE_MASK;

	return !((unsigned int)val & (HARDIRQ_MASK | NMI_MASK)) &&
	       pc == (unsigned int)val;
}

static void tp_preempt_add(unsigned long ip, int val)
{
	if (preempt_edge(val))
		edge(PK_TRACE_PREEMPT_OFF, ip, true, tracing_preempt());
}

static void tp_preempt_sub(unsigned long ip, int val)
{
	if (preempt_edge(val))
		edge(PK_TRACE_PREEMPT_ON, ip, false,
		     tracing_preempt() && !(tracing_irqs() && irqs_disabled()));
}

static void tp_irq_entry(unsigned int irq, const char *name)
{
	struct pk_trace_cpu *t = this_trace_cpu();
	struct pk_trace_entry e = {0};

	if (!t)
		return;
	fill_header(&e, PK_TRACE_IRQ_ENTRY);
	e.irq.irq = (int32_t)irq;
	if (name)
		strncpy(e.irq.name, name, sizeof(e.irq.name) - 1);
	record(t, &e);
}

static void tp_irq_exit(unsigned int irq, int ret)
{
	struct pk_trace_cpu *t = this_trace_cpu();
	struct pk_trace_entry e = {0};

	if (!t)
		return;
	fill_header(&e, PK_TRACE_IRQ_EXIT);
	e.irq.irq = (int32_t)irq;
	e.irq.ret = ret;
	record(t, &e);
}

static void tp_softirq(unsigned int vec, enum pk_trace_type type)
{
	struct pk_trace_cpu *t = this_trace_cpu();
	struct pk_trace_entry e = {0};

	if (!t)
		return;
	fill_header(&e, type);
	e.softirq.vec = (int32_t)vec;
	record(t, &e);
}

static void tp_softirq_entry(unsigned int vec)
{
	tp_softirq(vec, PK_TRACE_SOFTIRQ_ENTRY);
}

static void tp_softirq_exit(unsigned int vec)
{
	tp_softirq(vec, PK_TRACE_SOFTIRQ_EXIT);
}

static void tp_sched_wakeup(struct task_struct *p, int cpu)
{
	struct pk_trace_cpu *t = this_trace_cpu();
	struct pk_trace_entry e = {0};

	if (!t)
		return;
	fill_header(&e, PK_TRACE_SCHED_WAKEUP);
	e.wakeup.pid = p->pid;
	e.wakeup.prio = p->prio;
	e.wakeup.target_cpu = cpu;
	memcpy(e.wakeup.comm, p->comm, sizeof(e.wakeup.comm) - 1);
	record(t, &e);
}

/* A switch hook: prev is still current, the rq lock held, irqs off. */
static void tp_sched_switch(struct task_struct *prev, struct task_struct *next)
{
	struct pk_trace_cpu *t;
	struct pk_trace_entry e = {0};

	if (!tracing_is_on())
		return;
	t = this_trace_cpu();
	if (!t)
		return;
	fill_header(&e, PK_TRACE_SCHED_SWITCH);
	e.sw.prev_prio = prev->prio;
	e.sw.prev_state =
		(int32_t)__atomic_load_n(&prev->__state, __ATOMIC_RELAXED);
	e.sw.next_pid = next->pid;
	e.sw.next_prio = next->prio;
	memcpy(e.sw.next_comm, next->comm, sizeof(e.sw.next_comm) - 1);
	record(t, &e);
}

static const struct pk_tracepoint_ops trace_ops = {
	.irqs_off = tp_irqs_off,
	.irqs_on = tp_irqs_on,
	.preempt_add = tp_preempt_add,
	.preempt_sub = tp_preempt_sub,
	.irq_entry = tp_irq_entry,
	.irq_exit = tp_irq_exit,
	.softirq_entry = tp_softirq_entry,
	.softirq_exit = tp_softirq_exit,
	.sched_wakeup = tp_sched_wakeup,
};

static struct pk_switch_hook switch_hook = {.sched_out = tp_sched_switch};

/* ---- start and stop ---- */

static unsigned int round_pow2(unsigned int n)
{
	unsigned int size = 64;

	while (size < n && size < (1U << 24))
		size <<= 1;
	return size;
}

/*
 * Memory for every CPU's ring and kept section, mapped anew whenever a
 * start asks for another size and never unmapped: a hook that loaded the
 * ops just before a stop may still write into the old region, through the
 * struct pk_trace_buf it read.  Pages are touched only by CPUs that record.
 */
static int alloc_buffers(unsigned int size)
{
	size_t ring = (size_t)size * sizeof(struct pk_ring_slot);
	size_t kept = (size_t)size * sizeof(struct pk_trace_entry);
	size_t bufs = PK_TRACE_MAX_CPUS * sizeof(struct pk_trace_buf);
	struct pk_trace_buf *buf;
	char *mem;

	if (pk_tracer_state.size == size)
		return 0;
	mem = mmap(NULL, bufs + (ring + kept) * PK_TRACE_MAX_CPUS,
		   PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED)
		return -ENOMEM;
	buf = (struct pk_trace_buf *)mem;
	mem += bufs;
	for (int i = 0; i < PK_TRACE_MAX_CPUS; i++) {
		pk_ring_init(&buf[i].ring,
			     (struct pk_ring_slot *)(mem + ring * i), size);
		buf[i].max_ev =
			(struct pk_trace_entry *)(mem +
						  ring * PK_TRACE_MAX_CPUS +
						  kept * i);
		/* Complete before published: a late hook sees old or new. */
		__atomic_store_n(&pk_tracer_state.cpus[i].buf, &buf[i],
				 __ATOMIC_RELEASE);
	}
	pk_tracer_state.size = size;
	return 0;
}

static int register_switch_hook(void)
{
	int err;

	if (pk_tracer_state.hooked)
		return 0;
	err = pk_switch_hook_register(&switch_hook);
	if (!err)
		pk_tracer_state.hooked = 1;
	return err;
}

int pk_trace_start(const struct pk_trace_config *cfg)
{
	struct pk_trace_config def = {.tracer = PK_TRACER_PREEMPTIRQSOFF};
	int err;

	if (!cfg)
		cfg = &def;
	if (cfg->tracer < 0 || cfg->tracer >= PK_TRACER_NR)
		return -EINVAL;
	if (tracing_is_on())
		return -EBUSY;
	err = register_switch_hook();
	if (!err)
		err = alloc_buffers(round_pow2(
			cfg->buffer_events ? cfg->buffer_events
					   : PK_TRACE_DEFAULT_EVENTS));
	if (err)
		return err;
	pk_tracer_state.tracer = cfg->tracer;
	pk_trace_reset_max();
	pk_tracer_state.nr_claimed = 0;
	pk_tracer_state.lost = 0;
	/* A new generation: every thread claims a fresh slot. */
	__atomic_add_fetch(&pk_tracer_state.gen, 1, __ATOMIC_RELEASE);
	tracing_on();
	return 0;
}

void pk_trace_stop(void)
{
	tracing_off();
}

void tracing_on(void)
{
	if (!pk_tracer_state.size)
		return;
	__atomic_add_fetch(&pk_tracer_state.epoch, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&pk_tracepoint_ops, &trace_ops, __ATOMIC_RELEASE);
}

void tracing_off(void)
{
	__atomic_store_n(&pk_tracepoint_ops, NULL, __ATOMIC_RELEASE);
}

bool tracing_is_on(void)
{
	return __atomic_load_n(&pk_tracepoint_ops, __ATOMIC_ACQUIRE) != NULL;
}

unsigned long pk_trace_lost(void)
{
	unsigned long lost =
		__atomic_load_n(&pk_tracer_state.lost, __ATOMIC_RELAXED);
	unsigned int n =
		__atomic_load_n(&pk_tracer_state.nr_claimed, __ATOMIC_RELAXED);

	/* Threads beyond the slots lost everything; count them once each. */
	return lost + (n > PK_TRACE_MAX_CPUS ? n - PK_TRACE_MAX_CPUS : 0);
}

static const char *const tracer_names[PK_TRACER_NR] = {
	[PK_TRACER_NOP] = "nop",
	[PK_TRACER_IRQSOFF] = "irqsoff",
	[PK_TRACER_PREEMPTOFF] = "preemptoff",
	[PK_TRACER_PREEMPTIRQSOFF] = "preemptirqsoff",
};

int pk_tracer_parse(const char *name)
{
	for (int i = 0; i < PK_TRACER_NR; i++)
		if (name && !strcmp(name, tracer_names[i]))
			return i;
	return -1;
}

const char *pk_tracer_str(int tracer)
{
	if (tracer < 0 || tracer >= PK_TRACER_NR)
		return "?";
	return tracer_names[tracer];
}
