// SPDX-License-Identifier: MIT
/*
 * printk and friends: levels against console_loglevel, timestamps, _once,
 * _ratelimited, dev_*(), print_hex_dump(), and printing from an interrupt
 * handler (deferred in hardirq context, direct from rt's forced thread).
 */

#define pr_fmt(fmt) "ktest: " fmt

#include <linux/completion.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/printk.h>

#include "pk_kernel_test.h"

extern int pk_nr_deferred;
bool pk_report_deferred(void); /* src/debug/report.h: in a signal handler? */

static void test_levels(void **state)
{
	const char *out;

	(void)state;
	console_capture();
	pr_info("info %d\n", 1);
	pr_err("error %s\n", "two");
	pr_debug("debug is compiled out without DEBUG\n");
	printk(KERN_DEBUG "debug is above loglevel 7\n");
	console_loglevel = 8;
	printk(KERN_DEBUG "debug at loglevel 8\n");
	console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;
	pr_warn("no newline");
	pr_cont(" continued\n");
	out = console_release();
	assert_non_null(strstr(out, "] ktest: info 1\n"));
	assert_non_null(strstr(out, "] ktest: error two\n"));
	assert_null(strstr(out, "compiled out"));
	assert_null(strstr(out, "above loglevel"));
	assert_non_null(strstr(out, "] debug at loglevel 8\n"));
	assert_non_null(strstr(out, "ktest: no newline\n continued\n"));
	/* Every message starts with "[seconds.micros] ". */
	assert_int_equal(out[0], '[');
	assert_non_null(strchr(out, '.'));
}

static void test_once_and_ratelimited(void **state)
{
	const char *out;

	(void)state;
	console_capture();
	for (int i = 0; i < 5; i++)
		pr_warn_once("once %d\n", i);
	for (int i = 0; i < 25; i++)
		pr_info_ratelimited("limited %d\n", i);
	out = console_release();
	assert_int_equal(count_of(out, "ktest: once "), 1);
	assert_non_null(strstr(out, "once 0\n"));
	/* The default burst: 10 per 5 s. */
	assert_int_equal(count_of(out, "ktest: limited "),
			 DEFAULT_RATELIMIT_BURST);
}

static void test_ratelimit_state(void **state)
{
	DEFINE_RATELIMIT_STATE(rs, 1000, 3);
	int ok = 0;

	(void)state;
	for (int i = 0; i < 10; i++)
		ok += __ratelimit(&rs);
	assert_int_equal(ok, 3);
	assert_int_equal(rs.missed, 7);
}

static void test_dev_printk(void **state)
{
	static const struct device_driver drv = {.name = "mydrv"};
	struct device dev = {.init_name = "mydev0", .driver = &drv};
	struct device bare = {.init_name = "bare1"};
	const char *out;

	(void)state;
	console_capture();
	dev_err(&dev, "failed with %d\n", -5);
	dev_info(&bare, "no driver\n");
	dev_dbg(&dev, "not without DEBUG\n");
	out = console_release();
	assert_non_null(strstr(out, "] mydrv mydev0: failed with -5\n"));
	assert_non_null(strstr(out, "] bare1: no driver\n"));
	assert_null(strstr(out, "not without DEBUG"));
}

static void test_hex_dump(void **state)
{
	unsigned char buf[20];
	char line[128];
	const char *out;

	(void)state;
	for (int i = 0; i < 20; i++)
		buf[i] = (unsigned char)(0x41 + i);
	hex_dump_to_buffer(buf, 4, 16, 1, line, sizeof(line), false);
	assert_string_equal(line, "41 42 43 44");
	hex_dump_to_buffer(buf, 4, 16, 2, line, sizeof(line), false);
	assert_string_equal(line, "4241 4443"); /* little-endian groups */
	console_capture();
	print_hex_dump(KERN_INFO, "raw: ", DUMP_PREFIX_OFFSET, 16, 1, buf,
		       sizeof(buf), true);
	out = console_release();
	assert_non_null(
		strstr(out, "raw: 00000000: 41 42 43 44 45 46 47 48 49 4a 4b "
			    "4c 4d 4e 4f 50  ABCDEFGHIJKLMNOP\n"));
	assert_non_null(strstr(out, "raw: 00000010: 51 52 53 54"));
	assert_non_null(strstr(out, "QRST\n"));
}

/* ---- from an interrupt handler ---- */

#define LINE 7
static int irq_hardirq = -1, irq_deferred = -1, irq_in_signal = -1;
static DECLARE_COMPLETION(irq_done);

static irqreturn_t printing_handler(int irq, void *dev)
{
	int before = __atomic_load_n(&pk_nr_deferred, __ATOMIC_ACQUIRE);

	pr_info("from irq %d\n", irq);
	irq_hardirq = in_hardirq() ? 1 : 0;
	irq_in_signal = pk_report_deferred();
	irq_deferred =
		__atomic_load_n(&pk_nr_deferred, __ATOMIC_ACQUIRE) > before;
	complete(&irq_done);
	return IRQ_HANDLED;
}

static void printk_from_irq(enum preempt_model model)
{
	const char *out;

	pk_boot(2, model);
	reinit_completion(&irq_done);
	assert_int_equal(
		request_irq(LINE, printing_handler, 0, "ktest", &irq_done), 0);
	console_capture();
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(1)), 0);
	wait_for_completion(&irq_done);
	free_irq(LINE, &irq_done);
	out = console_release();
	machine_shutdown();
	assert_int_equal(count_of(out, "ktest: from irq 7\n"), 1);
	if (model == PREEMPT_MODEL_RT) {
		/* A forced thread: task context, printed at once. */
		assert_int_equal(irq_hardirq, 0);
		assert_int_equal(irq_deferred, 0);
	} else {
		/*
		 * Hardirq context; deferred when the handler ran in the
		 * signal (not replayed at an interrupt-enabling edge).
		 */
		assert_int_equal(irq_hardirq, 1);
		assert_int_equal(irq_deferred, irq_in_signal);
	}
}

static void test_printk_from_irq_full(void **state)
{
	(void)state;
	printk_from_irq(PREEMPT_MODEL_FULL);
}

static void test_printk_from_irq_rt(void **state)
{
	(void)state;
	printk_from_irq(PREEMPT_MODEL_RT);
	preempt_model_set(PREEMPT_MODEL_FULL);
}

/* WARN() in kernel code formats with the kernel's vsnprintf(): %ps, %pe. */
static void test_warn_kernel_formats(void **state)
{
	const char *out;

	(void)state;
	console_capture();
	WARN(1, "callback %ps failed: %pe\n", test_warn_kernel_formats,
	     ERR_PTR(-EBUSY));
	WARN_ON(0);
	out = console_release();
	assert_non_null(strstr(
		out, "callback test_warn_kernel_formats failed: -EBUSY\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_warn_kernel_formats),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_once_and_ratelimited),
		cmocka_unit_test(test_ratelimit_state),
		cmocka_unit_test(test_dev_printk),
		cmocka_unit_test(test_hex_dump),
		cmocka_unit_test(test_printk_from_irq_full),
		cmocka_unit_test(test_printk_from_irq_rt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
