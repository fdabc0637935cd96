// SPDX-License-Identifier: MIT
/*
 * lib/uuid.c: parsing (UUIDs big-endian, GUIDs with the first three fields
 * swapped) against UUID_INIT()/GUID_INIT(), what uuid_is_valid() refuses,
 * the library's %pUb/%pUl printing what parses back, and random version-4
 * UUIDs from the library's get_random_bytes(), also in an interrupt
 * handler (a host signal handler).
 */

#include <linux/interrupt.h>
#include <linux/uuid.h>

#include "check.h"

static const char text[] = "c33f4995-3701-450e-9fbf-206a2e98e576";

static int parsing(void *arg)
{
	uuid_t u, want_u = UUID_INIT(0xc33f4995, 0x3701, 0x450e, 0x9f, 0xbf,
				     0x20, 0x6a, 0x2e, 0x98, 0xe5, 0x76);
	guid_t g, want_g = GUID_INIT(0xc33f4995, 0x3701, 0x450e, 0x9f, 0xbf,
				     0x20, 0x6a, 0x2e, 0x98, 0xe5, 0x76);
	char buf[UUID_STRING_LEN + 1];

	(void)arg;
	if (uuid_parse(text, &u) || !uuid_equal(&u, &want_u) ||
	    u.b[0] != 0xc3 || u.b[15] != 0x76)
		return -1;
	if (guid_parse(text, &g) || !guid_equal(&g, &want_g) ||
	    g.b[0] != 0x95 || g.b[4] != 0x01 || g.b[6] != 0x0e)
		return -2;
	if (!uuid_is_valid(text) ||
	    uuid_is_valid("c33f4995-3701-450e-9fbf-206a2e98e57") ||
	    uuid_is_valid("c33f4995-3701-450e-9fbf-206a2e98e57g") ||
	    uuid_is_valid("c33f49953-701-450e-9fbf-206a2e98e576") ||
	    uuid_parse("not a uuid", &u) != -EINVAL)
		return -3;
	/* Upper case parses too. */
	if (uuid_parse("C33F4995-3701-450E-9FBF-206A2E98E576", &u) ||
	    !uuid_equal(&u, &want_u))
		return -4;
	snprintf(buf, sizeof(buf), "%pUb", &want_u);
	if (strcmp(buf, text))
		return -5;
	snprintf(buf, sizeof(buf), "%pUl", &want_g);
	if (strcmp(buf, text))
		return -6;
	if (!uuid_is_null(&uuid_null) || uuid_is_null(&u) ||
	    !guid_is_null(&guid_null))
		return -7;
	return 0;
}

static bool version4(const u8 b[16], int version_byte)
{
	return b[version_byte] >> 4 == 4 && (b[8] & 0xc0) == 0x80;
}

static uuid_t from_irq;

static irqreturn_t handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	uuid_gen(&from_irq);
	return IRQ_HANDLED;
}

static int generating(void *arg)
{
	uuid_t a, b;
	guid_t g;

	(void)arg;
	uuid_gen(&a);
	uuid_gen(&b);
	guid_gen(&g);
	if (!version4(a.b, 6) || !version4(b.b, 6) || uuid_equal(&a, &b))
		return -1;
	if (!version4(g.b, 7))
		return -2;
	return 0;
}

static void uuids(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(parsing, NULL), 0);
	assert_int_equal(check_run(generating, NULL), 0);
	assert_int_equal(request_irq(5, handler, IRQF_NO_THREAD, "uuid", NULL),
			 0);
	assert_int_equal(irq_raise(5, pk_vcpu_irq_cpu(1)), 0);
	for (int i = 0; i < 5000 && uuid_is_null(&from_irq); i++)
		usleep(1000);
	free_irq(5, NULL);
	machine_shutdown();
	assert_true(version4(from_irq.b, 6));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uuids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
