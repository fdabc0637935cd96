// SPDX-License-Identifier: MIT
/*
 * Signals as kernel code sees them: a pending bit per signal on the task,
 * read by signal_pending() and the interruptible and killable sleeps
 * (kernel/signal.c's signal_wake_up()).  Nothing is ever delivered: the
 * machine's tasks are kernel threads, whose code checks and flushes.
 */
#include <errno.h>
#include <signal.h>

#include <preempt/sched.h>

int send_sig(int sig, struct task_struct *p, int priv)
{
	unsigned int wake = TASK_INTERRUPTIBLE;

	(void)priv;
	if (sig < 1 || sig > 64)
		return -EINVAL;
	/* Pending before the wake-up: the sleeper re-checks after it. */
	__atomic_or_fetch(&p->pk_sigpending, 1ULL << (sig - 1),
			  __ATOMIC_SEQ_CST);
	if (sig == SIGKILL)
		wake |= TASK_WAKEKILL;
	wake_up_state(p, wake);
	return 0;
}

void flush_signals(struct task_struct *p)
{
	pk_store_mb(&p->pk_sigpending, 0);
}
