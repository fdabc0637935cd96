// SPDX-License-Identifier: MIT
/*
 * drivers/misc/dummy-irq.c, a module with a parameter and an interrupt
 * handler: its irq= comes from $PREEMPT_CMDLINE, its module_init runs at
 * boot, the interrupt reaches its handler, its module_exit runs at
 * shutdown.
 */

#include <linux/interrupt.h>

#include "check.h"

#define LINE 12

static char text[65536];

/* The console (stderr) of boot .. shutdown, raising LINE @raises times. */
static const char *run_machine(const char *cmdline, int raises)
{
	FILE *f = tmpfile();
	int saved = dup(2);
	size_t n;

	setenv("PREEMPT_CMDLINE", cmdline, 1);
	fflush(stderr);
	dup2(fileno(f), 2);
	check_boot(2);
	for (int i = 0; i < raises; i++) {
		irq_raise(LINE, pk_vcpu_irq_cpu(i % 2));
		usleep(2000);
	}
	machine_shutdown();
	pk_report_flush();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	unsetenv("PREEMPT_CMDLINE");
	fputs(text, stderr); /* for the log */
	return text;
}

static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_driver(void **state)
{
	const char *out;

	(void)state;
	out = run_machine("dummy_irq.irq=12", 3);
	assert_int_equal(count_of(out, "dummy-irq: registered for IRQ 12\n"),
			 1);
	/* The handler prints its first interrupt only. */
	assert_int_equal(
		count_of(out, "dummy-irq: interrupt occurred on IRQ 12\n"), 1);
	assert_int_equal(count_of(out, "dummy-irq unloaded\n"), 1);
	assert_true(strstr(out, "registered") <
		    strstr(out, "interrupt occurred"));
	assert_true(strstr(out, "interrupt occurred") <
		    strstr(out, "unloaded"));
}

static void test_driver_without_parameter(void **state)
{
	const char *out;

	(void)state;
	out = run_machine("", 0);
	assert_non_null(strstr(out, "dummy-irq: no IRQ given.  Use irq=N\n"));
	assert_non_null(strstr(out, "initcall dummy_irq_init returned -5\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* First: a parameter once set stays set, as static data does.
		 */
		cmocka_unit_test(test_driver_without_parameter),
		cmocka_unit_test(test_driver),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
