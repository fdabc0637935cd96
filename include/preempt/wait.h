/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_WAIT_H
#define PREEMPT_WAIT_H

/* Wait queues and completions, as the kernel's. */

#include <preempt/list.h>
#include <preempt/sched.h>

struct wait_queue_head {
	int lock; /* a raw spinlock, interrupts disabled while held */
	struct list_head head;
};
typedef struct wait_queue_head wait_queue_head_t;

struct wait_queue_entry {
	struct task_struct *task;
	struct list_head entry;
};

#define __WAIT_QUEUE_HEAD_INITIALIZER(name)                                    \
	{                                                                      \
		0, LIST_HEAD_INIT((name).head)                                 \
	}
#define DECLARE_WAIT_QUEUE_HEAD(name)                                          \
	wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

/** init_waitqueue_head() - initialize @wq.  Any context. */
void init_waitqueue_head(wait_queue_head_t *wq);

/** prepare_to_wait() - queue @wait on @wq and set the task @state. */
void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait,
		     unsigned int state);
/** finish_wait() - TASK_RUNNING again, and off @wq. */
void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait);

/** wake_up() - wake every task waiting on @wq.  Any context. */
void wake_up(wait_queue_head_t *wq);
#define wake_up_all(wq) wake_up(wq)
#define wake_up_interruptible(wq) wake_up(wq)

/**
 * wait_event() - sleep until @cond is true
 *
 * Task or host thread context (may sleep; a host thread's task parks,
 * see sched.h).  @cond is evaluated after each wake-up.
 */
#define wait_event(wq, cond)                                                   \
	do {                                                                   \
		struct wait_queue_entry __w = {.task = current};               \
		might_sleep();                                                 \
		for (;;) {                                                     \
			prepare_to_wait(&(wq), &__w, TASK_UNINTERRUPTIBLE);    \
			if (cond)                                              \
				break;                                         \
			schedule();                                            \
		}                                                              \
		finish_wait(&(wq), &__w);                                      \
	} while (0)

/**
 * wait_event_timeout() - wait_event() for at most @timeout ticks
 *
 * Task or host thread context.  Returns 0 if @cond was still false at
 * the timeout, else the ticks left (at least 1).
 */
#define wait_event_timeout(wq, cond, timeout)                                  \
	({                                                                     \
		struct wait_queue_entry __w = {.task = current};               \
		long __left = (timeout);                                       \
		might_sleep();                                                 \
		for (;;) {                                                     \
			prepare_to_wait(&(wq), &__w, TASK_UNINTERRUPTIBLE);    \
			if (cond) {                                            \
				__left = __left ? __left : 1;                  \
				break;                                         \
			}                                                      \
			if (!__left)                                           \
				break;                                         \
			__left = schedule_timeout(__left);                     \
		}                                                              \
		finish_wait(&(wq), &__w);                                      \
		__left;                                                        \
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
/** complete() - wake one waiter (or let the next wait pass).  Any context. */
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
/** try_wait_for_completion() - consume a completion without sleeping. */
bool try_wait_for_completion(struct completion *x);
/** completion_done() - would wait_for_completion() pass at once? */
bool completion_done(struct completion *x);

#endif /* PREEMPT_WAIT_H */
