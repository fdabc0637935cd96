// SPDX-License-Identifier: MIT
/* lib/bcd.c: every byte value round trips, through the out-of-line calls. */

#include <linux/bcd.h>

#include "check.h"

static int converter(void *arg)
{
	volatile unsigned int v; /* not a constant: _bcd2bin()/_bin2bcd() */
	int bad = 0;

	(void)arg;
	for (unsigned int i = 0; i < 100; i++) {
		v = i;
		bad += bcd2bin(bin2bcd(v)) != i;
		bad += bin2bcd(v) != ((i / 10) << 4 | i % 10);
	}
	v = 0x59;
	bad += bcd2bin(v) != 59;
	return bad ? -1 : 0;
}

static void bcd_round_trip(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(converter, NULL), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bcd_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
