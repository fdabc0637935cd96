// SPDX-License-Identifier: MIT
/*
 * The deterministic simulation's host: a baton, a virtual clock, virtual
 * timers and a seeded strategy (docs/sim.md).
 *
 * The machine's threads -- main and each vCPU, the participants -- keep
 * their host threads (their thread-locals are the per-CPU state), but only
 * the one holding the baton runs; the others wait on their own futex word.
 * The baton moves only here: at a decision point the strategy chose a
 * switch at, or when its holder waits (a simulated futex) or spins.  Given
 * the seed, every hand-over, every timer and every clock reading is the
 * same in each run, so the whole machine replays.
 *
 * Nothing here runs in a signal handler except the SIGABRT footer, which
 * formats with its own integer code and write(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/futex.h>

#include "sim.h"

int pk_sim_on;

enum { P_NONE, P_RUN, P_BLOCKED, P_GONE };

struct part {
	unsigned int go; /* futex word: the baton was handed here */
	int state;
	const void *wait_addr;
	long long deadline; /* virtual ns; 0: none */
	long long blocked_since;
	int prio; /* PCT priority, higher runs first */
	char name[16];
	void *wait_bt[8]; /* where a blocked participant waits */
	int wait_nbt;
};

enum strategy { S_RANDOM, S_PCT, S_DFS };

#define SIM_TIMERS 256
#define SIM_RING 32
#define SIM_MAX_DFS 16
#define SIM_QUANTUM_NS 100	      /* the clock's step per decision */
#define SIM_SPIN_LOCKUP 2000000UL     /* spin yields without progress */
#define SIM_CLOCK_BASE 1000000000LL   /* virtual boot at 1 s */
#define SIM_PCT_STEPS_DEFAULT 20000UL /* PCT's k when not given */
/* Main blocked this long on the virtual clock while only timers tick: the
 * machine is stuck (the kernel's hung_task_timeout_secs default). */
#define SIM_HUNG_NS (120 * 1000000000LL)
/*
 * Fairness: a participant that passes this many points in a row without
 * the strategy moving the baton hands it on anyway.  Real CPUs run in
 * parallel, so a loop polling a flag another CPU sets always ends; here
 * it would not, once a schedule's deviations are used up (limit=) or
 * under PCT's fixed priorities.
 */
#define SIM_FAIR_POINTS 1000
/* One point in this many, the random strategy lets the clock jump to the
 * next timer: a timer's interrupt lands at a point the seed chose. */
#define SIM_TIME_JUMP 32

struct vtimer {
	int used;
	void *cookie;
	unsigned int irq;
	long long expires; /* 0: disarmed */
	long long period;
};

struct ring_ev {
	unsigned long step;
	long long now;
	int ev, part, arg;
	char what[20];
};

static struct {
	/* configuration, from $PREEMPT_SIM */
	unsigned long long seed;
	enum strategy strategy;
	int pct_depth;
	unsigned long pct_steps;
	unsigned long pct_change[SIM_MAX_DFS];
	unsigned long dfs[SIM_MAX_DFS];
	int ndfs;
	long limit; /* deviations honoured; -1: all */
	char spec[128];

	/* the run */
	const struct pk_sim_ops *ops;
	int ran;
	int turn;
	int nparts;
	unsigned long long rng;
	long long now;
	unsigned long steps, choices, deviations, spin_streak, run_streak;
	unsigned long long hash;
	unsigned long nswitch, npreempt, nirq, ntimer;
	unsigned long nnondet; /* host calls the run cannot replay */
	unsigned long long nondet_seen[16];
	struct vtimer timers[SIM_TIMERS];
	long long timer_min;
	struct ring_ev ring[SIM_RING];
	unsigned long nring;
	/* The one host CPU the participants share, and main's mask before. */
	int cpu;
	cpu_set_t main_mask;
	bool main_mask_saved;
} sim = {.limit = -1, .cpu = -1};

static struct part parts[PK_SIM_MAX_PARTS];

/*
 * $PREEMPT_SIM_TRACE: the run as Chrome trace-event JSON (Perfetto opens
 * it): a "run" slice per participant while it holds the baton, an instant
 * per event, on the virtual clock.  Streamed through a buffer with
 * write(2), so a run that aborts leaves a trace whose missing closing
 * bracket the format allows.
 */
static struct {
	int fd;
	size_t len;
	char buf[32768];
} trace = {.fd = -1};
static __thread int self_id = -1;

static const char *const ev_names[PK_SIM_EV_NR] = {
	"point", "switch", "preempt", "irq", "timer", "time", "block", "wake",
};

/* ---- output without stdio (also from the SIGABRT handler) ---- */

static void out(const char *s)
{
	size_t len = strlen(s);

	while (len) {
		ssize_t n = write(STDERR_FILENO, s, len);

		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

static char *fmt_u(char *p, unsigned long long v, unsigned int base)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	*p = '\0';
	return p;
}

static void out_u(unsigned long long v, unsigned int base)
{
	char buf[24];

	fmt_u(buf, v, base);
	out(buf);
}

/* ---- the seed ---- */

static unsigned long long rng_next(void)
{
	/* splitmix64 */
	unsigned long long z = (sim.rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned long rng_below(unsigned long n)
{
	return n ? (unsigned long)(rng_next() % n) : 0;
}

static void hash_mix(unsigned long long v)
{
	for (int i = 0; i < 8; i++) {
		sim.hash ^= (v >> (8 * i)) & 0xff;
		sim.hash *= 0x100000001b3ULL;
	}
}

static void hash_str(const char *s)
{
	for (; s && *s; s++) {
		sim.hash ^= (unsigned char)*s;
		sim.hash *= 0x100000001b3ULL;
	}
}

static void trace_flush(void)
{
	const char *p = trace.buf;

	while (trace.len) {
		ssize_t n = write(trace.fd, p, trace.len);

		if (n <= 0)
			break;
		p += n;
		trace.len -= (size_t)n;
	}
	trace.len = 0;
}

static void trace_put(const char *s)
{
	size_t n = strlen(s);

	if (trace.len + n > sizeof(trace.buf))
		trace_flush();
	memcpy(trace.buf + trace.len, s, n);
	trace.len += n;
}

/* A name in a JSON string: quotes, backslashes and controls dropped. */
static void trace_put_name(const char *s)
{
	char c[2] = "";

	for (; *s; s++) {
		if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20)
			continue;
		c[0] = *s;
		trace_put(c);
	}
}

/* One trace event: @ph "B", "E", "i" or "M" (a thread's name). */
static void trace_ev(const char *ph, int tid, const char *name,
		     const char *what)
{
	char num[24];
	long long ns = sim.now - SIM_CLOCK_BASE;

	if (trace.fd < 0)
		return;
	trace_put("{\"ph\":\"");
	trace_put(ph);
	trace_put("\",\"pid\":1,\"tid\":");
	fmt_u(num, (unsigned)tid, 10);
	trace_put(num);
	trace_put(",\"ts\":");
	fmt_u(num, (unsigned long long)ns / 1000, 10);
	trace_put(num);
	trace_put(".");
	fmt_u(num, (unsigned long long)ns % 1000 + 1000, 10);
	trace_put(num + 1); /* three digits */
	if (*ph == 'i')
		trace_put(",\"s\":\"t\"");
	trace_put(*ph == 'M' ? ",\"name\":\"thread_name\",\"args\":{\"name\":\""
			     : ",\"name\":\"");
	trace_put_name(name);
	if (what && *what) {
		trace_put(" ");
		trace_put_name(what);
	}
	trace_put(*ph == 'M' ? "\"}},\n" : "\"},\n");
}

static void trace_open(void)
{
	const char *path = getenv("PREEMPT_SIM_TRACE");

	if (!path || !*path || trace.fd >= 0)
		return;
	trace.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (trace.fd < 0) {
		fprintf(stderr, "preempt: PREEMPT_SIM_TRACE=%s: %s\n", path,
			strerror(errno));
		exit(2);
	}
	trace_put("[\n");
}

static void trace_close(void)
{
	if (trace.fd < 0)
		return;
	trace_put("{}]\n");
	trace_flush();
	close(trace.fd);
	trace.fd = -1;
}

void pk_sim_event(enum pk_sim_event ev, int arg, const char *what)
{
	struct ring_ev *r = &sim.ring[sim.nring++ % SIM_RING];

	sim.npreempt += ev == PK_SIM_EV_PREEMPT;
	sim.nirq += ev == PK_SIM_EV_IRQ;

	hash_mix(((unsigned long long)ev << 56) ^
		 ((unsigned long long)(unsigned)self_id << 32) ^ (unsigned)arg);
	hash_str(what);
	r->step = sim.steps;
	r->now = sim.now;
	r->ev = ev;
	r->part = self_id;
	r->arg = arg;
	snprintf(r->what, sizeof(r->what), "%s", what ? what : "");
	if (ev != PK_SIM_EV_SWITCH && self_id >= 0)
		trace_ev("i", self_id, ev_names[ev], what);
}

/* ---- $PREEMPT_SIM: seed[,random|pct:D[:K]|dfs:I.J...][,limit=N] ---- */

static bool parse_list(const char *s, unsigned long *v, int max, int *n)
{
	char *end;

	*n = 0;
	if (!*s)
		return true;
	for (;;) {
		if (*n == max)
			return false;
		v[(*n)++] = strtoul(s, &end, 10);
		if (end == s)
			return false;
		if (*end != '.')
			return *end == '\0';
		s = end + 1;
	}
}

static bool parse_strategy(const char *s)
{
	char *end;

	if (!strcmp(s, "random")) {
		sim.strategy = S_RANDOM;
	} else if (!strncmp(s, "pct:", 4)) {
		sim.strategy = S_PCT;
		sim.pct_depth = (int)strtol(s + 4, &end, 10);
		sim.pct_steps = SIM_PCT_STEPS_DEFAULT;
		if (*end == ':')
			sim.pct_steps = strtoul(end + 1, &end, 10);
		if (sim.pct_depth < 1 || sim.pct_depth > SIM_MAX_DFS ||
		    !sim.pct_steps || *end)
			return false;
	} else if (!strncmp(s, "dfs:", 4)) {
		sim.strategy = S_DFS;
		return parse_list(s + 4, sim.dfs, SIM_MAX_DFS, &sim.ndfs);
	} else {
		return false;
	}
	return true;
}

static bool parse_spec(const char *spec)
{
	char copy[128], *tok, *save, *end;

	if (strlen(spec) >= sizeof(copy))
		return false;
	strcpy(copy, spec);
	tok = strtok_r(copy, ",", &save);
	if (!tok)
		return false;
	sim.seed = strtoull(tok, &end, 10);
	if (end == tok || *end)
		return false;
	while ((tok = strtok_r(NULL, ",", &save))) {
		if (!strncmp(tok, "limit=", 6)) {
			sim.limit = strtol(tok + 6, &end, 10);
			if (end == tok + 6 || sim.limit < 0 || *end)
				return false;
		} else if (!parse_strategy(tok)) {
			return false;
		}
	}
	snprintf(sim.spec, sizeof(sim.spec), "%s", spec);
	return true;
}

bool pk_sim_requested(const char *spec)
{
	if (!spec)
		spec = getenv("PREEMPT_SIM");
	if (!spec || !*spec)
		return false;
	if (!parse_spec(spec)) {
		fprintf(stderr,
			"preempt: PREEMPT_SIM=%s: expected "
			"SEED[,random|pct:D[:K]"
			"|dfs:I.J...][,limit=N]\n",
			spec);
		exit(2);
	}
	return true;
}

/* ---- the footer every simulated run ends with ---- */

static void out_repro(void)
{
	out("reproduce with PREEMPT_SIM=");
	out(sim.spec);
	out("\n");
}

/* "sim: seed S strategy X": how every simulated run's output begins. */
static void out_seed(void)
{
	out("sim: seed ");
	out_u(sim.seed, 10);
	out(" strategy ");
	out(sim.strategy == S_PCT   ? "pct"
	    : sim.strategy == S_DFS ? "dfs"
				    : "random");
}

static void out_summary(void)
{
	const struct {
		unsigned long long n;
		const char *what;
	} counts[] = {
		{sim.steps, " decisions, "},
		{sim.choices, " choice points, "},
		{sim.deviations, " deviations, "},
		{sim.nswitch, " switches, "},
		{sim.npreempt, " preemptions, "},
		{sim.nirq, " interrupts, virtual time "},
		{(unsigned long long)(sim.now - SIM_CLOCK_BASE) / 1000, " us"},
	};

	out_seed();
	out(": ");
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		out_u(counts[i].n, 10);
		out(counts[i].what);
	}
	if (sim.nnondet) {
		out(", ");
		out_u(sim.nnondet, 10);
		out(" kinds of nondeterministic host call");
	}
	out("\nsim: trace hash ");
	out_u(sim.hash, 16);
	out("\n");
}

static void out_events(void)
{
	unsigned long first = sim.nring > SIM_RING ? sim.nring - SIM_RING : 0;

	out("sim: last events:\n");
	for (unsigned long i = first; i < sim.nring; i++) {
		const struct ring_ev *r = &sim.ring[i % SIM_RING];

		out("  #");
		out_u(r->step, 10);
		out(" t+");
		out_u((unsigned long long)(r->now - SIM_CLOCK_BASE) / 1000, 10);
		out("us ");
		out(r->part >= 0 ? parts[r->part].name : "?");
		out(" ");
		out(ev_names[r->ev]);
		if (r->what[0]) {
			out(" ");
			out(r->what);
		}
		out("\n");
	}
}

static void sim_footer(int status)
{
	if (!sim.ran)
		return;
	sim.ran = 0;
	trace_close();
	out_summary();
	if (status) {
		out_events();
		out_repro();
	}
}

static void on_exit_footer(int status, void *arg)
{
	(void)arg;
	sim_footer(status);
}

static void abort_footer(int sig)
{
	sim_footer(1);
	signal(sig, SIG_DFL);
	raise(sig);
}

void pk_sim_note_nondeterminism(const char *what)
{
	unsigned long long h = 0xcbf29ce484222325ULL;
	unsigned int n = sim.nnondet < 16 ? (unsigned int)sim.nnondet : 16;

	for (const char *p = what; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	for (unsigned int i = 0; i < n; i++)
		if (sim.nondet_seen[i] == h)
			return;
	if (sim.nnondet < 16)
		sim.nondet_seen[sim.nnondet] = h;
	sim.nnondet++;
	out("sim: nondeterminism: ");
	out(what);
	out(" (the replay may differ)\n");
}

void pk_sim_fail(const char *why)
{
	out("sim: ");
	out(why);
	out("\n");
	sim_footer(1);
	_exit(1);
}

/* ---- participants and the baton ---- */

static long futex(unsigned int *addr, int op, unsigned int val,
		  const struct timespec *ts)
{
	return syscall(SYS_futex, addr, op, val, ts, NULL, 0);
}

static void wait_turn(int me)
{
	while (__atomic_load_n(&sim.turn, __ATOMIC_SEQ_CST) != me)
		futex(&parts[me].go, FUTEX_WAIT_PRIVATE, 0, NULL);
	__atomic_store_n(&parts[me].go, 0, __ATOMIC_RELAXED);
}

static void give_turn(int next)
{
	__atomic_store_n(&sim.turn, next, __ATOMIC_SEQ_CST);
	__atomic_store_n(&parts[next].go, 1, __ATOMIC_SEQ_CST);
	futex(&parts[next].go, FUTEX_WAKE_PRIVATE, 1, NULL);
}

/* Hand the baton to @next and wait until it comes back. */
static void hand_to(int next)
{
	int me = self_id;

	sim.run_streak = 0;
	sim.nswitch++;
	pk_sim_event(PK_SIM_EV_SWITCH, next, parts[next].name);
	trace_ev("E", me, "run", NULL);
	trace_ev("B", next, "run", NULL);
	give_turn(next);
	wait_turn(me);
}

unsigned long pk_sim_decisions(void)
{
	return sim.steps;
}

int pk_sim_self(void)
{
	return self_id;
}

bool pk_sim_left(int id)
{
	return parts[id].state == P_GONE;
}

void pk_sim_add(int id, const char *name)
{
	if (id >= sim.nparts)
		sim.nparts = id + 1;
	parts[id].state = P_RUN;
	parts[id].go = 0;
	parts[id].prio = (int)(sim.pct_depth + 1 + rng_below(1000));
	snprintf(parts[id].name, sizeof(parts[id].name), "%s", name);
	trace_ev("M", id, parts[id].name, NULL);
}

/*
 * Only the baton's holder runs, so the participants share one host CPU:
 * a hand-over is then a switch on that CPU, not a wake-up of an idle one
 * (1.2 M against 0.3 M decisions/s in bench_sim on an idle 2-CPU host).
 * Pinned in pk_sim_start(), main hands the mask on: the vCPU threads are
 * created after it.
 */
static void pin_to_sim_cpu(void)
{
	cpu_set_t one;

	if (sim.cpu < 0)
		return;
	CPU_ZERO(&one);
	CPU_SET(sim.cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
}

void pk_sim_join(int id)
{
	self_id = id;
	wait_turn(id);
}

static void initial_pct(void)
{
	/* Burckhardt et al.: d-1 change points spread over the k steps. */
	for (int i = 0; i < sim.pct_depth - 1; i++)
		sim.pct_change[i] = 1 + rng_below(sim.pct_steps);
}

void pk_sim_start(const struct pk_sim_ops *ops)
{
	static int registered;

	sim.ops = ops;
	sim.rng = sim.seed;
	sim.now = SIM_CLOCK_BASE;
	sim.timer_min = 0;
	sim.hash = 0xcbf29ce484222325ULL;
	sim.ran = 1;
	memset(parts, 0, sizeof(parts));
	sim.nparts = 0;
	sim.main_mask_saved =
		!sched_getaffinity(0, sizeof(sim.main_mask), &sim.main_mask);
	sim.cpu = sched_getcpu();
	pin_to_sim_cpu();
	initial_pct();
	trace_open();
	pk_sim_add(0, "main");
	trace_ev("B", 0, "run", NULL);
	self_id = 0;
	sim.turn = 0;
	if (!registered) {
		registered = 1;
		on_exit(on_exit_footer, NULL);
		signal(SIGABRT, abort_footer);
	}
	out_seed();
	out("\n");
	__atomic_store_n(&pk_sim_on, 1, __ATOMIC_SEQ_CST);
}

void pk_sim_stop(void)
{
	__atomic_store_n(&pk_sim_on, 0, __ATOMIC_SEQ_CST);
	if (sim.main_mask_saved)
		sched_setaffinity(0, sizeof(sim.main_mask), &sim.main_mask);
	sim.main_mask_saved = false;
	sim.cpu = -1;
}

/* ---- virtual time and timers ---- */

long long pk_clock_ns(void)
{
	struct timespec ts;

	if (pk_sim_active()) {
		if (self_id < 0)
			pk_sim_fail("nondeterminism: a thread outside the "
				    "machine read the clock");
		return sim.now;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void pk_clock_advance(long long ns)
{
	if (pk_sim_active() && ns > 0)
		sim.now += ns;
}

static void timers_recompute(void)
{
	sim.timer_min = 0;
	for (int i = 0; i < SIM_TIMERS; i++) {
		long long e = sim.timers[i].expires;

		if (sim.timers[i].used && e &&
		    (!sim.timer_min || e < sim.timer_min))
			sim.timer_min = e;
	}
}

static void timers_fire(void)
{
	if (!sim.timer_min || sim.timer_min > sim.now)
		return;
	for (int i = 0; i < SIM_TIMERS; i++) {
		struct vtimer *t = &sim.timers[i];

		if (!t->used || !t->expires || t->expires > sim.now)
			continue;
		if (t->period) {
			while (t->expires <= sim.now)
				t->expires += t->period;
		} else {
			t->expires = 0;
		}
		sim.ntimer++;
		pk_sim_event(PK_SIM_EV_TIMER, (int)t->irq, NULL);
		sim.ops->timer_fire(t->cookie, t->irq);
	}
	timers_recompute();
}

int pk_sim_timer_create(void *cookie, unsigned int irq)
{
	for (int i = 0; i < SIM_TIMERS; i++) {
		if (!sim.timers[i].used) {
			sim.timers[i] = (struct vtimer){
				.used = 1, .cookie = cookie, .irq = irq};
			return i;
		}
	}
	return -EAGAIN;
}

void pk_sim_timer_set(int id, long long first_ns, long long period_ns)
{
	struct vtimer *t = &sim.timers[id];

	t->expires = first_ns;
	t->period = first_ns ? period_ns : 0;
	timers_recompute();
}

void pk_sim_timer_delete(int id)
{
	sim.timers[id] = (struct vtimer){0};
	timers_recompute();
}

/* ---- who runs next ---- */

static bool runnable(int id)
{
	return parts[id].state == P_RUN;
}

static bool within_limit(void)
{
	return sim.limit < 0 || sim.deviations < (unsigned long)sim.limit;
}

/* The strategy says whether to deviate at this choice point. */
static bool deviate(void)
{
	unsigned long idx = sim.choices++;
	bool yes = false;

	if (sim.limit >= 0 && sim.deviations >= (unsigned long)sim.limit)
		return false;
	switch (sim.strategy) {
	case S_RANDOM:
		yes = rng_below(8) == 0;
		break;
	case S_PCT:
		for (int i = 0; i < sim.pct_depth - 1; i++)
			yes |= sim.pct_change[i] == sim.steps;
		break;
	case S_DFS:
		for (int i = 0; i < sim.ndfs; i++)
			yes |= sim.dfs[i] == idx;
		break;
	}
	sim.deviations += yes;
	return yes;
}

bool pk_sim_choose_preempt(void)
{
	return deviate();
}

/* Among the runnable participants other than @me: random, PCT's highest
 * priority, or the next one round the ring.  -1 if none. */
static int pick_other(int me)
{
	int cand[PK_SIM_MAX_PARTS], n = 0, best = -1;

	for (int i = 1; i <= sim.nparts; i++) {
		int id = (me + i) % sim.nparts;

		if (id != me && runnable(id))
			cand[n++] = id;
	}
	if (!n)
		return -1;
	switch (sim.strategy) {
	case S_RANDOM:
		return cand[rng_below((unsigned long)n)];
	case S_PCT:
		for (int i = 0; i < n; i++)
			if (best < 0 || parts[cand[i]].prio > parts[best].prio)
				best = cand[i];
		return best;
	case S_DFS:
		break;
	}
	return cand[0];
}

/* Everyone waits: the clock jumps to the next timer or deadline. */
static bool advance_to_next_event(void)
{
	long long next = sim.timer_min;

	for (int i = 0; i < sim.nparts; i++)
		if (parts[i].state == P_BLOCKED && parts[i].deadline &&
		    (!next || parts[i].deadline < next))
			next = parts[i].deadline;
	if (!next)
		return false;
	if (parts[0].state == P_BLOCKED &&
	    next - parts[0].blocked_since > SIM_HUNG_NS) {
		out("\nINFO: task main blocked for more than 120 seconds.\n");
		return false;
	}
	if (next > sim.now)
		sim.now = next;
	pk_sim_event(PK_SIM_EV_TIME, 0, NULL);
	for (int i = 0; i < sim.nparts; i++) {
		if (parts[i].state == P_BLOCKED && parts[i].deadline &&
		    parts[i].deadline <= sim.now) {
			parts[i].state = P_RUN;
			pk_sim_event(PK_SIM_EV_WAKE, i, parts[i].name);
		}
	}
	timers_fire();
	return true;
}

static void deadlock(void)
{
	out("\nBUG: deadlock: every CPU of the simulated machine waits\n");
	for (int i = 0; i < sim.nparts; i++) {
		char line[160] = "";

		if (parts[i].state == P_GONE || parts[i].state == P_NONE)
			continue;
		out("  ");
		out(parts[i].name);
		out(": ");
		if (sim.ops->describe)
			sim.ops->describe(i, line, sizeof(line));
		out(line);
		out("\n");
		if (i == 0 && parts[i].wait_nbt) {
			fflush(stderr);
			backtrace_symbols_fd(parts[i].wait_bt,
					     parts[i].wait_nbt, STDERR_FILENO);
		}
	}
	if (sim.ops->dump)
		sim.ops->dump();
	pk_sim_fail("deadlock");
}

/*
 * The holder cannot go on (@me blocked) or should let others (@me spins):
 * find the next participant to run, moving the clock if nobody can.
 */
static void run_someone_else(int me)
{
	for (;;) {
		int next = pick_other(me);

		if (next >= 0) {
			hand_to(next);
			return;
		}
		if (runnable(me) && !sim.timer_min)
			return; /* alone, spinning: the caller counts */
		if (runnable(me)) {
			/* Alone and spinning: time passes until a timer. */
			if (sim.timer_min > sim.now)
				sim.now = sim.timer_min;
			timers_fire();
			return;
		}
		if (!advance_to_next_event())
			deadlock();
		if (runnable(me))
			return;
	}
}

static void resume(void)
{
	if (sim.ops->resume)
		sim.ops->resume();
}

void pk_sim_port_point(int kind)
{
	int me = self_id, next = -1;

	if (me < 0)
		return;
	sim.steps++;
	sim.spin_streak = 0;
	sim.now += SIM_QUANTUM_NS;
	hash_mix(((unsigned long long)kind << 8) | (unsigned)me);
	if (sim.strategy == S_RANDOM && sim.timer_min > sim.now &&
	    rng_below(SIM_TIME_JUMP) == 0 && within_limit()) {
		sim.deviations++;
		sim.now = sim.timer_min;
		pk_sim_event(PK_SIM_EV_TIME, 1, NULL);
	}
	timers_fire();
	if (sim.strategy == S_PCT) {
		for (int i = 0; i < sim.pct_depth - 1; i++)
			if (sim.pct_change[i] == sim.steps)
				parts[me].prio = i; /* below every start */
		next = pick_other(me);
		if (next >= 0 && parts[next].prio < parts[me].prio)
			next = -1;
	} else if (pick_other(me) >= 0 && deviate()) {
		next = pick_other(me);
	}
	if (next < 0 && ++sim.run_streak >= SIM_FAIR_POINTS)
		next = pick_other(me);
	if (next >= 0) {
		sim.run_streak = 0;
		hand_to(next);
	}
	resume();
}

/* ---- the host's waits ---- */

void pk_host_yield(void)
{
	int me = self_id;

	if (!pk_sim_active()) {
		sched_yield();
		return;
	}
	if (me < 0)
		pk_sim_fail("nondeterminism: a thread outside the machine "
			    "waits for it");
	sim.now += SIM_QUANTUM_NS;
	if (++sim.spin_streak > SIM_SPIN_LOCKUP) {
		out("\nBUG: soft lockup: the simulated CPUs spin and nobody "
		    "makes progress\n");
		deadlock();
	}
	timers_fire();
	run_someone_else(me);
	resume();
}

static void host_futex_wait(unsigned int *addr, unsigned int val,
			    long long deadline_ns)
{
	struct timespec ts, *tsp = NULL;

	if (deadline_ns) {
		long long left = deadline_ns - pk_clock_ns();

		if (left <= 0)
			return;
		ts.tv_sec = left / 1000000000LL;
		ts.tv_nsec = left % 1000000000LL;
		tsp = &ts;
	}
	futex(addr, FUTEX_WAIT_PRIVATE, val, tsp);
}

void pk_host_futex_wait(unsigned int *addr, unsigned int val,
			long long deadline_ns)
{
	int me = self_id;

	if (!pk_sim_active()) {
		host_futex_wait(addr, val, deadline_ns);
		return;
	}
	if (me < 0)
		pk_sim_fail("nondeterminism: a thread outside the machine "
			    "waits for it");
	if (__atomic_load_n(addr, __ATOMIC_SEQ_CST) != val)
		return;
	if (deadline_ns && deadline_ns <= sim.now)
		return;
	sim.spin_streak = 0;
	parts[me].state = P_BLOCKED;
	parts[me].blocked_since = sim.now;
	parts[me].wait_addr = addr;
	parts[me].deadline = deadline_ns;
	if (me == 0)
		parts[me].wait_nbt = backtrace(parts[me].wait_bt, 8);
	pk_sim_event(PK_SIM_EV_BLOCK, me, NULL);
	run_someone_else(me);
	parts[me].state = P_RUN;
	parts[me].wait_addr = NULL;
	parts[me].deadline = 0;
	resume();
}

void pk_host_futex_wake(unsigned int *addr, int n)
{
	if (!pk_sim_active()) {
		futex(addr, FUTEX_WAKE_PRIVATE, (unsigned int)n, NULL);
		return;
	}
	for (int i = 0; i < sim.nparts && n > 0; i++) {
		if (parts[i].state == P_BLOCKED && parts[i].wait_addr == addr) {
			parts[i].state = P_RUN;
			sim.spin_streak = 0;
			pk_sim_event(PK_SIM_EV_WAKE, i, parts[i].name);
			n--;
		}
	}
}

void pk_sim_kick(int id)
{
	if (id < 0 || id >= sim.nparts || parts[id].state != P_BLOCKED)
		return;
	parts[id].state = P_RUN;
	sim.spin_streak = 0;
	pk_sim_event(PK_SIM_EV_WAKE, id, parts[id].name);
}

void pk_sim_leave(void)
{
	int me = self_id, next;

	parts[me].state = P_GONE;
	self_id = -1;
	while ((next = pick_other(me)) < 0)
		if (!advance_to_next_event())
			deadlock();
	trace_ev("E", me, "run", NULL);
	trace_ev("B", next, "run", NULL);
	give_turn(next);
}
