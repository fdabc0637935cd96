// SPDX-License-Identifier: MIT
/*
 * bench_locks: what an uncontended lock round trip costs (issue 5).
 *
 *   bench_locks [--ms N] [--reps N]   timings, two tables:
 *     1. on a plain thread, our locks beside glibc's pthread_spin_lock and
 *        pthread_mutex_lock, every case in each of the interleaved rounds;
 *     2. inside a task of a booted machine, under full and under rt, the
 *        locks whose implementation rt changes (spinlock_t becomes an
 *        rt_mutex, bottom halves take the CPU's bh lock).
 *     3. verdicts: spin_lock_irqsave pair against spin_lock pair, and
 *        local_irq_save+restore against a bare TLS increment+decrement;
 *     4. contended spin_lock throughput against pthread_mutex: tasks on 2
 *        vCPUs, on 8 vCPUs (over however many host CPUs there are), and
 *        host threads, side by side in one run.
 *   bench_locks --callgrind N         table 1's loops, N iterations each,
 *                                     for callgrind to count instructions.
 *
 * Each loop is a noinline function named bench_lk_<case>, so callgrind
 * charges it by name; a loop body is one lock and one unlock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <preempt/bottom_half.h>
#include <preempt/mutex.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "bench_util.h"

static DEFINE_RAW_SPINLOCK(raw);
/* The same lock the validator does not track: the difference between the
 * two rows is lockdep's cost per lock/unlock pair (debug build). */
static raw_spinlock_t raw_untracked = __PK_RAW_SPIN_LOCK_INIT(NULL, 0);
static DEFINE_SPINLOCK(spin);
static DEFINE_RWLOCK(rw);
static DEFINE_MUTEX(mtx);
static pthread_spinlock_t pspin;
static pthread_mutex_t pmutex = PTHREAD_MUTEX_INITIALIZER;

#define LOOP(name, body)                                                       \
	static __attribute__((noinline)) void bench_lk_##name(long n)          \
	{                                                                      \
		for (long i = 0; i < n; i++) {                                 \
			body;                                                  \
			barrier();                                             \
		}                                                              \
	}

/* The anchor: one TLS increment and decrement, as the word is updated. */
static __thread unsigned int bare_tls
	__attribute__((tls_model("initial-exec")));

static __always_inline void bare_tls_pair(void)
{
#if defined(__x86_64__)
	__asm__ __volatile__("incl %0" : "+m"(bare_tls)::"memory");
	__asm__ __volatile__("decl %0" : "+m"(bare_tls)::"memory");
#else
	__atomic_fetch_add(&bare_tls, 1, __ATOMIC_RELAXED);
	barrier();
	__atomic_fetch_sub(&bare_tls, 1, __ATOMIC_RELAXED);
#endif
}

/*
 * The floors of target 2 (debug checks off), on the same bare TLS word.  A
 * save must return the old state, so it reads the word before its add; a
 * restore must decide by that state whether it is an enabling edge, and
 * with lazy disabling an enabling edge must test for interrupts left
 * pending, on a second TLS word (zero here).  Any local_irq_save()+restore()
 * pays all three; the two rows price the read alone, then all three.
 */
static __thread unsigned int bare_pending
	__attribute__((tls_model("initial-exec")));

static __attribute__((noinline)) void bare_never(void)
{
	abort();
}

static __always_inline unsigned int bare_read_pair(void)
{
	unsigned int old;

#if defined(__x86_64__)
	__asm__ __volatile__("movl %1, %0" : "=r"(old) : "m"(bare_tls));
	__asm__ __volatile__("" : : "r"(old));
#else
	old = __atomic_load_n(&bare_tls, __ATOMIC_RELAXED);
	__asm__ __volatile__("" : : "r"(old));
#endif
	bare_tls_pair();
	return old;
}

static __always_inline void bare_edge_pair(void)
{
	if (__builtin_expect(bare_read_pair() != 0, 0) ||
	    __builtin_expect(__atomic_load_n(&bare_pending, __ATOMIC_RELAXED),
			     0))
		bare_never();
}

/*
 * The floor of target 2 with the debug checks on: besides the edge pair,
 * what the checks must do.  The save stores where interrupts went off
 * (reports print it) and tests the irq tracer's table; the restore tests
 * the table again and verifies that interrupts were off, a load of the
 * word the save's add just wrote, before its own update (the kernel's
 * raw_check_bogus_irq_restore()).  Same TLS word, same global pointer.
 */
static __thread volatile unsigned long bare_ip
	__attribute__((tls_model("initial-exec")));
static const void *volatile bare_tracer;

static __always_inline void bare_checked_pair(void)
{
	unsigned int old, now;

#if defined(__x86_64__)
	__asm__ __volatile__("movl %1, %0" : "=r"(old) : "m"(bare_tls));
	__asm__ __volatile__("incl %0" : "+m"(bare_tls)::"memory");
#else
	old = __atomic_fetch_add(&bare_tls, 1, __ATOMIC_RELAXED);
	barrier();
#endif
	if (__builtin_expect(old != 0, 0))
		bare_never();
	bare_ip = _THIS_IP_;
	if (__builtin_expect(bare_tracer != NULL, 0))
		bare_never();
	barrier();
	now = __atomic_load_n(&bare_tls, __ATOMIC_RELAXED);
	if (__builtin_expect(now == 0, 0))
		bare_never();
	if (__builtin_expect(bare_tracer != NULL, 0))
		bare_never();
#if defined(__x86_64__)
	__asm__ __volatile__("decl %0" : "+m"(bare_tls)::"memory");
#else
	__atomic_fetch_sub(&bare_tls, 1, __ATOMIC_RELAXED);
	barrier();
#endif
	if (__builtin_expect(__atomic_load_n(&bare_pending, __ATOMIC_RELAXED),
			     0))
		bare_never();
}

LOOP(empty, )
LOOP(tls_pair, bare_tls_pair())
LOOP(tls_read_pair, bare_read_pair())
LOOP(tls_edge_pair, bare_edge_pair())
LOOP(tls_checked_pair, bare_checked_pair())
LOOP(irq_pair, unsigned long flags; local_irq_save(flags);
     local_irq_restore(flags))
LOOP(pthread_spin, pthread_spin_lock(&pspin); pthread_spin_unlock(&pspin))
LOOP(pthread_mutex, pthread_mutex_lock(&pmutex); pthread_mutex_unlock(&pmutex))
LOOP(raw_spin, raw_spin_lock(&raw); raw_spin_unlock(&raw))
LOOP(raw_untracked, raw_spin_lock(&raw_untracked);
     raw_spin_unlock(&raw_untracked))
LOOP(spin, spin_lock(&spin); spin_unlock(&spin))
LOOP(spin_irqsave, unsigned long flags; spin_lock_irqsave(&spin, flags);
     spin_unlock_irqrestore(&spin, flags))
LOOP(spin_bh, spin_lock_bh(&spin); spin_unlock_bh(&spin))
LOOP(local_bh, local_bh_disable(); local_bh_enable())
LOOP(read_lock, read_lock(&rw); read_unlock(&rw))
LOOP(mutex, mutex_lock(&mtx); mutex_unlock(&mtx))

struct lk_case {
	const char *name;
	void (*loop)(long n);
	bool in_task; /* also in table 2 */
};

static const struct lk_case cases[] = {
	{"empty loop (control)", bench_lk_empty, true},
	{"bare TLS incl+decl", bench_lk_tls_pair, true},
	{"local_irq_save+restore", bench_lk_irq_pair, true},
	{"pthread_spin_lock+unlock", bench_lk_pthread_spin, false},
	{"pthread_mutex_lock+unlock", bench_lk_pthread_mutex, false},
	{"raw_spin_lock+unlock", bench_lk_raw_spin, true},
	{"raw_spin_lock+unlock, no lockdep", bench_lk_raw_untracked, true},
	{"spin_lock+unlock", bench_lk_spin, true},
	{"spin_lock_irqsave+irqrestore", bench_lk_spin_irqsave, true},
	{"spin_lock_bh+unlock_bh", bench_lk_spin_bh, true},
	{"local_bh_disable+enable", bench_lk_local_bh, true},
	{"read_lock+unlock", bench_lk_read_lock, true},
	{"mutex_lock+unlock", bench_lk_mutex, true},
	{"floor: TLS read, incl+decl", bench_lk_tls_read_pair, false},
	{"floor: + old state, pending tests", bench_lk_tls_edge_pair, false},
	{"floor: + the debug checks' work", bench_lk_tls_checked_pair, false},
};

#define NR_CASES (sizeof(cases) / sizeof(cases[0]))
/* Indices into cases[] for the ratios and verdicts. */
enum {
	C_EMPTY,
	C_TLS,
	C_IRQ,
	C_PSPIN,
	C_PMUTEX,
	C_RAW,
	C_RAW_UNTRACKED,
	C_SPIN,
	C_SPIN_IRQSAVE,
	C_SPIN_BH,
	C_LOCAL_BH,
	C_READ_LOCK,
	C_MUTEX,
	C_FLOOR_READ,
	C_FLOOR_EDGE,
	C_FLOOR_CHECKED
};
_Static_assert(C_FLOOR_CHECKED + 1 == NR_CASES, "the enum names every case");

static double loop_ns(const void *c, long iters)
{
	double t0 = bench_now_ns();

	((const struct lk_case *)c)->loop(iters);
	return bench_now_ns() - t0;
}

struct run {
	long ms;
	int reps;
	bool task_cases_only;
	double median[NR_CASES], lo[NR_CASES], hi[NR_CASES];
};

/* Every case once per round, so drift hits them alike. */
static void measure(struct run *r)
{
	static double ns[NR_CASES][BENCH_MAX_REPS];
	long iters[NR_CASES];

	for (size_t c = 0; c < NR_CASES; c++)
		if (!r->task_cases_only || cases[c].in_task)
			iters[c] = bench_calibrate(loop_ns, &cases[c], 1000,
						   1000, r->ms * 1000000.0);
	for (int rep = 0; rep < r->reps; rep++)
		for (size_t c = 0; c < NR_CASES; c++)
			if (!r->task_cases_only || cases[c].in_task)
				ns[c][rep] = loop_ns(&cases[c], iters[c]) /
					     (double)iters[c];
	for (size_t c = 0; c < NR_CASES; c++) {
		if (r->task_cases_only && !cases[c].in_task)
			continue;
		r->median[c] = bench_median(ns[c], r->reps);
		bench_range(ns[c], r->reps, &r->lo[c], &r->hi[c]);
	}
}

static int measure_task(void *arg)
{
	measure(arg);
	return 0;
}

/* Table 2's column for @model: measured inside a task on one vCPU. */
static int measure_in_machine(struct run *r, enum preempt_model model)
{
	struct machine_config cfg = {.nr_cpus = 1, .hz = 1000, .model = model};
	int err = machine_boot(&cfg);

	if (err) {
		fprintf(stderr, "bench_locks: machine_boot: %s\n",
			strerror(-err));
		return 1;
	}
	r->task_cases_only = true;
	kthread_stop(kthread_run(measure_task, r, "bench"));
	machine_shutdown();
	return 0;
}

static void print_host(const struct run *r)
{
	double pthread_spin = r->median[C_PSPIN],
	       pthread_mutex = r->median[C_PMUTEX];

	printf("-- 1. uncontended, on a plain thread (ns per lock+unlock) "
	       "--\n");
	printf("%-30s %8s %8s %8s %10s %10s\n", "case", "median", "min", "max",
	       "/pspin", "/pmutex");
	for (size_t c = 0; c < NR_CASES; c++)
		printf("%-30s %8.2f %8.2f %8.2f %9.2fx %9.2fx\n", cases[c].name,
		       r->median[c], r->lo[c], r->hi[c],
		       r->median[c] / pthread_spin,
		       r->median[c] / pthread_mutex);
}

static void print_models(const struct run *full, const struct run *rt)
{
	printf("\n-- 2. uncontended, in a task on one vCPU (ns per "
	       "lock+unlock) --\n");
	printf("%-30s %10s %10s %8s\n", "case", "full", "rt", "rt/full");
	for (size_t c = 0; c < NR_CASES; c++)
		if (cases[c].in_task)
			printf("%-30s %10.2f %10.2f %7.2fx\n", cases[c].name,
			       full->median[c], rt->median[c],
			       rt->median[c] / full->median[c]);
}

/* ---- 3. verdicts: the ratio of two loops, round by round ---- */

/*
 * The median over @reps rounds of time(@a)/time(@b), each round running
 * both back to back, so drift between rounds cancels in each ratio.
 */
static double ab_ratio(size_t a, size_t b, long ms, int reps)
{
	double ratio[BENCH_MAX_REPS] = {0};
	long ia = bench_calibrate(loop_ns, &cases[a], 1000, 1000, ms * 1e6);
	long ib = bench_calibrate(loop_ns, &cases[b], 1000, 1000, ms * 1e6);

	for (int r = 0; r < reps; r++) {
		double ta = loop_ns(&cases[a], ia) / (double)ia;
		double tb = loop_ns(&cases[b], ib) / (double)ib;

		ratio[r] = ta / tb;
	}
	return bench_median(ratio, reps);
}

/* A verdict line, and its "@verdict" for docs/PERFORMANCE.md's table. */
static void verdict(const char *what, double ratio, double target)
{
	const char *checks = CONFIG_DEBUG_PREEMPT ? "on" : "off";

	printf("%-52s %6.3fx  target <= %.2fx  %s\n", what, ratio, target,
	       ratio <= target ? "MET" : "MISSED");
	printf("@verdict target=2; what=%s <= %.2fx, debug checks %s; "
	       "ratio=%.3f; verdict=%s\n",
	       what, target, checks, ratio, ratio <= target ? "met" : "missed");
}

static void print_verdicts(long ms, int reps)
{
	int n = reps * 3 > BENCH_MAX_REPS ? BENCH_MAX_REPS : reps * 3;

	printf("\n-- 3. verdicts (median of %d back-to-back ratios, %s) --\n",
	       n,
	       CONFIG_DEBUG_PREEMPT ? "debug checks on" : "debug checks off");
	if (CONFIG_DEBUG_PREEMPT) {
		verdict("local_irq_save+restore / bare TLS pair",
			ab_ratio(C_IRQ, C_TLS, ms, n), 1.5);
		/* What any checked pair costs: the edge pair, plus the
		 * address stored, the tracer tested twice and the word
		 * reloaded to verify the restore. */
		printf("%-52s %6.3fx  (floor: + the checks' work)\n",
		       "checks' floor / bare TLS pair",
		       ab_ratio(C_FLOOR_CHECKED, C_TLS, ms, n));
		return;
	}
	verdict("spin_lock_irqsave pair / spin_lock pair",
		ab_ratio(C_SPIN_IRQSAVE, C_SPIN, ms, n), 1.03);
	/* "Hold about 1.0x": within the noise of two equal loops. */
	verdict("local_irq_save+restore / bare TLS pair",
		ab_ratio(C_IRQ, C_TLS, ms, n), 1.05);
	/* The floor under that verdict: what any save that returns the old
	 * state, and any lazy restore to enabled, cost on this machine. */
	printf("%-52s %6.3fx  (floor: a save reads the word)\n",
	       "TLS read, incl+decl / bare TLS pair",
	       ab_ratio(C_FLOOR_READ, C_TLS, ms, n));
	printf("%-52s %6.3fx  (floor: + restore's two tests)\n",
	       "TLS read, incl+decl, 2 tests / bare TLS pair",
	       ab_ratio(C_FLOOR_EDGE, C_TLS, ms, n));
}

/* ---- 4. contended: throughput of one lock shared by N workers ---- */

#define CTD_MAX 8
static DEFINE_SPINLOCK(ctd_spin);
static pthread_mutex_t ctd_mutex = PTHREAD_MUTEX_INITIALIZER;
static volatile long ctd_shared;
static int ctd_stop;
static struct {
	long ops;
	char pad[56];
} ctd_ops[CTD_MAX];

/* Some work outside the lock, so waiters are not all the workload. */
static __always_inline void ctd_outside(void)
{
	for (int k = 0; k < 16; k++)
		barrier();
}

static void ctd_loop(int id, bool mutex)
{
	long n = 0;

	while (!__atomic_load_n(&ctd_stop, __ATOMIC_RELAXED)) {
		if (mutex) {
			pthread_mutex_lock(&ctd_mutex);
			ctd_shared++;
			pthread_mutex_unlock(&ctd_mutex);
		} else {
			spin_lock(&ctd_spin);
			ctd_shared++;
			spin_unlock(&ctd_spin);
		}
		n++;
		ctd_outside();
	}
	ctd_ops[id].ops = n;
}

static int ctd_task(void *arg)
{
	ctd_loop((int)(long)arg, false);
	return 0;
}

struct ctd_thread {
	int id;
	bool mutex;
};

static void *ctd_thread(void *arg)
{
	struct ctd_thread *t = arg;

	ctd_loop(t->id, t->mutex);
	return NULL;
}

static long ctd_total(int n)
{
	long sum = 0;

	for (int i = 0; i < n; i++)
		sum += ctd_ops[i].ops;
	return sum;
}

static void ctd_sleep(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
}

/* Mops/s of @n workers for @ms: tasks on @n vCPUs, or host threads. */
static double ctd_run(int n, long ms, int how)
{
	enum { TASKS, THREADS_SPIN, THREADS_MUTEX };
	struct task_struct *k[CTD_MAX];
	struct ctd_thread arg[CTD_MAX];
	pthread_t t[CTD_MAX];
	double t0, t1;

	ctd_stop = 0;
	if (how == TASKS) {
		struct machine_config cfg = {
			.nr_cpus = n, .hz = 1000, .model = PREEMPT_MODEL_FULL};

		if (machine_boot(&cfg))
			return 0;
		for (int i = 0; i < n; i++)
			k[i] = kthread_create_on_cpu(ctd_task, (void *)(long)i,
						     (unsigned int)i, "ctd/%u");
		t0 = bench_now_ns();
		for (int i = 0; i < n; i++)
			wake_up_process(k[i]);
	} else {
		t0 = bench_now_ns();
		for (int i = 0; i < n; i++) {
			arg[i] = (struct ctd_thread){i, how == THREADS_MUTEX};
			pthread_create(&t[i], NULL, ctd_thread, &arg[i]);
		}
	}
	ctd_sleep(ms);
	__atomic_store_n(&ctd_stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < n; i++)
		if (how == TASKS)
			kthread_stop(k[i]);
		else
			pthread_join(t[i], NULL);
	t1 = bench_now_ns();
	if (how == TASKS)
		machine_shutdown();
	return (double)ctd_total(n) / (t1 - t0) * 1e3;
}

static void print_contended(long ms, int reps)
{
	static const int ns[] = {2, 8};
	double v[2][3][BENCH_MAX_REPS] = {{{0}}}, med[2][3];
	long host_cpus = sysconf(_SC_NPROCESSORS_ONLN);

	/* Every configuration once per round, so load hits them alike. */
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < 2; i++)
			for (int how = 0; how < 3; how++)
				v[i][how][r] = ctd_run(ns[i], ms, how);
	for (int i = 0; i < 2; i++)
		for (int how = 0; how < 3; how++)
			med[i][how] = bench_median(v[i][how], reps);
	printf("\n-- 4. contended: one lock, N workers, %ld host CPUs "
	       "(Mops/s, median of %d) --\n",
	       host_cpus, reps);
	printf("%-4s %14s %16s %16s %12s\n", "N", "spin_lock/vCPU",
	       "spin_lock/thread", "pthread_mutex", "vCPU/mutex");
	for (int i = 0; i < 2; i++)
		printf("%-4d %14.2f %16.2f %16.2f %11.2fx\n", ns[i], med[i][0],
		       med[i][1], med[i][2], med[i][0] / med[i][2]);
	printf("%-52s %6.2fx  target >= 1.00x  %s\n",
	       "2 vCPUs: spin_lock / pthread_mutex throughput",
	       med[0][0] / med[0][2],
	       med[0][0] >= med[0][2] ? "MET" : "MISSED");
	printf("%-52s %6.2fx  target >= 0.50x  %s\n",
	       "no collapse: 8 vCPUs / 2 vCPUs throughput",
	       med[1][0] / med[0][0],
	       med[1][0] >= 0.5 * med[0][0] ? "MET" : "MISSED");
	printf("waiter halts on the host: %lu, wake-ups: %lu\n",
	       pk_qspin_halts(), pk_qspin_kicks());
}

static int usage(void)
{
	fprintf(stderr, "usage: bench_locks [--ms N] [--reps N] | "
			"--callgrind N\n");
	return 2;
}

/*
 * glibc skips the atomics of a pthread mutex while the process has one
 * thread; a lock is only worth timing where there could be a contender.
 */
static void *idle_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	static struct run host, full, rt;
	pthread_t idle;
	long ms = 100;
	int reps = 5;

	pthread_spin_init(&pspin, PTHREAD_PROCESS_PRIVATE);
	if (pthread_create(&idle, NULL, idle_thread, NULL))
		return 1;
	if (argc == 3 && !strcmp(argv[1], "--callgrind")) {
		long n =
			bench_parse_long("bench_locks", argv[2], "--callgrind");

		for (size_t c = 0; c < NR_CASES; c++)
			cases[c].loop(n);
		return 0;
	}
	if (bench_timing_args("bench_locks", argc, argv, &ms, &reps) < 0)
		return usage();
	host = (struct run){.ms = ms, .reps = reps};
	full = rt = host;
	measure(&host);
	print_host(&host);
	if (measure_in_machine(&full, PREEMPT_MODEL_FULL) ||
	    measure_in_machine(&rt, PREEMPT_MODEL_RT))
		return 1;
	print_models(&full, &rt);
	print_verdicts(ms, reps);
	print_contended(ms, reps);
	return 0;
}
