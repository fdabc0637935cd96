// SPDX-License-Identifier: MIT
/* lib/memweight.c: set bits of unaligned byte ranges, against a count. */

#include <linux/bitmap.h>
#include <linux/string.h>

#include "check.h"

size_t memweight(const void *ptr, size_t bytes);

static int counter(void *arg)
{
	static u8 buf[300];
	int bad = 0;

	(void)arg;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (u8)(i * 37 + 11);
	for (size_t off = 0; off < 9; off++) {
		for (size_t len = 0; off + len <= sizeof(buf); len += 29) {
			size_t want = 0;

			for (size_t i = off; i < off + len; i++)
				want += (size_t)__builtin_popcount(buf[i]);
			bad += memweight(buf + off, len) != want;
		}
	}
	return bad ? -1 : 0;
}

static void memweight_ranges(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(counter, NULL), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(memweight_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
