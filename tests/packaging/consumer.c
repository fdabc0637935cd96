// SPDX-License-Identifier: MIT
/*
 * A program of someone else's: built against an installed libpreempt
 * through pkg-config and through CMake, statically and dynamically.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <preempt/debug.h>
#include <preempt/interrupt.h>
#include <preempt/preempt.h>
#include <preempt/spinlock.h>
#include <preempt/version.h>

static unsigned int seen;
static int blocking_reports;
static DEFINE_SPINLOCK(lock);

static bool count_blocking(const struct pk_report *report, void *arg)
{
	(void)arg;
	if (report->kind == PK_REPORT_BLOCKING &&
	    strstr(report->text, "at usleep()"))
		blocking_reports++;
	return true;
}

/*
 * The blocking-call detector reaches this program's own usleep() call:
 * through the shared library's interposer, or through the --wrap recipe
 * a static link must carry (pkg-config --static, libpreempt::preempt_static).
 */
static int check_blocking(void)
{
	pk_blocking_set_enabled(true);
	pk_set_report_hook(count_blocking, NULL);
	spin_lock(&lock);
	usleep(1);
	spin_unlock(&lock);
	pk_report_flush();
	pk_set_report_hook(NULL, NULL);
	printf("blocking reports: %d\n", blocking_reports);
	return blocking_reports == 1 ? 0 : 1;
}

static irqreturn_t handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	seen = hardirq_count();
	return IRQ_HANDLED;
}

int main(int argc, char **argv)
{
	int cpu = pk_irq_cpu_register();

	if (request_irq(3, handler, 0, "consumer", NULL) || cpu < 0)
		return 1;
	irq_raise(3, cpu);
	printf("libpreempt %s: hardirq_count() %#x in a handler\n",
	       pk_version(), seen);
	/* The version the build says it links against, when given. */
	if (argc > 1 && strcmp(argv[1], pk_version()))
		return 1;
	if (argc > 2 && !strcmp(argv[2], "blocking") && check_blocking())
		return 1;
	return seen == HARDIRQ_OFFSET ? 0 : 1;
}
