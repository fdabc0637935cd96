// SPDX-License-Identifier: MIT
/*
 * RCU's updater and reader APIs in every model and both flavours, from
 * tasks, threads that are not vCPUs, softirq and hardirq.  A grace period
 * that ends while a reader that began before it is still inside is the
 * failure every test here looks for (rcu_helpers.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include <preempt/interrupt.h>
#include <preempt/rcupdate.h>
#include <preempt/sched.h>
#include <preempt/slab.h>

#include "rcu_helpers.h"

#define LINE 33 /* the test's interrupt line */
#define ULONG_CMP_LT_T(a, b) ((long)((a) - (b)) < 0)

struct variant {
	enum preempt_model model;
	enum pk_rcu_flavour flavour;
	int cpus;
};

static const struct variant v_none = {PREEMPT_MODEL_NONE, PK_RCU_FLAVOUR_AUTO,
				      2};
static const struct variant v_vol = {PREEMPT_MODEL_VOLUNTARY,
				     PK_RCU_FLAVOUR_AUTO, 2};
static const struct variant v_full = {PREEMPT_MODEL_FULL, PK_RCU_FLAVOUR_AUTO,
				      2};
static const struct variant v_lazy = {PREEMPT_MODEL_LAZY, PK_RCU_FLAVOUR_AUTO,
				      2};
static const struct variant v_rt = {PREEMPT_MODEL_RT, PK_RCU_FLAVOUR_AUTO, 2};
static const struct variant v_rt_sched = {PREEMPT_MODEL_RT,
					  PK_RCU_FLAVOUR_SCHED, 2};
static const struct variant v_none_preempt = {PREEMPT_MODEL_NONE,
					      PK_RCU_FLAVOUR_PREEMPT, 2};

static void boot_variant(const struct variant *v)
{
	assert_int_equal(pk_rcu_set_boot_flavour(v->flavour), 0);
	pk_boot_online(v->cpus, v->model);
}

static bool expect_preempt_flavour(const struct variant *v)
{
	return v->flavour == PK_RCU_FLAVOUR_PREEMPT ||
	       v->model == PREEMPT_MODEL_RT ||
	       (v->flavour == PK_RCU_FLAVOUR_AUTO &&
		v->model != PREEMPT_MODEL_NONE &&
		v->model != PREEMPT_MODEL_VOLUNTARY);
}

static int teardown(void **state)
{
	return rcu_test_teardown(state);
}

/* ---- what a reader looks like in each flavour ---- */

struct reader_view {
	int in_atomic, depth, held, preemptible_flavour;
};

static int view_task(void *arg)
{
	struct reader_view *rv = arg;

	rcu_read_lock();
	rcu_read_lock();
	rv->in_atomic = in_atomic();
	rv->depth = rcu_preempt_depth();
	rv->held = rcu_read_lock_held();
	rv->preemptible_flavour = pk_rcu_preemptible();
	rcu_read_unlock();
	rcu_read_unlock();
	return rcu_read_lock_held() || rcu_preempt_depth() || in_atomic();
}

static void reader_context_per_flavour(void **state)
{
	const struct variant *v = *state;
	struct reader_view rv = {0};
	struct task_struct *k;

	boot_variant(v);
	k = kthread_run(view_task, &rv, "view");
	assert_non_null(k);
	assert_int_equal(kthread_stop(k), 0);
	assert_int_equal(rv.held, 1);
	assert_int_equal(rv.preemptible_flavour, expect_preempt_flavour(v));
	if (expect_preempt_flavour(v)) {
		/* PREEMPT_RCU: the task's own nesting, not the count. */
		assert_int_equal(rv.in_atomic, 0);
		assert_int_equal(rv.depth, 2);
	} else {
		assert_int_equal(rv.in_atomic, 1);
		assert_int_equal(rv.depth, 0);
	}
	assert_int_equal(captured.nr, 0);
}

/* rcu_read_lock_bh_held() and _sched_held(), by the kind of section. */
struct held_view {
	int outside[2], bh[2], sched[2], rcu[2], irqs_off[2];
};

static void held_now(int out[2])
{
	out[0] = rcu_read_lock_bh_held();
	out[1] = rcu_read_lock_sched_held();
}

static int held_task(void *arg)
{
	struct held_view *hv = arg;
	unsigned long flags;

	held_now(hv->outside);
	rcu_read_lock_bh();
	held_now(hv->bh);
	rcu_read_unlock_bh();
	rcu_read_lock_sched();
	held_now(hv->sched);
	rcu_read_unlock_sched();
	rcu_read_lock();
	held_now(hv->rcu);
	rcu_read_unlock();
	local_irq_save(flags);
	held_now(hv->irqs_off);
	local_irq_restore(flags);
	return 0;
}

static void bh_and_sched_held_per_section(void **state)
{
	const struct variant *v = *state;
	struct held_view hv;
	struct task_struct *k;

	memset(&hv, 0xff, sizeof(hv));
	boot_variant(v);
	k = kthread_run(held_task, &hv, "held");
	assert_non_null(k);
	assert_int_equal(kthread_stop(k), 0);
	assert_int_equal(hv.outside[0], 0);
	assert_int_equal(hv.outside[1], 0);
	/* A bh-disabled section is also not preemptible (softirq count). */
	assert_int_equal(hv.bh[0], 1);
	assert_int_equal(hv.bh[1], 1);
	assert_int_equal(hv.sched[0], 0);
	assert_int_equal(hv.sched[1], 1);
	assert_int_equal(hv.rcu[0], 0);
	/* Only the non-preemptible flavour's reader disables preemption. */
	assert_int_equal(hv.rcu[1], !expect_preempt_flavour(v));
	assert_int_equal(hv.irqs_off[0], 1);
	assert_int_equal(hv.irqs_off[1], 1);
	assert_int_equal(captured.nr, 0);
}

/* The flavour is the boot's: a run-time model switch keeps it. */
static void flavour_kept_across_model_switch(void **state)
{
	struct reader_view rv = {0};
	struct task_struct *k;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_NONE);
	assert_false(pk_rcu_preemptible());
	assert_int_equal(preempt_model_set(PREEMPT_MODEL_FULL), 0);
	k = kthread_run(view_task, &rv, "view");
	assert_non_null(k);
	assert_int_equal(kthread_stop(k), 0);
	assert_int_equal(rv.preemptible_flavour, 0);
	assert_int_equal(rv.in_atomic, 1);
	synchronize_rcu();
	machine_shutdown();
	/* The next boot decides again, from its own model. */
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_true(pk_rcu_preemptible());
	assert_int_equal(pk_rcu_set_boot_flavour(PK_RCU_FLAVOUR_SCHED), -EBUSY);
}

/* ---- synchronize_rcu() waits for readers ---- */

struct sync_result {
	struct hold *h;
	int done;
	int left_at_end; /* the reader's ->left when the grace period ended */
	void (*sync)(void);
};

static void *sync_thread(void *arg)
{
	struct sync_result *r = arg;

	r->sync();
	r->left_at_end = __atomic_load_n(&r->h->left, __ATOMIC_SEQ_CST);
	__atomic_store_n(&r->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static int sync_task(void *arg)
{
	sync_thread(arg);
	return 0;
}

/*
 * A reader holds; an updater (a thread, or a task) waits for a grace
 * period; the reader leaves only after 30 ms.  The updater must see it
 * gone.
 */
static void check_gp_waits(struct hold *h, void (*sync)(void),
			   bool sync_in_task)
{
	struct sync_result r = {.h = h, .sync = sync};
	struct task_struct *k = NULL;
	pthread_t t;

	wait_flag(&h->entered);
	if (sync_in_task) {
		k = kthread_run(sync_task, &r, "sync");
		assert_non_null(k);
	} else {
		assert_int_equal(pthread_create(&t, NULL, sync_thread, &r), 0);
	}
	usleep(30000);
	assert_int_equal(__atomic_load_n(&r.done, __ATOMIC_SEQ_CST), 0);
	__atomic_store_n(&h->release, 1, __ATOMIC_SEQ_CST);
	if (sync_in_task)
		assert_int_equal(kthread_stop(k), 0);
	else
		pthread_join(t, NULL);
	assert_int_equal(r.left_at_end, 1);
}

static void gp_waits_for_task_reader(void **state, enum reader_kind kind,
				     void (*sync)(void))
{
	const struct variant *v = *state;
	struct hold h = {.kind = kind};
	struct task_struct *k;

	boot_variant(v);
	k = kthread_run(hold_task, &h, "reader");
	assert_non_null(k);
	check_gp_waits(&h, sync, false);
	assert_int_equal(kthread_stop(k), 0);
	assert_int_equal(captured.nr, 0);
}

static void synchronize_rcu_waits_for_reader(void **state)
{
	gp_waits_for_task_reader(state, READER_RCU, synchronize_rcu);
}

static void synchronize_rcu_waits_for_bh_reader(void **state)
{
	gp_waits_for_task_reader(state, READER_BH, synchronize_rcu);
}

static void synchronize_rcu_waits_for_sched_reader(void **state)
{
	gp_waits_for_task_reader(state, READER_SCHED, synchronize_rcu);
}

static void expedited_waits_for_reader(void **state)
{
	gp_waits_for_task_reader(state, READER_RCU, synchronize_rcu_expedited);
}

/* A reader on a thread that is not a vCPU, an updater task. */
static void synchronize_rcu_waits_for_host_thread_reader(void **state)
{
	const struct variant *v = *state;
	struct hold h = {.kind = READER_RCU, .host = 1};
	pthread_t t;

	boot_variant(v);
	assert_int_equal(pthread_create(&t, NULL, hold_thread, &h), 0);
	check_gp_waits(&h, synchronize_rcu, true);
	pthread_join(t, NULL);
}

static void expedited_waits_for_host_thread_reader(void **state)
{
	const struct variant *v = *state;
	struct hold h = {.kind = READER_RCU, .host = 1};
	pthread_t t;

	boot_variant(v);
	assert_int_equal(pthread_create(&t, NULL, hold_thread, &h), 0);
	check_gp_waits(&h, synchronize_rcu_expedited, true);
	pthread_join(t, NULL);
}

/*
 * A reader in an interrupt handler on an idle vCPU: the idle vCPU is
 * quiescent without being asked only while it runs no handler (the
 * kernel's dynticks: ct_irq_enter()), and the updater, a thread on an
 * otherwise idle machine, drives its grace period itself.
 */
static struct hold *irq_hold;

static irqreturn_t hold_in_irq(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	hold_section(irq_hold);
	return IRQ_HANDLED;
}

static void synchronize_rcu_waits_for_reader_in_irq_on_idle_cpu(void **state)
{
	const struct variant *v = *state;
	struct hold h = {.kind = READER_RCU};

	boot_variant(v);
	irq_hold = &h;
	assert_int_equal(
		request_irq(LINE, hold_in_irq, IRQF_NO_THREAD, "hold", &h), 0);
	synchronize_rcu(); /* the machine settles */
	usleep(50000);	   /* both vCPUs asleep in idle (wide margin) */
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(1)), 0);
	check_gp_waits(&h, synchronize_rcu, false);
	free_irq(LINE, &h);
	assert_int_equal(captured.nr, 0);
}

/* Without a machine: threads only, the caller drives the grace period. */
static void synchronize_rcu_without_machine(void **state)
{
	struct hold h = {.kind = READER_RCU, .host = 1};
	pthread_t t;

	(void)state;
	assert_int_equal(pthread_create(&t, NULL, hold_thread, &h), 0);
	check_gp_waits(&h, synchronize_rcu, false);
	pthread_join(t, NULL);
}

/* ---- PREEMPT_RCU: a reader preempted inside its section ---- */

static int spin_task(void *arg)
{
	int *stop = arg;

	while (!__atomic_load_n(stop, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&hold_abort, __ATOMIC_ACQUIRE))
		__asm__ __volatile__("" ::: "memory");
	return 0;
}

static void preempted_reader_blocks_gp(void **state)
{
	const struct variant *v = *state;
	struct variant one = *v;
	struct hold h = {.kind = READER_RCU};
	struct task_struct *r, *s;
	unsigned long blocked0;
	int stop = 0;
	long deadline;

	one.cpus = 1; /* the reader and a spinner share it: time slices */
	boot_variant(&one);
	blocked0 = pk_rcu_stats().blocked_tasks;
	r = kthread_run(hold_task, &h, "reader");
	s = kthread_run(spin_task, &stop, "spinner");
	assert_non_null(r);
	assert_non_null(s);
	wait_flag(&h.entered);
	/* The spinner's slice preempts the reader inside its section. */
	deadline = now_ms() + 10000;
	while (pk_rcu_stats().blocked_tasks == blocked0) {
		if (now_ms() > deadline)
			fail_msg("the reader was never preempted in its "
				 "section");
		usleep(1000);
	}
	check_gp_waits(&h, synchronize_rcu, false);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	assert_int_equal(kthread_stop(r), 0);
	assert_int_equal(kthread_stop(s), 0);
	assert_int_equal(captured.nr, 0);
}

/*
 * The other order: the grace period starts while the reader runs, and
 * only then is the reader preempted -- on a CPU that still owes the
 * grace period a quiescent state, so the preempted reader must hold it.
 */
static void reader_preempted_during_gp_blocks_it(void **state)
{
	const struct variant *v = *state;
	struct hold h = {.kind = READER_RCU};
	struct sync_result res = {.h = &h, .sync = synchronize_rcu};
	struct task_struct *r, *s;
	unsigned long blocked0;
	int stop = 0;
	long deadline;
	pthread_t t;

	boot_variant(v);
	r = kthread_create(hold_task, &h, "reader");
	s = kthread_create(spin_task, &stop, "spinner");
	assert_non_null(r);
	assert_non_null(s);
	kthread_bind(r, 0);
	kthread_bind(s, 0);
	wake_up_process(r);
	wait_flag(&h.entered);
	blocked0 = pk_rcu_stats().blocked_tasks;
	assert_int_equal(pthread_create(&t, NULL, sync_thread, &res), 0);
	usleep(20000); /* the grace period runs, held by the reader */
	assert_int_equal(__atomic_load_n(&res.done, __ATOMIC_SEQ_CST), 0);
	wake_up_process(s); /* its time slices preempt the reader */
	deadline = now_ms() + 10000;
	/* On the blocked list (a kthread may have preempted it earlier). */
	while (pk_rcu_stats().blocked_tasks == blocked0 &&
	       !__atomic_load_n(&r->pk_rcu_blocked, __ATOMIC_SEQ_CST)) {
		if (now_ms() > deadline)
			fail_msg("the reader was never preempted in its "
				 "section");
		usleep(1000);
	}
	usleep(30000);
	assert_int_equal(__atomic_load_n(&res.done, __ATOMIC_SEQ_CST), 0);
	__atomic_store_n(&h.release, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	assert_int_equal(res.left_at_end, 1);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	assert_int_equal(kthread_stop(r), 0);
	assert_int_equal(kthread_stop(s), 0);
	assert_int_equal(captured.nr, 0);
}

/*
 * A task that never switches and is inside a reader at every tick (each
 * section spans a tick, the next begins at once): under PREEMPT_RCU.  The tick
 * that lands in a reader asks for a report at its unlock; without that
 * the grace period waits for a tick between two sections, which never
 * comes, until the reader gives up.
 */
#define BACK_TO_BACK_SECTIONS 1000

struct back_to_back {
	int sections;
	int finished;
	bool preempt_off; /* preempt_disable() sections, not rcu_read_lock() */
};

static void back_to_back_enter(const struct back_to_back *b)
{
	if (b->preempt_off)
		preempt_disable();
	else
		rcu_read_lock();
}

static void back_to_back_leave(const struct back_to_back *b)
{
	if (b->preempt_off)
		preempt_enable();
	else
		rcu_read_unlock();
}

static int back_to_back_reader(void *arg)
{
	struct back_to_back *b = arg;

	for (int i = 0; i < BACK_TO_BACK_SECTIONS && !kthread_should_stop() &&
			!__atomic_load_n(&hold_abort, __ATOMIC_ACQUIRE);
	     i++) {
		unsigned long start;

		back_to_back_enter(b);
		start = jiffies;
		while (jiffies - start < 2)
			__asm__ __volatile__("" ::: "memory");
		back_to_back_leave(b);
		__atomic_store_n(&b->sections, i + 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&b->finished, 1, __ATOMIC_RELEASE);
	return 0;
}

static void gp_ends_under_back_to_back(void **state, bool preempt_off)
{
	const struct variant *v = *state;
	struct back_to_back b = {.preempt_off = preempt_off};
	struct task_struct *r;

	boot_variant(v);
	assert_true(preempt_off || pk_rcu_preemptible());
	r = kthread_create(back_to_back_reader, &b, "reader");
	assert_non_null(r);
	kthread_bind(r, 1);
	wake_up_process(r);
	wait_flag(&b.sections);
	synchronize_rcu();
	synchronize_rcu();
	/* Two grace periods in a few sections, not after the last. */
	assert_int_equal(__atomic_load_n(&b.finished, __ATOMIC_ACQUIRE), 0);
	assert_int_equal(kthread_stop(r), 0);
	assert_int_equal(captured.nr, 0);
}

static void gp_ends_under_back_to_back_readers(void **state)
{
	gp_ends_under_back_to_back(state, false);
}

/*
 * The same with preempt-disabled sections under a preemptible model: the
 * enable that ends one is a preemption point, which reports once the tick
 * asked for it.
 */
static void gp_ends_under_back_to_back_preempt_off(void **state)
{
	gp_ends_under_back_to_back(state, true);
}

/*
 * PREEMPT_RCU: a reader the tick asked for a report (NEED_QS) ends with
 * interrupts disabled.  An irqs-off section is a reader of the sched kind
 * (rcu_read_lock_sched_held()), so the unlock must defer the report: the
 * grace period may not end before interrupts are enabled again.  With
 * @preempt the reader is preempted first, so that its place on the
 * blocked list, not its CPU, holds the grace period: leaving the list is
 * deferred as well.
 */
struct gp_probe {
	bool preempt;	   /* be preempted in the section first */
	bool ends_in_hold; /* the grace period may end in probe_hold() */
	struct task_struct *preempter;
	int in_section, go, asked, was_blocked, preempter_ran;
	int gp_done, gp_done_while_off;
};

static long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static int probe_preempter(void *arg)
{
	struct gp_probe *s = arg;

	__atomic_store_n(&s->preempter_ran, 1, __ATOMIC_RELEASE);
	return 0;
}

/* In the section: wait for the driver's go, then until @cond holds. */
static void probe_enter(struct gp_probe *s, bool (*cond)(void))
{
	long start;

	__atomic_store_n(&s->in_section, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&s->go, __ATOMIC_ACQUIRE))
		__asm__ __volatile__("" ::: "memory");
	for (start = mono_ms(); mono_ms() - start < 10000 && !cond();)
		__asm__ __volatile__("" ::: "memory");
	s->asked = cond();
	if (s->preempt) {
		/* SCHED_FIFO on this vCPU: runs before the wake-up returns,
		 * and the switch puts this task on the blocked list. */
		wake_up_process(s->preempter);
		s->was_blocked =
			current->pk_rcu_blocked != 0 &&
			__atomic_load_n(&s->preempter_ran, __ATOMIC_ACQUIRE);
	}
}

/*
 * Still in a reader of some kind: has the grace period ended?  Where it
 * should, the hold waits up to 10 s for it (a loaded host under qemu took
 * over 500 ms to run the grace period's last steps); where it must not,
 * 500 ms show that it did not.
 */
static void probe_hold(struct gp_probe *s)
{
	long start, window = s->ends_in_hold ? 10000 : 500;

	for (start = mono_ms();
	     mono_ms() - start < window &&
	     !__atomic_load_n(&s->gp_done, __ATOMIC_ACQUIRE);)
		__asm__ __volatile__("" ::: "memory");
	s->gp_done_while_off = __atomic_load_n(&s->gp_done, __ATOMIC_ACQUIRE);
}

/*
 * On a booted machine: @fn on vCPU 1 beside a SCHED_FIFO preempter; one
 * synchronize_rcu().
 */
static void run_gp_probe(int (*fn)(void *), struct gp_probe *s)
{
	struct task_struct *r;

	r = kthread_create(fn, s, "reader");
	s->preempter = kthread_create(probe_preempter, s, "preempter");
	assert_non_null(r);
	assert_non_null(s->preempter);
	kthread_bind(r, 1);
	kthread_bind(s->preempter, 1);
	sched_set_fifo(s->preempter);
	wake_up_process(r);
	wait_flag(&s->in_section);
	__atomic_store_n(&s->go, 1, __ATOMIC_RELEASE);
	synchronize_rcu();
	__atomic_store_n(&s->gp_done, 1, __ATOMIC_RELEASE);
	assert_int_equal(kthread_stop(r), 0);
	if (!s->preempt)
		wake_up_process(s->preempter);
	assert_int_equal(kthread_stop(s->preempter), 0);
	assert_int_equal(s->asked, 1);
	assert_int_equal(s->was_blocked, s->preempt);
	assert_int_equal(s->gp_done_while_off, s->ends_in_hold);
}

/* The tick asked this reader for a report. */
static bool asked_for_qs(void)
{
	return pk_task_tls(pk_rcu_special) != 0;
}

static int irqoff_unlock_reader(void *arg)
{
	struct gp_probe *s = arg;

	rcu_read_lock();
	probe_enter(s, asked_for_qs);
	local_irq_disable();
	rcu_read_unlock();
	probe_hold(s);
	local_irq_enable();
	return 0;
}

static void gp_waits_for_irqs_off_unlock(void **state, bool preempt)
{
	struct gp_probe s = {.preempt = preempt};

	boot_variant(*state);
	assert_true(pk_rcu_preemptible());
	run_gp_probe(irqoff_unlock_reader, &s);
}

static void gp_waits_for_irqs_off_after_asked_unlock(void **state)
{
	gp_waits_for_irqs_off_unlock(state, false);
}

static void gp_waits_for_irqs_off_after_blocked_unlock(void **state)
{
	gp_waits_for_irqs_off_unlock(state, true);
}

/*
 * rt: a bh-disabled section is a reader (rcu_read_lock_bh_held()) that
 * may be preempted, its state in the task.  Preempted after the grace
 * period began, it must hold that grace period from the blocked list
 * until local_bh_enable(), not let the switch answer for its CPU.
 */
static bool gp_running(void)
{
	return pk_rcu_stats().gp_seq & 1;
}

static int bh_reader_task(void *arg)
{
	struct gp_probe *s = arg;

	local_bh_disable();
	probe_enter(s, gp_running);
	probe_hold(s);
	local_bh_enable();
	return 0;
}

static void gp_waits_for_preempted_rt_bh_section(void **state)
{
	struct gp_probe s = {.preempt = true};

	boot_variant(*state);
	assert_true(preempt_model_rt());
	run_gp_probe(bh_reader_task, &s);
}

/*
 * rt: the preempted bh section above ends, and the task at once begins
 * another (back-to-back sections: a loop of spin_lock_bh(), ksoftirqd,
 * rcuc).  The grace period waits for the first section only, as the
 * kernel's, whose local_bh_enable() ends the rcu_read_lock() its disable
 * took and leaves the blocked list there: a section that began after the
 * grace period must not hold it.
 */
static int bh_back_to_back_task(void *arg)
{
	struct gp_probe *s = arg;

	local_bh_disable();
	probe_enter(s, gp_running);
	local_bh_enable();
	local_bh_disable();
	probe_hold(s);
	local_bh_enable();
	return 0;
}

static void gp_ends_during_later_rt_bh_section(void **state)
{
	struct gp_probe s = {.preempt = true, .ends_in_hold = true};

	boot_variant(*state);
	assert_true(preempt_model_rt());
	run_gp_probe(bh_back_to_back_task, &s);
}

/*
 * A preempted reader ends with interrupts off (its leaving the blocked
 * list deferred), then sleeps without enabling them: schedule() from
 * atomic context, reported and repaired.  The sleep is a context switch,
 * outside every reader, so it settles what the unlock deferred (the
 * kernel's rcu_note_context_switch()); left on the list, the sleeping
 * task would hold every grace period until something woke it.
 */
struct sleep_atomic {
	struct task_struct *preempter;
	int preempter_ran, was_blocked, asleep;
};

static int sleep_atomic_preempter(void *arg)
{
	struct sleep_atomic *s = arg;

	__atomic_store_n(&s->preempter_ran, 1, __ATOMIC_RELEASE);
	return 0;
}

static int sleep_atomic_reader(void *arg)
{
	struct sleep_atomic *s = arg;

	rcu_read_lock();
	/* SCHED_FIFO on this vCPU: preempts the reader inside its section. */
	wake_up_process(s->preempter);
	s->was_blocked = current->pk_rcu_blocked != 0 &&
			 __atomic_load_n(&s->preempter_ran, __ATOMIC_ACQUIRE);
	local_irq_disable();
	rcu_read_unlock();
	set_current_state(TASK_UNINTERRUPTIBLE);
	__atomic_store_n(&s->asleep, 1, __ATOMIC_RELEASE);
	schedule(); /* interrupts still off: "scheduling while atomic" */
	return 0;
}

static void gp_ends_while_deferred_reader_sleeps_atomic(void **state)
{
	const struct variant *v = *state;
	struct sleep_atomic s = {0};
	struct task_struct *r;
	unsigned long cookie;
	long deadline;
	bool done;

	boot_variant(v);
	assert_true(pk_rcu_preemptible());
	r = kthread_create(sleep_atomic_reader, &s, "reader");
	s.preempter = kthread_create(sleep_atomic_preempter, &s, "preempter");
	assert_non_null(r);
	assert_non_null(s.preempter);
	kthread_bind(r, 1);
	kthread_bind(s.preempter, 1);
	sched_set_fifo(s.preempter);
	wake_up_process(r);
	wait_flag(&s.asleep);
	cookie = start_poll_synchronize_rcu();
	/* Wide: a grace period takes a few ticks. */
	for (deadline = now_ms() + 5000;
	     !poll_state_synchronize_rcu(cookie) && now_ms() < deadline;)
		usleep(1000);
	done = poll_state_synchronize_rcu(cookie);
	wake_up_process(r);
	assert_int_equal(kthread_stop(r), 0);
	assert_int_equal(kthread_stop(s.preempter), 0);
	assert_int_equal(s.was_blocked, 1);
	assert_report_contains("scheduling while atomic");
	assert_true(done);
}

/*
 * The switch inside a settle: a preempted reader T ends with interrupts
 * off while an expedited grace period waits for it (the unlock defers),
 * and settles at its preempt_enable(): leaving the blocked list wakes the
 * expedited waiter E, SCHED_FIFO on T's vCPU, which preempts T inside
 * rcu_deferred_qs().  E then holds vCPU 1 in a preempt-disabled section
 * (a reader of the sched kind) while a normal grace period begins, and
 * lets vCPU 0 pull T.  T resumes there and reports its quiescent state:
 * for vCPU 0, where it runs now.  A report for vCPU 1, the CPU it left
 * (arm64 once kept the old thread pointer across the switch), ends the
 * grace period inside E's section.
 *
 * E's expedited grace period waits for vCPU 0 too.  Busy when it began
 * (a tick's handler, a kthread), vCPU 0 answers by its IPI, and if that
 * comes after T's settle, vCPU 0's report is E's wake-up: from the other
 * vCPU, a reschedule T takes only after it has run to its end (seen under
 * a loaded host).  So before it unlocks, T has vCPU 0 switch to W: the
 * switch is vCPU 0's quiescent state, and T's settle is the last thing E
 * waits for.
 */
struct settle_switch {
	struct task_struct *t, *e, *w;
	unsigned long cookie;
	int e_done_exp, t_left, e_in_section, go, release, t_done;
	int w_ran, w_late; /* vCPU 0 switched to W, within the margin */
	int ended_inside, t_cpu;
	int t_mid_settle; /* E's wake-up came from T's settle: T not done */
};

static int settle_switch_e(void *arg)
{
	struct settle_switch *s = arg;

	synchronize_rcu_expedited();
	s->t_mid_settle = !__atomic_load_n(&s->t_done, __ATOMIC_ACQUIRE);
	s->e_done_exp = 1;
	s->t_left = s->t->pk_rcu_blocked == 0;
	preempt_disable();
	__atomic_store_n(&s->e_in_section, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&s->go, __ATOMIC_ACQUIRE))
		__asm__ __volatile__("" ::: "memory");
	/* Only now may vCPU 0 pull T (set_cpus_allowed_ptr() moves no
	 * running task; the idle balance honours the mask). */
	set_cpus_allowed_ptr(s->t, 1ULL << 0);
	while (!__atomic_load_n(&s->release, __ATOMIC_ACQUIRE))
		__asm__ __volatile__("" ::: "memory");
	s->ended_inside = poll_state_synchronize_rcu(s->cookie);
	preempt_enable();
	return 0;
}

static int settle_switch_t(void *arg)
{
	struct settle_switch *s = arg;

	rcu_read_lock();
	/* E preempts: this reader goes on the blocked list, and E's
	 * expedited grace period waits for it. */
	wake_up_process(s->e);
	/* E sleeps, owed by this reader and maybe by vCPU 0: vCPU 0's
	 * switch to W answers for it. */
	wake_up_process(s->w);
	for (long deadline = now_ms() + 10000;
	     !__atomic_load_n(&s->w_ran, __ATOMIC_ACQUIRE);)
		if (now_ms() > deadline) {
			s->w_late = 1;
			break;
		}
	local_irq_disable();
	rcu_read_unlock(); /* deferred: interrupts are off */
	preempt_disable();
	local_irq_enable(); /* no tick may settle it here */
	preempt_enable();   /* settles: wakes E, which preempts */
	s->t_cpu = raw_smp_processor_id();
	__atomic_store_n(&s->t_done, 1, __ATOMIC_RELEASE);
	return 0;
}

static int settle_switch_w(void *arg)
{
	struct settle_switch *s = arg;

	__atomic_store_n(&s->w_ran, 1, __ATOMIC_RELEASE);
	return 0;
}

static void deferred_qs_reports_for_cpu_it_resumes_on(void **state)
{
	const struct variant *v = *state;
	struct settle_switch s = {0};
	long deadline;

	boot_variant(v);
	assert_true(pk_rcu_preemptible());
	s.t = kthread_create(settle_switch_t, &s, "t");
	s.e = kthread_create(settle_switch_e, &s, "e");
	s.w = kthread_create(settle_switch_w, &s, "w");
	assert_non_null(s.t);
	assert_non_null(s.e);
	assert_non_null(s.w);
	kthread_bind(s.t, 1);
	kthread_bind(s.e, 1);
	kthread_bind(s.w, 0);
	sched_set_fifo(s.e);
	sched_set_fifo(s.w);
	wake_up_process(s.t);
	wait_flag(&s.e_in_section);
	/* A grace period under way, vCPU 1 owing it (E holds it). */
	s.cookie = start_poll_synchronize_rcu();
	for (deadline = now_ms() + 10000;
	     ULONG_CMP_LT_T(pk_rcu_stats().gp_seq, s.cookie - 1) &&
	     now_ms() < deadline;)
		usleep(1000);
	__atomic_store_n(&s.go, 1, __ATOMIC_RELEASE);
	wait_flag(&s.t_done);
	/* Wide: a wrong report ends it within a few ticks. */
	for (deadline = now_ms() + 1000;
	     !poll_state_synchronize_rcu(s.cookie) && now_ms() < deadline;)
		usleep(1000);
	__atomic_store_n(&s.release, 1, __ATOMIC_RELEASE);
	assert_int_equal(kthread_stop(s.e), 0);
	assert_int_equal(kthread_stop(s.t), 0);
	assert_int_equal(kthread_stop(s.w), 0);
	assert_int_equal(s.w_late, 0);
	assert_int_equal(s.e_done_exp, 1);
	assert_int_equal(s.t_left, 1);
	assert_int_equal(s.t_mid_settle, 1);
	assert_int_equal(s.t_cpu, 0);
	assert_int_equal(s.ended_inside, 0);
}

/*
 * yield() is a schedule() to RCU (the kernel's goes through
 * rcu_note_context_switch()): a preempted reader that ended with
 * interrupts off, its leaving the blocked list deferred, leaves the list
 * at its yield(), not at its next tick or preemption point.  A tick
 * between the unlock and the yield settles it first: such a round proves
 * nothing and runs again.
 */
struct yield_settle {
	struct task_struct *preempter, *other;
	int preempter_ran, other_ran, was_blocked, listed_at_yield, left;
};

static int yield_settle_mark(void *arg)
{
	__atomic_store_n((int *)arg, 1, __ATOMIC_RELEASE);
	return 0;
}

static int yield_settle_reader(void *arg)
{
	struct yield_settle *s = arg;

	rcu_read_lock();
	/* SCHED_FIFO on this vCPU: preempts the reader inside its section. */
	wake_up_process(s->preempter);
	s->was_blocked = current->pk_rcu_blocked != 0 &&
			 __atomic_load_n(&s->preempter_ran, __ATOMIC_ACQUIRE);
	wake_up_process(s->other); /* queued behind us: the yield's next */
	local_irq_disable();
	rcu_read_unlock(); /* deferred: interrupts are off */
	local_irq_enable();
	s->listed_at_yield = current->pk_rcu_blocked != 0;
	yield();
	s->left = current->pk_rcu_blocked == 0;
	return 0;
}

/* One round; false if a tick settled the reader before its yield. */
static bool yield_settle_round(const struct variant *v)
{
	struct yield_settle s = {0};
	struct task_struct *r;

	boot_variant(v);
	assert_true(pk_rcu_preemptible());
	r = kthread_create(yield_settle_reader, &s, "reader");
	s.preempter = kthread_create(yield_settle_mark, &s.preempter_ran,
				     "preempter");
	s.other = kthread_create(yield_settle_mark, &s.other_ran, "other");
	assert_non_null(r);
	assert_non_null(s.preempter);
	assert_non_null(s.other);
	kthread_bind(r, 1);
	kthread_bind(s.preempter, 1);
	kthread_bind(s.other, 1);
	sched_set_fifo(s.preempter);
	wake_up_process(r);
	assert_int_equal(kthread_stop(r), 0);
	assert_int_equal(kthread_stop(s.preempter), 0);
	assert_int_equal(kthread_stop(s.other), 0);
	assert_int_equal(s.was_blocked, 1);
	assert_int_equal(s.other_ran, 1);
	if (!s.listed_at_yield)
		return false;
	assert_int_equal(s.left, 1);
	return true;
}

static void yield_settles_deferred_reader(void **state)
{
	for (int round = 0; round < 10; round++) {
		if (yield_settle_round(*state))
			return;
		print_message("round %d: a tick settled the reader before "
			      "its yield; again\n",
			      round);
		machine_shutdown();
	}
	fail_msg("a tick always settled the reader before its yield");
}

/*
 * A task that returns inside rcu_read_lock(): reported, and the reader
 * closed at the exit (the kernel's exit_rcu()).  PREEMPT_RCU would
 * otherwise list the dead task as a preempted reader at its last switch,
 * holding every later grace period, and free it while listed.
 */
static int exit_in_reader(void *arg)
{
	(void)arg;
	rcu_read_lock();
	return 0;
}

static void gp_ends_after_task_exits_in_reader(void **state)
{
	const struct variant *v = *state;
	struct task_struct *k;
	unsigned long cookie;
	long deadline;

	boot_variant(v);
	k = kthread_run(exit_in_reader, NULL, "leaker");
	assert_non_null(k);
	assert_int_equal(kthread_stop(k), 0);
	cookie = start_poll_synchronize_rcu();
	/* Wide: a grace period takes a few ticks. */
	for (deadline = now_ms() + 5000;
	     !poll_state_synchronize_rcu(cookie) && now_ms() < deadline;)
		usleep(1000);
	assert_true(poll_state_synchronize_rcu(cookie));
	if (pk_rcu_preemptible())
		assert_report_contains("exited inside an RCU read-side");
}

/* ---- callbacks ---- */

struct cb_probe {
	struct rcu_head rh;
	struct hold *h;
	int ran;
	int left_at_run;
	int in_softirq;
	int in_rcuc;
	int queued;
};

static void probe_cb(struct rcu_head *rh)
{
	struct cb_probe *p = (struct cb_probe *)rh;

	p->left_at_run = __atomic_load_n(&p->h->left, __ATOMIC_SEQ_CST);
	p->in_softirq = in_serving_softirq() != 0;
	p->in_rcuc = !strncmp(current->comm, "rcuc", 4);
	__atomic_store_n(&p->ran, 1, __ATOMIC_SEQ_CST);
}

enum queue_from { FROM_TASK, FROM_THREAD, FROM_HARDIRQ, FROM_SOFTIRQ };

static struct cb_probe *irq_probe;
static struct tasklet_struct probe_tasklet;

static void queue_probe(struct cb_probe *p)
{
	call_rcu(&p->rh, probe_cb);
	__atomic_store_n(&p->queued, 1, __ATOMIC_SEQ_CST);
}

static irqreturn_t queue_in_hardirq(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	if (in_hardirq())
		queue_probe(irq_probe);
	return IRQ_HANDLED;
}

static void queue_in_tasklet(struct tasklet_struct *t)
{
	(void)t;
	if (in_serving_softirq())
		queue_probe(irq_probe);
}

/* The tasklet is scheduled by a hardirq, so a vCPU runs it. */
static irqreturn_t schedule_probe_tasklet(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	tasklet_schedule(&probe_tasklet);
	return IRQ_HANDLED;
}

static int queue_task(void *arg)
{
	queue_probe(arg);
	return 0;
}

static void call_rcu_from(void **state, enum queue_from from)
{
	const struct variant *v = *state;
	struct hold h = {.kind = READER_RCU};
	struct cb_probe p = {.h = &h};
	struct task_struct *r, *k;
	unsigned long invoked0 = pk_rcu_stats().cbs_invoked;

	boot_variant(v);
	r = kthread_run(hold_task, &h, "reader");
	assert_non_null(r);
	wait_flag(&h.entered);
	irq_probe = &p;
	switch (from) {
	case FROM_TASK:
		k = kthread_run(queue_task, &p, "queue");
		assert_non_null(k);
		assert_int_equal(kthread_stop(k), 0);
		break;
	case FROM_THREAD:
		queue_probe(&p);
		break;
	case FROM_HARDIRQ:
		assert_int_equal(request_irq(LINE, queue_in_hardirq,
					     IRQF_NO_THREAD, "q", &p),
				 0);
		assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(1)), 0);
		break;
	case FROM_SOFTIRQ:
		tasklet_setup(&probe_tasklet, queue_in_tasklet);
		assert_int_equal(request_irq(LINE, schedule_probe_tasklet,
					     IRQF_NO_THREAD, "q", &p),
				 0);
		assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(1)), 0);
		break;
	}
	wait_flag(&p.queued);
	usleep(30000);
	assert_int_equal(__atomic_load_n(&p.ran, __ATOMIC_SEQ_CST), 0);
	__atomic_store_n(&h.release, 1, __ATOMIC_SEQ_CST);
	assert_int_equal(kthread_stop(r), 0);
	rcu_barrier();
	if (from == FROM_HARDIRQ || from == FROM_SOFTIRQ)
		free_irq(LINE, &p);
	if (from == FROM_SOFTIRQ)
		tasklet_kill(&probe_tasklet);
	assert_int_equal(p.ran, 1);
	assert_int_equal(p.left_at_run, 1);
	assert_true(pk_rcu_stats().cbs_invoked > invoked0);
	if (from != FROM_THREAD) {
		/* Queued on a vCPU: run by its softirq, or rcuc under rt. */
		if (v->model == PREEMPT_MODEL_RT)
			assert_int_equal(p.in_rcuc, 1);
		else
			assert_int_equal(p.in_softirq, 1);
	}
	assert_int_equal(captured.nr, 0);
}

static void call_rcu_from_task(void **state)
{
	call_rcu_from(state, FROM_TASK);
}

static void call_rcu_from_thread(void **state)
{
	call_rcu_from(state, FROM_THREAD);
}

static void call_rcu_from_hardirq(void **state)
{
	call_rcu_from(state, FROM_HARDIRQ);
}

static void call_rcu_from_softirq(void **state)
{
	call_rcu_from(state, FROM_SOFTIRQ);
}

/* ---- kfree_rcu, rcu_barrier ---- */

struct kobj {
	long payload[4];
	struct rcu_head rh;
};

static int kfree_task(void *arg)
{
	int n = *(int *)arg;

	for (int i = 0; i < n; i++) {
		struct kobj *o = kmalloc(sizeof(*o), GFP_KERNEL);

		if (!o)
			return -1;
		o->payload[0] = i;
		kfree_rcu(o, rh);
	}
	kvfree_rcu_mightsleep(kmalloc(64, GFP_KERNEL));
	return 0;
}

static void kfree_rcu_frees_after_gp(void **state)
{
	const struct variant *v = *state;
	unsigned long invoked0 = pk_rcu_stats().cbs_invoked;
	struct task_struct *k;
	int n = 1000;

	boot_variant(v);
	k = kthread_run(kfree_task, &n, "kfree");
	assert_non_null(k);
	assert_int_equal(kthread_stop(k), 0);
	rcu_barrier();
	/* Every object freed (ASan would see a leak or a bad free). */
	assert_true(pk_rcu_stats().cbs_invoked - invoked0 >= (unsigned long)n);
	assert_int_equal(captured.nr, 0);
}

static int counted;
static void count_cb(struct rcu_head *rh)
{
	__atomic_add_fetch(&counted, 1, __ATOMIC_SEQ_CST);
	free(rh);
}

static int queue_many(void *arg)
{
	for (int i = 0; i < *(int *)arg; i++)
		call_rcu(malloc(sizeof(struct rcu_head)), count_cb);
	return 0;
}

static void rcu_barrier_waits_for_all_callbacks(void **state)
{
	const struct variant *v = *state;
	struct task_struct *k[2];
	int n = 500;

	boot_variant(v);
	counted = 0;
	for (int i = 0; i < 2; i++) {
		k[i] = kthread_run(queue_many, &n, "queue%d", i);
		assert_non_null(k[i]);
	}
	for (int i = 0; i < 2; i++)
		assert_int_equal(kthread_stop(k[i]), 0);
	queue_many(&n); /* and from this thread */
	rcu_barrier();
	assert_int_equal(__atomic_load_n(&counted, __ATOMIC_SEQ_CST), 3 * n);
}

/* ---- polled grace periods ---- */

static void polled_grace_periods(void **state)
{
	const struct variant *v = *state;
	unsigned long cookie, started;
	long deadline;

	boot_variant(v);
	/* Not done at once is checked with a reader holding grace periods
	 * (polled_gp_waits_for_reader): here others may run one any time. */
	cookie = get_state_synchronize_rcu();
	assert_true(
		poll_state_synchronize_rcu(get_completed_synchronize_rcu()));
	synchronize_rcu();
	assert_true(poll_state_synchronize_rcu(cookie));
	started = start_poll_synchronize_rcu();
	deadline = now_ms() + 10000;
	while (!poll_state_synchronize_rcu(started)) {
		if (now_ms() > deadline)
			fail_msg("start_poll_synchronize_rcu() never finished");
		usleep(500);
	}
	cookie = get_state_synchronize_rcu();
	cond_synchronize_rcu(cookie);
	assert_true(poll_state_synchronize_rcu(cookie));
	cond_synchronize_rcu(cookie); /* done: returns at once */
}

/* A cookie waits for readers as synchronize_rcu() does. */
static void polled_gp_waits_for_reader(void **state)
{
	const struct variant *v = *state;
	struct hold h = {.kind = READER_RCU};
	struct task_struct *r;
	unsigned long cookie;

	boot_variant(v);
	r = kthread_run(hold_task, &h, "reader");
	assert_non_null(r);
	wait_flag(&h.entered);
	cookie = start_poll_synchronize_rcu();
	usleep(30000);
	assert_false(poll_state_synchronize_rcu(cookie));
	__atomic_store_n(&h.release, 1, __ATOMIC_SEQ_CST);
	assert_int_equal(kthread_stop(r), 0);
	cond_synchronize_rcu(cookie);
	assert_true(poll_state_synchronize_rcu(cookie));
}

/* ---- pointers ---- */

struct cfg {
	int value;
	struct rcu_head rh;
};

static struct cfg *__rcu current_cfg;

static void pointer_publish_and_replace(void **state)
{
	struct cfg *a = kmalloc(sizeof(*a), GFP_KERNEL), *b, *old;

	(void)state;
	assert_non_null(a);
	a->value = 1;
	RCU_INIT_POINTER(current_cfg, NULL);
	assert_null(rcu_access_pointer(current_cfg));
	rcu_assign_pointer(current_cfg, a);
	rcu_read_lock();
	assert_int_equal(rcu_dereference(current_cfg)->value, 1);
	rcu_read_unlock();
	b = kmalloc(sizeof(*b), GFP_KERNEL);
	assert_non_null(b);
	b->value = 2;
	old = rcu_replace_pointer(current_cfg, b, true);
	assert_ptr_equal(old, a);
	assert_int_equal(rcu_dereference_protected(current_cfg, 1)->value, 2);
	assert_int_equal(rcu_dereference_raw(current_cfg)->value, 2);
	rcu_read_lock_bh();
	assert_int_equal(rcu_dereference_bh(current_cfg)->value, 2);
	rcu_read_unlock_bh();
	rcu_read_lock_sched();
	assert_int_equal(rcu_dereference_sched(current_cfg)->value, 2);
	rcu_read_unlock_sched();
	kfree_rcu(old, rh);
	synchronize_rcu();
	rcu_barrier();
	kfree(rcu_dereference_protected(current_cfg, 1));
	assert_int_equal(captured.nr, 0);
}

/* ---- NMI ---- */

static struct rcu_head nmi_head;
static int nmi_cb_ran;

static void nmi_cb(struct rcu_head *rh)
{
	(void)rh;
	__atomic_store_n(&nmi_cb_ran, 1, __ATOMIC_SEQ_CST);
}

static irqreturn_t nmi_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	if (in_nmi())
		call_rcu(&nmi_head, nmi_cb);
	return IRQ_HANDLED;
}

static void call_rcu_from_nmi_is_reported(void **state)
{
	unsigned long nmi0 = pk_rcu_stats().nmi_call_rcu;
	long deadline = now_ms() + 10000;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(request_nmi(LINE, nmi_handler, 0, "nmi", &nmi_head),
			 0);
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(0)), 0);
	while (pk_rcu_stats().nmi_call_rcu == nmi0 && now_ms() < deadline)
		usleep(100);
	/* No barrier yet: the NMI's irq_work wakes the kthread, which
	 * does not poll. */
	while (!__atomic_load_n(&nmi_cb_ran, __ATOMIC_SEQ_CST) &&
	       now_ms() < deadline)
		usleep(100);
	assert_int_equal(nmi_cb_ran, 1);
	free_nmi(LINE, &nmi_head);
	rcu_barrier();
	pk_report_flush();
	assert_int_equal(nmi_cb_ran, 1);
	assert_true(captured.nr >= 1);
	assert_report_contains("call_rcu() from NMI");
}

#define T(fn, v)                                                               \
	cmocka_unit_test_prestate_setup_teardown(fn, capture_setup, teardown,  \
						 (void *)&(v))
#define ALL(fn)                                                                \
	T(fn, v_none), T(fn, v_vol), T(fn, v_full), T(fn, v_lazy),             \
		T(fn, v_rt), T(fn, v_none_preempt)

int main(void)
{
	const struct CMUnitTest tests[] = {
		ALL(reader_context_per_flavour),
		T(flavour_kept_across_model_switch, v_none),
		T(bh_and_sched_held_per_section, v_none),
		T(bh_and_sched_held_per_section, v_full),
		ALL(synchronize_rcu_waits_for_reader),
		ALL(synchronize_rcu_waits_for_bh_reader),
		ALL(synchronize_rcu_waits_for_sched_reader),
		ALL(expedited_waits_for_reader),
		ALL(synchronize_rcu_waits_for_host_thread_reader),
		ALL(expedited_waits_for_host_thread_reader),
		T(synchronize_rcu_without_machine, v_full),
		T(synchronize_rcu_waits_for_reader_in_irq_on_idle_cpu, v_none),
		T(synchronize_rcu_waits_for_reader_in_irq_on_idle_cpu, v_full),
		T(synchronize_rcu_waits_for_reader_in_irq_on_idle_cpu, v_rt),
		T(preempted_reader_blocks_gp, v_full),
		T(preempted_reader_blocks_gp, v_lazy),
		T(preempted_reader_blocks_gp, v_rt),
		T(reader_preempted_during_gp_blocks_it, v_full),
		T(reader_preempted_during_gp_blocks_it, v_lazy),
		T(reader_preempted_during_gp_blocks_it, v_rt),
		T(gp_ends_under_back_to_back_readers, v_full),
		T(gp_ends_under_back_to_back_readers, v_rt),
		T(gp_ends_under_back_to_back_readers, v_none_preempt),
		T(gp_ends_under_back_to_back_preempt_off, v_full),
		T(gp_waits_for_irqs_off_after_asked_unlock, v_full),
		T(gp_waits_for_irqs_off_after_blocked_unlock, v_full),
		T(gp_waits_for_irqs_off_after_blocked_unlock, v_rt),
		T(gp_waits_for_preempted_rt_bh_section, v_rt),
		T(gp_ends_during_later_rt_bh_section, v_rt),
		T(gp_waits_for_preempted_rt_bh_section, v_rt_sched),
		T(reader_context_per_flavour, v_rt_sched),
		T(gp_ends_while_deferred_reader_sleeps_atomic, v_full),
		T(deferred_qs_reports_for_cpu_it_resumes_on, v_full),
		T(yield_settles_deferred_reader, v_full),
		T(yield_settles_deferred_reader, v_rt),
		ALL(gp_ends_after_task_exits_in_reader),
		T(gp_ends_under_back_to_back_preempt_off, v_lazy),
		T(gp_ends_under_back_to_back_preempt_off, v_rt),
		ALL(call_rcu_from_task),
		ALL(call_rcu_from_thread),
		ALL(call_rcu_from_hardirq),
		ALL(call_rcu_from_softirq),
		T(kfree_rcu_frees_after_gp, v_none),
		T(kfree_rcu_frees_after_gp, v_rt),
		T(rcu_barrier_waits_for_all_callbacks, v_vol),
		T(rcu_barrier_waits_for_all_callbacks, v_full),
		T(rcu_barrier_waits_for_all_callbacks, v_rt),
		T(polled_grace_periods, v_none),
		T(polled_grace_periods, v_full),
		T(polled_gp_waits_for_reader, v_none),
		T(polled_gp_waits_for_reader, v_full),
		T(pointer_publish_and_replace, v_full),
		T(call_rcu_from_nmi_is_reported, v_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
