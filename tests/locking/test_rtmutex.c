// SPDX-License-Identifier: MIT
/*
 * rt_mutex: mutual exclusion on host threads and on a machine, priority
 * inheritance (including the scenario it exists for, and the same scenario
 * with a lock that does not boost, to show the test can fail), chains of
 * blocked owners, and the misuse reports.
 *
 * Tasks never use cmocka asserts (they would longjmp off the task's
 * stack): they record what they saw, and the test thread asserts.  Timing
 * enters only with wide margins: hundreds of milliseconds between the
 * outcomes compared.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/rtmutex.h>
#include <preempt/sched.h>
#include <preempt/wait.h>

#include "pk_machine.h"

static void boot(int cpus)
{
	pk_boot(cpus, PREEMPT_MODEL_FULL);
}

static int prio_of(struct task_struct *p)
{
	return __atomic_load_n(&p->prio, __ATOMIC_RELAXED);
}

/* The task_struct.prio of SCHED_FIFO at @rt_prio. */
static int fifo_prio(int rt_prio)
{
	return MAX_RT_PRIO - 1 - rt_prio;
}

static struct task_struct *start_fifo(int (*fn)(void *), void *data,
				      int rt_prio, const char *name)
{
	struct task_struct *k = kthread_create(fn, data, "%s", name);

	if (k) {
		pk_sched_setscheduler(k, SCHED_FIFO, rt_prio);
		wake_up_process(k);
	}
	return k;
}

/* The test thread waits for a task's flag as a host thread would. */
static bool wait_flag(const int *flag, long timeout_ms)
{
	long end = now_ms() + timeout_ms;

	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
		if (now_ms() > end)
			return false;
		else
			usleep(500);
	return true;
}

static int teardown(void **state)
{
	(void)state;
	machine_shutdown();
	capture_stop();
	return 0;
}

/* ---- 1. basics ---- */

/* Returns 0, or the number of the first check that failed. */
static int basic_checks(void)
{
	DEFINE_RT_MUTEX(m);

	if (rt_mutex_is_locked(&m) || rt_mutex_owner(&m))
		return 1;
	rt_mutex_lock(&m);
	if (!rt_mutex_is_locked(&m) || rt_mutex_owner(&m) != current)
		return 2;
	if (rt_mutex_trylock(&m) != 0) /* held, even by us: no */
		return 3;
	rt_mutex_unlock(&m);
	if (rt_mutex_is_locked(&m) || rt_mutex_owner(&m))
		return 4;
	if (rt_mutex_trylock(&m) != 1 || rt_mutex_owner(&m) != current)
		return 5;
	rt_mutex_unlock(&m);
	rt_mutex_init(&m);
	return rt_mutex_is_locked(&m) ? 6 : 0;
}

static void basics_on_a_host_thread(void **state)
{
	(void)state;
	assert_int_equal(basic_checks(), 0);
	assert_int_equal(captured.nr, 0);
}

static int basic_task(void *arg)
{
	(void)arg;
	return basic_checks();
}

static void basics_in_a_task(void **state)
{
	(void)state;
	boot(1);
	assert_int_equal(kthread_stop(kthread_run(basic_task, NULL, "basic")),
			 0);
	assert_int_equal(captured.nr, 0);
}

/* ---- 2. contention ---- */

#define ROUNDS 3000

struct counter {
	struct rt_mutex lock;
	long value;
};

/* A read-modify-write wide enough to lose updates without the lock. */
static void add_one(struct counter *c)
{
	rt_mutex_lock(&c->lock);
	long v = c->value;

	for (volatile int i = 0; i < 50; i++)
		;
	c->value = v + 1;
	rt_mutex_unlock(&c->lock);
}

static int counting_task(void *arg)
{
	for (int i = 0; i < ROUNDS; i++)
		add_one(arg);
	return 0;
}

static void *counting_thread(void *arg)
{
	counting_task(arg);
	return NULL;
}

static void host_threads_exclude_each_other(void **state)
{
	struct counter c = {.value = 0};
	pthread_t t[4];

	(void)state;
	rt_mutex_init(&c.lock);
	for (int i = 0; i < 4; i++)
		assert_int_equal(
			pthread_create(&t[i], NULL, counting_thread, &c), 0);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(c.value, 4 * ROUNDS);
	assert_false(rt_mutex_is_locked(&c.lock));
}

static void tasks_and_a_host_thread_exclude_each_other(void **state)
{
	struct counter c = {.value = 0};
	struct task_struct *t[4];

	(void)state;
	rt_mutex_init(&c.lock);
	boot(2);
	for (int i = 0; i < 4; i++)
		t[i] = kthread_run(counting_task, &c, "count/%d", i);
	counting_task(&c); /* the test thread contends too */
	for (int i = 0; i < 4; i++)
		assert_int_equal(kthread_stop(t[i]), 0);
	assert_int_equal(c.value, 5 * ROUNDS);
	assert_false(rt_mutex_is_locked(&c.lock));
	assert_int_equal(captured.nr, 0);
}

/* ---- 3. priority inheritance: the inversion it prevents ---- */

/* A sleeping lock without inheritance, to run the same scene against. */
struct plain_lock {
	int locked;
	wait_queue_head_t wq;
};

static void plain_lock(struct plain_lock *l)
{
	wait_event(l->wq,
		   !__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE));
}

static void plain_unlock(struct plain_lock *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
	wake_up(&l->wq);
}

#define L_RT_PRIO 10
#define M_RT_PRIO 50
#define H_RT_PRIO 90
#define SECTION_ROUNDS 50 /* of busy_work(), once H waits */
#define HOG_MS 500

struct scene {
	bool pi; /* rt_mutex, or the plain lock */
	struct rt_mutex rt;
	struct plain_lock plain;
	struct task_struct *hog;
	int low_locked;
	int high_waiting; /* H is about to block on L's lock */
	int hog_done;
	bool hog_done_when_high_locked; /* did H wait for all of the hog? */
	bool high_blocked; /* the scene as meant: L held the lock */
	int low_min_prio, low_prio_after;
	long high_wait_ms;
};

static void scene_lock(struct scene *s)
{
	if (s->pi)
		rt_mutex_lock(&s->rt);
	else
		plain_lock(&s->plain);
}

static void scene_unlock(struct scene *s)
{
	if (s->pi)
		rt_mutex_unlock(&s->rt);
	else
		plain_unlock(&s->plain);
}

/*
 * Busy work, mostly in the program's own code: a task is preempted at
 * interrupt return only there, never inside the vDSO that reads the clock.
 */
static void busy_work(void)
{
	for (volatile int i = 0; i < 20000; i++)
		;
}

static void spin_ms(long ms)
{
	long end = now_ms() + ms;

	while (now_ms() < end)
		busy_work();
}

static void low_work(struct scene *s)
{
	busy_work();
	if (prio_of(current) < s->low_min_prio)
		s->low_min_prio = prio_of(current);
}

/*
 * L: a critical section of busy work, watching its own priority.  It
 * lasts until H comes for the lock, an event not a time, so a slow host
 * cannot end it early; then a little longer, which only L's priority
 * decides the timing of: the hog's or H's.
 */
static int low_task(void *arg)
{
	struct scene *s = arg;
	long give_up = now_ms() + 30000;

	scene_lock(s);
	s->low_min_prio = prio_of(current);
	__atomic_store_n(&s->low_locked, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&s->high_waiting, __ATOMIC_ACQUIRE) &&
	       now_ms() < give_up)
		low_work(s);
	for (int i = 0; i < SECTION_ROUNDS; i++)
		low_work(s);
	scene_unlock(s);
	s->low_prio_after = prio_of(current);
	return 0;
}

/* M: a CPU hog that never sleeps, between L and H. */
static int hog_task(void *arg)
{
	struct scene *s = arg;

	spin_ms(HOG_MS);
	__atomic_store_n(&s->hog_done, 1, __ATOMIC_RELEASE);
	return 0;
}

/* H: starts the hog, then blocks on the lock L holds. */
static int high_task(void *arg)
{
	struct scene *s = arg;
	long t0;

	/* Less urgent than us: it runs once we block. */
	s->hog = start_fifo(hog_task, s, M_RT_PRIO, "M");
	if (!s->hog)
		return -1;
	t0 = now_ms();
	s->high_blocked =
		s->pi ? rt_mutex_is_locked(&s->rt)
		      : __atomic_load_n(&s->plain.locked, __ATOMIC_RELAXED);
	__atomic_store_n(&s->high_waiting, 1, __ATOMIC_RELEASE);
	scene_lock(s);
	s->hog_done_when_high_locked =
		__atomic_load_n(&s->hog_done, __ATOMIC_ACQUIRE);
	s->high_wait_ms = now_ms() - t0;
	scene_unlock(s);
	return 0;
}

static void run_scene(struct scene *s)
{
	struct task_struct *low, *high;

	rt_mutex_init(&s->rt);
	init_waitqueue_head(&s->plain.wq);
	boot(1);
	low = start_fifo(low_task, s, L_RT_PRIO, "L");
	assert_non_null(low);
	assert_true(wait_flag(&s->low_locked, 5000));
	high = start_fifo(high_task, s, H_RT_PRIO, "H");
	assert_non_null(high);
	assert_int_equal(kthread_stop(high), 0);
	assert_int_equal(kthread_stop(s->hog), 0);
	assert_int_equal(kthread_stop(low), 0);
	machine_shutdown();
	/* The numbers, for when a margin is ever missed. */
	print_message("%s: L at prio %d in its section, %d after; H waited "
		      "%ld ms\n",
		      s->pi ? "rt_mutex" : "plain lock", s->low_min_prio,
		      s->low_prio_after, s->high_wait_ms);
	assert_true(s->high_blocked);
}

static void inheritance_bounds_the_inversion(void **state)
{
	struct scene s = {.pi = true};

	(void)state;
	run_scene(&s);
	/* L ran at H's priority above the hog, and only until it unlocked. */
	assert_int_equal(s.low_min_prio, fifo_prio(H_RT_PRIO));
	assert_int_equal(s.low_prio_after, fifo_prio(L_RT_PRIO));
	/* H waited for the rest of L's section, not for the hog: one vCPU,
	 * so the hog had not finished (had not even started) when H got
	 * the lock.  An event, whatever the host's load. */
	assert_false(s.hog_done_when_high_locked);
	assert_int_equal(captured.nr, 0);
}

static void without_inheritance_the_hog_delays_high(void **state)
{
	struct scene s = {.pi = false};

	(void)state;
	run_scene(&s);
	assert_int_equal(s.low_min_prio, fifo_prio(L_RT_PRIO));
	/* L, below the hog, could not run: H waited for all of the hog. */
	assert_true(s.hog_done_when_high_locked);
}

/* ---- 4. a chain of blocked owners ---- */

struct chain {
	struct rt_mutex m1, m2;
	int a_locked, b_locked;
	int a_boosted, a_after, b_holding, b_after;
};

/* A: holds m1 until it runs at C's priority (or gives up after 5 s). */
static int chain_a(void *arg)
{
	struct chain *c = arg;
	long end = now_ms() + 5000;

	rt_mutex_lock(&c->m1);
	__atomic_store_n(&c->a_locked, 1, __ATOMIC_RELEASE);
	while (prio_of(current) != fifo_prio(80) && now_ms() < end)
		msleep(1);
	c->a_boosted = prio_of(current);
	rt_mutex_unlock(&c->m1);
	c->a_after = prio_of(current);
	return 0;
}

/* B: holds m2, blocks on m1. */
static int chain_b(void *arg)
{
	struct chain *c = arg;

	rt_mutex_lock(&c->m2);
	__atomic_store_n(&c->b_locked, 1, __ATOMIC_RELEASE);
	rt_mutex_lock(&c->m1);
	c->b_holding = prio_of(current); /* C still waits for m2 */
	rt_mutex_unlock(&c->m1);
	rt_mutex_unlock(&c->m2);
	c->b_after = prio_of(current);
	return 0;
}

/* C: blocks on m2. */
static int chain_c(void *arg)
{
	struct chain *c = arg;

	rt_mutex_lock(&c->m2);
	rt_mutex_unlock(&c->m2);
	return 0;
}

static bool wait_prio(struct task_struct *p, int prio)
{
	long end = now_ms() + 5000;

	while (prio_of(p) != prio && now_ms() < end)
		usleep(500);
	return prio_of(p) == prio;
}

/* ---- handoff order ---- */

/*
 * The unlock hands the lock to the most urgent waiter, whatever order they
 * queued in, and the new owner's unlock to the next: three FIFO waiters
 * queued (each seen asleep before the next starts) as 10, 30, 20 take it as
 * 30, 20, 10.  One CPU: nothing here depends on timing.
 */
static struct rt_mutex handoff_lock;
static int handoff_order[3], handoff_nr;

static int take_in_turn(void *arg)
{
	rt_mutex_lock(&handoff_lock);
	handoff_order[handoff_nr++] = (int)(long)arg;
	rt_mutex_unlock(&handoff_lock);
	return 0;
}

static bool wait_asleep(struct task_struct *k, long timeout_ms)
{
	long end = now_ms() + timeout_ms;

	while (!(__atomic_load_n(&k->__state, __ATOMIC_ACQUIRE) &
		 TASK_UNINTERRUPTIBLE))
		if (now_ms() > end)
			return false;
		else
			usleep(500);
	return true;
}

static void unlock_hands_off_to_the_most_urgent_waiter(void **state)
{
	static const int rt_prio[3] = {10, 30, 20};
	struct task_struct *k[3];
	bool queued = true;

	(void)state;
	rt_mutex_init(&handoff_lock);
	handoff_nr = 0;
	boot(1);
	rt_mutex_lock(&handoff_lock); /* the test thread owns it */
	for (long i = 0; i < 3; i++) {
		k[i] = start_fifo(take_in_turn, (void *)i, rt_prio[i],
				  "waiter");
		queued = wait_asleep(k[i], 10000) && queued;
	}
	rt_mutex_unlock(&handoff_lock);
	for (int i = 0; i < 3; i++)
		kthread_stop(k[i]);
	assert_true(queued);
	assert_int_equal(handoff_nr, 3);
	assert_int_equal(handoff_order[0], 1);
	assert_int_equal(handoff_order[1], 2);
	assert_int_equal(handoff_order[2], 0);
	assert_int_equal(captured.nr, 0);
}

static void chains_pass_the_boost_on(void **state)
{
	struct chain c = {.a_locked = 0};
	struct task_struct *a, *b, *t;

	(void)state;
	rt_mutex_init(&c.m1);
	rt_mutex_init(&c.m2);
	boot(2);
	a = start_fifo(chain_a, &c, 10, "A");
	assert_true(wait_flag(&c.a_locked, 5000));
	b = start_fifo(chain_b, &c, 20, "B");
	assert_true(wait_flag(&c.b_locked, 5000));
	assert_true(wait_prio(a, fifo_prio(20))); /* B waits for A */
	t = start_fifo(chain_c, &c, 80, "C");
	assert_int_equal(kthread_stop(t), 0);
	assert_int_equal(kthread_stop(b), 0);
	assert_int_equal(kthread_stop(a), 0);
	assert_int_equal(c.a_boosted, fifo_prio(80)); /* through B */
	assert_int_equal(c.a_after, fifo_prio(10));
	assert_int_equal(c.b_holding, fifo_prio(80));
	assert_int_equal(c.b_after, fifo_prio(20));
	assert_false(rt_mutex_is_locked(&c.m1) || rt_mutex_is_locked(&c.m2));
	assert_int_equal(captured.nr, 0);
}

/* ---- 5. misuse ---- */

static void *unlock_not_ours(void *arg)
{
	rt_mutex_unlock(arg);
	return NULL;
}

static void unlock_by_a_non_owner_is_reported(void **state)
{
	DEFINE_RT_MUTEX(m);
	pthread_t t;

	(void)state;
	rt_mutex_lock(&m);
	assert_int_equal(pthread_create(&t, NULL, unlock_not_ours, &m), 0);
	pthread_join(t, NULL);
	assert_int_equal(captured.nr, 1);
	assert_report_contains("rt_mutex: unlock by");
	assert_report_contains("which does not hold it");
	assert_ptr_equal(rt_mutex_owner(&m), current);
	rt_mutex_unlock(&m);
	assert_false(rt_mutex_is_locked(&m));
	rt_mutex_unlock(&m);		  /* not locked at all: reported too */
	assert_int_equal(captured.nr, 1); /* once per call site */
	assert_int_equal(rt_mutex_trylock(&m), 1);
	rt_mutex_unlock(&m);
}

/* Returns 0, or the number of the first check that failed. */
static int recursive_checks(void)
{
	DEFINE_RT_MUTEX(m);

	rt_mutex_lock(&m);
	rt_mutex_lock(&m); /* reported, and no deadlock */
	rt_mutex_unlock(&m);
	if (rt_mutex_owner(&m) != current) /* the outer hold remains */
		return 1;
	rt_mutex_unlock(&m);
	if (rt_mutex_is_locked(&m))
		return 2;
	rt_mutex_lock(&m);
	rt_mutex_unlock(&m);
	return rt_mutex_is_locked(&m) ? 3 : 0;
}

static void recursive_locking_is_reported_on_a_host_thread(void **state)
{
	(void)state;
	assert_int_equal(recursive_checks(), 0);
	assert_int_equal(captured.nr, 1);
	assert_int_equal(captured.kind, PK_REPORT_WARN);
	assert_report_contains("rt_mutex deadlock: recursive locking");
}

static int recursive_task(void *arg)
{
	(void)arg;
	return recursive_checks();
}

static void recursive_locking_is_reported_in_a_task(void **state)
{
	(void)state;
	boot(1);
	assert_int_equal(
		kthread_stop(kthread_run(recursive_task, NULL, "recursive")),
		0);
	assert_int_equal(captured.nr, 1);
	assert_report_contains("rt_mutex deadlock: recursive locking");
	assert_report_contains("recursive/");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, capture_setup, teardown)
		T(basics_on_a_host_thread),
		T(basics_in_a_task),
		T(host_threads_exclude_each_other),
		T(tasks_and_a_host_thread_exclude_each_other),
		T(inheritance_bounds_the_inversion),
		T(without_inheritance_the_hog_delays_high),
		T(unlock_hands_off_to_the_most_urgent_waiter),
		T(chains_pass_the_boost_on),
		T(unlock_by_a_non_owner_is_reported),
		T(recursive_locking_is_reported_on_a_host_thread),
		T(recursive_locking_is_reported_in_a_task),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
