// SPDX-License-Identifier: MIT
/*
 * The lock validator: lock classes, the per-task held-lock stack, the
 * dependency graph between classes and the interrupt-state usage of each
 * class, checked as the kernel's lockdep checks them (semantics from the
 * kernel's Documentation/locking/lockdep-design.rst; our own code).
 *
 * lock_acquire() may run in an interrupt handler, that is inside a host
 * signal handler: nothing here allocates or takes a host lock.  Classes,
 * dependencies, chains and stack traces live in static pools; the graph is
 * guarded by our own spinning lock taken with interrupts disabled; a report
 * is written with symbol markers and emitted through the deferred report
 * path, symbolized in task context.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <preempt/irqflags.h>
#include <preempt/lockdep.h>
#include <preempt/preempt.h>
#include <preempt/sched.h>

#include "../debug/report.h"
#include "../irq/irq.h"
#include "../sched/sched_internal.h"
#include "../port/sim.h"

int debug_locks = 1;

/*
 * Every bit_spin_lock(): a bit has no room for a class key, so they are
 * tracked as held (the exit and user-return checks, the held-lock lists),
 * never checked (the kernel does not validate them at all).
 */
/*
 * The RCU readers (rcupdate.h): wait-free outside, and what they may hold
 * inside is a spinning lock (PREEMPT_RCU: spinlock_t, sleeping under rt).
 */
static struct lock_class_key rcu_lock_key, rcu_bh_lock_key, rcu_sched_lock_key;
struct lockdep_map rcu_lock_map = {
	.key = &rcu_lock_key,
	.name = "rcu_read_lock",
	.wait_type_outer = LD_WAIT_FREE,
	.wait_type_inner = LD_WAIT_CONFIG,
};
struct lockdep_map rcu_bh_lock_map = {
	.key = &rcu_bh_lock_key,
	.name = "rcu_read_lock_bh",
	.wait_type_outer = LD_WAIT_FREE,
	.wait_type_inner = LD_WAIT_CONFIG,
};
struct lockdep_map rcu_sched_lock_map = {
	.key = &rcu_sched_lock_key,
	.name = "rcu_read_lock_sched",
	.wait_type_outer = LD_WAIT_FREE,
	.wait_type_inner = LD_WAIT_SPIN,
};

struct lockdep_map pk_bit_spin_map = {
	.name = "bit_spin_lock",
	.wait_type_inner = LD_WAIT_SPIN,
};

#if CONFIG_LOCKDEP

#define MAX_LOCKDEP_KEYS 4096
#define CLASSHASH_SIZE 4096
#define MAX_LOCKDEP_ENTRIES 32768
#define MAX_LOCKDEP_CHAINS 32768
#define CHAINHASH_SIZE (2 * MAX_LOCKDEP_CHAINS)
#define MAX_STACK_TRACE_ENTRIES 262144
#define TRACE_FRAMES 8
#define MAX_REGISTERED_KEYS 1024

/* Usage bits: per state (hardirq, softirq) used-in, used-in-read,
 * enabled, enabled-read; then plain use. */
enum {
	USED_IN_HARDIRQ,
	USED_IN_HARDIRQ_READ,
	ENABLED_HARDIRQ,
	ENABLED_HARDIRQ_READ,
	USED_IN_SOFTIRQ,
	USED_IN_SOFTIRQ_READ,
	ENABLED_SOFTIRQ,
	ENABLED_SOFTIRQ_READ,
	LOCK_USED,
	LOCK_USED_READ,
	LOCK_USAGE_STATES,
};
#define STATE_STRIDE 4
#define BIT_READ 1
#define BIT_ENABLED 2
#define F(bit) (1u << (bit))

static const char *const usage_str[LOCK_USAGE_STATES] = {
	"IN-HARDIRQ-W", "IN-HARDIRQ-R",	    "HARDIRQ-ON-W", "HARDIRQ-ON-R",
	"IN-SOFTIRQ-W", "IN-SOFTIRQ-R",	    "SOFTIRQ-ON-W", "SOFTIRQ-ON-R",
	"INITIAL USE",	"INITIAL READ USE",
};
static const char *const state_name[2] = {"HARDIRQ", "SOFTIRQ"};

struct lock_class {
	const void *key; /* base key + subclass */
	const struct lock_class_key *base;
	const char *name;
	unsigned int name_version;
	unsigned int subclass;
	unsigned int usage_mask;
	unsigned int usage_trace[LOCK_USAGE_STATES];
	int fwd, bwd; /* dependency lists, -1 terminated */
	int hash_next;
	uint8_t wait_inner, wait_outer, lock_type;
	bool dead;
	bool wait_reported; /* one invalid wait context report per class */
};

/* Dependency types: was prev held shared, is next a recursive reader. */
#define DEP_SN 2 /* prev shared (S), next non-recursive (N) */
#define DEP_R 1	 /* next recursive reader (R) */
#define DEP_BIT(prev_shared, next_rec)                                         \
	(1u << (((prev_shared) ? DEP_SN : 0) | ((next_rec) ? DEP_R : 0)))
#define DEPS_FROM_E (DEP_BIT(0, 0) | DEP_BIT(0, 1))
#define DEPS_TO_R (DEP_BIT(0, 1) | DEP_BIT(1, 1))

struct lock_dep {
	unsigned int from, to;
	int next_fwd, next_bwd;
	unsigned int trace;
	unsigned int types;
};

static struct lock_class classes[MAX_LOCKDEP_KEYS];
static int class_hash[CLASSHASH_SIZE];
static unsigned int nr_classes;
static struct lock_dep deps[MAX_LOCKDEP_ENTRIES];
static unsigned int nr_deps;
static uint64_t chain_hash[CHAINHASH_SIZE];
static unsigned int nr_chains, nr_irq_chains;
static unsigned long trace_pool[MAX_STACK_TRACE_ENTRIES];
static unsigned int nr_trace_entries;
static const struct lock_class_key *registered[MAX_REGISTERED_KEYS];

static struct {
	unsigned long acquisitions, chain_hits, chain_misses, reports;
	unsigned long max_bfs, max_depth;
} stats;

static int graph_lock_word;
static bool keep_going;
static bool tables_ready;

/* Per thread: the validator's own code is running (no re-entry). */
static __thread int in_lockdep __attribute__((tls_model("initial-exec")));

/* ---- the graph lock ---- */

static void graph_lock(void)
{
	for (int spins = 0;
	     __atomic_exchange_n(&graph_lock_word, 1, __ATOMIC_ACQUIRE);
	     spins++)
		if (spins > 128)
			pk_host_yield();
		else
			pk_cpu_relax();
}

static void graph_unlock(void)
{
	__atomic_store_n(&graph_lock_word, 0, __ATOMIC_RELEASE);
}

static void tables_init(void)
{
	if (tables_ready)
		return;
	for (int i = 0; i < CLASSHASH_SIZE; i++)
		class_hash[i] = -1;
	tables_ready = true;
}

__attribute__((constructor)) static void lockdep_env(void)
{
	const char *e = getenv("PREEMPT_LOCKDEP");

	graph_lock();
	tables_init();
	graph_unlock();
	if (!e)
		return;
	if (!strcmp(e, "off") || !strcmp(e, "0"))
		debug_locks = 0;
	else if (!strcmp(e, "keep_going") || !strcmp(e, "keep-going"))
		keep_going = true;
}

/* ---- stack traces, captured signal-safely ---- */

/* Frames above @from (the validator's own) are dropped. */
static unsigned int save_trace(unsigned long from)
{
	unsigned long frames[TRACE_FRAMES];
	int len = pk_stack_capture(frames, TRACE_FRAMES, from);
	unsigned int at;

	if (len <= 0 ||
	    nr_trace_entries + (unsigned int)len > MAX_STACK_TRACE_ENTRIES)
		return 0;
	at = nr_trace_entries;
	memcpy(&trace_pool[at], frames, (size_t)len * sizeof(frames[0]));
	nr_trace_entries += (unsigned int)len;
	return (at << 5) | (unsigned int)len; /* len <= 16 fits in 5 bits */
}

/* ---- reports ---- */

struct report {
	struct pk_rbuf buf;
	unsigned long from; /* lock_acquire()'s return address */
};

static void rp(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void rp(struct report *r, const char *fmt, ...)
{
	va_list ap;
	size_t room = sizeof(r->buf.text) - r->buf.len;
	int n;

	if (room <= 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(r->buf.text + r->buf.len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		r->buf.len += (size_t)n < room ? (size_t)n : room - 1;
}

static void rp_sym(struct report *r, unsigned long ip)
{
	pk_rbuf_mark(&r->buf, PK_MARK_STR, ip);
}

static void rp_trace(struct report *r, unsigned int trace)
{
	unsigned int at = trace >> 5, len = trace & 31;

	if (!len)
		rp(r, "       (no stack trace recorded)\n");
	for (unsigned int i = 0; i < len; i++) {
		rp(r, "      ");
		pk_rbuf_mark(&r->buf, PK_MARK_SYM, trace_pool[at + i]);
	}
}

static char usage_char(const struct lock_class *c, int bit)
{
	bool used_in = c->usage_mask & F(bit);
	bool enabled = c->usage_mask & F(bit + BIT_ENABLED);

	if (used_in)
		return enabled ? '?' : '-';
	return enabled ? '+' : '.';
}

static void rp_class_name(struct report *r, const struct lock_class *c)
{
	rp(r, "%s", c->name ? c->name : "<unnamed>");
	if (c->name_version > 1)
		rp(r, "#%u", c->name_version);
	if (c->subclass)
		rp(r, "/%u", c->subclass);
}

/*
 * " (name){usage}-{outer:inner}", as the kernel prints a class.  The wait
 * types are numbered as with CONFIG_PROVE_RAW_LOCK_NESTING, whose check
 * this validator makes: 1 RCU reader, 2 raw spinning lock, 3 spinlock_t
 * (sleeps under rt), 4 sleeping lock.
 */
static void rp_class(struct report *r, const struct lock_class *c)
{
	int inner = c->wait_inner, outer = c->wait_outer;

	rp(r, " (");
	rp_class_name(r, c);
	rp(r, "){%c%c%c%c}-{%d:%d}", usage_char(c, USED_IN_HARDIRQ),
	   usage_char(c, USED_IN_HARDIRQ_READ), usage_char(c, USED_IN_SOFTIRQ),
	   usage_char(c, USED_IN_SOFTIRQ_READ), outer ? outer : inner, inner);
}

static void rp_hlock(struct report *r, const struct held_lock *h)
{
	rp(r, "%016lx", (unsigned long)h->instance);
	rp_class(r, &classes[h->class_idx]);
	rp(r, ", at: ");
	rp_sym(r, h->acquire_ip);
	rp(r, "\n");
}

/* The first @depth locks @p holds (an acquisition's own not yet). */
static void rp_held_locks(struct report *r, struct task_struct *p, int depth)
{
	if (!depth) {
		rp(r, "no locks held by %s/%d.\n", p->comm, p->pid);
		return;
	}
	rp(r, "%d lock%s held by %s/%d:\n", depth, depth > 1 ? "s" : "",
	   p->comm, p->pid);
	for (int i = 0; i < depth; i++) {
		rp(r, " #%d: ", i);
		rp_hlock(r, &p->held_locks[i]);
	}
}

static void rp_header(struct report *r, const char *title)
{
	size_t n = strlen(title);
	char bar[96];

	if (n >= sizeof(bar))
		n = sizeof(bar) - 1;
	rp(r, "\n");
	memset(bar, '=', n);
	bar[n] = '\0';
	rp(r, "%s\n%s\nlibpreempt %s\n", bar, title, pk_taint_str());
	memset(bar, '-', n);
	rp(r, "%s\n", bar);
}

static void rp_backtrace(struct report *r)
{
	unsigned long frames[12];
	int n = pk_stack_capture(frames, 12, r->from);
	char comm[16];

	rp(r, "\nstack backtrace:\nCPU: %d PID: %d Comm: %s %s\n",
	   pk_current_cpu(), pk_current_pid(), pk_current_comm(comm),
	   pk_taint_str());
	rp(r, "Call Trace:\n");
	for (int i = 0; i < n; i++)
		pk_rbuf_mark(&r->buf, PK_MARK_FRAME, frames[i]);
}

/*
 * Turn the validator off (unless told to keep going); false if another
 * report already did, so that only the first is printed.
 */
static bool report_begin(void)
{
	if (keep_going)
		return __atomic_load_n(&debug_locks, __ATOMIC_RELAXED) != 0;
	return __atomic_exchange_n(&debug_locks, 0, __ATOMIC_RELAXED) != 0;
}

/* Emit @r; symbolized here in task context, later in a handler. */
static void emit_expanded(struct report *r)
{
	stats.reports++;
	if (pk_report_deferred()) {
		pk_report_emit(PK_REPORT_LOCKDEP, NULL, 0, &r->buf);
	} else {
		struct pk_rbuf *out = malloc(sizeof(*out));

		if (!out) {
			pk_report_emit(PK_REPORT_LOCKDEP, NULL, 0, &r->buf);
			return;
		}
		out->len = 0;
		pk_rbuf_expand(out, r->buf.text, r->buf.len, true);
		pk_report_emit(PK_REPORT_LOCKDEP, NULL, 0, out);
		free(out);
	}
}

static void report_emit(struct report *r)
{
	if (!keep_going)
		rp(r, "turning off the locking correctness validator.\n");
	emit_expanded(r);
}

static void report_limit(const char *what)
{
	struct report r;

	if (!report_begin())
		return;
	/* Even when keeping going: a full pool cannot validate further. */
	__atomic_store_n(&debug_locks, 0, __ATOMIC_RELAXED);
	r.buf.len = 0;
	r.from = 0;
	rp(&r, "BUG: %s too low!\n", what);
	rp(&r, "turning off the locking correctness validator.\n");
	rp_backtrace(&r);
	emit_expanded(&r);
}

/* ---- classes ---- */

static unsigned int hash_ptr(const void *p)
{
	uint64_t v = (uintptr_t)p;

	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (unsigned int)v;
}

static const void *map_base(const struct lockdep_map *map)
{
	return map->key ? (const void *)map->key : (const void *)map;
}

static struct lock_class *class_find(const void *key)
{
	for (int i = class_hash[hash_ptr(key) % CLASSHASH_SIZE]; i >= 0;
	     i = classes[i].hash_next)
		if (classes[i].key == key && !classes[i].dead)
			return &classes[i];
	return NULL;
}

/* Same name, another key: printed "name#2" as the kernel does. */
static unsigned int name_version(const char *name, const void *base)
{
	unsigned int v = 1;

	if (!name)
		return 1;
	for (unsigned int i = 0; i < nr_classes; i++) {
		const struct lock_class *c = &classes[i];

		if (c->dead || !c->name || strcmp(c->name, name))
			continue;
		if ((const void *)c->base == base)
			return c->name_version;
		if (c->name_version >= v)
			v = c->name_version + 1;
	}
	return v;
}

/* Under the graph lock. */
static struct lock_class *class_register(struct lockdep_map *map,
					 unsigned int sub)
{
	const void *base = map_base(map);
	const void *key = (const char *)base + sub;
	struct lock_class *c = class_find(key);
	unsigned int h;

	if (c)
		return c;
	if (nr_classes >= MAX_LOCKDEP_KEYS)
		return NULL;
	c = &classes[nr_classes];
	memset(c, 0, sizeof(*c));
	c->key = key;
	c->base = base;
	c->name = map->name;
	c->name_version = name_version(map->name, base);
	c->subclass = sub;
	c->fwd = c->bwd = -1;
	c->wait_inner = map->wait_type_inner;
	c->wait_outer = map->wait_type_outer;
	c->lock_type = map->lock_type;
	h = hash_ptr(key) % CLASSHASH_SIZE;
	c->hash_next = class_hash[h];
	__atomic_store_n(&nr_classes, nr_classes + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&class_hash[h], (int)(c - classes), __ATOMIC_RELEASE);
	return c;
}

static bool class_cache_ok(const struct lockdep_map *map,
			   const struct lock_class *c)
{
	return c && c >= classes &&
	       c < classes + __atomic_load_n(&nr_classes, __ATOMIC_ACQUIRE) &&
	       !c->dead && c->key == map_base(map);
}

/* The class of @map at @sub; NULL when the pool is full (reported). */
static struct lock_class *map_class(struct lockdep_map *map, unsigned int sub)
{
	struct lock_class *c = map->class_cache;

	if (!sub && class_cache_ok(map, c))
		return c;
	graph_lock();
	tables_init();
	c = class_register(map, sub);
	graph_unlock();
	if (!c) {
		report_limit("MAX_LOCKDEP_KEYS");
		return NULL;
	}
	if (!sub)
		map->class_cache = c;
	return c;
}

/* ---- the held-lock stack ---- */

static uint64_t chain_mix(uint64_t key, uint64_t id)
{
	key ^= id + 0x9e3779b97f4a7c15ULL + (key << 6) + (key >> 2);
	key *= 0xbf58476d1ce4e5b9ULL;
	return key ^ (key >> 31);
}

static uint64_t hlock_id(const struct held_lock *h)
{
	return (uint64_t)h->class_idx | ((uint64_t)h->read << 16) |
	       ((uint64_t)h->irq_context << 18);
}

/* The chain key after held_locks[i], from the one before it. */
static uint64_t chain_key_at(struct task_struct *p, int i)
{
	struct held_lock *h = &p->held_locks[i];

	return chain_mix(h->prev_chain_key, hlock_id(h));
}

static void rechain(struct task_struct *p, int from)
{
	for (int i = from; i < p->lockdep_depth; i++) {
		struct held_lock *h = &p->held_locks[i];

		h->prev_chain_key =
			i && p->held_locks[i - 1].irq_context == h->irq_context
				? chain_key_at(p, i - 1)
				: 0;
	}
	p->curr_chain_key =
		p->lockdep_depth ? chain_key_at(p, p->lockdep_depth - 1) : 0;
}

/* ---- chains: lock sequences already validated ---- */

static bool chain_seen(uint64_t key)
{
	unsigned int i = (unsigned int)(key % CHAINHASH_SIZE);

	if (!key)
		key = 1;
	for (unsigned int n = 0; n < CHAINHASH_SIZE; n++) {
		uint64_t v = __atomic_load_n(&chain_hash[i], __ATOMIC_ACQUIRE);

		if (v == key)
			return true;
		if (!v)
			return false;
		i = (i + 1) % CHAINHASH_SIZE;
	}
	return false;
}

/* Under the graph lock: false if the pool is full. */
static bool chain_add(uint64_t key, bool irq)
{
	unsigned int i = (unsigned int)(key % CHAINHASH_SIZE);

	if (!key)
		key = 1;
	if (nr_chains >= MAX_LOCKDEP_CHAINS)
		return false;
	while (chain_hash[i] && chain_hash[i] != key)
		i = (i + 1) % CHAINHASH_SIZE;
	if (chain_hash[i])
		return true;
	__atomic_store_n(&chain_hash[i], key, __ATOMIC_RELEASE);
	nr_chains++;
	nr_irq_chains += irq;
	return true;
}

/* ---- breadth-first search of the graph ---- */

struct bfs_state {
	unsigned int cls;
	int dep;    /* the dependency that led here, -1 at the start */
	int parent; /* queue index of the state before */
	bool r;	    /* reached through a recursive read */
};
static struct bfs_state bfs_queue[2 * MAX_LOCKDEP_KEYS];
static unsigned int bfs_seen[MAX_LOCKDEP_KEYS][2];
static unsigned int bfs_gen;

typedef bool (*bfs_match_t)(const struct lock_class *c, bool r,
			    unsigned int arg);
static bool match_usage(const struct lock_class *c, bool r, unsigned int mask);

/*
 * From @start, forward or backward, the first class @match accepts (the
 * start itself too with @self); the index of its queue state, -1 if none.
 * With @strong, a path through a recursive read must not go on from a
 * shared hold (lockdep-design.rst: no -(xR)-> -(Sx)-> pair), which is what
 * makes a cycle of read and write holds a deadlock.
 */
static int bfs(unsigned int start, bool start_r, bool forward, bool strong,
	       bool self, bfs_match_t match, unsigned int arg)
{
	unsigned int head = 0, tail = 0;

	if (++bfs_gen == 0) {
		memset(bfs_seen, 0, sizeof(bfs_seen));
		bfs_gen = 1;
	}
	bfs_queue[tail++] = (struct bfs_state){start, -1, -1, start_r};
	bfs_seen[start][start_r] = bfs_gen;
	while (head < tail) {
		unsigned int at = head++;
		struct bfs_state st = bfs_queue[at];
		int e = forward ? classes[st.cls].fwd : classes[st.cls].bwd;

		/*
		 * An interrupt search neither matches nor passes a per-CPU
		 * lock (local_lock_t): only this CPU takes it, so it carries
		 * no inversion (the kernel skips it the same way).
		 */
		if (match == match_usage &&
		    classes[st.cls].lock_type == LD_LOCK_PERCPU)
			continue;
		if ((st.dep >= 0 || self) && match(&classes[st.cls], st.r, arg))
			return (int)at;
		for (; e >= 0;
		     e = forward ? deps[e].next_fwd : deps[e].next_bwd) {
			unsigned int t = forward ? deps[e].to : deps[e].from;
			unsigned int types = deps[e].types;
			bool r;

			if (classes[t].dead)
				continue;
			if (strong && st.r)
				types &= DEPS_FROM_E;
			if (!types)
				continue;
			r = strong && !(types & ~DEPS_TO_R);
			if (bfs_seen[t][r] == bfs_gen ||
			    tail >= 2 * MAX_LOCKDEP_KEYS)
				continue;
			bfs_seen[t][r] = bfs_gen;
			bfs_queue[tail++] =
				(struct bfs_state){t, e, (int)at, r};
		}
		if (tail > stats.max_bfs)
			stats.max_bfs = tail;
	}
	return -1;
}

/* The cycle closes at prev unless it arrives by a recursive read and the
 * new dependency leaves prev from a shared hold. */
static unsigned int cycle_prev_shared;

static bool match_cycle(const struct lock_class *c, bool r, unsigned int idx)
{
	return (unsigned int)(c - classes) == idx && !(r && cycle_prev_shared);
}

static bool match_usage(const struct lock_class *c, bool r, unsigned int mask)
{
	(void)r;
	return c->usage_mask & mask;
}

#define TRACE_PENDING 0xffffffffu

struct acq {
	struct task_struct *p;
	struct held_lock *next;
	unsigned long from;
	unsigned int trace; /* of this acquisition, captured when needed */
	unsigned int pc;    /* the count at lock_acquire(), before its own */
};

static unsigned int acq_trace(struct acq *a)
{
	if (a->trace == TRACE_PENDING) {
		a->trace = save_trace(a->from);
		if (!a->trace &&
		    nr_trace_entries >= MAX_STACK_TRACE_ENTRIES - 32)
			a->trace = 0;
	}
	return a->trace;
}

/* ---- reports of the checks (graph lock held; each releases it) ---- */

static void rp_op(struct report *r, const struct lock_class *c, const char *op)
{
	rp(r, "%s(", op);
	rp_class_name(r, c);
	rp(r, ");\n");
}

static void rp_lock_op(struct report *r, const struct lock_class *c, bool read)
{
	rp_op(r, c, read ? "rlock" : "lock");
}

/* A held lock's operation: a lock_sync() waits for the holders ("sync"). */
static void rp_hlock_op(struct report *r, const struct held_lock *h)
{
	rp_op(r, &classes[h->class_idx],
	      h->sync	? "sync"
	      : h->read ? "rlock"
			: "lock");
}

static void rp_irq_scenario(struct report *r, const struct lock_class *safe,
			    const struct lock_class *unsafe)
{
	rp(r, " Possible interrupt unsafe locking scenario:\n\n");
	rp(r, "       CPU0                    CPU1\n");
	rp(r, "       ----                    ----\n");
	rp(r, "  ");
	rp_lock_op(r, unsafe, false);
	rp(r, "                               local_irq_disable();\n");
	rp(r, "                               ");
	rp_lock_op(r, safe, false);
	rp(r, "                               ");
	rp_lock_op(r, unsafe, false);
	rp(r, "  <Interrupt>\n    ");
	rp_lock_op(r, safe, false);
	rp(r, "\n *** DEADLOCK ***\n\n");
}

/* The context of the acquisition, from the count it found. */
static void rp_context(struct report *r, const struct acq *a)
{
	unsigned int hc = (a->pc & HARDIRQ_MASK) >> HARDIRQ_SHIFT;
	unsigned int sc = (a->pc & SOFTIRQ_MASK) >> SOFTIRQ_SHIFT;

	rp(r, "%s/%d [HC%u[%u]:SC%u[%u]:HE%u:SE%u]", a->p->comm, a->p->pid,
	   hc ? 1 : 0, hc, sc & 1, sc, (a->pc & HARDIRQ_DISABLE_MASK) ? 0 : 1,
	   sc ? 0 : 1);
}

static int report_end(struct report *r, struct task_struct *p)
{
	rp_held_locks(r, p, p->lockdep_depth - 1);
	rp_backtrace(r);
	graph_unlock();
	report_emit(r);
	return 0;
}

static __attribute__((noinline, cold)) int
print_circular(struct acq *a, struct held_lock *prev, struct held_lock *next,
	       int q)
{
	struct lock_class *src = &classes[next->class_idx];
	struct lock_class *tgt = &classes[prev->class_idx];
	struct lock_class *parent;
	struct report r = {.from = a->from};
	int depth = 0;

	if (!report_begin()) {
		graph_unlock();
		return 0;
	}
	for (int i = q; bfs_queue[i].dep >= 0; i = bfs_queue[i].parent)
		depth++;
	parent = &classes[bfs_queue[bfs_queue[q].parent].cls];
	rp_header(&r, "WARNING: possible circular locking dependency detected");
	rp(&r, "%s/%d is trying to acquire lock:\n", a->p->comm, a->p->pid);
	rp_hlock(&r, next);
	rp(&r, "\nbut task is already holding lock:\n");
	rp_hlock(&r, prev);
	rp(&r, "\nwhich lock already depends on the new lock.\n\n");
	rp(&r, "\nthe existing dependency chain (in reverse order) is:\n");
	for (int i = q; bfs_queue[i].dep >= 0; i = bfs_queue[i].parent) {
		rp(&r, "\n-> #%d", depth--);
		rp_class(&r, &classes[bfs_queue[i].cls]);
		rp(&r, ":\n");
		rp_trace(&r, deps[bfs_queue[i].dep].trace);
	}
	rp(&r, "\n-> #0");
	rp_class(&r, src);
	rp(&r, ":\n");
	rp_trace(&r, acq_trace(a));
	rp(&r, "\nother info that might help us debug this:\n\n");
	if (parent != src) {
		rp(&r, "Chain exists of:\n  ");
		rp_class_name(&r, src);
		rp(&r, " --> ");
		rp_class_name(&r, parent);
		rp(&r, " --> ");
		rp_class_name(&r, tgt);
		rp(&r, "\n\n");
	}
	rp(&r, " Possible unsafe locking scenario:\n\n");
	rp(&r, "       CPU0                    CPU1\n");
	rp(&r, "       ----                    ----\n  ");
	rp_lock_op(&r, tgt, prev->read);
	rp(&r, "                               ");
	/* the recorded edge into prev says how parent was held */
	rp_lock_op(&r, parent, !(deps[bfs_queue[q].dep].types & DEPS_FROM_E));
	rp(&r, "                               ");
	rp_lock_op(&r, tgt, false);
	rp(&r, "  ");
	rp_hlock_op(&r, next);
	rp(&r, "\n *** DEADLOCK ***\n\n");
	return report_end(&r, a->p);
}

static __attribute__((noinline, cold)) int
print_deadlock(struct acq *a, struct held_lock *prev, struct held_lock *next)
{
	struct report r = {.from = a->from};

	if (!report_begin()) {
		graph_unlock();
		return 0;
	}
	rp_header(&r, "WARNING: possible recursive locking detected");
	rp(&r, "%s/%d is trying to acquire lock:\n", a->p->comm, a->p->pid);
	rp_hlock(&r, next);
	rp(&r, "\nbut task is already holding lock:\n");
	rp_hlock(&r, prev);
	rp(&r, "\nother info that might help us debug this:\n");
	rp(&r, " Possible unsafe locking scenario:\n\n");
	rp(&r, "       CPU0\n       ----\n  ");
	rp_hlock_op(&r, prev);
	rp(&r, "  ");
	rp_hlock_op(&r, next);
	rp(&r, "\n *** DEADLOCK ***\n\n");
	rp(&r, " May be due to missing lock nesting notation\n\n");
	return report_end(&r, a->p);
}

static __attribute__((noinline, cold)) int
print_usage_bug(struct acq *a, struct lock_class *c, int prev_bit, int new_bit)
{
	struct report r = {.from = a->from};

	if (!report_begin()) {
		graph_unlock();
		return 0;
	}
	rp_header(&r, "WARNING: inconsistent lock state");
	rp(&r, "inconsistent {%s} -> {%s} usage.\n", usage_str[prev_bit],
	   usage_str[new_bit]);
	rp_context(&r, a);
	rp(&r, " takes:\n");
	rp_hlock(&r, a->next);
	rp(&r, "{%s} state was registered at:\n", usage_str[prev_bit]);
	rp_trace(&r, c->usage_trace[prev_bit]);
	rp(&r, "\nother info that might help us debug this:\n");
	rp(&r, " Possible unsafe locking scenario:\n\n");
	rp(&r, "       CPU0\n       ----\n  ");
	rp_lock_op(&r, c, false);
	rp(&r, "  <Interrupt>\n    ");
	rp_lock_op(&r, c, false);
	rp(&r, "\n *** DEADLOCK ***\n\n");
	return report_end(&r, a->p);
}

static void rp_path(struct report *r, int q)
{
	for (int i = q; i >= 0; i = bfs_queue[i].parent) {
		rp(r, " -> ");
		rp_class(r, &classes[bfs_queue[i].cls]);
		rp(r, ":\n");
		if (bfs_queue[i].dep >= 0)
			rp_trace(r, deps[bfs_queue[i].dep].trace);
		else
			rp(r, "       (this lock)\n");
	}
}

static __attribute__((noinline, cold)) int
print_irq_inversion(struct acq *a, struct lock_class *c, int bit, int q,
		    bool forward)
{
	struct lock_class *other = &classes[bfs_queue[q].cls];
	const char *s = state_name[bit / STATE_STRIDE];
	struct report r = {.from = a->from};

	if (!report_begin()) {
		graph_unlock();
		return 0;
	}
	rp_header(&r,
		  "WARNING: possible irq lock inversion dependency detected");
	rp(&r, "%s/%d just changed the state of lock:\n", a->p->comm,
	   a->p->pid);
	rp_hlock(&r, a->next);
	if (forward)
		rp(&r,
		   "but this lock took another, %s-unsafe lock in the past:\n",
		   s);
	else
		rp(&r,
		   "but this lock was taken by another, %s-safe lock in the "
		   "past:\n",
		   s);
	rp_class(&r, other);
	rp(&r, "\n\n\nand interrupts could create inverse lock ordering "
	       "between them.\n\n");
	rp(&r, "\nother info that might help us debug this:\n");
	rp_irq_scenario(&r, forward ? c : other, forward ? other : c);
	rp_held_locks(&r, a->p, a->p->lockdep_depth - 1);
	rp(&r, "\nthe shortest dependencies between 2nd lock and 1st lock:\n");
	rp_path(&r, q);
	rp_backtrace(&r);
	graph_unlock();
	report_emit(&r);
	return 0;
}

static __attribute__((noinline, cold)) int
print_bad_irq_dependency(struct acq *a, struct held_lock *prev,
			 struct held_lock *next, int s, int qb, int qf)
{
	struct lock_class *safe = &classes[bfs_queue[qb].cls];
	struct lock_class *unsafe;
	const char *n = state_name[s];
	int base = s * STATE_STRIDE;
	struct report r = {.from = a->from};
	int safe_bit, unsafe_bit;

	(void)qf;
	if (!report_begin()) {
		graph_unlock();
		return 0;
	}
	/* The forward search was the last: its queue is the live one. */
	unsafe = &classes[bfs_queue[qf].cls];
	safe_bit = safe->usage_mask & F(base) ? base : base + BIT_READ;
	unsafe_bit = unsafe->usage_mask & F(base + BIT_ENABLED)
			     ? base + BIT_ENABLED
			     : base + BIT_ENABLED + BIT_READ;
	{
		char title[96];

		snprintf(title, sizeof(title),
			 "WARNING: %s-safe -> %s-unsafe lock order detected", n,
			 n);
		rp_header(&r, title);
	}
	rp_context(&r, a);
	rp(&r, " is trying to acquire:\n");
	rp_hlock(&r, next);
	rp(&r, "\nand this task is already holding:\n");
	rp_hlock(&r, prev);
	rp(&r, "which would create a new lock dependency:\n");
	rp_class(&r, &classes[prev->class_idx]);
	rp(&r, " ->");
	rp_class(&r, &classes[next->class_idx]);
	rp(&r, "\n\nbut this new dependency connects a %s-irq-safe lock:\n", n);
	rp_class(&r, safe);
	rp(&r, "\n\n... which became %s-irq-safe at:\n", n);
	rp_trace(&r, safe->usage_trace[safe_bit]);
	rp(&r, "\nto a %s-irq-unsafe lock:\n", n);
	rp_class(&r, unsafe);
	rp(&r, "\n\n... which became %s-irq-unsafe at:\n...\n", n);
	rp_trace(&r, unsafe->usage_trace[unsafe_bit]);
	rp(&r, "\nother info that might help us debug this:\n\n");
	rp_irq_scenario(&r, safe, unsafe);
	return report_end(&r, a->p);
}

/* ---- the checks ---- */

/* The usages that conflict with @bit in the same class. */
static unsigned int excl_mask(int bit)
{
	int base = bit / STATE_STRIDE * STATE_STRIDE, kind = bit % STATE_STRIDE;

	switch (kind) {
	case 0: /* IN-x-W */
		return F(base + BIT_ENABLED) | F(base + BIT_ENABLED + BIT_READ);
	case BIT_READ: /* IN-x-R */
		return F(base + BIT_ENABLED);
	case BIT_ENABLED: /* x-ON-W */
		return F(base) | F(base + BIT_READ);
	default: /* x-ON-R */
		return F(base);
	}
}

static int mark_lock(struct acq *a, struct lock_class *c, int bit)
{
	unsigned int excl;
	int q;

	if (__atomic_load_n(&c->usage_mask, __ATOMIC_RELAXED) & F(bit))
		return 1;
	graph_lock();
	if (c->usage_mask & F(bit)) {
		graph_unlock();
		return 1;
	}
	c->usage_trace[bit] = acq_trace(a);
	__atomic_or_fetch(&c->usage_mask, F(bit), __ATOMIC_RELAXED);
	if (bit >= LOCK_USED) {
		graph_unlock();
		return 1;
	}
	excl = excl_mask(bit);
	if (c->usage_mask & excl)
		return print_usage_bug(
			a, c, __builtin_ctz(c->usage_mask & excl), bit);
	/* used in irq: no irq-unsafe lock after it; enabled: none before */
	if (bit % STATE_STRIDE < BIT_ENABLED) {
		q = bfs((unsigned int)(c - classes), false, true, false, false,
			match_usage, excl);
		if (q >= 0)
			return print_irq_inversion(a, c, bit, q, true);
	} else {
		q = bfs((unsigned int)(c - classes), false, false, false, false,
			match_usage, excl);
		if (q >= 0)
			return print_irq_inversion(a, c, bit, q, false);
	}
	graph_unlock();
	return 1;
}

static int mark_usage(struct acq *a, struct held_lock *h, struct lock_class *c)
{
	int r = h->read ? BIT_READ : 0;

	/*
	 * Under rt, spinlock_t and rwlock_t sleep and softirqs and threaded
	 * handlers run in tasks: taking one with interrupts or bottom
	 * halves on is no inversion (PREEMPT_RT's substitution).
	 */
	/*
	 * A lock_sync() holds nothing an interrupt could wait for: no irq
	 * state (the kernel's lock_sync(), for synchronize_srcu()).
	 */
	if (h->check && !h->sync &&
	    !(c->wait_inner == LD_WAIT_CONFIG && pk_machine_rt())) {
		if (h->irq_context == 1 &&
		    !mark_lock(a, c, USED_IN_HARDIRQ + r))
			return 0;
		if (in_serving_softirq() &&
		    !mark_lock(a, c, USED_IN_SOFTIRQ + r))
			return 0;
		if (!h->hardirqs_off) {
			if (!mark_lock(a, c, ENABLED_HARDIRQ + r))
				return 0;
			if (!softirq_count() &&
			    !mark_lock(a, c, ENABLED_SOFTIRQ + r))
				return 0;
		}
	}
	return mark_lock(a, c, r ? LOCK_USED_READ : LOCK_USED);
}

/* safe (used in irq) before @prev, unsafe (irq on) after @next? */
static int check_irq_usage(struct acq *a, struct held_lock *prev,
			   struct held_lock *next)
{
	for (int s = 0; s < 2; s++) {
		int base = s * STATE_STRIDE;
		unsigned int excl;
		int qb, qf;

		qb = bfs(prev->class_idx, false, false, false, true,
			 match_usage, F(base) | F(base + BIT_READ));
		if (qb < 0)
			continue;
		excl = classes[bfs_queue[qb].cls].usage_mask & F(base)
			       ? excl_mask(base)
			       : excl_mask(base + BIT_READ);
		/* keep the backward result: the forward search reuses the
		 * queue, so it is moved past the used part first */
		{
			struct bfs_state safe = bfs_queue[qb];

			qf = bfs(next->class_idx, false, true, false, true,
				 match_usage, excl);
			if (qf < 0)
				continue;
			bfs_queue[2 * MAX_LOCKDEP_KEYS - 1] = safe;
			bfs_queue[2 * MAX_LOCKDEP_KEYS - 1].parent = -1;
		}
		return print_bad_irq_dependency(a, prev, next, s,
						2 * MAX_LOCKDEP_KEYS - 1, qf);
	}
	return 1;
}

static int check_prev_add(struct acq *a, struct held_lock *prev,
			  struct held_lock *next)
{
	struct lock_class *pc = &classes[prev->class_idx];
	unsigned int types = DEP_BIT(prev->read != 0, next->read == 2);
	struct lock_dep *d;
	int q;

	if (prev->class_idx == next->class_idx)
		return 1;
	cycle_prev_shared = prev->read != 0;
	q = bfs(next->class_idx, next->read == 2, true, true, false,
		match_cycle, prev->class_idx);
	if (q >= 0)
		return print_circular(a, prev, next, q);
	if (!next->sync && !check_irq_usage(a, prev, next))
		return 0;
	for (int e = pc->fwd; e >= 0; e = deps[e].next_fwd)
		if (deps[e].to == next->class_idx) {
			deps[e].types |= types;
			return 1;
		}
	if (nr_deps >= MAX_LOCKDEP_ENTRIES) {
		graph_unlock();
		report_limit("MAX_LOCKDEP_ENTRIES");
		return 0;
	}
	d = &deps[nr_deps];
	d->from = prev->class_idx;
	d->to = next->class_idx;
	d->types = types;
	d->trace = acq_trace(a);
	d->next_fwd = pc->fwd;
	d->next_bwd = classes[next->class_idx].bwd;
	pc->fwd = (int)nr_deps;
	classes[next->class_idx].bwd = (int)nr_deps;
	nr_deps++;
	return 1;
}

/* 0 reported, 1 fine, 2 a permitted nesting of the class (no deps). */
static int check_deadlock(struct acq *a, struct held_lock *next)
{
	struct held_lock *nest = NULL;

	for (int i = 0; i < a->p->lockdep_depth - 1; i++) {
		struct held_lock *prev = &a->p->held_locks[i];

		if (next->nest_lock && prev->instance == next->nest_lock)
			nest = prev;
		if (prev->class_idx != next->class_idx)
			continue;
		if (next->read == 2 && prev->read)
			continue;
		if (nest)
			return 2;
		return print_deadlock(a, prev, next);
	}
	return 1;
}

static void validate_chain(struct acq *a, struct held_lock *h)
{
	struct task_struct *p = a->p;
	int ret;

	if (chain_seen(p->curr_chain_key)) {
		stats.chain_hits++;
		return;
	}
	stats.chain_misses++;
	graph_lock();
	if (!chain_add(p->curr_chain_key, h->irq_context != 0)) {
		graph_unlock();
		report_limit("MAX_LOCKDEP_CHAINS");
		return;
	}
	ret = check_deadlock(a, h);
	if (!ret)
		return;
	if (ret == 2) {
		graph_unlock();
		return;
	}
	for (int i = p->lockdep_depth - 2; i >= 0; i--) {
		struct held_lock *prev = &p->held_locks[i];

		if (prev->irq_context != h->irq_context)
			break;
		if (prev->check && !check_prev_add(a, prev, h))
			return;
		if (!prev->trylock)
			break;
	}
	graph_unlock();
}

/* ---- wait types (Documentation/locking/locktypes.rst's nesting) ---- */

/*
 * What the context itself allows: a task anything; a softirq (a task under
 * PREEMPT_RT) spinlock_t; hardirq code spinlock_t too if rt would run it
 * in a task (pk_hardirq_config), else raw spinning locks only.
 */
static int context_wait(int ctx)
{
	if (ctx == 1)
		return pk_hardirq_config ? LD_WAIT_CONFIG : LD_WAIT_SPIN;
	return ctx == 2 ? LD_WAIT_CONFIG : LD_WAIT_MAX;
}

static __attribute__((noinline, cold)) void
print_invalid_wait(struct acq *a, struct lock_class *c, int ctx)
{
	struct report r = {.from = a->from};
	int w = context_wait(ctx);

	c->wait_reported = true;
	if (!report_begin())
		return;
	rp_header(&r, "[ BUG: Invalid wait context ]");
	rp(&r, "%s/%d is trying to lock:\n", a->p->comm, a->p->pid);
	rp_hlock(&r, a->next);
	rp(&r, "other info that might help us debug this:\n");
	rp(&r, "context-{%d:%d}\n", w, w);
	rp_held_locks(&r, a->p, a->p->lockdep_depth - 1);
	rp_backtrace(&r);
	report_emit(&r);
}

/*
 * A lock may be taken only where its outer wait type is allowed: by the
 * context, and by the inner type of every lock the context holds (a
 * mutex under a spinlock_t, a spinlock_t under a raw_spinlock_t or in a
 * hardirq handler rt cannot thread).  As the kernel, a trylock is exempt
 * (it never waits), and the rule holds in every model: what is wrong
 * under rt is reported without rt.  False if it reported.
 */
static bool check_wait_context(struct acq *a, struct lock_class *c, int ctx)
{
	struct task_struct *p = a->p;
	int next = c->wait_outer ? c->wait_outer : c->wait_inner;
	int allowed = context_wait(ctx);

	if (!c->wait_inner || a->next->trylock || c->wait_reported)
		return true;
	for (int i = p->lockdep_depth - 2;
	     i >= 0 && p->held_locks[i].irq_context == ctx; i--) {
		int w = classes[p->held_locks[i].class_idx].wait_inner;

		if (w && w < allowed)
			allowed = w;
	}
	if (next <= allowed)
		return true;
	print_invalid_wait(a, c, ctx);
	return false;
}

/* ---- the API ---- */

static bool map_tracked(const struct lockdep_map *map)
{
	return map->key || map->name;
}

static int irq_context(void)
{
	if (in_hardirq())
		return 1;
	return in_serving_softirq() ? 2 : 0;
}

static bool lockdep_enabled(void)
{
	return __atomic_load_n(&debug_locks, __ATOMIC_RELAXED) && !in_lockdep &&
	       !in_nmi();
}

static void __lock_acquire(struct lockdep_map *map, unsigned int subclass,
			   int trylock, int read, int check,
			   struct lockdep_map *nest_lock, unsigned long ip,
			   unsigned long from, unsigned int pc, int ctx,
			   int sync)
{
	bool hardirqs_off = pc & HARDIRQ_DISABLE_MASK;
	struct task_struct *p = current;
	unsigned int sub = subclass + map->pk_subclass;
	struct lock_class *c;
	struct held_lock *h;
	struct acq a;
	int depth = p->lockdep_depth;

	if (sub >= MAX_LOCKDEP_SUBCLASSES) {
		report_limit("MAX_LOCKDEP_SUBCLASSES");
		return;
	}
	if (map->pk_novalidate)
		check = 0;
	c = map_class(map, sub);
	if (!c)
		return;
	if (depth && nest_lock) {
		h = &p->held_locks[depth - 1];
		if (h->class_idx == (unsigned int)(c - classes)) {
			if (!h->references)
				h->references++;
			h->references++;
			return;
		}
	}
	if (depth >= MAX_LOCK_DEPTH) {
		report_limit("MAX_LOCK_DEPTH");
		return;
	}
	h = &p->held_locks[depth];
	*h = (struct held_lock){
		.instance = map,
		.nest_lock = nest_lock,
		.acquire_ip = ip,
		.class_idx = (unsigned int)(c - classes),
		.irq_context = (uint8_t)ctx,
		.trylock = !!trylock,
		.read = (uint8_t)read,
		.check = !!check,
		.hardirqs_off = hardirqs_off,
		.subclass = (uint8_t)sub,
		.sync = (uint8_t)sync,
	};
	h->prev_chain_key = depth && p->held_locks[depth - 1].irq_context == ctx
				    ? p->curr_chain_key
				    : 0;
	p->lockdep_depth = depth + 1;
	p->curr_chain_key = chain_key_at(p, depth);
	if ((unsigned long)depth + 1 > stats.max_depth)
		stats.max_depth = (unsigned long)depth + 1;
	stats.acquisitions++;
	a = (struct acq){p, h, from, TRACE_PENDING, pc};
	if (!check_wait_context(&a, c, ctx) && !debug_locks)
		return;
	if (!mark_usage(&a, h, c))
		return;
	if (check && !trylock)
		validate_chain(&a, h);
}

static void __lock_release(struct lockdep_map *map, unsigned long ip,
			   unsigned long from);

/* lock_acquire() and lock_sync(): @from is the caller's caller. */
static void acquire(struct lockdep_map *map, unsigned int subclass, int trylock,
		    int read, int check, struct lockdep_map *nest_lock,
		    unsigned long ip, unsigned long from, int sync)
{
	struct task_struct *p = current;
	unsigned long flags;
	unsigned int pc;
	int ctx;

	if (!map_tracked(map) || !lockdep_enabled() || p->lockdep_recursion)
		return;
	pc = preempt_count();
	ctx = irq_context();
	raw_local_irq_save(flags);
	in_lockdep++;
	__lock_acquire(map, subclass, trylock, read, check, nest_lock, ip, from,
		       pc, ctx, sync);
	/* A sync is off the stack at once, if it got there (a report may
	 * have stopped it short). */
	if (sync && p->lockdep_depth &&
	    p->held_locks[p->lockdep_depth - 1].instance == map &&
	    p->held_locks[p->lockdep_depth - 1].sync)
		__lock_release(map, ip, from);
	in_lockdep--;
	raw_local_irq_restore(flags);
}

void lock_acquire(struct lockdep_map *map, unsigned int subclass, int trylock,
		  int read, int check, struct lockdep_map *nest_lock,
		  unsigned long ip)
{
	acquire(map, subclass, trylock, read, check, nest_lock, ip,
		(unsigned long)__builtin_return_address(0), 0);
}

static int find_held(struct task_struct *p, const struct lockdep_map *map)
{
	for (int i = p->lockdep_depth - 1; i >= 0; i--) {
		struct held_lock *h = &p->held_locks[i];

		if (h->instance == map)
			return i;
		if (h->references &&
		    classes[h->class_idx].base == map_base(map))
			return i;
	}
	return -1;
}

void pk_lockdep_release_task(struct task_struct *p, struct lockdep_map *map)
{
	unsigned long flags;
	int i;

	if (!map_tracked(map) || !lockdep_enabled())
		return;
	raw_local_irq_save(flags);
	i = find_held(p, map);
	if (i >= 0) {
		memmove(&p->held_locks[i], &p->held_locks[i + 1],
			(size_t)(p->lockdep_depth - i - 1) *
				sizeof(p->held_locks[0]));
		p->lockdep_depth--;
		rechain(p, i);
	}
	raw_local_irq_restore(flags);
}

static __attribute__((noinline, cold)) void
print_unlock_imbalance(struct task_struct *p, struct lockdep_map *map,
		       unsigned long ip, unsigned long from)
{
	struct report r = {.from = from};

	if (!report_begin())
		return;
	rp_header(&r, "WARNING: bad unlock balance detected!");
	rp(&r, "%s/%d is trying to release lock (%s) at:\n", p->comm, p->pid,
	   map->name ? map->name : "<unnamed>");
	rp_sym(&r, ip);
	rp(&r, "\nbut there are no more locks to release!\n");
	rp(&r, "\nother info that might help us debug this:\n");
	rp_held_locks(&r, p, p->lockdep_depth);
	rp_backtrace(&r);
	report_emit(&r);
}

static void __lock_release(struct lockdep_map *map, unsigned long ip,
			   unsigned long from)
{
	struct task_struct *p = current;
	int i = find_held(p, map);
	struct held_lock *h;

	if (i < 0) {
		print_unlock_imbalance(p, map, ip, from);
		return;
	}
	h = &p->held_locks[i];
	if (h->references && --h->references)
		return;
	/* Any order is allowed: the locks above are kept, rechained. */
	memmove(h, h + 1, (size_t)(p->lockdep_depth - i - 1) * sizeof(*h));
	p->lockdep_depth--;
	rechain(p, i);
}

void lock_release(struct lockdep_map *map, unsigned long ip)
{
	unsigned long flags;

	if (!map_tracked(map) || !lockdep_enabled() ||
	    current->lockdep_recursion)
		return;
	raw_local_irq_save(flags);
	in_lockdep++;
	__lock_release(map, ip, (unsigned long)__builtin_return_address(0));
	in_lockdep--;
	raw_local_irq_restore(flags);
}

void lock_sync(struct lockdep_map *map, unsigned int subclass, int read,
	       int check, struct lockdep_map *nest_lock, unsigned long ip)
{
	acquire(map, subclass, 0, read, check, nest_lock, ip,
		(unsigned long)__builtin_return_address(0), 1);
}

void lock_downgrade(struct lockdep_map *map, unsigned long ip)
{
	struct task_struct *p = current;
	unsigned long flags;
	int i;

	(void)ip;
	if (!map_tracked(map) || !lockdep_enabled() || p->lockdep_recursion)
		return;
	raw_local_irq_save(flags);
	i = find_held(p, map);
	if (i >= 0) {
		p->held_locks[i].read = 1;
		rechain(p, i);
	}
	raw_local_irq_restore(flags);
}

int lock_is_held_type(const struct lockdep_map *map, int read)
{
	struct task_struct *p;
	unsigned long flags;
	int ret = LOCK_STATE_NOT_HELD;

	if (!map_tracked(map))
		return LOCK_STATE_UNKNOWN;
	if (!__atomic_load_n(&debug_locks, __ATOMIC_RELAXED))
		return LOCK_STATE_HELD;
	p = current;
	raw_local_irq_save(flags);
	for (int i = 0; i < p->lockdep_depth; i++) {
		struct held_lock *h = &p->held_locks[i];

		if (h->instance != map &&
		    !(h->references &&
		      classes[h->class_idx].base == map_base(map)))
			continue;
		if (read == -1 || !!h->read == read)
			ret = LOCK_STATE_HELD;
	}
	raw_local_irq_restore(flags);
	return ret;
}

void lockdep_init_map_type(struct lockdep_map *lock, const char *name,
			   struct lock_class_key *key, int subclass, int inner,
			   int outer, int lock_type)
{
	lock->key = key;
	lock->name = name;
	lock->class_cache = NULL;
	lock->wait_type_inner = (uint8_t)inner;
	lock->wait_type_outer = (uint8_t)outer;
	lock->lock_type = (uint8_t)lock_type;
	lock->pk_novalidate = 0;
	lock->pk_subclass = (uint8_t)subclass;
	if (key && !name)
		lock->name = "<unnamed>";
}

void pk_lockdep_set_novalidate(struct lockdep_map *lock)
{
	if (!lock->name && !lock->key)
		lock->name = "(novalidate)";
	lock->pk_novalidate = 1;
}

void pk_might_lock(struct lockdep_map *lock, unsigned int subclass, int read,
		   unsigned long ip)
{
	lock_acquire(lock, subclass, 0, read, 1, NULL, ip);
	lock_release(lock, ip);
}

void lockdep_off(void)
{
	current->lockdep_recursion++;
}

void lockdep_on(void)
{
	current->lockdep_recursion--;
}

static __attribute__((noinline, cold)) void
print_held_at_exit(struct task_struct *p, const char *how)
{
	char title[96];
	struct report r = {.from = 0};

	if (!report_begin())
		return;
	snprintf(title, sizeof(title), "WARNING: %s/%d still has locks held!",
		 p->comm, p->pid);
	rp_header(&r, title);
	if (how)
		rp(&r, "%s\n", how);
	rp_held_locks(&r, p, p->lockdep_depth);
	rp_backtrace(&r);
	report_emit(&r);
}

__attribute__((constructor)) static void lockdep_exit_hook_init(void)
{
	__atomic_store_n(&pk_lockdep_exit_hook, pk_lockdep_exit_check,
			 __ATOMIC_RELEASE);
}

bool pk_lockdep_exit_check(struct task_struct *p, const char *how)
{
	unsigned long flags;

	if (!__atomic_load_n(&debug_locks, __ATOMIC_RELAXED) ||
	    !p->lockdep_depth)
		return false;
	(void)flags;
	print_held_at_exit(p, how);
	return true;
}

static __attribute__((noinline, cold)) void
print_held_at_user_return(struct task_struct *p)
{
	struct report r = {.from = 0};

	if (!report_begin())
		return;
	rp_header(&r, "WARNING: lock held when returning to user space!");
	rp(&r, "%s/%d is leaving the kernel with locks still held!\n", p->comm,
	   p->pid);
	rp_held_locks(&r, p, p->lockdep_depth);
	report_emit(&r);
}

/*
 * The kernel's check on every exit to user mode; here enter_user() and an
 * interrupt returning to a task in user mode (sched/core.c's hooks).
 */
bool pk_lockdep_user_check(struct task_struct *p)
{
	if (!p || !__atomic_load_n(&debug_locks, __ATOMIC_RELAXED) ||
	    !p->lockdep_depth || in_lockdep)
		return false;
	in_lockdep++;
	print_held_at_user_return(p);
	in_lockdep--;
	return true;
}

void lockdep_sys_exit(void)
{
	pk_lockdep_user_check(current);
}

__attribute__((constructor)) static void lockdep_user_hook_init(void)
{
	__atomic_store_n(&pk_lockdep_user_hook, pk_lockdep_user_check,
			 __ATOMIC_RELEASE);
}

void debug_check_no_locks_held(void)
{
	struct task_struct *p = current;

	if (__atomic_load_n(&debug_locks, __ATOMIC_RELAXED) && p->lockdep_depth)
		print_held_at_exit(p, NULL);
}

void lockdep_register_key(struct lock_class_key *key)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	graph_lock();
	for (int i = 0; i < MAX_REGISTERED_KEYS; i++)
		if (!registered[i] || registered[i] == key) {
			registered[i] = key;
			break;
		}
	graph_unlock();
	raw_local_irq_restore(flags);
}

/* Under the graph lock: lists rebuilt without the dead classes' edges. */
static void relink(void)
{
	for (unsigned int i = 0; i < nr_classes; i++)
		classes[i].fwd = classes[i].bwd = -1;
	for (unsigned int e = 0; e < nr_deps; e++) {
		struct lock_dep *d = &deps[e];

		if (classes[d->from].dead || classes[d->to].dead)
			continue;
		d->next_fwd = classes[d->from].fwd;
		classes[d->from].fwd = (int)e;
		d->next_bwd = classes[d->to].bwd;
		classes[d->to].bwd = (int)e;
	}
}

void lockdep_unregister_key(struct lock_class_key *key)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	graph_lock();
	for (unsigned int i = 0; i < nr_classes; i++)
		if (classes[i].base == key)
			classes[i].dead = true;
	relink();
	/* Cached chains may name the dead classes: validate afresh. */
	memset(chain_hash, 0, sizeof(chain_hash));
	nr_chains = nr_irq_chains = 0;
	for (int i = 0; i < MAX_REGISTERED_KEYS; i++)
		if (registered[i] == key)
			registered[i] = NULL;
	graph_unlock();
	raw_local_irq_restore(flags);
}

void pk_lockdep_reset(void)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	graph_lock();
	for (unsigned int i = 0; i < nr_classes; i++)
		classes[i].dead = true;
	nr_classes = 0;
	tables_ready = false;
	tables_init();
	nr_deps = 0;
	memset(chain_hash, 0, sizeof(chain_hash));
	nr_chains = nr_irq_chains = 0;
	nr_trace_entries = 0;
	memset(&stats, 0, sizeof(stats));
	current->lockdep_depth = 0;
	current->curr_chain_key = 0;
	__atomic_store_n(&debug_locks, 1, __ATOMIC_RELAXED);
	graph_unlock();
	raw_local_irq_restore(flags);
}

bool pk_lockdep_keep_going(bool on)
{
	bool old = keep_going;

	keep_going = on;
	return old;
}

void pk_lockdep_stats(struct pk_lockdep_stats *st)
{
	unsigned long flags;

	memset(st, 0, sizeof(*st));
	raw_local_irq_save(flags);
	graph_lock();
	st->lock_classes = nr_classes;
	st->max_lock_classes = MAX_LOCKDEP_KEYS;
	st->direct_dependencies = nr_deps;
	st->max_dependencies = MAX_LOCKDEP_ENTRIES;
	st->lock_chains = nr_chains;
	st->max_lock_chains = MAX_LOCKDEP_CHAINS;
	st->irq_context_chains = nr_irq_chains;
	st->stack_trace_entries = nr_trace_entries;
	st->max_stack_trace_entries = MAX_STACK_TRACE_ENTRIES;
	for (unsigned int i = 0; i < nr_classes; i++) {
		unsigned int m = classes[i].usage_mask;

		if (classes[i].dead)
			continue;
		st->hardirq_safe +=
			!!(m & (F(USED_IN_HARDIRQ) | F(USED_IN_HARDIRQ_READ)));
		st->hardirq_unsafe +=
			!!(m & (F(ENABLED_HARDIRQ) | F(ENABLED_HARDIRQ_READ)));
		st->softirq_safe +=
			!!(m & (F(USED_IN_SOFTIRQ) | F(USED_IN_SOFTIRQ_READ)));
		st->softirq_unsafe +=
			!!(m & (F(ENABLED_SOFTIRQ) | F(ENABLED_SOFTIRQ_READ)));
		st->read_locks += !!(m & F(LOCK_USED_READ));
	}
	st->max_bfs_queue_depth = stats.max_bfs;
	st->max_locking_depth = stats.max_depth;
	st->acquisitions = stats.acquisitions;
	st->chain_lookup_hits = stats.chain_hits;
	st->chain_lookup_misses = stats.chain_misses;
	st->reports = stats.reports;
	st->debug_locks = debug_locks;
	graph_unlock();
	raw_local_irq_restore(flags);
}

#else /* !CONFIG_LOCKDEP */

void pk_lockdep_stats(struct pk_lockdep_stats *st)
{
	memset(st, 0, sizeof(*st));
}

bool pk_lockdep_keep_going(bool on)
{
	(void)on;
	return false;
}

void pk_lockdep_reset(void)
{
}

#endif
