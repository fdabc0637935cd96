// SPDX-License-Identifier: MIT
/*
 * docs/start.md's first program: the count a spinlock keeps, and the
 * kernel's report for a sleep under it.
 */
#include <stdio.h>

#include <preempt/debug.h>
#include <preempt/spinlock.h>

static DEFINE_SPINLOCK(lock);

int main(void)
{
	unsigned int count;
	bool atomic;

	spin_lock(&lock);
	count = preempt_count(); /* the lock disabled preemption: 1 */
	atomic = in_atomic();
	spin_unlock(&lock);
	printf("holding the lock: preempt_count() %u, in_atomic() %d\n", count,
	       atomic);
	printf("after unlock:     preempt_count() %u, in_atomic() %d\n",
	       preempt_count(), in_atomic());

	spin_lock(&lock);
	might_sleep(); /* BUG: a sleep would be allowed here in no model */
	spin_unlock(&lock);
	return 0;
}
