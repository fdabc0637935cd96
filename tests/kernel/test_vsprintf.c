// SPDX-License-Identifier: MIT
/*
 * The kernel's vsnprintf(): the %p extensions of printk-formats.rst
 * (symbols, error names, hex buffers, MAC and IP addresses, UUIDs,
 * physical addresses, %pV), the C conversions beside them, truncation,
 * and symbols from an interrupt handler (a marker the deferred console
 * expands; a bare address from snprintf()).
 */

#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/sprintf.h>

#include "pk_kernel_test.h"

#define LINE 9

static char buf[256];

#define check(expected, fmt, ...)                                              \
	do {                                                                   \
		snprintf(buf, sizeof(buf), fmt, ##__VA_ARGS__);                \
		assert_string_equal(buf, expected);                            \
	} while (0)

noinline void vsprintf_target(void)
{
	barrier();
}

static noinline const char *caller_of_me(void)
{
	snprintf(buf, sizeof(buf), "%pB", __builtin_return_address(0));
	return buf;
}

noinline void vsprintf_caller(void)
{
	caller_of_me();
	barrier();
}

static void test_symbols(void **state)
{
	(void)state;
	snprintf(buf, sizeof(buf), "%pS", vsprintf_target);
	assert_true(strncmp(buf, "vsprintf_target+0x0/0x", 22) == 0);
	snprintf(buf, sizeof(buf), "%pSR", (char *)vsprintf_caller + 1);
	assert_true(strncmp(buf, "vsprintf_caller+0x1/0x", 22) == 0);
	check("vsprintf_target", "%ps", vsprintf_target);
	check("[vsprintf_target]", "[%ps]", vsprintf_target);
	/* A return address names its call's function. */
	vsprintf_caller();
	assert_true(strncmp(buf, "vsprintf_caller+0x", 18) == 0);
}

static void test_errors(void **state)
{
	(void)state;
	check("-EINVAL", "%pe", ERR_PTR(-EINVAL));
	check("-ENOMEM", "%pe", ERR_PTR(-ENOMEM));
	check("-EAGAIN", "%pe", ERR_PTR(-EWOULDBLOCK));
	check("-EPROBE_DEFER", "%pe", ERR_PTR(-EPROBE_DEFER));
	check("-ERESTARTSYS", "%pe", ERR_PTR(-ERESTARTSYS));
	check("-4000", "%pe", ERR_PTR(-4000));
	check("0000000000001000", "%pe", (void *)0x1000);
}

static void test_pointers(void **state)
{
	(void)state;
	check("0000000000001234", "%p", (void *)0x1234);
	check("0000000000001234", "%px", (void *)0x1234);
	check("0000000000001234", "%pK", (void *)0x1234);
	check("0000000000000000", "%p", NULL);
	/* An unknown extension's letters are eaten, as the kernel does. */
	check("00000000000000ff.", "%pZz9.", (void *)0xff);
	check("(null)", "%pM", NULL);
	check("(efault)", "%pI4", (void *)16);
	check("(efault)", "%*ph", 2, ERR_PTR(-EIO));
}

static void test_hex_mac_ip(void **state)
{
	static const u8 b[] = {0x00, 0x01, 0xab, 0xff};
	static const u8 mac[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55};
	static const u8 v4[] = {192, 168, 0, 1};
	static const u8 v6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
	static const u8 v6b[16] = {0x20, 0x01, 0x0d, 0xb8, [9] = 1, [15] = 1};
	static const u8 v6c[16] = {0xfe,    0x80,     [5] = 1,	[7] = 2,
				   [9] = 3, [11] = 4, [13] = 5, [15] = 6};
	static const u8 zero[16];

	(void)state;
	check("00 01 ab ff", "%*ph", 4, b);
	check("00:01:ab:ff", "%*phC", 4, b);
	check("00-01-ab-ff", "%*phD", 4, b);
	check("0001abff", "%*phN", 4, b);
	check("00", "%ph", b);
	check("00 01|", "%2ph|", b);
	check("00:11:22:33:44:55", "%pM", mac);
	check("55:44:33:22:11:00", "%pMR", mac);
	check("00-11-22-33-44-55", "%pMF", mac);
	check("001122334455", "%pm", mac);
	check("192.168.0.1", "%pI4", v4);
	check("192.168.000.001", "%pi4", v4);
	check("  192.168.0.1|", "%13pI4|", v4);
	check("2001:0db8:0000:0000:0000:0000:0000:0001", "%pI6", v6);
	check("20010db8000000000000000000000001", "%pi6", v6);
	check("2001:db8::1", "%pI6c", v6);
	check("2001:db8::1:0:0:1", "%pI6c", v6b);
	check("fe80:0:1:2:3:4:5:6", "%pI6c", v6c); /* one zero: not "::" */
	check("::", "%pI6c", zero);
}

static void test_uuid_addr(void **state)
{
	static const u8 id[16] = {0, 1, 2,  3,	4,  5,	6,  7,
				  8, 9, 10, 11, 12, 13, 14, 15};
	phys_addr_t pa = 0x12345678;
	dma_addr_t da = 0xfeedf00dULL;

	(void)state;
	check("00010203-0405-0607-0809-0a0b0c0d0e0f", "%pUb", id);
	check("03020100-0504-0706-0809-0a0b0c0d0e0f", "%pUl", id);
	check("00010203-0405-0607-0809-0A0B0C0D0E0F", "%pUB", id);
	check("0x0000000012345678", "%pa", &pa);
	check("0x0000000012345678", "%pap", &pa);
	check("0x00000000feedf00d", "%pad", &da);
}

/* %*pb and %*pbl, as bitmap_print_to_pagebuf() and cpumask_pr_args() use. */
static void test_bitmaps(void **state)
{
	unsigned long m[2] = {0x8fUL | (0xfUL << 60), 0x3fUL};

	(void)state;
	check("0-3,7,60-69", "%*pbl", 70, m);
	check("0-3,7,60-63", "%*pbl", 64, m);
	check("0-2", "%*pbl", 3, m);
	check("", "%*pbl", 0, m);
	check("3f,f0000000,0000008f", "%*pb", 70, m);
	check("f0000000,0000008f", "%*pb", 64, m);
	check("0f", "%*pb", 5, m);
	check("[8f]", "[%*pb]", 8, m);
	check("x:(null)", "x:%*pbl", 8, NULL);
}

static __printf(1, 2) void wrapped(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	snprintf(buf, sizeof(buf), "outer [%pV] %d", &vaf, 7);
	va_end(args);
}

static void test_va_format(void **state)
{
	(void)state;
	wrapped("inner %d %s %pe", 42, "x", ERR_PTR(-EBUSY));
	assert_string_equal(buf, "outer [inner 42 x -EBUSY] 7");
}

static void test_c_conversions(void **state)
{
	const char *volatile nul = NULL; /* past the compiler's own check */
	char small[5];
	char *p;

	(void)state;
	check("   42|ab   |-7|0x1f|00017|%|c|abc",
	      "%5d|%-5s|%d|%#x|%05u|%%|%c|%.3s", 42, "ab", -7, 0x1f, 17u, 'c',
	      "abcdef");
	check("18446744073709551615 -9 ff 12 3.50", "%llu %ld %hhx %zu %.2f",
	      ~0ULL, -9L, 0x1ff, (size_t)12, 3.5);
	check("[   x]  [x   ]", "[%*s]  [%-*s]", 4, "x", 4, "x");
	check("(null)", "%s", nul);
	/* Truncated: what it would have taken, what it wrote. */
	assert_int_equal(snprintf(small, sizeof(small), "%pM", buf), 17);
	assert_int_equal(strlen(small), 4);
	assert_int_equal(scnprintf(small, sizeof(small), "%s", "abcdefgh"), 4);
	assert_string_equal(small, "abcd");
	assert_int_equal(scnprintf(small, sizeof(small), "ab"), 2);
	p = kasprintf(GFP_KERNEL, "%s-%pe", "dev", ERR_PTR(-ENODEV));
	assert_non_null(p);
	assert_string_equal(p, "dev--ENODEV");
	kfree(p);
}

static void test_printk_extensions(void **state)
{
	static const u8 mac[] = {2, 0, 0, 0, 0, 1};
	const char *out;

	(void)state;
	console_capture();
	pr_info("probe: %pe at %ps, mac %pM\n", ERR_PTR(-ETIMEDOUT),
		vsprintf_target, mac);
	out = console_release();
	assert_non_null(strstr(out, "probe: -ETIMEDOUT at vsprintf_target, mac "
				    "02:00:00:00:00:01\n"));
}

/* From an interrupt handler: printk()'s %pS deferred, snprintf()'s bare. */
static char irq_buf[64];
static int irq_deferred = -1;
static DECLARE_COMPLETION(irq_done);

bool pk_report_deferred(void); /* src/debug/report.h: in a signal handler? */

static irqreturn_t symbol_handler(int irq, void *dev)
{
	irq_deferred = pk_report_deferred();
	pr_info("irq handler is %pS\n", symbol_handler);
	snprintf(irq_buf, sizeof(irq_buf), "%ps", vsprintf_target);
	complete(&irq_done);
	return IRQ_HANDLED;
}

static void test_symbols_from_irq(void **state)
{
	const char *out;

	(void)state;
	pk_boot(2, PREEMPT_MODEL_FULL);
	assert_int_equal(request_irq(LINE, symbol_handler, 0, "vsp", NULL), 0);
	console_capture();
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(1)), 0);
	wait_for_completion(&irq_done);
	free_irq(LINE, NULL);
	out = console_release();
	machine_shutdown();
	/* Symbolized in the end, whichever way it was printed. */
	assert_non_null(strstr(out, "irq handler is symbol_handler+0x0/0x"));
	if (irq_deferred)
		assert_true(strncmp(irq_buf, "0x", 2) == 0);
	else
		assert_string_equal(irq_buf, "vsprintf_target");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_pointers),
		cmocka_unit_test(test_hex_mac_ip),
		cmocka_unit_test(test_uuid_addr),
		cmocka_unit_test(test_va_format),
		cmocka_unit_test(test_c_conversions),
		cmocka_unit_test(test_printk_extensions),
		cmocka_unit_test(test_bitmaps),
		cmocka_unit_test(test_symbols_from_irq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
