/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_SEMAPHORE_H
#define PREEMPT_SEMAPHORE_H

/*
 * Counting semaphores, as the kernel's: down() takes one unit of the count,
 * sleeping while there is none; up() gives one back from any context and
 * wakes one waiter.  No owner: any task (or interrupt) may up().
 */

#include <preempt/wait.h>

struct semaphore {
	int count; /* units left */
	wait_queue_head_t wait;
};

#define __SEMAPHORE_INITIALIZER(name, n)                                       \
	{                                                                      \
		.count = (n),                                                  \
		.wait = __WAIT_QUEUE_HEAD_INITIALIZER((name).wait),            \
	}
/** DEFINE_SEMAPHORE() - define a semaphore @name with count @n. */
#define DEFINE_SEMAPHORE(name, n)                                              \
	struct semaphore name = __SEMAPHORE_INITIALIZER(name, n)

/** sema_init() - initialize @sem with count @val.  Any context. */
void sema_init(struct semaphore *sem, int val);

/**
 * down() - take a unit of @sem, sleeping until there is one
 *
 * Task context, may sleep (checked by might_sleep()).
 */
void down(struct semaphore *sem);

/**
 * down_interruptible() - down() that a signal could cut short
 *
 * Task context, may sleep.  Tasks get no signals here: always returns 0.
 */
int down_interruptible(struct semaphore *sem);

/**
 * down_trylock() - take a unit of @sem if there is one, without sleeping
 *
 * Any context.  Returns 0 if taken, 1 if not (the kernel's inverted sense).
 */
int down_trylock(struct semaphore *sem);

/**
 * down_timeout() - down() for at most @timeout ticks
 *
 * Task context, may sleep.  Returns 0 if taken, -ETIME if not in time.
 */
int down_timeout(struct semaphore *sem, long timeout);

/**
 * up() - give a unit back to @sem and wake one waiter
 *
 * Any context, interrupts included; by any task, not only a down()er.
 */
void up(struct semaphore *sem);

#endif /* PREEMPT_SEMAPHORE_H */
