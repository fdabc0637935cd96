// SPDX-License-Identifier: MIT
/*
 * bench_idle: what an idle vCPU costs the host, and what waking a task on
 * another vCPU costs (issue 19, targets 5 and 4).  Everything is measured
 * side by side in one run, so the ratios hold on a loaded machine.
 *
 * Part 1 (target 5): a machine of N idle vCPUs, the booting thread asleep;
 * the process's CPU time over a few seconds, per vCPU, with the idle tick
 * stopped (NO_HZ_IDLE, the default) and with it running (nohz = -1).
 *
 * Part 2 (target 4): wake-up latency, from wake_up_process() in one task
 * to the woken task running: on the same vCPU, on an idle second vCPU
 * (which polls, then sleeps in the host), beside a host futex wake between
 * two threads; then wake-ups per second between two vCPUs ping-ponging.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <preempt/sched.h>
#include <preempt/wait.h>

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static void boot(int cpus, int nohz, int poll_us)
{
	struct machine_config cfg = {.nr_cpus = cpus,
				     .hz = 1000,
				     .model = PREEMPT_MODEL_FULL,
				     .nohz = nohz,
				     .idle_poll_us = poll_us};

	if (machine_boot(&cfg)) {
		fprintf(stderr, "bench_idle: machine_boot failed\n");
		exit(1);
	}
}

/* Host CPU per idle vCPU, in percent of one host CPU, over @ms. */
static double idle_cost(int cpus, int nohz, long ms, unsigned long *ticks)
{
	long c0, t0, c1, t1;

	boot(cpus, nohz, 0);
	usleep(200000); /* boot's own work settles, ticks stop */
	*ticks = 0;
	for (int i = 0; i < cpus; i++)
		*ticks -= pk_sched_cpu_stats(i).ticks;
	c0 = cpu_ns();
	t0 = now_ns();
	usleep(ms * 1000);
	c1 = cpu_ns();
	t1 = now_ns();
	for (int i = 0; i < cpus; i++)
		*ticks += pk_sched_cpu_stats(i).ticks;
	machine_shutdown();
	return 100.0 * (double)(c1 - c0) / (double)(t1 - t0) / cpus;
}

static void part1(long ms)
{
	const int cpus = 2;
	unsigned long ton, toff;
	double on, off;

	printf("== part 1: host CPU per idle vCPU, %d vCPUs, HZ 1000, %ld ms "
	       "each ==\n",
	       cpus, ms);
	printf("Process CPU time (CLOCK_PROCESS_CPUTIME_ID) while every vCPU "
	       "idles and the booting thread sleeps, divided by the vCPUs.\n");
	off = idle_cost(cpus, -1, ms, &toff);
	on = idle_cost(cpus, 0, ms, &ton);
	printf("%-22s %10s %10s\n", "idle tick", "cpu %/vCPU", "ticks");
	printf("%-22s %10.4f %10lu\n", "running (nohz = -1)", off, toff);
	printf("%-22s %10.4f %10lu\n", "stopped (NO_HZ_IDLE)", on, ton);
	printf("target5 idle_cpu_pct=%.4f anchor_tick_running_pct=%.4f "
	       "target=0.1 verdict=%s\n",
	       on, off, on <= 0.1 ? "met" : "NOT met");
}

/* ---- part 2: wake-ups ---- */

#define MAX_SAMPLES 20000

static long samples[MAX_SAMPLES];
static int nr_samples, want_samples;
static long wake_t0;
static int sleeper_ready, done;
static struct task_struct *sleeper_task;

/* Sleeps until woken, records wake-to-run, says it is ready again. */
static int sleeper(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		set_current_state(TASK_INTERRUPTIBLE);
		__atomic_store_n(&sleeper_ready, 1, __ATOMIC_RELEASE);
		if (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
			schedule();
		__set_current_state(TASK_RUNNING);
		if (nr_samples < want_samples)
			samples[nr_samples++] =
				now_ns() -
				__atomic_load_n(&wake_t0, __ATOMIC_ACQUIRE);
	}
	return 0;
}

/* Wakes the sleeper @n times, each after it went back to sleep and a
 * pause of @gap_ns (so a remote one is idle, as a real wake finds it). */
static int waker(void *arg)
{
	long gap_ns = (long)arg;

	while (nr_samples < want_samples) {
		long until;

		while (!__atomic_load_n(&sleeper_ready, __ATOMIC_ACQUIRE) ||
		       __atomic_load_n(&sleeper_task->__state,
				       __ATOMIC_ACQUIRE) == TASK_RUNNING)
			schedule(); /* let a same-CPU sleeper run */
		until = now_ns() + gap_ns;
		while (now_ns() < until)
			;
		__atomic_store_n(&sleeper_ready, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&wake_t0, now_ns(), __ATOMIC_RELEASE);
		wake_up_process(sleeper_task);
	}
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	wake_up_process(sleeper_task);
	return 0;
}

static long wake_p50(int sleeper_cpu, int poll_us, long gap_ns, int n,
		     struct pk_sched_stats *st)
{
	struct task_struct *w;

	boot(2, 0, poll_us);
	nr_samples = 0;
	want_samples = n;
	done = 0;
	sleeper_ready = 0;
	sleeper_task = kthread_create(sleeper, NULL, "sleeper");
	get_task_struct(sleeper_task);
	kthread_bind(sleeper_task, sleeper_cpu);
	w = kthread_create(waker, (void *)gap_ns, "waker");
	kthread_bind(w, 0);
	wake_up_process(sleeper_task);
	wake_up_process(w);
	kthread_stop(w);
	kthread_stop(sleeper_task);
	put_task_struct(sleeper_task);
	*st = pk_sched_cpu_stats(sleeper_cpu);
	machine_shutdown();
	qsort(samples, (size_t)nr_samples, sizeof(long), cmp_long);
	return nr_samples ? samples[nr_samples / 2] : -1;
}

/* The anchor: a host futex wake between two threads, wake-to-run. */
static unsigned int fword;
static int host_ready;

static void *host_sleeper(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		unsigned int v = __atomic_load_n(&fword, __ATOMIC_ACQUIRE);

		__atomic_store_n(&host_ready, 1, __ATOMIC_RELEASE);
		syscall(SYS_futex, &fword, FUTEX_WAIT_PRIVATE, v, NULL, NULL,
			0);
		if (__atomic_load_n(&fword, __ATOMIC_ACQUIRE) != v &&
		    nr_samples < want_samples)
			samples[nr_samples++] =
				now_ns() -
				__atomic_load_n(&wake_t0, __ATOMIC_ACQUIRE);
	}
	return NULL;
}

static long futex_p50(long gap_ns, int n)
{
	pthread_t t;

	nr_samples = 0;
	want_samples = n;
	done = 0;
	pthread_create(&t, NULL, host_sleeper, NULL);
	while (nr_samples < want_samples) {
		long until;

		while (!__atomic_load_n(&host_ready, __ATOMIC_ACQUIRE))
			;
		until = now_ns() + gap_ns;
		while (now_ns() < until)
			;
		__atomic_store_n(&host_ready, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&wake_t0, now_ns(), __ATOMIC_RELEASE);
		__atomic_add_fetch(&fword, 1, __ATOMIC_SEQ_CST);
		syscall(SYS_futex, &fword, FUTEX_WAKE_PRIVATE, 1, NULL, NULL,
			0);
	}
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&fword, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &fword, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	pthread_join(t, NULL);
	qsort(samples, (size_t)nr_samples, sizeof(long), cmp_long);
	return nr_samples ? samples[nr_samples / 2] : -1;
}

/* Ping-pong: two tasks on two vCPUs wake each other, @ms long. */
static DECLARE_WAIT_QUEUE_HEAD(pp_wq);
static int pp_turn;
static long pp_count;

static int pinger(void *arg)
{
	int me = (int)(long)arg;

	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		wait_event(pp_wq,
			   __atomic_load_n(&pp_turn, __ATOMIC_ACQUIRE) == me ||
				   __atomic_load_n(&done, __ATOMIC_ACQUIRE));
		__atomic_store_n(&pp_turn, !me, __ATOMIC_RELEASE);
		__atomic_add_fetch(&pp_count, 1, __ATOMIC_RELAXED);
		wake_up(&pp_wq);
	}
	return 0;
}

static double wakes_per_s(int nohz, int poll_us, long ms, double *poll_pct)
{
	struct task_struct *a, *b;
	long t0, t1, c;
	unsigned long pns = 0;

	boot(2, nohz, poll_us);
	done = 0;
	pp_turn = 0;
	pp_count = 0;
	a = kthread_create(pinger, (void *)0L, "ping");
	b = kthread_create(pinger, (void *)1L, "pong");
	kthread_bind(a, 0);
	kthread_bind(b, 1);
	t0 = now_ns();
	wake_up_process(a);
	wake_up_process(b);
	usleep(ms * 1000);
	c = __atomic_load_n(&pp_count, __ATOMIC_RELAXED);
	t1 = now_ns();
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	wake_up_all(&pp_wq);
	kthread_stop(a);
	kthread_stop(b);
	for (int i = 0; i < 2; i++) {
		struct pk_sched_stats st = pk_sched_cpu_stats(i);

		pns += st.poll_ns;
		if (getenv("BENCH_IDLE_VERBOSE"))
			printf("  vCPU %d: %lu switches, %lu idle polls, %lu "
			       "hits, %lu steals, %lu tick stops\n",
			       i, st.nr_switches, st.idle_polls, st.poll_hits,
			       st.poll_steals, st.tick_stops);
	}
	machine_shutdown();
	*poll_pct = 100.0 * (double)pns / (double)(t1 - t0) / 2;
	return (double)c * 1e9 / (double)(t1 - t0);
}

static void part2(long ms, int n)
{
	struct pk_sched_stats st;
	long same, remote_poll, remote_nopoll, remote_long, futex, futex_long;
	double wps_poll, wps_nopoll, wps_tick, pct_poll, pct_nopoll;

	printf("\n== part 2: wake-up latency, 2 vCPUs, %d wakes each ==\n", n);
	printf("wake_up_process() in a task to the woken task running (p50, "
	       "ns).  The waker spins 20 us between wakes.\n");
	same = wake_p50(0, 0, 20000, n, &st);
	remote_poll = wake_p50(1, 0, 20000, n, &st);
	printf("remote, polling:  %lu of %lu idle entries ended while "
	       "polling, %.1f ms polled\n",
	       st.poll_hits, st.idle_polls, (double)st.poll_ns / 1e6);
	remote_nopoll = wake_p50(1, -1, 20000, n, &st);
	remote_long = wake_p50(1, 0, 2000000, n / 20, &st);
	futex = futex_p50(20000, n);
	futex_long = futex_p50(2000000, n / 20);
	printf("%-40s %10s\n", "case", "p50 ns");
	printf("%-40s %10ld\n", "same vCPU", same);
	printf("%-40s %10ld\n", "other vCPU, idle poll (default)", remote_poll);
	printf("%-40s %10ld\n", "other vCPU, no idle poll", remote_nopoll);
	printf("%-40s %10ld\n", "other vCPU, 2 ms apart (window shrunk)",
	       remote_long);
	printf("%-40s %10ld\n", "host futex wake (anchor)", futex);
	printf("%-40s %10ld\n", "host futex wake, 2 ms apart (anchor)",
	       futex_long);

	wps_poll = wakes_per_s(0, 0, ms, &pct_poll);
	wps_nopoll = wakes_per_s(0, -1, ms, &pct_nopoll);
	wps_tick = wakes_per_s(-1, -1, ms, &pct_nopoll);
	printf("\nping-pong between two vCPUs, %ld ms: wakes/s\n", ms);
	printf("%-40s %12.0f  (polling %.1f%% of each vCPU)\n",
	       "idle poll (default)", wps_poll, pct_poll);
	printf("%-40s %12.0f\n", "no idle poll", wps_nopoll);
	printf("%-40s %12.0f\n", "no idle poll, idle tick running", wps_tick);
	printf("target4 p50_ns=%ld anchor_same_vcpu_ns=%ld anchor_futex_ns=%ld "
	       "target=2000 verdict=%s\n",
	       remote_poll, same, futex,
	       remote_poll >= 0 && remote_poll <= 2000 ? "met" : "NOT met");
	printf("target4 wakes_per_s=%.0f anchor_no_poll=%.0f target=2000000 "
	       "verdict=%s\n",
	       wps_poll, wps_nopoll, wps_poll >= 2e6 ? "met" : "NOT met");
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 3000;
	int n = argc > 2 ? atoi(argv[2]) : 5000;

	if (ms <= 0 || n <= 0 || n > MAX_SAMPLES) {
		fprintf(stderr, "usage: bench_idle [ms [wakes]]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	part1(ms);
	part2(ms, n);
	return 0;
}
