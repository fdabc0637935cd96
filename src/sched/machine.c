// SPDX-License-Identifier: MIT
/*
 * The machine: vCPU threads, each with its interrupt controller, a tick
 * (a POSIX timer aimed at the thread, raising PK_TICK_IRQ), a runqueue and
 * an idle loop; and the tasks' life cycle (kthreads).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include <preempt/bottom_half.h>
#include <preempt/bug.h>
#include <preempt/delay.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/sched.h>

#include "../debug/report.h"
#include "../irq/irq.h"
#include "../port/switch.h"
#include "sched_internal.h"
#include "../port/sim.h"

#define IDLE_PRIO 140
#define DEFAULT_STACK_SIZE (256 * 1024)

static struct rq runqueues[PK_NR_CPUS];
static int nr_cpus;
static int machine_hz = 1000;
static size_t stack_size = DEFAULT_STACK_SIZE;
static long boot_ns;
static int booted;
static int cpus_up;
static pthread_t vcpu_threads[PK_NR_CPUS];
static int next_pid = 1;

/* Every task not yet released, so shutdown can free the forgotten. */
static int tasks_lock;
static LIST_HEAD(all_tasks);
struct task_node {
	struct list_head node;
	struct task_struct *task;
};

struct rq *pk_cpu_rq(int cpu)
{
	return cpu >= 0 && cpu < nr_cpus ? &runqueues[cpu] : NULL;
}

int num_online_cpus(void)
{
	return __atomic_load_n(&nr_cpus, __ATOMIC_ACQUIRE);
}

int pk_machine_hz(void)
{
	return machine_hz;
}

int pk_rt_machine_running;

static void set_rt_running(bool rt)
{
	__atomic_store_n(&pk_rt_machine_running, rt, __ATOMIC_RELEASE);
	pk_softirq_set_rt(rt);
}

bool pk_on_machine_task(void)
{
	return pk_this_rq && pk_current && pk_current != pk_this_rq->idle;
}

bool pk_machine_running(void)
{
	return __atomic_load_n(&booted, __ATOMIC_ACQUIRE);
}

size_t pk_machine_stack_size(void)
{
	return stack_size;
}

/*
 * Where jiffies start at boot: as the kernel's INITIAL_JIFFIES, five
 * minutes (at the machine's rate) before the 32-bit count wraps, so that
 * no caller meets 0 and code that truncates to 32 bits meets the wrap.
 */
static unsigned long initial_jiffies(void)
{
	return (unsigned long)(unsigned int)(-300 * machine_hz);
}

/* jiffies from the clock, so no CPU's tick is the machine's time. */
unsigned long pk_jiffies(void)
{
	return initial_jiffies() + (unsigned long)((pk_now_ns() - boot_ns) /
						   (1000000000L / machine_hz));
}

/*
 * When jiffy @j begins, on the monotonic clock; LONG_MAX for a jiffy past
 * the clock's range (a timer up to MAX_JIFFY_OFFSET away: "never").
 */
long pk_jiffy_ns(unsigned long j)
{
	long per = 1000000000L / machine_hz;
	long since = (long)(j - initial_jiffies());

	if (since > (LONG_MAX - boot_ns) / per)
		return LONG_MAX;
	/* Before boot: already begun. */
	return since < 0 ? boot_ns : boot_ns + since * per;
}

unsigned long jiffies_now(void)
{
	return pk_jiffies();
}

void (*pk_machine_boot_hook)(void);
void (*pk_machine_shutdown_hook)(void);

volatile unsigned long jiffies;
uint64_t jiffies_64;

/*
 * Every vCPU's tick advances them from the clock; a maximum, so a tick
 * that computed its value late never moves them back.
 */
void pk_jiffies_advance(void)
{
	uint64_t now = pk_jiffies();
	uint64_t old = __atomic_load_n(&jiffies_64, __ATOMIC_RELAXED);
	unsigned long j = jiffies;

	while (now > old &&
	       !__atomic_compare_exchange_n(&jiffies_64, &old, now, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	while ((long)((unsigned long)now - j) > 0 &&
	       !__atomic_compare_exchange_n((unsigned long *)&jiffies, &j,
					    (unsigned long)now, false,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
}

/* ---- tasks ---- */

/* For the stack guard's report: the running task's stack, if its own. */
static bool task_stack_bounds(unsigned long *base, unsigned long *top)
{
	struct task_struct *p = pk_current;
	const struct pk_stack *s = p ? p->pk_stack : NULL;

	if (!s || !s->base)
		return false;
	*base = (unsigned long)s->base;
	*top = *base + s->size;
	return true;
}

__attribute__((constructor)) static void install_task_stack_hook(void)
{
	pk_task_stack_hook = task_stack_bounds;
}

struct task_struct *pk_task_alloc(const char *name, size_t size)
{
	struct task_struct *p = calloc(1, sizeof(*p));
	struct pk_stack *stack = calloc(1, sizeof(*stack));
	struct pk_context *ctx = calloc(1, sizeof(*ctx));

	if (!p || !stack || !ctx || pk_stack_alloc(stack, size) != 0) {
		free(p);
		free(stack);
		free(ctx);
		return NULL;
	}
	snprintf(p->comm, sizeof(p->comm), "%s", name);
	p->pid = __atomic_add_fetch(&next_pid, 1, __ATOMIC_RELAXED);
	p->prio = DEFAULT_PRIO;
	p->pk_normal_prio = DEFAULT_PRIO;
	p->policy = SCHED_NORMAL;
	p->pk_slice = PK_SLICE_TICKS;
	p->pk_refs = 2; /* its own, dropped at death; its creator's */
	p->pk_kthread_ref = 1;
	p->pk_cpus_allowed = ~0ULL;
	p->pk_stack = stack;
	p->pk_ctx = ctx;
	INIT_LIST_HEAD(&p->pk_run_node);
	INIT_LIST_HEAD(&p->pk_held_mutexes);
	return p;
}

void get_task_struct(struct task_struct *p)
{
	__atomic_add_fetch(&p->pk_refs, 1, __ATOMIC_RELAXED);
}

static void task_free(struct task_struct *p)
{
	if (!p->pk_ctx) {
		pk_host_task_free(p);
		return;
	}
	pk_stack_free(p->pk_stack);
	free(p->pk_stack);
	free(p->pk_ctx);
	free(p);
}

static void untrack_task(struct task_struct *p)
{
	struct task_node *n, *tmp;
	unsigned long flags;

	pk_lock_irqsave(&tasks_lock, flags);
	list_for_each_entry_safe(n, tmp, &all_tasks, node) if (n->task == p)
	{
		list_del_init(&n->node);
		free(n);
		break;
	}
	pk_unlock_irqrestore(&tasks_lock, flags);
}

/* Tasks whose last reference went in interrupt context, freed later. */
static struct task_struct *deferred_free;

static void free_deferred_tasks(void)
{
	struct task_struct *p =
		__atomic_exchange_n(&deferred_free, NULL, __ATOMIC_ACQUIRE);

	while (p) {
		struct task_struct *next = p->pk_free_next;

		untrack_task(p);
		task_free(p);
		p = next;
	}
}

void put_task_struct(struct task_struct *p)
{
	if (__atomic_sub_fetch(&p->pk_refs, 1, __ATOMIC_ACQ_REL))
		return;
	/* free() and munmap() are not for signal handlers: push, lock-free. */
	if (!in_task()) {
		p->pk_free_next =
			__atomic_load_n(&deferred_free, __ATOMIC_RELAXED);
		while (!__atomic_compare_exchange_n(
			&deferred_free, &p->pk_free_next, p, true,
			__ATOMIC_RELEASE, __ATOMIC_RELAXED))
			;
		return;
	}
	untrack_task(p);
	task_free(p);
	free_deferred_tasks();
}

/* kthread_create()'s reference, dropped once by kthread_stop or shutdown. */
static void put_kthread_ref(struct task_struct *p)
{
	if (__atomic_exchange_n(&p->pk_kthread_ref, 0, __ATOMIC_ACQ_REL))
		put_task_struct(p);
}

extern void pk_schedule_tail(void);

static void task_entry(void *arg)
{
	struct task_struct *p = arg;

	/* Above this frame the stack is the library's (safepoint.c). */
	p->pk_stack_top = (unsigned long)__builtin_frame_address(0);
	pk_schedule_tail();
	pk_task_exit(p->pk_fn(p->pk_data));
}

struct task_struct *kthread_create(int (*fn)(void *data), void *data,
				   const char *namefmt, ...)
{
	struct task_node *node;
	struct task_struct *p;
	unsigned long flags;
	char name[TASK_COMM_LEN];
	va_list ap;

	if (!pk_machine_running() || !fn)
		return NULL;
	might_sleep();
	va_start(ap, namefmt);
	vsnprintf(name, sizeof(name), namefmt, ap);
	va_end(ap);
	node = calloc(1, sizeof(*node));
	p = node ? pk_task_alloc(name, stack_size) : NULL;
	if (!p) {
		free(node);
		return NULL;
	}
	p->__state = TASK_NEW;
	p->flags = PF_KTHREAD;
	p->pk_fn = fn;
	p->pk_data = data;
	p->cpu = p->pid % nr_cpus;
	pk_context_init(p->pk_ctx, p->pk_stack, task_entry, p);
	node->task = p;
	pk_lock_irqsave(&tasks_lock, flags);
	list_add_tail(&node->node, &all_tasks);
	pk_unlock_irqrestore(&tasks_lock, flags);
	return p;
}

struct task_struct *kthread_create_on_cpu(int (*fn)(void *data), void *data,
					  unsigned int cpu, const char *namefmt)
{
	struct task_struct *p;

	if ((int)cpu >= num_online_cpus())
		return NULL;
	p = kthread_create(fn, data, namefmt, cpu);
	if (p)
		kthread_bind(p, (int)cpu);
	return p;
}

void *kthread_data(struct task_struct *k)
{
	return k->pk_data;
}

static DECLARE_WAIT_QUEUE_HEAD(exit_wq);

static void report_exit_atomic(struct task_struct *p)
{
	pk_warn_kind(PK_REPORT_SCHED_ATOMIC,
		     "note: %s[%d] exited with preempt_count %d", p->comm,
		     p->pid, preempt_count());
}

const struct pk_task_mutex_ops *pk_task_mutex_ops;
bool (*pk_lockdep_exit_hook)(struct task_struct *p, const char *how);

/*
 * lockdep's debug_check_no_locks_held(), from what the locks tracked:
 * spinning locks (pk_held_locks), then mutexes (@mutexes, @nr_mutexes).
 */
static void report_exit_locks(struct task_struct *p, void **mutexes,
			      int nr_mutexes)
{
	char syms[4][96] = {"", "", "", ""};
	int n = 0;

	for (int i = 0; i < p->pk_nr_held && i < 8 && n < 4; i++)
		pk_sym_str((unsigned long)p->pk_held_locks[i], syms[n++],
			   sizeof(syms[0]));
	for (int i = 0; i < nr_mutexes && i < 4 && n < 4; i++)
		pk_sym_str((unsigned long)mutexes[i], syms[n++],
			   sizeof(syms[0]));
	pk_warn_kind(PK_REPORT_SCHED_ATOMIC,
		     "====================================\n"
		     "WARNING: %s/%d still has locks held!\n"
		     "%d lock(s) held: %s %s %s %s",
		     p->comm, p->pid, p->pk_nr_held + nr_mutexes, syms[0],
		     syms[1], syms[2], syms[3]);
}

/* Report what @p still holds; its mutexes then go to their waiters. */
static void exit_locks(struct task_struct *p)
{
	const struct pk_task_mutex_ops *ops =
		__atomic_load_n(&pk_task_mutex_ops, __ATOMIC_ACQUIRE);
	bool (*lockdep)(struct task_struct *, const char *) =
		__atomic_load_n(&pk_lockdep_exit_hook, __ATOMIC_ACQUIRE);
	void *mutexes[4];
	int nr_mutexes = ops ? ops->held(p, mutexes, 4) : 0;

	if (likely(!p->pk_nr_held && !nr_mutexes && !p->lockdep_depth))
		return;
	/* One report: lockdep's, naming each lock, when it tracked them. */
	if (!(lockdep && lockdep(p, NULL)) && (p->pk_nr_held || nr_mutexes))
		report_exit_locks(p, mutexes, nr_mutexes);
	if (nr_mutexes)
		ops->release(p);
	p->lockdep_depth = 0;
}

/*
 * rt: bottom halves left disabled live in the task, not the word, and hold
 * the CPU's bh lock; left alone, every later bh section there would wait
 * for a dead task.  Report, and close them.
 */
static void exit_bh(struct task_struct *p)
{
	unsigned int bh =
		pk_softirq_disable_cnt & SOFTIRQ_MASK & ~SOFTIRQ_OFFSET;

	pk_warn_kind(PK_REPORT_SCHED_ATOMIC,
		     "note: %s[%d] exited with softirq_disable_cnt %#x",
		     p->comm, p->pid, pk_softirq_disable_cnt & SOFTIRQ_MASK);
	if (bh)
		__local_bh_enable_ip(_THIS_IP_, bh);
}

void pk_task_exit(int code)
{
	struct task_struct *p = current;

	exit_locks(p);
	if (unlikely(pk_softirq_disable_cnt & SOFTIRQ_MASK))
		exit_bh(p);
	if (unlikely(in_atomic() || irqs_disabled())) {
		report_exit_atomic(p);
		preempt_count_set(0);
	}
	if (pk_rcu_hooks && pk_rcu_hooks->exit)
		pk_rcu_hooks->exit();
	p->pk_exit_code = code;
	__atomic_or_fetch(&p->flags, PF_EXITING, __ATOMIC_RELAXED);
	/* kthread_stop() told while preemptible: a host thread waiting
	 * there is woken by a host system call (issue 19, target 8).  Its
	 * reference dropped, ours keeps the task until it is off its CPU. */
	pk_store_mb(&p->pk_exited, 1);
	wake_up_all(&exit_wq);
	preempt_disable();
	pk_store_mb(&p->__state, TASK_DEAD);
	preempt_enable_no_resched();
	schedule();
	BUG(); /* a dead task is never picked again */
}

bool kthread_should_stop(void)
{
	return __atomic_load_n(&current->pk_should_stop, __ATOMIC_ACQUIRE);
}

int kthread_stop(struct task_struct *k)
{
	int ret;

	might_sleep();
	__atomic_store_n(&k->pk_should_stop, 1, __ATOMIC_RELEASE);
	wake_up_process(k);
	/* A task or a host thread: both sleep on the queue. */
	wait_event(exit_wq, __atomic_load_n(&k->pk_exited, __ATOMIC_ACQUIRE));
	ret = k->pk_exit_code;
	put_kthread_ref(k);
	return ret;
}

/* ---- the vCPUs ---- */

/* ---- ksoftirqd, a task on each vCPU ---- */

static struct task_struct *ksoftirqd_tasks[PK_NR_CPUS];

/* What ksoftirqd/N and ktimers/N wait for, and what they do about it. */
struct softirq_daemon {
	bool (*pending)(void);
	void (*run)(void);
};

static int softirq_daemon_fn(void *arg)
{
	const struct softirq_daemon *d = arg;

	for (;;) {
		/* The state first: a stop or raise after it makes schedule()
		 * return at once instead of being lost. */
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		if (!d->pending()) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		d->run();
		cond_resched();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static bool ksoftirqd_pending(void)
{
	return local_softirq_pending() != 0;
}

static const struct softirq_daemon ksoftirqd = {ksoftirqd_pending,
						pk_ksoftirqd_run};
static const struct softirq_daemon ktimers = {pk_ktimers_pending,
					      pk_ktimers_run};

static void wake_ksoftirqd(void *task)
{
	wake_up_process(task);
}

static void start_ksoftirqd(int cpu)
{
	struct task_struct *k = kthread_create(
		softirq_daemon_fn, (void *)&ksoftirqd, "ksoftirqd/%d", cpu);

	if (!k)
		BUG();
	kthread_bind(k, cpu);
	ksoftirqd_tasks[cpu] = k;
	wake_up_process(k);
	pk_irq_cpu_set_ksoftirqd(runqueues[cpu].irq_cpu, k, wake_ksoftirqd);
}

static void stop_ksoftirqd(int cpu)
{
	pk_irq_cpu_set_ksoftirqd(runqueues[cpu].irq_cpu, NULL, NULL);
	kthread_stop(ksoftirqd_tasks[cpu]);
	ksoftirqd_tasks[cpu] = NULL;
}

/*
 * PREEMPT_RT's ktimers/N: the tick's timer softirqs, at SCHED_FIFO 1, so
 * that a sleeper's timer does not wait behind normal tasks as ksoftirqd's
 * work would.
 */
static struct task_struct *ktimers_tasks[PK_NR_CPUS];

static void start_ktimers(int cpu)
{
	struct task_struct *k = kthread_create(
		softirq_daemon_fn, (void *)&ktimers, "ktimers/%d", cpu);

	if (!k)
		BUG();
	kthread_bind(k, cpu);
	sched_set_fifo_low(k);
	ktimers_tasks[cpu] = k;
	wake_up_process(k);
	pk_irq_cpu_set_ktimers(runqueues[cpu].irq_cpu, k);
}

static void stop_ktimers(int cpu)
{
	if (!ktimers_tasks[cpu])
		return;
	pk_irq_cpu_set_ktimers(runqueues[cpu].irq_cpu, NULL);
	kthread_stop(ktimers_tasks[cpu]);
	ktimers_tasks[cpu] = NULL;
}

static irqreturn_t tick_interrupt(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	pk_jiffies_advance();
	if (pk_this_rq) {
		pk_this_rq->stats.ticks++;
		pk_sched_tick(pk_this_rq);
	}
	return IRQ_HANDLED;
}

static irqreturn_t hrtimer_interrupt(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	if (pk_this_rq) {
		/* An idle CPU's stopped tick left jiffies behind. */
		if (pk_this_rq->tick_stopped)
			pk_jiffies_advance();
		pk_hrtimers_run(pk_this_rq);
	}
	return IRQ_HANDLED;
}

static irqreturn_t resched_interrupt(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	if (pk_this_rq)
		pk_resched_ipi(pk_this_rq);
	return IRQ_HANDLED;
}

static irqreturn_t call_function_interrupt(int irq, void *dev)
{
	/* The IPI's functions stay in hardirq under PREEMPT_RT too. */
	int outer = pk_hardirq_config_enter(0);

	(void)irq;
	(void)dev;
	pk_smp_call_ipi();
	pk_hardirq_config = outer;
	return IRQ_HANDLED;
}

static void rq_init(struct rq *rq, int cpu)
{
	memset(rq, 0, sizeof(*rq));
	rq->cpu = cpu;
	for (int i = 0; i < MAX_RT_PRIO; i++)
		INIT_LIST_HEAD(&rq->rt_queue[i]);
	INIT_LIST_HEAD(&rq->fair_queue);
	INIT_LIST_HEAD(&rq->timers);
	INIT_LIST_HEAD(&rq->hrtimers);
	rq->idle = &rq->idle_task;
	rq->curr = rq->idle;
	snprintf(rq->idle_task.comm, TASK_COMM_LEN, "swapper/%d", cpu);
	rq->idle_task.prio = IDLE_PRIO;
	rq->curr_prio = IDLE_PRIO;
	rq->idle_task.flags = PF_IDLE | PF_KTHREAD;
	rq->idle_task.cpu = cpu;
	rq->idle_task.pk_on_rq = 1;
	rq->idle_task.pk_on_cpu = 1;
	rq->idle_task.pk_cpus_allowed = 1ULL << cpu;
	rq->idle_task.pk_refs = 1 << 30; /* the runqueue's: never freed */
	INIT_LIST_HEAD(&rq->idle_task.pk_run_node);
}

static void *vcpu_main(void *arg)
{
	struct rq *rq = arg;
	char name[16];

	/* First: nothing shared is touched before the baton comes. */
	if (pk_sim_active())
		pk_sim_join(rq->cpu + 1);
	snprintf(name, sizeof(name), "vcpu/%d", rq->cpu);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	rq->irq_cpu = pk_irq_cpu_register();
	rq->thread = pthread_self();
	rq->idle_task.pid = (int)gettid();
	rq->idle_ctx = calloc(1, sizeof(struct pk_context));
	rq->idle_task.pk_ctx = rq->idle_ctx;
	rq->errno_loc = &errno;
	pk_this_rq = rq;
	pk_current = rq->idle;
	pk_irq_cpu_set_owner(rq);
	if (rq->irq_cpu < 0 || !rq->idle_ctx ||
	    pk_irq_timer_create(PK_HRTIMER_IRQ, &rq->hr_timer) ||
	    pk_irq_timer_start(PK_TICK_IRQ, 1000000000L / machine_hz,
			       &rq->tick)) {
		__atomic_store_n(&rq->irq_cpu, -1, __ATOMIC_RELEASE);
		__atomic_add_fetch(&cpus_up, 1, __ATOMIC_SEQ_CST);
		if (pk_sim_self() > 0)
			pk_sim_leave();
		return NULL;
	}
	__atomic_add_fetch(&cpus_up, 1, __ATOMIC_SEQ_CST);
	pk_idle_loop(rq);
	pk_irq_timer_delete(rq->tick);
	pk_irq_timer_delete(rq->hr_timer);
	pk_current = NULL;
	pk_this_rq = NULL;
	pk_irq_cpu_unregister();
	free(rq->idle_ctx);
	if (pk_sim_self() > 0)
		pk_sim_leave();
	return NULL;
}

static int env_int(const char *name, int fallback)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return fallback;
	n = strtol(v, &end, 10);
	return *end || n <= 0 || n > 1000000 ? fallback : (int)n;
}

/* $name is "0": the feature is off. */
static bool env_off(const char *name)
{
	const char *v = getenv(name);

	return v && !strcmp(v, "0");
}

/* $PREEMPT_WAKE_LIST: 0 never, 1 always, unset the default rule. */
static int env_wake_list(void)
{
	const char *v = getenv("PREEMPT_WAKE_LIST");

	if (!v)
		return 0;
	return !strcmp(v, "0") ? -1 : !strcmp(v, "1") ? 1 : 0;
}

/* $PREEMPT_IRQ_RETURN: "signal" through PK_SIGRESCHED, else the default. */
static int env_irq_return(void)
{
	const char *v = getenv("PREEMPT_IRQ_RETURN");

	return v && !strcmp(v, "signal") ? -1 : 0;
}

/*
 * A simulated machine (docs/sim.md): main takes the baton, and idle vCPUs
 * never poll (a poll waits for another thread, which cannot run).
 */
static void sim_boot(void)
{
	pk_sim_start(&pk_sim_sched_ops);
	pk_idle_configure(pk_nohz_enabled() ? 1 : -1, -1);
}

/* For the simulation's deadlock report: @fn sees every task. */
void pk_for_each_task(void (*fn)(struct task_struct *p))
{
	struct task_node *node, *tmp;
	unsigned long flags;

	pk_lock_irqsave(&tasks_lock, flags);
	list_for_each_entry_safe(node, tmp, &all_tasks, node) fn(node->task);
	pk_unlock_irqrestore(&tasks_lock, flags);
}

static void configure(const struct machine_config *cfg)
{
	long host = sysconf(_SC_NPROCESSORS_ONLN);
	int model = cfg ? cfg->model : -1;
	int nohz, poll_us;

	nr_cpus = cfg && cfg->nr_cpus > 0 ? cfg->nr_cpus
					  : env_int("PREEMPT_NR_CPUS",
						    host > 0 ? (int)host : 1);
	if (nr_cpus > PK_NR_CPUS)
		nr_cpus = PK_NR_CPUS;
	machine_hz = cfg && cfg->hz > 0 ? cfg->hz : env_int("PREEMPT_HZ", 1000);
	if (machine_hz > 100000)
		machine_hz = 100000;
	stack_size =
		cfg && cfg->stack_size ? cfg->stack_size : DEFAULT_STACK_SIZE;
	if (model >= 0)
		preempt_model_set((enum preempt_model)model);
	nohz = env_off("PREEMPT_NOHZ") ? -1 : 1;
	poll_us = env_off("PREEMPT_IDLE_POLL_US")
			  ? -1
			  : env_int("PREEMPT_IDLE_POLL_US", 0);
	pk_idle_configure(cfg && cfg->nohz ? cfg->nohz : nohz,
			  cfg && cfg->idle_poll_us ? cfg->idle_poll_us
						   : poll_us);
	pk_wake_list_configure(cfg && cfg->wake_list ? cfg->wake_list
						     : env_wake_list());
	pk_irq_return_configure(cfg && cfg->irq_return ? cfg->irq_return
						       : env_irq_return());
}

static const struct {
	unsigned int irq;
	irq_handler_t handler;
	const char *name;
} machine_irqs[] = {
	{PK_TICK_IRQ, tick_interrupt, "timer"},
	{PK_RESCHED_IRQ, resched_interrupt, "resched"},
	{PK_HRTIMER_IRQ, hrtimer_interrupt, "hrtimer"},
	{PK_CALL_FUNC_IRQ, call_function_interrupt, "call-function"},
	{PK_IRQ_WORK_IRQ, pk_irq_work_interrupt, "irq_work"},
};

#define NR_MACHINE_IRQS (sizeof(machine_irqs) / sizeof(machine_irqs[0]))

/* The lines every vCPU shares; on failure, only those taken are freed. */
static int request_machine_irqs(void)
{
	for (size_t i = 0; i < NR_MACHINE_IRQS; i++) {
		int err = request_irq(machine_irqs[i].irq,
				      machine_irqs[i].handler, IRQF_SHARED,
				      machine_irqs[i].name, runqueues);

		if (err) {
			while (i--)
				free_irq(machine_irqs[i].irq, runqueues);
			return err;
		}
	}
	return 0;
}

static void free_machine_irqs(void)
{
	for (size_t i = 0; i < NR_MACHINE_IRQS; i++)
		free_irq(machine_irqs[i].irq, runqueues);
}

int machine_boot(const struct machine_config *cfg)
{
	int n, err;
	bool rt;

	if (__atomic_exchange_n(&booted, 1, __ATOMIC_SEQ_CST))
		return -EBUSY;
	if (pk_this_rq) {
		booted = 0;
		return -EINVAL;
	}
	/* Decided before configure() sets the model, which checks it. */
	rt = cfg && cfg->model >= 0 ? cfg->model == PREEMPT_MODEL_RT
				    : preempt_model_rt();
	set_rt_running(rt);
	configure(cfg);
	if (pk_sim_requested(cfg ? cfg->sim : NULL))
		sim_boot();
	if (cfg && cfg->blocking)
		pk_blocking_set_enabled(cfg->blocking > 0);
	if (pk_rcu_hooks)
		pk_rcu_hooks->boot(false);
	pk_switch_hooks_boot();
	n = nr_cpus;
	boot_ns = pk_now_ns();
	jiffies_64 = initial_jiffies(); /* no tick runs yet */
	jiffies = initial_jiffies();
	pk_safepoint_scan();
	cpus_up = 0;
	if ((err = request_machine_irqs())) {
		set_rt_running(false);
		__atomic_store_n(&nr_cpus, 0, __ATOMIC_RELEASE);
		booted = 0;
		return err;
	}
	for (int i = 0; i < n; i++)
		rq_init(&runqueues[i], i);
	for (int i = 0; i < n; i++) {
		if (pk_sim_active()) {
			char name[16];

			snprintf(name, sizeof(name), "vcpu/%d", i);
			pk_sim_add(i + 1, name);
		}
		if ((err = pthread_create(&vcpu_threads[i], NULL, vcpu_main,
					  &runqueues[i])))
			BUG();
	}
	while (__atomic_load_n(&cpus_up, __ATOMIC_SEQ_CST) < n)
		pk_host_yield();
	for (int i = 0; i < n; i++)
		if (runqueues[i].irq_cpu < 0)
			BUG(); /* no interrupt controller or tick for a vCPU */
	for (int i = 0; i < n; i++) {
		start_ksoftirqd(i);
		if (rt)
			start_ktimers(i);
	}
	pk_irq_threads_start(); /* only now can threads run anywhere */
	pk_irq_work_online(true);
	pk_workqueue_init();
	if (pk_rcu_hooks)
		pk_rcu_hooks->boot(true);
	if (pk_machine_boot_hook)
		pk_machine_boot_hook();
	return 0;
}

/* Busy with anything but its ksoftirqd. */
static bool rq_busy(struct rq *rq)
{
	struct task_struct *curr = __atomic_load_n(&rq->curr, __ATOMIC_ACQUIRE);

	return (curr != rq->idle && curr != ksoftirqd_tasks[rq->cpu]) ||
	       __atomic_load_n(&rq->nr_queued, __ATOMIC_ACQUIRE);
}

/*
 * Tasks that exited and that nobody stopped: drop kthread_create()'s
 * reference.  Those someone still holds stay until the last put.
 */
static void put_exited_kthreads(void)
{
	struct task_node *node, *tmp;
	struct task_struct *p;
	unsigned long flags;

	for (;;) {
		p = NULL;
		pk_lock_irqsave(&tasks_lock, flags);
		list_for_each_entry_safe(node, tmp, &all_tasks, node)
		{
			if (node->task->__state == TASK_DEAD &&
			    __atomic_load_n(&node->task->pk_kthread_ref,
					    __ATOMIC_ACQUIRE)) {
				p = node->task;
				break;
			}
		}
		pk_unlock_irqrestore(&tasks_lock, flags);
		if (!p)
			break;
		put_kthread_ref(p);
	}
	free_deferred_tasks();
}

void machine_shutdown(void)
{
	bool busy;

	if (!pk_machine_running() || pk_this_rq)
		return;
	if (pk_machine_shutdown_hook)
		pk_machine_shutdown_hook();
	/* Tasks first: a vCPU stops only with nothing left to run. */
	do {
		busy = false;
		for (int i = 0; i < nr_cpus; i++)
			busy |= rq_busy(&runqueues[i]);
		if (busy && pk_sim_active())
			pk_host_yield();
		else if (busy)
			usleep(1000);
	} while (busy);
	pk_workqueue_exit(); /* its idle workers, after their last items */
	if (pk_rcu_hooks)
		pk_rcu_hooks->shutdown(); /* its callbacks, then its kthreads */
	pk_irq_threads_stop();		  /* of lines still requested */
	for (int i = 0; i < nr_cpus; i++) {
		stop_ktimers(i);
		stop_ksoftirqd(i);
	}
	for (int i = 0; i < nr_cpus; i++) {
		struct rq *rq = &runqueues[i];

		__atomic_store_n(&rq->stopping, 1, __ATOMIC_RELEASE);
		__atomic_add_fetch(&rq->idle_seq, 1, __ATOMIC_SEQ_CST);
		pk_host_futex_wake(&rq->idle_seq, 1);
		while (pk_sim_active() && !pk_sim_left(i + 1))
			pk_host_yield();
		pthread_join(vcpu_threads[i], NULL);
	}
	pk_sim_stop();
	pk_report_flush(); /* what the vCPUs' handlers left */
	pk_irq_work_online(false);
	free_machine_irqs();
	put_exited_kthreads();
	set_rt_running(false);
	__atomic_store_n(&nr_cpus, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&booted, 0, __ATOMIC_RELEASE);
}
