// SPDX-License-Identifier: MIT
/*
 * An rcutorture-style test.  A writer task keeps replacing the element
 * that readers see; a removed element ages one "pipe" step per grace
 * period (by synchronize_rcu(), synchronize_rcu_expedited(), call_rcu()
 * chains, or SRCU), and after RCU_TORTURE_PIPE_LEN steps it is poisoned
 * and reused.  Readers -- a task per vCPU, a thread that is not a vCPU,
 * and an interrupt handler -- record the age of what they see; an age of
 * 2 or more, or a poisoned element, means a grace period ended while a
 * reader that began before it was still inside.  A chaos thread raises
 * interrupts and switches the model at random.
 *
 * Short under ctest; `make torture` runs RCU_TORTURE_SECONDS per model.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <preempt/interrupt.h>
#include <preempt/rcupdate.h>
#include <preempt/sched.h>
#include <preempt/slab.h>
#include <preempt/spinlock.h>
#include <preempt/srcu.h>

#include "rcu_helpers.h"

#define PIPE_LEN 10
#define NR_ELEMS 64
#define LINE 35
#define MB_MAGIC 0x6d6274

struct relem {
	struct rcu_head rh;
	int pipe_count;
	int mbtest;
	int in_use;
};

enum torture_type { TORTURE_RCU, TORTURE_SRCU };

static struct {
	enum torture_type type;
	struct relem elems[NR_ELEMS];
	struct relem *__rcu cur;
	int stop;
	unsigned long pipe[PIPE_LEN + 1]; /* reader pipe histogram */
	unsigned long circ[PIPE_LEN + 1]; /* free-block circulation */
	unsigned long reads, mberrors, allocs, frees, alloc_fails;
	unsigned long irq_reads, host_reads, kfree_rcus;
	int flock; /* free elements, under this raw lock */
} tt;

DEFINE_STATIC_SRCU(torture_srcu);

static int rlock(void)
{
	if (tt.type == TORTURE_SRCU)
		return srcu_read_lock(&torture_srcu);
	rcu_read_lock();
	return 0;
}

static void runlock(int idx)
{
	if (tt.type == TORTURE_SRCU)
		srcu_read_unlock(&torture_srcu, idx);
	else
		rcu_read_unlock();
}

static struct relem *deref(void)
{
	if (tt.type == TORTURE_SRCU)
		return srcu_dereference(tt.cur, &torture_srcu);
	return rcu_dereference(tt.cur);
}

static void pk_raw_lock_test(int *l)
{
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		;
}

static void pk_raw_unlock_test(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

static void count(unsigned long *c)
{
	__atomic_add_fetch(c, 1, __ATOMIC_RELAXED);
}

static unsigned int rnd(unsigned int *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}

/* One read: the element's age as seen, after a short random delay. */
static void torture_read(unsigned int *seed, bool may_delay)
{
	struct relem *p;
	int idx = rlock(), age;

	p = deref();
	if (p) {
		/* Mostly short readers, now and then a long one. */
		if (may_delay && (rnd(seed) % 64) == 0)
			for (volatile int i = 0; i < 2000; i++)
				;
		if (may_delay && (rnd(seed) % 2048) == 0)
			mdelay(2);
		if (__atomic_load_n(&p->mbtest, __ATOMIC_ACQUIRE) != MB_MAGIC)
			count(&tt.mberrors);
		age = __atomic_load_n(&p->pipe_count, __ATOMIC_ACQUIRE);
		if (age > PIPE_LEN || age < 0)
			age = PIPE_LEN;
		count(&tt.pipe[age]);
		count(&tt.reads);
	}
	runlock(idx);
}

/* ---- elements ---- */

static struct relem *elem_alloc(void)
{
	unsigned long flags;
	struct relem *p = NULL;

	local_irq_save(flags);
	pk_raw_lock_test(&tt.flock);
	for (int i = 0; i < NR_ELEMS; i++)
		if (!tt.elems[i].in_use) {
			p = &tt.elems[i];
			p->in_use = 1;
			break;
		}
	pk_raw_unlock_test(&tt.flock);
	local_irq_restore(flags);
	if (!p) {
		count(&tt.alloc_fails);
		return NULL;
	}
	p->pipe_count = 0;
	__atomic_store_n(&p->mbtest, MB_MAGIC, __ATOMIC_RELEASE);
	count(&tt.allocs);
	return p;
}

/* Old enough: poison it and put it back. */
static void elem_free(struct relem *p)
{
	count(&tt.circ[PIPE_LEN]);
	__atomic_store_n(&p->mbtest, 0, __ATOMIC_RELEASE);
	count(&tt.frees);
	__atomic_store_n(&p->in_use, 0, __ATOMIC_RELEASE);
}

/* One grace period passed over @p: true once it is freed. */
static bool elem_age(struct relem *p)
{
	int age = __atomic_add_fetch(&p->pipe_count, 1, __ATOMIC_RELEASE);

	if (age >= PIPE_LEN) {
		elem_free(p);
		return true;
	}
	count(&tt.circ[age]);
	return false;
}

static void age_cb(struct rcu_head *rh)
{
	struct relem *p = (struct relem *)rh;

	if (!elem_age(p)) {
		if (tt.type == TORTURE_SRCU)
			call_srcu(&torture_srcu, &p->rh, age_cb);
		else
			call_rcu(&p->rh, age_cb);
	}
}

/* ---- the writer ---- */

static struct relem *removed[NR_ELEMS];
static int nr_removed;

static void sync_gp(unsigned int *seed)
{
	if (tt.type == TORTURE_SRCU)
		synchronize_srcu(&torture_srcu);
	else if (rnd(seed) % 4 == 0)
		synchronize_rcu_expedited();
	else
		synchronize_rcu();
}

/* After a grace period: every removed element is one step older. */
static void age_removed(void)
{
	int kept = 0;

	for (int i = 0; i < nr_removed; i++)
		if (!elem_age(removed[i]))
			removed[kept++] = removed[i];
	nr_removed = kept;
}

static int writer(void *arg)
{
	unsigned int seed = 42;

	(void)arg;
	while (!__atomic_load_n(&tt.stop, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&hold_abort, __ATOMIC_ACQUIRE)) {
		struct relem *new = elem_alloc(), *old;

		if (!new) {
			sync_gp(&seed);
			age_removed();
			continue;
		}
		old = rcu_replace_pointer(tt.cur, new, true);
		if (!old)
			continue;
		if (rnd(&seed) % 2) {
			/* Deferred: a call_rcu() chain ages it. */
			if (tt.type == TORTURE_SRCU)
				call_srcu(&torture_srcu, &old->rh, age_cb);
			else
				call_rcu(&old->rh, age_cb);
		} else {
			removed[nr_removed++] = old;
			sync_gp(&seed);
			age_removed();
		}
		if (rnd(&seed) % 8 == 0)
			msleep(1);
	}
	/* The last ones age out too, so all are accounted for. */
	while (nr_removed) {
		sync_gp(&seed);
		age_removed();
	}
	return 0;
}

/* ---- readers ---- */

static int reader_task(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg * 7919u + 1;

	while (!__atomic_load_n(&tt.stop, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&hold_abort, __ATOMIC_ACQUIRE)) {
		torture_read(&seed, true);
		if (rnd(&seed) % 256 == 0)
			cond_resched();
	}
	return 0;
}

static void *reader_thread(void *arg)
{
	unsigned int seed = 77;

	(void)arg;
	while (!__atomic_load_n(&tt.stop, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&hold_abort, __ATOMIC_ACQUIRE)) {
		torture_read(&seed, true);
		count(&tt.host_reads);
	}
	return NULL;
}

static irqreturn_t irq_reader(int irq, void *dev)
{
	unsigned int seed = 5;

	(void)irq;
	(void)dev;
	if (tt.type == TORTURE_RCU) {
		torture_read(&seed, false);
		count(&tt.irq_reads);
	}
	return IRQ_HANDLED;
}

/* kfree_rcu() under load: nothing to check but that it frees (ASan). */
struct kobj {
	long data[6];
	struct rcu_head rh;
};

static int kfree_flooder(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&tt.stop, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&hold_abort, __ATOMIC_ACQUIRE)) {
		for (int i = 0; i < 16; i++) {
			struct kobj *o = kmalloc(sizeof(*o), GFP_KERNEL);

			if (o) {
				kfree_rcu(o, rh);
				count(&tt.kfree_rcus);
			}
		}
		msleep(1);
	}
	return 0;
}

/* Interrupts at random CPUs, and model switches (rt is for life). */
static void chaos(enum preempt_model boot_model, long end_ms)
{
	static const enum preempt_model switchable[] = {
		PREEMPT_MODEL_NONE, PREEMPT_MODEL_VOLUNTARY, PREEMPT_MODEL_FULL,
		PREEMPT_MODEL_LAZY};
	unsigned int seed = 99;

	while (now_ms() < end_ms) {
		irq_raise(LINE, pk_vcpu_irq_cpu(
					(int)(rnd(&seed) % num_online_cpus())));
		if (boot_model != PREEMPT_MODEL_RT && rnd(&seed) % 50 == 0)
			preempt_model_set(switchable[rnd(&seed) % 4]);
		usleep(200 + rnd(&seed) % 800);
	}
	if (boot_model != PREEMPT_MODEL_RT)
		preempt_model_set(boot_model);
}

static void print_summary(const char *type, enum preempt_model model)
{
	bool ok = tt.mberrors == 0 && tt.pipe[2] + tt.pipe[3] == 0;

	for (int i = 2; i <= PIPE_LEN; i++)
		ok = ok && tt.pipe[i] == 0;
	printf("%s-torture: model %s flavour %s: rta: %lu rtaf: %lu rtf: %lu "
	       "rtmbe: %lu nt: %lu irq: %lu host: %lu kfree_rcu: %lu "
	       "gps: %lu cbs: %lu\n",
	       type, preempt_model_str(model),
	       pk_rcu_preemptible() ? "preempt" : "sched", tt.allocs,
	       tt.alloc_fails, tt.frees, tt.mberrors, tt.reads, tt.irq_reads,
	       tt.host_reads, tt.kfree_rcus, pk_rcu_stats().gps,
	       pk_rcu_stats().cbs_invoked);
	printf("%s-torture: Reader Pipe: ", type);
	for (int i = 0; i <= PIPE_LEN; i++)
		printf(" %lu", tt.pipe[i]);
	printf("\n%s-torture: Free-Block Circulation: ", type);
	for (int i = 0; i <= PIPE_LEN; i++)
		printf(" %lu", tt.circ[i]);
	printf("\n%s-torture: --- End of test: %s\n", type,
	       ok ? "SUCCESS" : "FAILURE");
	fflush(stdout);
}

static long torture_ms(void)
{
	const char *s = getenv("RCU_TORTURE_SECONDS");

	return s && atol(s) > 0 ? atol(s) * 1000 : 600;
}

static void torture(enum preempt_model model, enum torture_type type)
{
	struct task_struct *w, *kf, *r[PK_NR_CPUS];
	pthread_t host;
	int n;

	memset(&tt, 0, sizeof(tt));
	nr_removed = 0;
	tt.type = type;
	pk_boot_online(2, model);
	n = num_online_cpus();
	assert_int_equal(
		request_irq(LINE, irq_reader, IRQF_NO_THREAD, "torture", &tt),
		0);
	rcu_assign_pointer(tt.cur, elem_alloc());
	w = kthread_run(writer, NULL, "rcu_torture_wr");
	kf = kthread_run(kfree_flooder, NULL, "rcu_torture_kf");
	assert_non_null(w);
	assert_non_null(kf);
	for (int i = 0; i < n; i++) {
		r[i] = kthread_run(reader_task, (void *)(uintptr_t)i,
				   "rcu_torture_rd%d", i);
		assert_non_null(r[i]);
	}
	assert_int_equal(pthread_create(&host, NULL, reader_thread, NULL), 0);
	chaos(model, now_ms() + torture_ms());
	__atomic_store_n(&tt.stop, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < n; i++)
		assert_int_equal(kthread_stop(r[i]), 0);
	pthread_join(host, NULL);
	assert_int_equal(kthread_stop(w), 0);
	assert_int_equal(kthread_stop(kf), 0);
	free_irq(LINE, &tt);
	/* call_rcu() chains requeue themselves: barrier until all aged out
	 * (all but the current element), each barrier one more step. */
	for (int i = 0; i <= PIPE_LEN + 1 &&
			__atomic_load_n(&tt.frees, __ATOMIC_SEQ_CST) + 1 <
				__atomic_load_n(&tt.allocs, __ATOMIC_SEQ_CST);
	     i++) {
		rcu_barrier();
		srcu_barrier(&torture_srcu);
	}
	assert_int_equal(tt.frees + 1, tt.allocs);
	print_summary(type == TORTURE_SRCU ? "srcu" : "rcu", model);
	assert_int_equal(tt.mberrors, 0);
	for (int i = 2; i <= PIPE_LEN; i++)
		assert_int_equal(tt.pipe[i], 0);
	assert_true(tt.reads > 0);
	assert_true(tt.frees > 0);
	if (captured.nr)
		fail_msg("%d reports, the last:\n%s", captured.nr,
			 captured.text);
}

static void torture_rcu(void **state)
{
	torture(*(enum preempt_model *)*state, TORTURE_RCU);
}

static void torture_srcu_domain(void **state)
{
	torture(*(enum preempt_model *)*state, TORTURE_SRCU);
}

static enum preempt_model m[] = {PREEMPT_MODEL_NONE, PREEMPT_MODEL_VOLUNTARY,
				 PREEMPT_MODEL_FULL, PREEMPT_MODEL_LAZY,
				 PREEMPT_MODEL_RT};

#define T(fn, i)                                                               \
	cmocka_unit_test_prestate_setup_teardown(fn, capture_setup,            \
						 rcu_test_teardown, &m[i])

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(torture_rcu, 0),	   T(torture_rcu, 1),
		T(torture_rcu, 2),	   T(torture_rcu, 3),
		T(torture_rcu, 4),	   T(torture_srcu_domain, 0),
		T(torture_srcu_domain, 2), T(torture_srcu_domain, 4),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
