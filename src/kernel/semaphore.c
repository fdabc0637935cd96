// SPDX-License-Identifier: MIT
/*
 * The kernel-layout semaphore (linux/semaphore.h): a count under a raw
 * spinlock and a FIFO of waiters, each handed its unit directly by up()
 * so a late arrival cannot steal it.  One object of its own: a program
 * that compiles kernel/locking/semaphore.c links that one instead.
 */

#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/semaphore.h>
#include <linux/spinlock.h>

struct sem_waiter {
	struct list_head list;
	struct task_struct *task;
	bool up;
};

/* Called and returns with the lock held, interrupts off. */
static int sem_wait(struct semaphore *sem, long timeout)
{
	struct sem_waiter w = {.task = current, .up = false};

	list_add_tail(&w.list, &sem->wait_list);
	for (;;) {
		if (timeout <= 0) {
			list_del(&w.list);
			return -ETIME;
		}
		__set_current_state(TASK_UNINTERRUPTIBLE);
		raw_spin_unlock_irq(&sem->lock);
		timeout = schedule_timeout(timeout);
		raw_spin_lock_irq(&sem->lock);
		if (w.up)
			return 0;
	}
}

static int sem_down(struct semaphore *sem, long timeout)
{
	unsigned long flags;
	int ret = 0;

	might_sleep();
	raw_spin_lock_irqsave(&sem->lock, flags);
	if (likely(sem->count > 0))
		sem->count--;
	else
		ret = sem_wait(sem, timeout);
	raw_spin_unlock_irqrestore(&sem->lock, flags);
	return ret;
}

void down(struct semaphore *sem)
{
	sem_down(sem, MAX_SCHEDULE_TIMEOUT);
}

int down_interruptible(struct semaphore *sem)
{
	return sem_down(sem, MAX_SCHEDULE_TIMEOUT);
}

int down_killable(struct semaphore *sem)
{
	return sem_down(sem, MAX_SCHEDULE_TIMEOUT);
}

int down_timeout(struct semaphore *sem, long timeout)
{
	return sem_down(sem, timeout);
}

int down_trylock(struct semaphore *sem)
{
	unsigned long flags;
	int count;

	raw_spin_lock_irqsave(&sem->lock, flags);
	count = (int)sem->count - 1;
	if (likely(count >= 0))
		sem->count = (unsigned int)count;
	raw_spin_unlock_irqrestore(&sem->lock, flags);
	return count < 0;
}

void up(struct semaphore *sem)
{
	struct sem_waiter *w;
	unsigned long flags;

	raw_spin_lock_irqsave(&sem->lock, flags);
	if (likely(list_empty(&sem->wait_list))) {
		sem->count++;
	} else {
		w = list_first_entry(&sem->wait_list, struct sem_waiter, list);
		list_del(&w->list);
		w->up = true;
		wake_up_process(w->task);
	}
	raw_spin_unlock_irqrestore(&sem->lock, flags);
}
