// SPDX-License-Identifier: MIT
/*
 * lib/argv_split.c on the library's allocator: words split at any white
 * space, the vector NULL-terminated and freed by argv_free(); no words is
 * an empty vector; an atomic caller's GFP_ATOMIC split from an interrupt
 * handler's context works too.
 */

#include <linux/interrupt.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "check.h"

static int split(void *arg)
{
	static const char *const want[] = {"insmod", "mod.ko", "a=1", "b"};
	int argc = -1;
	char **argv =
		argv_split(GFP_KERNEL, "  insmod\tmod.ko a=1\n b ", &argc);

	(void)arg;
	if (!argv || argc != 4 || argv[4])
		return -1;
	for (int i = 0; i < 4; i++)
		if (strcmp(argv[i], want[i]))
			return -2;
	argv_free(argv);
	argv = argv_split(GFP_KERNEL, " \t ", &argc);
	if (!argv || argc != 0 || argv[0])
		return -3;
	argv_free(argv);
	return 0;
}

static atomic_t irq_ok;

static irqreturn_t handler(int irq, void *dev)
{
	int argc;
	char **argv = argv_split(GFP_ATOMIC, "x y", &argc);

	(void)irq;
	(void)dev;
	if (argv && argc == 2 && !strcmp(argv[1], "y"))
		atomic_inc(&irq_ok);
	argv_free(argv);
	return IRQ_HANDLED;
}

static void argv(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(split, NULL), 0);
	assert_int_equal(request_irq(7, handler, 0, "argv", NULL), 0);
	assert_int_equal(irq_raise(7, pk_vcpu_irq_cpu(1)), 0);
	for (int i = 0; i < 5000 && !atomic_read(&irq_ok); i++)
		usleep(1000);
	free_irq(7, NULL);
	machine_shutdown();
	assert_int_equal(atomic_read(&irq_ok), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(argv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
