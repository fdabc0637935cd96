// SPDX-License-Identifier: MIT
/*
 * RCU's debugging, in the kernel's words: the RCU nest-depth line of
 * might_sleep()'s report, the voluntary context switch inside a
 * PREEMPT_RCU reader, a mutex (but not spinlock_t) inside a reader under
 * rt (a bh-disabled section included), lockdep-RCU's "suspicious RCU
 * usage", synchronize_rcu() from atomic context or inside a reader, RCU
 * CPU stall warnings, and RCU_BOOST under rt.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <preempt/mutex.h>
#include <preempt/rcupdate.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>
#include <preempt/wait.h>

#include "rcu_helpers.h"

/* Every report of a test, one after the other. */
static struct {
	int nr;
	char text[65536];
	size_t len;
	int lock;
} all;

static bool collect_hook(const struct pk_report *report, void *arg)
{
	(void)arg;
	while (__atomic_exchange_n(&all.lock, 1, __ATOMIC_ACQUIRE))
		;
	all.nr++;
	if (all.len + report->len + 1 < sizeof(all.text)) {
		memcpy(all.text + all.len, report->text, report->len);
		all.len += report->len;
		all.text[all.len] = 0;
	}
	__atomic_store_n(&all.lock, 0, __ATOMIC_RELEASE);
	return true;
}

static int setup(void **state)
{
	(void)state;
	memset(&all, 0, sizeof(all));
	pk_set_report_hook(collect_hook, NULL);
	pk_debug_ratelimit_reset();
	return 0;
}

static int teardown(void **state)
{
	rcu_test_teardown(state);
	pk_rcu_set_stall_timeout_ms(21000);
	pk_rcu_set_boost(1, 500);
	return 0;
}

#define assert_reports(needle)                                                 \
	do {                                                                   \
		pk_report_flush();                                             \
		if (!strstr(all.text, (needle)))                               \
			fail_msg("no report has \"%s\":\n%s", (needle),        \
				 all.text);                                    \
	} while (0)
#define assert_no_report(needle)                                               \
	do {                                                                   \
		pk_report_flush();                                             \
		if (strstr(all.text, (needle)))                                \
			fail_msg("a report has \"%s\":\n%s", (needle),         \
				 all.text);                                    \
	} while (0)

static int run_task(int (*fn)(void *), void *arg)
{
	struct task_struct *k = kthread_run(fn, arg, "rcudbg");

	assert_non_null(k);
	return kthread_stop(k);
}

/* ---- might_sleep() in a reader ---- */

static int might_sleep_in_reader(void *arg)
{
	(void)arg;
	rcu_read_lock();
	might_sleep();
	rcu_read_unlock();
	return 0;
}

static void preempt_rcu_might_sleep_prints_nest_depth(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	run_task(might_sleep_in_reader, NULL);
	assert_reports("BUG: sleeping function called from invalid context at "
		       "tests/rcu/test_rcu_debug.c:");
	assert_reports("in_atomic(): 0, irqs_disabled(): 0, non_block: 0, "
		       "pid: ");
	assert_reports("preempt_count: 0, expected: 0\n"
		       "RCU nest depth: 1, expected: 0\n");
}

static void sched_rcu_might_sleep_is_atomic(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_VOLUNTARY);
	run_task(might_sleep_in_reader, NULL);
	assert_reports("BUG: sleeping function called from invalid context");
	assert_reports("in_atomic(): 1, irqs_disabled(): 0");
	assert_reports("preempt_count: 1, expected: 0\n");
	/* CONFIG_PREEMPT_RCU=n kernels print no RCU line. */
	assert_no_report("RCU nest depth");
}

static int might_sleep_outside(void *arg)
{
	(void)arg;
	rcu_read_lock();
	rcu_read_unlock();
	might_sleep();
	return 0;
}

static void might_sleep_after_reader_is_silent(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	run_task(might_sleep_outside, NULL);
	pk_report_flush();
	assert_int_equal(all.nr, 0);
}

/* ---- a voluntary context switch in a PREEMPT_RCU reader ---- */

static DECLARE_COMPLETION(wake_reader);

static int sleep_in_reader(void *arg)
{
	(void)arg;
	rcu_read_lock();
	wait_for_completion(&wake_reader);
	rcu_read_unlock();
	return 0;
}

static void voluntary_switch_in_reader_is_reported(void **state)
{
	unsigned long blocked0 = pk_rcu_stats().blocked_tasks;
	struct task_struct *k;
	long deadline = now_ms() + 10000;

	(void)state;
	reinit_completion(&wake_reader);
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_run(sleep_in_reader, NULL, "rcudbg");
	assert_non_null(k);
	/* It sleeps in its reader: blocked, and it holds grace periods. */
	while (pk_rcu_stats().blocked_tasks == blocked0 && now_ms() < deadline)
		usleep(1000);
	assert_true(pk_rcu_stats().blocked_tasks > blocked0);
	assert_false(poll_state_synchronize_rcu(start_poll_synchronize_rcu()));
	complete(&wake_reader);
	assert_int_equal(kthread_stop(k), 0);
	assert_reports("WARNING: suspicious RCU usage\n");
	assert_reports("Voluntary context switch within RCU read-side "
		       "critical section!\n");
	assert_reports("1 lock held by rcudbg/");
	assert_reports("stack backtrace:\n");
	synchronize_rcu();
}

/* ---- rt: mutex in a reader reported, spinlock_t allowed ---- */

static DEFINE_MUTEX(m);
static DEFINE_SPINLOCK(sl);

static int mutex_in_reader(void *arg)
{
	(void)arg;
	rcu_read_lock();
	mutex_lock(&m);
	mutex_unlock(&m);
	rcu_read_unlock();
	return 0;
}

static int spinlock_in_reader(void *arg)
{
	(void)arg;
	rcu_read_lock();
	spin_lock(&sl);
	spin_unlock(&sl);
	rcu_read_unlock();
	return 0;
}

static void rt_mutex_in_reader_is_reported(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_RT);
	run_task(mutex_in_reader, NULL);
	assert_reports("BUG: sleeping function called from invalid context");
	assert_reports("RCU nest depth: 1, expected: 0\n");
}

static void rt_spinlock_in_reader_is_allowed(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_RT);
	run_task(spinlock_in_reader, NULL);
	pk_report_flush();
	assert_int_equal(all.nr, 0);
}

/*
 * rt: a bh-disabled section is a reader (the kernel's rt local_bh_disable()
 * takes rcu_read_lock()), so its depth counts it: a mutex there is
 * reported as in any reader, a spinlock_t is not.
 */
static int mutex_in_bh_section(void *arg)
{
	(void)arg;
	local_bh_disable();
	mutex_lock(&m);
	mutex_unlock(&m);
	local_bh_enable();
	return 0;
}

static int spinlock_in_bh_section(void *arg)
{
	(void)arg;
	spin_lock_bh(&sl);
	spin_unlock_bh(&sl);
	local_bh_disable();
	spin_lock(&sl);
	spin_unlock(&sl);
	local_bh_enable();
	return 0;
}

static void rt_mutex_in_bh_section_is_reported(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_RT);
	run_task(mutex_in_bh_section, NULL);
	assert_reports("BUG: sleeping function called from invalid context");
	assert_reports("RCU nest depth: 1, expected: 0\n");
}

static void rt_spinlock_in_bh_section_is_allowed(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_RT);
	run_task(spinlock_in_bh_section, NULL);
	pk_report_flush();
	assert_int_equal(all.nr, 0);
}

/* ---- lockdep-RCU ---- */

static int *__rcu gp;
static int gval = 7;

static void *deref_outside_thread(void *arg)
{
	int v = *rcu_dereference(gp);

	*(int *)arg = v;
	return NULL;
}

static void dereference_outside_reader(void **state)
{
	pthread_t t;
	int v = 0;

	(void)state;
	rcu_assign_pointer(gp, &gval);
	/* Inside a reader, or where the caller says it is safe: silent. */
	rcu_read_lock();
	v = *rcu_dereference(gp);
	rcu_read_unlock();
	v += *rcu_dereference_check(gp, 1);
	v += *rcu_dereference_protected(gp, 1);
	v += *rcu_dereference_raw(gp);
	pk_report_flush();
	assert_int_equal(all.nr, 0);
	assert_int_equal(v, 28);
	/* Outside: lockdep-RCU's report, naming this file and line. */
	assert_int_equal(pthread_create(&t, NULL, deref_outside_thread, &v), 0);
	pthread_join(t, NULL);
	assert_int_equal(v, 7);
	assert_reports("=============================\n"
		       "WARNING: suspicious RCU usage\n");
	assert_reports("-----------------------------\n"
		       "tests/rcu/test_rcu_debug.c:");
	assert_reports(" suspicious rcu_dereference_check() usage!\n\n"
		       "other info that might help us debug this:\n\n");
	assert_reports("no locks held by ");
	pk_debug_ratelimit_reset();
	v = *rcu_dereference_protected(gp, 0);
	assert_reports("suspicious rcu_dereference_protected() usage!");
	pk_debug_ratelimit_reset();
	v = *rcu_dereference_bh(gp);
	assert_reports("suspicious rcu_dereference_bh_check() usage!");
	pk_debug_ratelimit_reset();
	v = *rcu_dereference_sched(gp);
	assert_reports("suspicious rcu_dereference_sched_check() usage!");
}

static int deref_in_task(void *arg)
{
	int v;

	(void)arg;
	v = *rcu_dereference(gp);
	return v;
}

static void dereference_outside_reader_in_task(void **state)
{
	(void)state;
	rcu_assign_pointer(gp, &gval);
	pk_boot_online(2, PREEMPT_MODEL_NONE);
	assert_int_equal(run_task(deref_in_task, NULL), 7);
	assert_reports("suspicious rcu_dereference_check() usage!");
}

/* ---- synchronize_rcu() where it must not be called ---- */

static int sync_atomic(void *arg)
{
	(void)arg;
	preempt_disable();
	synchronize_rcu();
	preempt_enable();
	return 0;
}

static void synchronize_rcu_from_atomic(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	run_task(sync_atomic, NULL);
	assert_reports("BUG: sleeping function called from invalid context at "
		       "src/rcu/tree.c:");
	assert_reports("in_atomic(): 1");
}

/*
 * Inside a reader the caller would wait for itself: under PREEMPT_RCU its
 * sleep lists it as a preempted reader, and rt's bh-disabled section is
 * one.  Reported (lockdep-RCU), and the call returns without waiting.
 * The sched flavour's reader is a preempt-disabled section: no sleep, so
 * no "scheduling while atomic" and no count to repair.
 */
struct sync_in_reader {
	void (*enter)(void);
	void (*exit)(void);
	void (*sync)(void);
	int returned;
};

static void bh_enter(void)
{
	local_bh_disable();
}

static void bh_exit(void)
{
	local_bh_enable();
}

static void reader_enter(void)
{
	rcu_read_lock();
}

static void reader_exit(void)
{
	rcu_read_unlock();
}

static int sync_in_reader_task(void *arg)
{
	struct sync_in_reader *s = arg;

	s->enter();
	s->sync();
	__atomic_store_n(&s->returned, 1, __ATOMIC_RELEASE);
	s->exit();
	return 0;
}

static void sync_in_reader(enum preempt_model model, void (*enter)(void),
			   void (*exit)(void), void (*sync)(void),
			   const char *msg)
{
	struct sync_in_reader s = {enter, exit, sync, 0};
	struct task_struct *k;

	pk_boot_online(2, model);
	k = kthread_run(sync_in_reader_task, &s, "rcudbg");
	assert_non_null(k);
	wait_flag(&s.returned);
	assert_int_equal(kthread_stop(k), 0);
	if (CONFIG_PROVE_RCU) {
		assert_reports("WARNING: suspicious RCU usage\n");
		assert_reports(msg);
	}
	assert_no_report("scheduling while atomic");
	/* Nothing left holding the machine's grace periods. */
	synchronize_rcu();
}

static const char sync_msg[] = "Illegal synchronize_rcu() in RCU read-side "
			       "critical section\n";
static const char exp_msg[] = "Illegal synchronize_rcu_expedited() in RCU "
			      "read-side critical section\n";

static void synchronize_rcu_in_rt_bh_section(void **state)
{
	(void)state;
	sync_in_reader(PREEMPT_MODEL_RT, bh_enter, bh_exit, synchronize_rcu,
		       sync_msg);
}

static void expedited_in_rt_bh_section(void **state)
{
	(void)state;
	sync_in_reader(PREEMPT_MODEL_RT, bh_enter, bh_exit,
		       synchronize_rcu_expedited, exp_msg);
}

static void synchronize_rcu_in_preempt_rcu_reader(void **state)
{
	(void)state;
	sync_in_reader(PREEMPT_MODEL_FULL, reader_enter, reader_exit,
		       synchronize_rcu, sync_msg);
}

static void expedited_in_preempt_rcu_reader(void **state)
{
	(void)state;
	sync_in_reader(PREEMPT_MODEL_FULL, reader_enter, reader_exit,
		       synchronize_rcu_expedited, exp_msg);
}

static void synchronize_rcu_in_sched_rcu_reader(void **state)
{
	(void)state;
	sync_in_reader(PREEMPT_MODEL_VOLUNTARY, reader_enter, reader_exit,
		       synchronize_rcu, sync_msg);
}

/* ---- stall warnings ---- */

static bool reports_have(const char *needle)
{
	bool found;

	pk_report_flush();
	while (__atomic_exchange_n(&all.lock, 1, __ATOMIC_ACQUIRE))
		;
	found = strstr(all.text, needle) != NULL;
	__atomic_store_n(&all.lock, 0, __ATOMIC_RELEASE);
	return found;
}

/*
 * The stalled CPU's NMI backtrace, while it still spins in the reader.  An
 * NMI that lands in another handler (the tick) shows that handler instead;
 * the report repeats every three timeouts, and one of them shows the
 * reader.
 */
static void wait_nmi_backtrace(const char *frame)
{
	long deadline = now_ms() + 10000;

	while (!reports_have(frame) && now_ms() < deadline)
		usleep(1000);
}

/* A reader that never leaves on its own, and a grace period waiting. */
static void stall(enum preempt_model model, const char *flavour_line,
		  const char *who, const char *nmi_frame)
{
	struct hold h = {.kind = READER_RCU};
	struct task_struct *r;
	unsigned long stalls0 = pk_rcu_stats().stalls;
	long deadline;

	pk_rcu_set_stall_timeout_ms(200);
	pk_boot_online(2, model);
	r = kthread_run(hold_task, &h, "stuck");
	assert_non_null(r);
	wait_flag(&h.entered);
	start_poll_synchronize_rcu();
	deadline = now_ms() + 10000;
	while (pk_rcu_stats().stalls == stalls0 && now_ms() < deadline)
		usleep(1000);
	if (nmi_frame)
		wait_nmi_backtrace(nmi_frame);
	__atomic_store_n(&h.release, 1, __ATOMIC_SEQ_CST);
	assert_int_equal(kthread_stop(r), 0);
	synchronize_rcu();
	assert_reports(flavour_line);
	assert_reports(who);
	assert_reports("(detected by ");
	assert_reports(" jiffies, g=");
	assert_reports("Call Trace:");
}

static void stall_of_a_cpu_in_a_reader(void **state)
{
	(void)state;
	stall(PREEMPT_MODEL_NONE,
	      "rcu: INFO: rcu_sched detected stalls on CPUs/tasks:\n",
	      "-....: (", "] hold_");
	assert_reports("Task dump for CPU ");
	assert_reports("task:stuck");
	/* rcu_dump_cpu_stacks(): the stalled CPU's own backtrace, from an
	 * NMI (preemption is off there), down to the spinning reader. */
	assert_reports("Sending NMI from CPU ");
	assert_reports("NMI backtrace for cpu ");
	assert_reports("Comm: stuck");
	assert_reports("] hold_");
}

static void stall_of_a_preempt_rcu_cpu(void **state)
{
	(void)state;
	/* On its CPU, or preempted there by a kthread: either is named. */
	stall(PREEMPT_MODEL_FULL,
	      "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n",
	      "rcu: \t", NULL);
}

/* A reader preempted in its section and kept off the CPU: a task stall. */
static int preempted_stuck(void *arg)
{
	struct hold *h = arg;

	rcu_read_lock();
	__atomic_store_n(&h->entered, 1, __ATOMIC_SEQ_CST);
	/* No call in the loop (hold_released() is one at -O0): the stall
	 * report's stack ends at the interrupted pc, which is here. */
	while (!__atomic_load_n(&h->release, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&hold_abort, __ATOMIC_ACQUIRE))
		__asm__ __volatile__("" ::: "memory");
	rcu_read_unlock();
	return 0;
}

static int fifo_hog(void *arg)
{
	struct hold *h = arg;

	while (!hold_released(h))
		__asm__ __volatile__("" ::: "memory");
	return 0;
}

static void stall_of_a_blocked_task(void **state)
{
	struct hold h = {.kind = READER_RCU};
	struct task_struct *r, *hog;
	unsigned long stalls0 = pk_rcu_stats().stalls;
	long deadline;
	char pid[32];

	(void)state;
	pk_rcu_set_stall_timeout_ms(200);
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	r = kthread_create(preempted_stuck, &h, "blocked");
	hog = kthread_create(fifo_hog, &h, "hog");
	assert_non_null(r);
	assert_non_null(hog);
	kthread_bind(r, 0);
	kthread_bind(hog, 0);
	sched_set_fifo(hog);
	wake_up_process(r);
	wait_flag(&h.entered);
	wake_up_process(hog); /* preempts the reader for good */
	snprintf(pid, sizeof(pid), " P%d", r->pid);
	start_poll_synchronize_rcu();
	deadline = now_ms() + 10000;
	while (pk_rcu_stats().stalls == stalls0 && now_ms() < deadline)
		usleep(1000);
	__atomic_store_n(&h.release, 1, __ATOMIC_SEQ_CST);
	assert_int_equal(kthread_stop(hog), 0);
	assert_int_equal(kthread_stop(r), 0);
	synchronize_rcu();
	assert_reports("rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"
		       "rcu: \tTasks blocked on level-0 rcu_node (CPUs 0-1):");
	assert_reports(pid);
	/* sched_show_task(): where the reader was preempted. */
	assert_reports("(preempted in a reader)\nCall Trace:\n");
	assert_reports("preempted_stuck");
}

/* ---- RCU_BOOST ---- */

static void rt_boost_unblocks_grace_period(void **state)
{
	struct hold h = {.kind = READER_RCU};
	struct task_struct *r, *hog;
	unsigned long boosts0 = pk_rcu_stats().boosts;
	unsigned long cookie;
	long deadline;

	(void)state;
	pk_rcu_set_boost(90, 50);
	pk_boot_online(1, PREEMPT_MODEL_RT);
	r = kthread_create(preempted_stuck, &h, "reader");
	hog = kthread_create(fifo_hog, &h, "hog");
	assert_non_null(r);
	assert_non_null(hog);
	sched_set_fifo(hog); /* rt priority 50: above the reader */
	wake_up_process(r);
	wait_flag(&h.entered);
	wake_up_process(hog);
	cookie = start_poll_synchronize_rcu();
	/* The hog never lets the reader run -- unless RCU boosts it. */
	deadline = now_ms() + 5000;
	while (pk_rcu_stats().boosts == boosts0 && now_ms() < deadline)
		usleep(1000);
	assert_true(pk_rcu_stats().boosts > boosts0);
	assert_int_equal(__atomic_load_n(&r->prio, __ATOMIC_SEQ_CST),
			 MAX_RT_PRIO - 1 - 90);
	get_task_struct(r);
	/* Boosted above the hog, the reader leaves at its unlock: it sets
	 * nothing here, so end the hog and let it finish. */
	__atomic_store_n(&h.release, 1, __ATOMIC_SEQ_CST);
	assert_int_equal(kthread_stop(hog), 0);
	assert_int_equal(kthread_stop(r), 0);
	cond_synchronize_rcu(cookie);
	assert_true(poll_state_synchronize_rcu(cookie));
	/* Unboosted at its outermost rcu_read_unlock(). */
	assert_int_equal(r->prio, r->pk_normal_prio);
	put_task_struct(r);
}

/*
 * rt: RCU's boost of a reader and the priority the reader's rt_mutexes
 * lend it are one priority.  A boosted task preempted in a bh section
 * (a reader) releases a contended spinlock_t inside it: the unlock's
 * deboost recomputes its priority from its own and its locks' waiters,
 * and must keep RCU's boost, or the hog above its own priority takes the
 * CPU back while the task is still listed and marked boosted (never
 * boosted again), holding the grace period for as long as the hog runs.
 */
static DEFINE_SPINLOCK(boost_sl);

struct bh_boost {
	struct hold h; /* releases the hog */
	int entered, waiter_trying, done;
};

static int bh_boost_reader(void *arg)
{
	struct bh_boost *b = arg;
	long deadline = now_ms() + 10000;

	local_bh_disable();
	spin_lock(&boost_sl);
	__atomic_store_n(&b->entered, 1, __ATOMIC_RELEASE);
	/* Until the hog preempted it and RCU boosted it above the hog. */
	while (!__atomic_load_n(&current->pk_rcu_boosted, __ATOMIC_ACQUIRE) &&
	       now_ms() < deadline && !hold_released(&b->h))
		__asm__ __volatile__("" ::: "memory");
	spin_unlock(&boost_sl); /* the waiter makes it the slow path */
	local_bh_enable();
	__atomic_store_n(&b->done, 1, __ATOMIC_RELEASE);
	return 0;
}

static int bh_boost_waiter(void *arg)
{
	struct bh_boost *b = arg;

	__atomic_store_n(&b->waiter_trying, 1, __ATOMIC_RELEASE);
	spin_lock(&boost_sl);
	spin_unlock(&boost_sl);
	return 0;
}

static void rt_boost_survives_unlock_in_bh_section(void **state)
{
	struct bh_boost b = {0};
	struct task_struct *r, *w, *hog;
	unsigned long boosts0 = pk_rcu_stats().boosts;
	unsigned long cookie;
	long deadline;
	bool gp_ended;

	(void)state;
	pk_rcu_set_boost(90, 50);
	pk_boot_online(2, PREEMPT_MODEL_RT);
	r = kthread_create(bh_boost_reader, &b, "bh-reader");
	w = kthread_create(bh_boost_waiter, &b, "waiter");
	hog = kthread_create(fifo_hog, &b.h, "hog");
	assert_non_null(r);
	assert_non_null(w);
	assert_non_null(hog);
	kthread_bind(r, 1);
	kthread_bind(hog, 1);
	kthread_bind(w, 0);
	sched_set_fifo(hog); /* rt priority 50: above the reader */
	wake_up_process(r);
	wait_flag(&b.entered);
	wake_up_process(w);
	wait_flag(&b.waiter_trying);
	/* The waiter queues on the lock meanwhile (a wide margin). */
	usleep(20000);
	wake_up_process(hog); /* preempts the reader: it is listed */
	cookie = start_poll_synchronize_rcu();
	deadline = now_ms() + 5000;
	while (pk_rcu_stats().boosts == boosts0 && now_ms() < deadline)
		usleep(1000);
	assert_true(pk_rcu_stats().boosts > boosts0);
	/*
	 * Boosted, it leaves its section at once, hog or not, and the grace
	 * period ends while the hog still runs.  (Not "the reader's next
	 * line ran": its outermost unlock ends the boost, and the hog may
	 * rightly take the CPU back before that line.)
	 */
	deadline = now_ms() + 10000;
	while (!poll_state_synchronize_rcu(cookie) && now_ms() < deadline)
		usleep(1000);
	gp_ended = poll_state_synchronize_rcu(cookie);
	__atomic_store_n(&b.h.release, 1, __ATOMIC_SEQ_CST);
	assert_int_equal(kthread_stop(hog), 0);
	assert_int_equal(kthread_stop(r), 0);
	assert_int_equal(kthread_stop(w), 0);
	cond_synchronize_rcu(cookie);
	assert_true(gp_ended);
	assert_int_equal(__atomic_load_n(&b.done, __ATOMIC_ACQUIRE), 1);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP,
			   T(preempt_rcu_might_sleep_prints_nest_depth)),
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP,
			   T(sched_rcu_might_sleep_is_atomic)),
		T(might_sleep_after_reader_is_silent),
		pk_only_if(CONFIG_PROVE_RCU,
			   T(voluntary_switch_in_reader_is_reported)),
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP,
			   T(rt_mutex_in_reader_is_reported)),
		T(rt_spinlock_in_reader_is_allowed),
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP,
			   T(rt_mutex_in_bh_section_is_reported)),
		T(rt_spinlock_in_bh_section_is_allowed),
		pk_only_if(CONFIG_PROVE_RCU, T(dereference_outside_reader)),
		pk_only_if(CONFIG_PROVE_RCU,
			   T(dereference_outside_reader_in_task)),
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP,
			   T(synchronize_rcu_from_atomic)),
		T(stall_of_a_cpu_in_a_reader),
		T(stall_of_a_preempt_rcu_cpu),
		T(stall_of_a_blocked_task),
		T(rt_boost_unblocks_grace_period),
		T(rt_boost_survives_unlock_in_bh_section),
		T(synchronize_rcu_in_rt_bh_section),
		T(expedited_in_rt_bh_section),
		T(synchronize_rcu_in_preempt_rcu_reader),
		T(expedited_in_preempt_rcu_reader),
		T(synchronize_rcu_in_sched_rcu_reader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
