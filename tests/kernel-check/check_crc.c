// SPDX-License-Identifier: MIT
/*
 * lib/crc16.c, crc-ccitt.c, crc-itu-t.c, crc7.c and crc8.c: the catalogue
 * check values over "123456789" (CRC-16/ARC, KERMIT, CCITT-FALSE, XMODEM,
 * CRC-7/MMC, CRC-8/SMBUS and MAXIM-DOW), agreement with bit-at-a-time
 * references on random data, the byte forms against the buffer forms, and
 * a CRC split across calls; on two CPUs at once, one of them also from an
 * interrupt handler.
 */

#include <linux/crc-ccitt.h>
#include <linux/crc-itu-t.h>
#include <linux/crc16.h>
#include <linux/crc7.h>
#include <linux/crc8.h>
#include <linux/interrupt.h>

#include "check.h"

static const u8 digits[] = "123456789";

/* 6.1 has it, 6.12 dropped it: checked when the file defines it. */
u16 crc_ccitt_false(u16 crc, const u8 *buffer, size_t len)
	__attribute__((weak));
#define HAVE_CCITT_FALSE (crc_ccitt_false != NULL)

/* Reflected (LSB-first) and normal (MSB-first) bitwise references. */
static u16 ref_lsb16(u16 crc, u16 rpoly, const u8 *p, size_t n)
{
	while (n--) {
		crc ^= *p++;
		for (int b = 0; b < 8; b++)
			crc = crc & 1 ? (crc >> 1) ^ rpoly : crc >> 1;
	}
	return crc;
}

static u16 ref_msb16(u16 crc, u16 poly, const u8 *p, size_t n)
{
	while (n--) {
		crc ^= (u16)(*p++ << 8);
		for (int b = 0; b < 8; b++)
			crc = crc & 0x8000 ? (u16)(crc << 1) ^ poly
					   : (u16)(crc << 1);
	}
	return crc;
}

static int checks(void *arg)
{
	DECLARE_CRC8_TABLE(msb);
	DECLARE_CRC8_TABLE(lsb);

	(void)arg;
	if (crc16(0, digits, 9) != 0xbb3d ||
	    crc_ccitt(0, digits, 9) != 0x2189 ||
	    (HAVE_CCITT_FALSE &&
	     crc_ccitt_false(0xffff, digits, 9) != 0x29b1) ||
	    crc_itu_t(0, digits, 9) != 0x31c3)
		return -1;
	if (crc7_be(0, digits, 9) >> 1 != 0x75)
		return -2;
	crc8_populate_msb(msb, 0x07);
	crc8_populate_lsb(lsb, 0x8c);
	if (crc8(msb, digits, 9, 0) != 0xf4 || crc8(lsb, digits, 9, 0) != 0xa1)
		return -3;
	return 0;
}

static int random_data(void *arg)
{
	u8 buf[512];
	u32 x = (u32)(uintptr_t)arg;
	int bad = 0;

	for (int round = 0; round < 200; round++) {
		size_t n = 1 + round % sizeof(buf), cut = n / 3;
		u16 c;

		for (size_t i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			buf[i] = (u8)(x >> 16);
		}
		bad += crc16(0, buf, n) != ref_lsb16(0, 0xa001, buf, n);
		bad += crc_ccitt(0xffff, buf, n) !=
		       ref_lsb16(0xffff, 0x8408, buf, n);
		bad += HAVE_CCITT_FALSE &&
		       crc_ccitt_false(0xffff, buf, n) !=
			       ref_msb16(0xffff, 0x1021, buf, n);
		bad += crc_itu_t(0, buf, n) != ref_msb16(0, 0x1021, buf, n);
		/* In two pieces, and byte by byte. */
		bad += crc16(crc16(0, buf, cut), buf + cut, n - cut) !=
		       crc16(0, buf, n);
		c = 0;
		for (size_t i = 0; i < n; i++)
			c = crc_itu_t_byte(c, buf[i]);
		bad += c != crc_itu_t(0, buf, n);
	}
	return bad;
}

static atomic_t irq_result = ATOMIC_INIT(-100);

static irqreturn_t handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_set(&irq_result, checks(NULL));
	return IRQ_HANDLED;
}

static void crcs(void **state)
{
	struct task_struct *a, *b;

	(void)state;
	check_boot(2);
	assert_int_equal(check_run(checks, NULL), 0);
	a = kthread_run(random_data, (void *)1UL, "crc-a");
	b = kthread_run(random_data, (void *)2UL, "crc-b");
	assert_int_equal(request_irq(8, handler, IRQF_NO_THREAD, "crc", NULL),
			 0);
	assert_int_equal(irq_raise(8, pk_vcpu_irq_cpu(1)), 0);
	assert_int_equal(kthread_stop(a), 0);
	assert_int_equal(kthread_stop(b), 0);
	for (int i = 0; i < 5000 && atomic_read(&irq_result) == -100; i++)
		usleep(1000);
	free_irq(8, NULL);
	machine_shutdown();
	assert_int_equal(atomic_read(&irq_result), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(crcs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
