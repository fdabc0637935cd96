/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_WAIT_H
#define PREEMPT_WAIT_H

/*
 * Wait queues and completions, as the kernel's: entries carry a wake
 * function; wake-ups wake every non-exclusive entry and up to nr exclusive
 * ones (include/linux/wait.h, kernel/sched/wait.c).  Non-exclusive entries
 * stay ahead of exclusive ones, so a wake-up that stops at its nr-th
 * exclusive waiter has woken every non-exclusive one.
 */

#include <preempt/list.h>
#include <preempt/sched.h>

#ifndef ERESTARTSYS
#define ERESTARTSYS 512 /* the kernel's: a sleep cut short by a signal */
#endif

struct wait_queue_head {
	int lock; /* a raw spinlock, interrupts disabled while held */
	struct list_head head;
};
typedef struct wait_queue_head wait_queue_head_t;

struct wait_queue_entry;
typedef int (*wait_queue_func_t)(struct wait_queue_entry *wq_entry,
				 unsigned int mode, int flags, void *key);

#define WQ_FLAG_EXCLUSIVE 0x01
#define WQ_FLAG_WOKEN 0x02

/*
 * One waiter.  @func NULL acts as default_wake_function (the library's own
 * users fill in only .task); @task and @private are the same pointer.
 */
struct wait_queue_entry {
	unsigned int flags;
	union {
		struct task_struct *task;
		void *private;
	};
	wait_queue_func_t func;
	struct list_head entry;
};
typedef struct wait_queue_entry wait_queue_entry_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(name)                                    \
	{                                                                      \
		0, LIST_HEAD_INIT((name).head)                                 \
	}
#define DECLARE_WAIT_QUEUE_HEAD(name)                                          \
	wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

/** init_waitqueue_head() - initialize @wq.  Any context. */
void init_waitqueue_head(wait_queue_head_t *wq);

/**
 * default_wake_function() - wake @wq_entry's task if its state is in
 * @mode.  Any context; called by wake-ups with the queue locked.
 */
int default_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode,
			  int flags, void *key);
/**
 * autoremove_wake_function() - default_wake_function(), and take the entry
 * off the queue when the task was woken.  As default_wake_function().
 */
int autoremove_wake_function(struct wait_queue_entry *wq_entry,
			     unsigned int mode, int flags, void *key);

/** init_waitqueue_entry() - @wq_entry wakes @p.  Any context. */
static inline void init_waitqueue_entry(struct wait_queue_entry *wq_entry,
					struct task_struct *p)
{
	wq_entry->flags = 0;
	wq_entry->private = p;
	wq_entry->func = default_wake_function;
	wq_entry->entry.next = wq_entry->entry.prev = NULL;
}

/** init_waitqueue_func_entry() - @wq_entry calls @func.  Any context. */
static inline void init_waitqueue_func_entry(struct wait_queue_entry *wq_entry,
					     wait_queue_func_t func)
{
	wq_entry->flags = 0;
	wq_entry->private = NULL;
	wq_entry->func = func;
	wq_entry->entry.next = wq_entry->entry.prev = NULL;
}

/** init_wait_entry() - current, autoremoved, with @flags.  Task context. */
void init_wait_entry(struct wait_queue_entry *wq_entry, int flags);

#define DEFINE_WAIT_FUNC(name, function)                                       \
	struct wait_queue_entry name = {                                       \
		.private = current,                                            \
		.func = (function),                                            \
		.entry = LIST_HEAD_INIT((name).entry),                         \
	}
#define DEFINE_WAIT(name) DEFINE_WAIT_FUNC(name, autoremove_wake_function)
#define init_wait(wait) init_wait_entry((wait), 0)

/** waitqueue_active() - anyone queued?  No barrier: see wq_has_sleeper(). */
static inline bool waitqueue_active(wait_queue_head_t *wq)
{
	return !list_empty(&wq->head);
}

/** wq_has_sleeper() - waitqueue_active() after a full barrier. */
static inline bool wq_has_sleeper(wait_queue_head_t *wq)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return waitqueue_active(wq);
}

/** add_wait_queue() - queue @wq_entry, non-exclusive.  Any context. */
void add_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *wq_entry);
/** add_wait_queue_exclusive() - queue @wq_entry at the tail, exclusive. */
void add_wait_queue_exclusive(wait_queue_head_t *wq,
			      struct wait_queue_entry *wq_entry);
/** remove_wait_queue() - take @wq_entry off @wq.  Any context. */
void remove_wait_queue(wait_queue_head_t *wq,
		       struct wait_queue_entry *wq_entry);

/**
 * prepare_to_wait() - queue @wait (non-exclusive) if it is not queued, and
 * set the task @state.  Task or host thread context.
 */
void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait,
		     unsigned int state);
/** prepare_to_wait_exclusive() - as prepare_to_wait(), exclusive. */
bool prepare_to_wait_exclusive(wait_queue_head_t *wq,
			       struct wait_queue_entry *wait,
			       unsigned int state);
/**
 * prepare_to_wait_event() - for the wait_event*() macros: 0, or
 * -ERESTARTSYS (and @wait dequeued) when a signal is pending that @state
 * lets through.
 */
long prepare_to_wait_event(wait_queue_head_t *wq, struct wait_queue_entry *wait,
			   unsigned int state);
/** finish_wait() - TASK_RUNNING again, and off @wq. */
void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait);

/**
 * __wake_up() - call the wake function of every non-exclusive entry and of
 * up to @nr_exclusive exclusive ones (0: all), for tasks in @mode
 *
 * Any context, interrupts included.  A wake function that returns < 0
 * stops the walk.
 */
void __wake_up(wait_queue_head_t *wq, unsigned int mode, int nr_exclusive,
	       void *key);
/** __wake_up_locked() - __wake_up() with @wq->lock held by the caller. */
void __wake_up_locked(wait_queue_head_t *wq, unsigned int mode,
		      int nr_exclusive);

/*
 * The queue's lock taken from outside (kernel code's spin_lock*() on
 * &wq->lock, linux/wait.h): @how 0 preemption off, 1 also interrupts
 * off, 2 the same saving the interrupt state (returned).  Any context;
 * pk_wq_unlock() with the same @how and the flags undoes it.
 */
unsigned long pk_wq_lock(int *lock, int how);
void pk_wq_unlock(int *lock, int how, unsigned long flags);

#define wake_up(x) __wake_up(x, TASK_NORMAL, 1, NULL)
#define wake_up_nr(x, nr) __wake_up(x, TASK_NORMAL, nr, NULL)
#define wake_up_all(x) __wake_up(x, TASK_NORMAL, 0, NULL)
#define wake_up_locked(x) __wake_up_locked((x), TASK_NORMAL, 1)
#define wake_up_all_locked(x) __wake_up_locked((x), TASK_NORMAL, 0)
#define wake_up_interruptible(x) __wake_up(x, TASK_INTERRUPTIBLE, 1, NULL)
#define wake_up_interruptible_nr(x, nr)                                        \
	__wake_up(x, TASK_INTERRUPTIBLE, nr, NULL)
#define wake_up_interruptible_all(x) __wake_up(x, TASK_INTERRUPTIBLE, 0, NULL)
#define wake_up_poll(x, m)                                                     \
	__wake_up(x, TASK_NORMAL, 1, (void *)(unsigned long)(m))

/*
 * The body of every wait_event*(): queue (exclusive if @excl), test @cond,
 * leave with @ret on a signal that @state admits, else run @cmd (which
 * sleeps).  Evaluates to __ret as @cmd left it, or -ERESTARTSYS.
 */
#define ___wait_event(wq, cond, state, excl, ret, cmd)                         \
	({                                                                     \
		struct wait_queue_entry __we;                                  \
		long __ret = (ret);                                            \
		init_wait_entry(&__we, (excl) ? WQ_FLAG_EXCLUSIVE : 0);        \
		for (;;) {                                                     \
			long __sig =                                           \
				prepare_to_wait_event(&(wq), &__we, (state));  \
			if (cond)                                              \
				break;                                         \
			if (__sig) {                                           \
				__ret = __sig;                                 \
				break;                                         \
			}                                                      \
			cmd;                                                   \
		}                                                              \
		finish_wait(&(wq), &__we);                                     \
		__ret;                                                         \
	})

/* For the _timeout forms: true to stop; a true @cond at 0 left means 1. */
#define ___wait_cond_timeout(cond)                                             \
	({                                                                     \
		bool __c = (cond);                                             \
		if (__c && !__ret)                                             \
			__ret = 1;                                             \
		__c || !__ret;                                                 \
	})

/**
 * wait_event() - sleep (TASK_UNINTERRUPTIBLE) until @cond is true
 *
 * Task or host thread context (may sleep; a host thread's task parks,
 * see sched.h).  @cond is evaluated after each wake-up.
 */
#define wait_event(wq, cond)                                                   \
	do {                                                                   \
		might_sleep();                                                 \
		if (cond)                                                      \
			break;                                                 \
		(void)___wait_event(wq, cond, TASK_UNINTERRUPTIBLE, 0, 0,      \
				    schedule());                               \
	} while (0)

/**
 * wait_event_interruptible() - wait_event() in TASK_INTERRUPTIBLE
 *
 * Task or host thread context.  0 once @cond is true, -ERESTARTSYS if a
 * signal is pending first (send_sig()).
 */
#define wait_event_interruptible(wq, cond)                                     \
	({                                                                     \
		int __r = 0;                                                   \
		might_sleep();                                                 \
		if (!(cond))                                                   \
			__r = ___wait_event(wq, cond, TASK_INTERRUPTIBLE, 0,   \
					    0, schedule());                    \
		__r;                                                           \
	})

/**
 * wait_event_killable() - as wait_event_interruptible(), but only a fatal
 * signal (SIGKILL) ends the wait early.  Same contexts.
 */
#define wait_event_killable(wq, cond)                                          \
	({                                                                     \
		int __r = 0;                                                   \
		might_sleep();                                                 \
		if (!(cond))                                                   \
			__r = ___wait_event(wq, cond, TASK_KILLABLE, 0, 0,     \
					    schedule());                       \
		__r;                                                           \
	})

/** wait_event_interruptible_exclusive() - as above, queued exclusive. */
#define wait_event_interruptible_exclusive(wq, cond)                           \
	({                                                                     \
		int __r = 0;                                                   \
		might_sleep();                                                 \
		if (!(cond))                                                   \
			__r = ___wait_event(wq, cond, TASK_INTERRUPTIBLE, 1,   \
					    0, schedule());                    \
		__r;                                                           \
	})

/* The timed waits in @state: the ticks left (at least 1), or 0. */
#define __pk_wait_event_timeout(wq, cond, timeout, state)                      \
	({                                                                     \
		long __tmo = (timeout);                                        \
		long __ret = __tmo;                                            \
		might_sleep();                                                 \
		if (!___wait_cond_timeout(cond))                               \
			__ret = ___wait_event(                                 \
				wq, ___wait_cond_timeout(cond), state, 0,      \
				__tmo, __ret = schedule_timeout(__ret));       \
		__ret;                                                         \
	})

/**
 * wait_event_timeout() - wait_event() for at most @timeout ticks
 *
 * Task or host thread context.  Returns 0 if @cond was still false at
 * the timeout, else the ticks left (at least 1).
 */
#define wait_event_timeout(wq, cond, timeout)                                  \
	__pk_wait_event_timeout(wq, cond, timeout, TASK_UNINTERRUPTIBLE)

/**
 * wait_event_interruptible_timeout() - both of the above: the ticks left
 * (at least 1) once @cond is true, 0 at the timeout, -ERESTARTSYS on a
 * signal.  Task or host thread context.
 */
#define wait_event_interruptible_timeout(wq, cond, timeout)                    \
	__pk_wait_event_timeout(wq, cond, timeout, TASK_INTERRUPTIBLE)

/**
 * wait_event_lock_irq() - wait_event() entered and left with @lock (a
 * spinlock_t) held by spin_lock_irq(): it is dropped while sleeping and
 * @cond is evaluated under it.  Task context.
 */
#define wait_event_lock_irq(wq, cond, lock)                                    \
	do {                                                                   \
		if (cond)                                                      \
			break;                                                 \
		(void)___wait_event(wq, cond, TASK_UNINTERRUPTIBLE, 0, 0, ({   \
					    spin_unlock_irq(&(lock));          \
					    schedule();                        \
					    spin_lock_irq(&(lock));            \
				    }));                                       \
	} while (0)

/** wait_event_interruptible_lock_irq() - as above, interruptible: 0 or
 * -ERESTARTSYS. */
#define wait_event_interruptible_lock_irq(wq, cond, lock)                      \
	({                                                                     \
		int __r = 0;                                                   \
		if (!(cond))                                                   \
			__r = ___wait_event(wq, cond, TASK_INTERRUPTIBLE, 0,   \
					    0, ({                              \
						    spin_unlock_irq(&(lock));  \
						    schedule();                \
						    spin_lock_irq(&(lock));    \
					    }));                               \
		__r;                                                           \
	})

/* ---- completions ---- */

struct completion {
	unsigned int done;
	wait_queue_head_t wait;
};

#define COMPLETION_INITIALIZER(name)                                           \
	{                                                                      \
		0, __WAIT_QUEUE_HEAD_INITIALIZER((name).wait)                  \
	}
#define DECLARE_COMPLETION(name)                                               \
	struct completion name = COMPLETION_INITIALIZER(name)

/** init_completion() - initialize @x, not done.  Any context. */
void init_completion(struct completion *x);
/** reinit_completion() - make @x not done again. */
void reinit_completion(struct completion *x);
/**
 * complete() - let one wait pass: wakes one waiter (they queue exclusive),
 * or the next to wait.  Any context.
 */
void complete(struct completion *x);
/** complete_all() - wake every waiter, now and later.  Any context. */
void complete_all(struct completion *x);
/**
 * wait_for_completion() - sleep until @x is completed.  Task or host
 * thread context.
 */
void wait_for_completion(struct completion *x);
/**
 * wait_for_completion_timeout() - at most @timeout ticks; returns 0 on
 * timeout, else the ticks left (at least 1).  Task or host thread context.
 */
unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout);
/**
 * wait_for_completion_interruptible() - as wait_for_completion(), but a
 * signal ends the wait: 0 or -ERESTARTSYS.  Task or host thread context.
 */
int wait_for_completion_interruptible(struct completion *x);
/**
 * wait_for_completion_interruptible_timeout() - both: the ticks left (at
 * least 1), 0 on timeout, -ERESTARTSYS on a signal.  Same contexts.
 */
long wait_for_completion_interruptible_timeout(struct completion *x,
					       unsigned long timeout);
/**
 * wait_for_completion_killable() - only a fatal signal (SIGKILL) ends the
 * wait early: 0 or -ERESTARTSYS.  Task or host thread context.
 */
int wait_for_completion_killable(struct completion *x);
/** wait_for_completion_killable_timeout() - the same with a timeout. */
long wait_for_completion_killable_timeout(struct completion *x,
					  unsigned long timeout);
/* An I/O wait is a wait here (no I/O accounting). */
#define wait_for_completion_io(x) wait_for_completion(x)
#define wait_for_completion_io_timeout(x, t) wait_for_completion_timeout(x, t)
/** try_wait_for_completion() - consume a completion without sleeping. */
bool try_wait_for_completion(struct completion *x);
/** completion_done() - would wait_for_completion() pass at once? */
bool completion_done(struct completion *x);

#endif /* PREEMPT_WAIT_H */
