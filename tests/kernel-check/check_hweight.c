// SPDX-License-Identifier: MIT
/*
 * lib/hweight.c: the portable bit counts against a bit-at-a-time count, at
 * the edges and on random words, with bits above the width that the
 * 8- and 16-bit forms must ignore; on two CPUs and from a hard interrupt
 * handler.  make test runs it against the kernel side's own
 * src/kernel/hweight.c (kernel/test_hweight_kernel).
 */

#include <linux/bitops.h>
#include <linux/interrupt.h>

#include "check.h"

static unsigned int count(u64 w, unsigned int width)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < width; i++)
		n += (unsigned int)((w >> i) & 1);
	return n;
}

static int one(u64 w)
{
	int bad = 0;

	bad += __sw_hweight8((unsigned int)w) != count(w, 8);
	bad += __sw_hweight16((unsigned int)w) != count(w, 16);
	bad += __sw_hweight32((unsigned int)w) != count(w, 32);
	bad += __sw_hweight64(w) != count(w, 64);
	return bad;
}

static int checks(unsigned long seed)
{
	static const u64 edges[] = {
		0,	1,	 0x80,		0xff,	       0x100,
		0xffff, 0x10000, 0x80000000ULL, 0xffffffffULL, 0x100000000ULL,
		~0ULL};
	u64 s = seed;
	int bad = 0;

	for (size_t i = 0; i < ARRAY_SIZE(edges); i++)
		bad += one(edges[i]);
	for (int i = 0; i < 20000; i++) {
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		bad += one(s ^ (s >> 29));
	}
	return bad;
}

static void counts(void **state)
{
	(void)state;
	check_in_every_context(checks, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
