// SPDX-License-Identifier: MIT
/*
 * 03: a spinlock shared with an interrupt handler, taken without _irqsave.
 *
 * A driver queues requests from a kthread on vCPU 0; its interrupt
 * handler, which a "device" kthread on vCPU 1 raises on vCPU 0, retires
 * them.  Both take dev.lock, the task with plain spin_lock():
 *
 *	spin_lock(&dev.lock);              // interrupts still enabled
 *	dev.queued++;                      // <- the interrupt arrives here:
 *	spin_unlock(&dev.lock);            //    the handler spins on a lock
 *	                                   //    its own CPU holds, forever
 *
 * Detected by: lockdep ("inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W}
 * usage"), as soon as both uses have been seen, in any interleaving
 * (a report: abort); with the debug checks compiled out
 * (PREEMPT_DEBUG=OFF), only when the interrupt does arrive inside the
 * section: the vCPU deadlocks (a hang), or the debug spinlock reports
 * the recursion.
 * Fix (-DFIXED): spin_lock_irqsave() in the task, so the interrupt waits
 * for the unlock.
 *
 * Exit status (catalogue.h): 0 no bug seen; 1 own check, SIGABRT report,
 * no exit (hang), SIGSEGV oops: the bug was found; 2 setup failed.
 */

#include <linux/interrupt.h>
#include <linux/spinlock.h>

#include "catalogue.h"

#define NAME "03_irq_lock"
#define DEV_IRQ 5
#define REQUESTS 1000
#define WORK 4000 /* between requests: ~4 us */

static struct {
	spinlock_t lock;
	unsigned long queued, retired;
	unsigned long interrupts; /* under lock */
	bool done;
} dev = {.lock = __SPIN_LOCK_UNLOCKED(dev.lock)};

static irqreturn_t dev_interrupt(int irq, void *data)
{
	spin_lock(&dev.lock);
	dev.retired = dev.queued;
	dev.interrupts++;
	spin_unlock(&dev.lock);
	return IRQ_HANDLED;
}

static void queue_request(void)
{
#ifndef FIXED
	spin_lock(&dev.lock);
	dev.queued++;
	spin_unlock(&dev.lock);
#else
	unsigned long flags;

	spin_lock_irqsave(&dev.lock, flags);
	dev.queued++;
	spin_unlock_irqrestore(&dev.lock, flags);
#endif
}

static int submitter(void *sink)
{
	for (int i = 0; i < REQUESTS; i++) {
		*(unsigned long *)sink += cat_work(WORK);
		queue_request();
	}
	WRITE_ONCE(dev.done, true);
	return 0;
}

/* The hardware: raises the line on vCPU 0 until the submitter is done. */
static int device(void *sink)
{
	int cpu0 = pk_vcpu_irq_cpu(0);

	while (!READ_ONCE(dev.done)) {
		*(unsigned long *)sink += cat_work(WORK);
		irq_raise(DEV_IRQ, cpu0);
	}
	return 0;
}

int main(void)
{
	static unsigned long sink[2];
	struct task_struct *s, *d;

	cat_boot();
	if (request_irq(DEV_IRQ, dev_interrupt, 0, "catdev", &dev))
		cat_die("request_irq(%d) failed", DEV_IRQ);
	s = cat_start(submitter, &sink[0], "submitter", 0);
	d = cat_start(device, &sink[1], "device", 1);
	kthread_stop(s);
	kthread_stop(d);
	free_irq(DEV_IRQ, &dev);
	machine_shutdown();
	printf("catalogue: %s (%s): no bug observed, %lu requests, %lu "
	       "interrupts\n",
	       NAME, CAT_BUILD, dev.queued, dev.interrupts);
	return 0;
}
