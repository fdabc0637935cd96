// SPDX-License-Identifier: MIT
/*
 * Counting semaphores on the sleeping locks' shared slow path (mutex.c):
 * the count is taken with a compare-and-swap, a waiter sleeps on the wait
 * queue until it gets a unit; up() hands its unit to the first waiter.
 */
#include <errno.h>

#include <preempt/mutex.h>
#include <preempt/semaphore.h>

void sema_init(struct semaphore *sem, int val)
{
	sem->count = val;
	init_waitqueue_head(&sem->wait);
}

/* Sequentially consistent: the waiter's side of pk_lock_has_waiters(). */
static bool sem_take(struct semaphore *sem)
{
	int count = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	while (count > 0) {
		if (__atomic_compare_exchange_n(&sem->count, &count, count - 1,
						false, __ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED))
			return true;
	}
	return false;
}

static bool sem_take_cb(void *sem)
{
	return sem_take(sem);
}

void down(struct semaphore *sem)
{
	might_sleep();
	if (!sem_take(sem))
		pk_lock_wait(&sem->wait, sem_take_cb, sem,
			     PK_LOCK_WAIT_FOREVER);
}

int down_interruptible(struct semaphore *sem)
{
	down(sem);
	return 0;
}

int down_trylock(struct semaphore *sem)
{
	return !sem_take(sem);
}

int down_timeout(struct semaphore *sem, long timeout)
{
	might_sleep();
	if (sem_take(sem))
		return 0;
	if (timeout < 0) /* already past: one more try, no sleep */
		timeout = 0;
	return pk_lock_wait(&sem->wait, sem_take_cb, sem, timeout) ? 0 : -ETIME;
}

void up(struct semaphore *sem)
{
	/* As the kernel's: a waiter gets the unit, first come first served. */
	if (pk_lock_has_waiters(&sem->wait) &&
	    pk_lock_handoff(&sem->wait, false, NULL, sem))
		return;
	__atomic_add_fetch(&sem->count, 1, __ATOMIC_RELEASE);
	if (pk_lock_has_waiters(&sem->wait))
		pk_lock_wake_one(&sem->wait);
}
