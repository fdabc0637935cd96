/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_WORKQUEUE_H
#define _LINUX_WORKQUEUE_H

/*
 * Workqueues in the kernel's form: the kernel's bits in the data word, its
 * flags, attrs and helpers, over the memory layout of the library's own
 * struct work_struct and struct delayed_work (preempt/workqueue.h): data
 * with bit 0 pending, entry, func, two words the library's implementation
 * keeps, the lockdep map; then timer, wq, cpu.
 *
 * Kernel code's names are asm labels (pk_kernel_queue_work_on, ...,
 * pk_kernel_system_wq): the kernel side's src/kernel/workqueue.c defines
 * them on the library's workqueues, or a program's own
 * kernel/workqueue.c does, which then replaces that object whole.  The
 * library's own queue_work_on() and system_wq are never reached from
 * kernel code under their plain names.  The machine drives a program's
 * file through the plain names it defines (workqueue_init_early(), ...,
 * wq_worker_sleeping(), wq_worker_tick(), workqueue_softirq_action()).
 */

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/numa.h>
#include <linux/rcupdate.h>
#include <linux/threads.h>
#include <linux/timer.h>
#include <linux/init.h>

struct work_struct;
struct workqueue_struct;
typedef void (*work_func_t)(struct work_struct *work);

#define PK_WQ(name) __asm__("pk_kernel_" #name)

/**
 * delayed_work_timer_fn() - a delayed item's timer: queue the item.
 * Softirq context (the timer's).
 */
void delayed_work_timer_fn(struct timer_list *t) PK_WQ(delayed_work_timer_fn);

/* The data word: flags while queued, the last pool and disable count off. */
enum work_bits {
	WORK_STRUCT_PENDING_BIT = 0,
	WORK_STRUCT_INACTIVE_BIT,
	WORK_STRUCT_PWQ_BIT,
	WORK_STRUCT_LINKED_BIT,
	WORK_STRUCT_FLAG_BITS,
	WORK_STRUCT_COLOR_SHIFT = WORK_STRUCT_FLAG_BITS,
	WORK_STRUCT_COLOR_BITS = 4,
	WORK_STRUCT_PWQ_SHIFT =
		WORK_STRUCT_COLOR_SHIFT + WORK_STRUCT_COLOR_BITS,
	WORK_OFFQ_FLAG_SHIFT = WORK_STRUCT_FLAG_BITS,
	WORK_OFFQ_BH_BIT = WORK_OFFQ_FLAG_SHIFT,
	WORK_OFFQ_FLAG_END,
	WORK_OFFQ_FLAG_BITS = WORK_OFFQ_FLAG_END - WORK_OFFQ_FLAG_SHIFT,
	WORK_OFFQ_DISABLE_SHIFT = WORK_OFFQ_FLAG_SHIFT + WORK_OFFQ_FLAG_BITS,
	WORK_OFFQ_DISABLE_BITS = 16,
	WORK_OFFQ_POOL_SHIFT = WORK_OFFQ_DISABLE_SHIFT + WORK_OFFQ_DISABLE_BITS,
	WORK_OFFQ_LEFT = BITS_PER_LONG - WORK_OFFQ_POOL_SHIFT,
	WORK_OFFQ_POOL_BITS = WORK_OFFQ_LEFT <= 31 ? WORK_OFFQ_LEFT : 31,
};

enum work_flags {
	WORK_STRUCT_PENDING = 1 << WORK_STRUCT_PENDING_BIT,
	WORK_STRUCT_INACTIVE = 1 << WORK_STRUCT_INACTIVE_BIT,
	WORK_STRUCT_PWQ = 1 << WORK_STRUCT_PWQ_BIT,
	WORK_STRUCT_LINKED = 1 << WORK_STRUCT_LINKED_BIT,
	WORK_STRUCT_STATIC = 0,
};

enum wq_misc_consts {
	WORK_NR_COLORS = 1 << WORK_STRUCT_COLOR_BITS,
	WORK_CPU_UNBOUND = NR_CPUS,
	WORK_BUSY_PENDING = 1 << 0,
	WORK_BUSY_RUNNING = 1 << 1,
	WORKER_DESC_LEN = 32,
};

#define WORK_OFFQ_BH (1ul << WORK_OFFQ_BH_BIT)
#define WORK_OFFQ_FLAG_MASK                                                    \
	(((1ul << WORK_OFFQ_FLAG_BITS) - 1) << WORK_OFFQ_FLAG_SHIFT)
#define WORK_OFFQ_DISABLE_MASK                                                 \
	(((1ul << WORK_OFFQ_DISABLE_BITS) - 1) << WORK_OFFQ_DISABLE_SHIFT)
#define WORK_OFFQ_POOL_NONE ((1ul << WORK_OFFQ_POOL_BITS) - 1)
#define WORK_STRUCT_NO_POOL (WORK_OFFQ_POOL_NONE << WORK_OFFQ_POOL_SHIFT)
#define WORK_STRUCT_PWQ_MASK (~((1ul << WORK_STRUCT_PWQ_SHIFT) - 1))
#define WORK_DATA_INIT() ATOMIC_LONG_INIT((unsigned long)WORK_STRUCT_NO_POOL)
#define WORK_DATA_STATIC_INIT()                                                \
	ATOMIC_LONG_INIT(                                                      \
		(unsigned long)(WORK_STRUCT_NO_POOL | WORK_STRUCT_STATIC))

/*
 * The library's layout (preempt/workqueue.h): __pk_pool and __pk_pwq are
 * its implementation's; a program's kernel/workqueue.c leaves them alone.
 */
struct work_struct {
	atomic_long_t data;
	struct list_head entry;
	work_func_t func;
	void *__pk_pool;
	void *__pk_pwq;
	struct lockdep_map lockdep_map;
};

struct delayed_work {
	struct work_struct work;
	struct timer_list timer;
	struct workqueue_struct *wq; /* where the timer queues it */
	int cpu;
};

/* Both sides' layouts, spelled the same way in preempt/workqueue.h. */
_Static_assert(sizeof(atomic_long_t) == sizeof(unsigned long) &&
		       __builtin_offsetof(struct work_struct, entry) ==
			       sizeof(unsigned long) &&
		       __builtin_offsetof(struct work_struct, func) ==
			       sizeof(unsigned long) +
				       sizeof(struct list_head) &&
		       __builtin_offsetof(struct work_struct, lockdep_map) ==
			       __builtin_offsetof(struct work_struct, func) +
				       3 * sizeof(void *) &&
		       sizeof(struct work_struct) ==
			       __builtin_offsetof(struct work_struct,
						  lockdep_map) +
				       sizeof(struct lockdep_map),
	       "struct work_struct: the library's layout");

struct rcu_work {
	struct work_struct work;
	struct rcu_head rcu;
	struct workqueue_struct *wq;
};

enum wq_affn_scope {
	WQ_AFFN_DFL,
	WQ_AFFN_CPU,
	WQ_AFFN_SMT,
	WQ_AFFN_CACHE,
	WQ_AFFN_NUMA,
	WQ_AFFN_SYSTEM,
	WQ_AFFN_NR_TYPES,
};

struct workqueue_attrs {
	int nice;
	cpumask_var_t cpumask;
	cpumask_var_t __pod_cpumask;
	bool affn_strict;
	enum wq_affn_scope affn_scope;
	bool ordered;
};

/** to_delayed_work() - the delayed_work around @work. */
static inline struct delayed_work *to_delayed_work(struct work_struct *work)
{
	return container_of(work, struct delayed_work, work);
}

/** to_rcu_work() - the rcu_work around @work. */
static inline struct rcu_work *to_rcu_work(struct work_struct *work)
{
	return container_of(work, struct rcu_work, work);
}

struct execute_work {
	struct work_struct work;
};

#define __WORK_INITIALIZER(n, f)                                               \
	{                                                                      \
		.data = WORK_DATA_STATIC_INIT(),                               \
		.entry = LIST_HEAD_INIT((n).entry), .func = (f),               \
		.lockdep_map = STATIC_LOCKDEP_MAP_INIT(#n, NULL),              \
	}

#define __DELAYED_WORK_INITIALIZER(n, f, tflags)                               \
	{                                                                      \
		.work = __WORK_INITIALIZER((n).work, (f)),                     \
		.timer = {.entry = LIST_HEAD_INIT((n).timer.entry),            \
			  .expires = 0,                                        \
			  .function = delayed_work_timer_fn,                   \
			  .cpu = -1,                                           \
			  .flags = TIMER_IRQSAFE},                             \
	}

#define DECLARE_WORK(n, f) struct work_struct n = __WORK_INITIALIZER(n, f)
#define DECLARE_DELAYED_WORK(n, f)                                             \
	struct delayed_work n = __DELAYED_WORK_INITIALIZER(n, f, 0)
#define DECLARE_DEFERRABLE_WORK(n, f)                                          \
	struct delayed_work n =                                                \
		__DELAYED_WORK_INITIALIZER(n, f, TIMER_DEFERRABLE)

#define __INIT_WORK_KEY(_work, _func, _onstack, _key)                          \
	do {                                                                   \
		struct work_struct *__w = (_work);                             \
		(void)(_onstack);                                              \
		atomic_long_set(&__w->data, (long)WORK_STRUCT_NO_POOL);        \
		INIT_LIST_HEAD(&__w->entry);                                   \
		__w->func = (_func);                                           \
		__w->__pk_pool = NULL;                                         \
		__w->__pk_pwq = NULL;                                          \
		lockdep_init_map(&__w->lockdep_map,                            \
				 "(work_completion)" #_work, (_key), 0);       \
	} while (0)

#define __INIT_WORK(_work, _func, _onstack)                                    \
	do {                                                                   \
		static struct lock_class_key __key;                            \
		__INIT_WORK_KEY(_work, _func, _onstack, &__key);               \
	} while (0)

#define INIT_WORK(_work, _func) __INIT_WORK((_work), (_func), 0)
#define INIT_WORK_ONSTACK(_work, _func) __INIT_WORK((_work), (_func), 1)
#define INIT_WORK_ONSTACK_KEY(_work, _func, _key)                              \
	__INIT_WORK_KEY((_work), (_func), 1, _key)

#define __INIT_DELAYED_WORK(_work, _func, _tflags)                             \
	do {                                                                   \
		INIT_WORK(&(_work)->work, (_func));                            \
		timer_setup(&(_work)->timer, delayed_work_timer_fn,            \
			    (_tflags) | TIMER_IRQSAFE);                        \
		(_work)->wq = NULL;                                            \
		(_work)->cpu = 0;                                              \
	} while (0)

#define INIT_DELAYED_WORK(_work, _func) __INIT_DELAYED_WORK(_work, _func, 0)
#define INIT_DELAYED_WORK_ONSTACK(_work, _func)                                \
	__INIT_DELAYED_WORK(_work, _func, 0)
#define INIT_DEFERRABLE_WORK(_work, _func)                                     \
	__INIT_DELAYED_WORK(_work, _func, TIMER_DEFERRABLE)
#define INIT_DEFERRABLE_WORK_ONSTACK(_work, _func)                             \
	__INIT_DELAYED_WORK(_work, _func, TIMER_DEFERRABLE)
#define INIT_RCU_WORK(_work, _func) INIT_WORK(&(_work)->work, (_func))
#define INIT_RCU_WORK_ONSTACK(_work, _func)                                    \
	INIT_WORK_ONSTACK(&(_work)->work, (_func))

#define work_data_bits(work) ((unsigned long *)(&(work)->data))
/** work_pending() - is @work queued (or a delayed one's timer armed)? */
#define work_pending(work)                                                     \
	test_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work))
#define delayed_work_pending(w) work_pending(&(w)->work)

static inline void destroy_work_on_stack(struct work_struct *work)
{
	(void)work;
}

static inline void destroy_delayed_work_on_stack(struct delayed_work *work)
{
	(void)work;
}

static inline unsigned int work_static(struct work_struct *work)
{
	(void)work;
	return 0;
}

/* alloc_workqueue() flags, the kernel's values. */
enum wq_flags {
	WQ_BH = 1 << 0,
	WQ_UNBOUND = 1 << 1,
	WQ_FREEZABLE = 1 << 2,
	WQ_MEM_RECLAIM = 1 << 3,
	WQ_HIGHPRI = 1 << 4,
	WQ_CPU_INTENSIVE = 1 << 5,
	WQ_SYSFS = 1 << 6,
	WQ_POWER_EFFICIENT = 1 << 7,
	__WQ_DESTROYING = 1 << 15,
	__WQ_DRAINING = 1 << 16,
	__WQ_ORDERED = 1 << 17,
	__WQ_LEGACY = 1 << 18,
	__WQ_BH_ALLOWS = WQ_BH | WQ_HIGHPRI,
};

enum wq_consts {
	WQ_MAX_ACTIVE = 512,
	WQ_UNBOUND_MAX_ACTIVE = WQ_MAX_ACTIVE,
	WQ_DFL_ACTIVE = WQ_MAX_ACTIVE / 2,
	WQ_DFL_MIN_ACTIVE = 8,
};

/* The system's queues. */
extern struct workqueue_struct *system_wq PK_WQ(system_wq);
extern struct workqueue_struct *system_highpri_wq PK_WQ(system_highpri_wq);
extern struct workqueue_struct *system_long_wq PK_WQ(system_long_wq);
extern struct workqueue_struct *system_unbound_wq PK_WQ(system_unbound_wq);
extern struct workqueue_struct *system_freezable_wq PK_WQ(system_freezable_wq);
extern struct workqueue_struct *
	system_power_efficient_wq PK_WQ(system_power_efficient_wq);
extern struct workqueue_struct *system_freezable_power_efficient_wq
	PK_WQ(system_freezable_power_efficient_wq);
extern struct workqueue_struct *system_bh_wq PK_WQ(system_bh_wq);
extern struct workqueue_struct *
	system_bh_highpri_wq PK_WQ(system_bh_highpri_wq);

/**
 * alloc_workqueue() - a workqueue named after @fmt, with WQ_* @flags and
 * up to @max_active items running at once (0: the default).  Task context
 * (allocates).  NULL when memory is short.
 */
__printf(1, 4) struct workqueue_struct *alloc_workqueue(const char *fmt,
							unsigned int flags,
							int max_active, ...)
	PK_WQ(alloc_workqueue);
#define alloc_ordered_workqueue(fmt, flags, args...)                           \
	alloc_workqueue(fmt, WQ_UNBOUND | __WQ_ORDERED | (flags), 1, ##args)

/** destroy_workqueue() - drain @wq, then free it.  Task context. */
void destroy_workqueue(struct workqueue_struct *wq) PK_WQ(destroy_workqueue);

/* Attributes: a program's kernel/workqueue.c only. */
struct workqueue_attrs *alloc_workqueue_attrs(void)
	PK_WQ(alloc_workqueue_attrs);
void free_workqueue_attrs(struct workqueue_attrs *attrs)
	PK_WQ(free_workqueue_attrs);
int apply_workqueue_attrs(struct workqueue_struct *wq,
			  const struct workqueue_attrs *attrs)
	PK_WQ(apply_workqueue_attrs);
int workqueue_unbound_exclude_cpumask(cpumask_var_t cpumask)
	PK_WQ(workqueue_unbound_exclude_cpumask);

/**
 * queue_work_on() - queue @work on @wq on CPU @cpu's pool.  Any context.
 * False if @work was pending already.
 */
bool queue_work_on(int cpu, struct workqueue_struct *wq,
		   struct work_struct *work) PK_WQ(queue_work_on);
/** queue_work_node() - queue @work near NUMA node @node.  Any context. */
bool queue_work_node(int node, struct workqueue_struct *wq,
		     struct work_struct *work) PK_WQ(queue_work_node);
/** queue_delayed_work_on() - queue @work after @delay ticks.  Any context. */
bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			   struct delayed_work *work, unsigned long delay)
	PK_WQ(queue_delayed_work_on);
/** mod_delayed_work_on() - (re)queue @dwork after @delay.  Any context. */
bool mod_delayed_work_on(int cpu, struct workqueue_struct *wq,
			 struct delayed_work *dwork, unsigned long delay)
	PK_WQ(mod_delayed_work_on);
/** queue_rcu_work() - queue @rwork after an RCU grace period.  Any. */
bool queue_rcu_work(struct workqueue_struct *wq, struct rcu_work *rwork)
	PK_WQ(queue_rcu_work);

/** __flush_workqueue() - wait for @wq's items queued before.  Task. */
void __flush_workqueue(struct workqueue_struct *wq) PK_WQ(__flush_workqueue);
#define flush_workqueue(wq) __flush_workqueue(wq)
/** drain_workqueue() - wait until @wq is empty.  Task context. */
void drain_workqueue(struct workqueue_struct *wq) PK_WQ(drain_workqueue);

/** schedule_on_each_cpu() - run @func on every CPU, and wait.  Task. */
int schedule_on_each_cpu(work_func_t func) PK_WQ(schedule_on_each_cpu);
/**
 * execute_in_process_context() - @fn now if in task context (0), else
 * through @ew on system_wq (1).  Any context.
 */
int execute_in_process_context(work_func_t fn, struct execute_work *ew)
	PK_WQ(execute_in_process_context);

/** flush_work() - wait for @work's last queueing to finish.  Task. */
bool flush_work(struct work_struct *work) PK_WQ(flush_work);
/** cancel_work() - take @work off its queue.  Any context. */
bool cancel_work(struct work_struct *work) PK_WQ(cancel_work);
/** cancel_work_sync() - cancel_work(), then wait for it.  Task context. */
bool cancel_work_sync(struct work_struct *work) PK_WQ(cancel_work_sync);
/** flush_delayed_work() - queue @dwork now, then flush it.  Task. */
bool flush_delayed_work(struct delayed_work *dwork) PK_WQ(flush_delayed_work);
/** cancel_delayed_work() - disarm or dequeue @dwork.  Any context. */
bool cancel_delayed_work(struct delayed_work *dwork) PK_WQ(cancel_delayed_work);
/** cancel_delayed_work_sync() - and wait for it.  Task context. */
bool cancel_delayed_work_sync(struct delayed_work *dwork)
	PK_WQ(cancel_delayed_work_sync);
/*
 * Disabling (6.9 on): a disabled item is not queued until enabled as often
 * as disabled.  A program's kernel/workqueue.c only.
 */
bool disable_work(struct work_struct *work) PK_WQ(disable_work);
bool disable_work_sync(struct work_struct *work) PK_WQ(disable_work_sync);
bool enable_work(struct work_struct *work) PK_WQ(enable_work);
bool disable_delayed_work(struct delayed_work *dwork)
	PK_WQ(disable_delayed_work);
bool disable_delayed_work_sync(struct delayed_work *dwork)
	PK_WQ(disable_delayed_work_sync);
bool enable_delayed_work(struct delayed_work *dwork) PK_WQ(enable_delayed_work);
/** flush_rcu_work() - wait for @rwork's grace period and run.  Task. */
bool flush_rcu_work(struct rcu_work *rwork) PK_WQ(flush_rcu_work);

/* max_active: a program's kernel/workqueue.c only; min_active accepted. */
void workqueue_set_max_active(struct workqueue_struct *wq, int max_active)
	PK_WQ(workqueue_set_max_active);
void workqueue_set_min_active(struct workqueue_struct *wq, int min_active)
	PK_WQ(workqueue_set_min_active);
/** current_work() - the item the calling worker runs, or NULL.  Any. */
struct work_struct *current_work(void) PK_WQ(current_work);
/** current_is_workqueue_rescuer() - is the caller a rescuer?  Any. */
bool current_is_workqueue_rescuer(void) PK_WQ(current_is_workqueue_rescuer);
/* Introspection and debugging: a program's kernel/workqueue.c only. */
bool workqueue_congested(int cpu, struct workqueue_struct *wq)
	PK_WQ(workqueue_congested);
unsigned int work_busy(struct work_struct *work) PK_WQ(work_busy);
__printf(1, 2) void set_worker_desc(const char *fmt, ...)
	PK_WQ(set_worker_desc);
void print_worker_info(const char *log_lvl, struct task_struct *task)
	PK_WQ(print_worker_info);
void show_all_workqueues(void) PK_WQ(show_all_workqueues);
void show_freezable_workqueues(void) PK_WQ(show_freezable_workqueues);
void show_one_workqueue(struct workqueue_struct *wq) PK_WQ(show_one_workqueue);
void wq_worker_comm(char *buf, size_t size, struct task_struct *task)
	PK_WQ(wq_worker_comm);
/**
 * work_on_cpu_key() - run @fn(@arg) in a worker on CPU @cpu and return its
 * value (_safe_: only if @cpu is online).  Task context.
 */
long work_on_cpu_key(int cpu, long (*fn)(void *), void *arg,
		     struct lock_class_key *key) PK_WQ(work_on_cpu_key);
long work_on_cpu_safe_key(int cpu, long (*fn)(void *), void *arg,
			  struct lock_class_key *key)
	PK_WQ(work_on_cpu_safe_key);
/* No sysfs (CONFIG_SYSFS is off): nothing to register. */
static inline int workqueue_sysfs_register(struct workqueue_struct *wq)
{
	(void)wq;
	return 0;
}

#define work_on_cpu(_cpu, _fn, _arg)                                           \
	({                                                                     \
		static struct lock_class_key __key;                            \
		work_on_cpu_key(_cpu, _fn, _arg, &__key);                      \
	})
#define work_on_cpu_safe(_cpu, _fn, _arg)                                      \
	({                                                                     \
		static struct lock_class_key __key;                            \
		work_on_cpu_safe_key(_cpu, _fn, _arg, &__key);                 \
	})

/*
 * start_kernel()'s three steps, plain names: the machine's boot calls
 * them when a program's kernel/workqueue.c defines them.
 */
void __init workqueue_init_early(void);
void __init workqueue_init(void);
void __init workqueue_init_topology(void);

static inline bool queue_work(struct workqueue_struct *wq,
			      struct work_struct *work)
{
	return queue_work_on(WORK_CPU_UNBOUND, wq, work);
}

static inline bool queue_delayed_work(struct workqueue_struct *wq,
				      struct delayed_work *dwork,
				      unsigned long delay)
{
	return queue_delayed_work_on(WORK_CPU_UNBOUND, wq, dwork, delay);
}

static inline bool mod_delayed_work(struct workqueue_struct *wq,
				    struct delayed_work *dwork,
				    unsigned long delay)
{
	return mod_delayed_work_on(WORK_CPU_UNBOUND, wq, dwork, delay);
}

static inline bool schedule_work_on(int cpu, struct work_struct *work)
{
	return queue_work_on(cpu, system_wq, work);
}

static inline bool schedule_work(struct work_struct *work)
{
	return queue_work(system_wq, work);
}

static inline bool schedule_delayed_work_on(int cpu, struct delayed_work *dwork,
					    unsigned long delay)
{
	return queue_delayed_work_on(cpu, system_wq, dwork, delay);
}

static inline bool schedule_delayed_work(struct delayed_work *dwork,
					 unsigned long delay)
{
	return queue_delayed_work(system_wq, dwork, delay);
}

/* Flushing a system queue is discouraged in the kernel; allowed here. */
#define flush_scheduled_work() __flush_workqueue(system_wq)

/*
 * The library's own pool counters (preempt/workqueue.h), for tests of
 * programs that use the kernel side's workqueues.
 */
struct pk_wq_pool_stats {
	int nr_workers, nr_idle, nr_running, max_running;
};
struct pk_wq_pool_stats pk_wq_pool_stats(int cpu, bool highpri);

#undef PK_WQ

#endif /* _LINUX_WORKQUEUE_H */
