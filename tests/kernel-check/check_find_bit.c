// SPDX-License-Identifier: MIT
/*
 * lib/find_bit.c: the searches behind linux/find.h against bit-at-a-time
 * references on random bitmaps of 1 to 300 bits, sparse and dense, from
 * every start: next set, zero, and, andnot, first, last, the n-th set bit;
 * fns() and bitmap_get_value8(); with the kernel's file also
 * find_next_clump8() and __find_nth_and_bit(); on two CPUs and from a
 * hard interrupt handler.  make test runs it against the kernel side's own
 * src/kernel/find_bit.c (kernel/test_find_bit_kernel, PK_OWN_FIND_BIT).
 */

#include <linux/bitmap.h>
#include <linux/interrupt.h>

#include "check.h"

#define MAXBITS 300
#define WORDS BITS_TO_LONGS(MAXBITS)

#ifndef PK_OWN_FIND_BIT
/* Defined by lib/find_bit.c (6.1 and 6.12); the tree declares only the
 * library's. */
unsigned long find_next_clump8(unsigned long *clump, const unsigned long *addr,
			       unsigned long size, unsigned long offset);
unsigned long __find_nth_and_bit(const unsigned long *addr1,
				 const unsigned long *addr2, unsigned long size,
				 unsigned long n);
#endif

static int bit(const unsigned long *m, unsigned long i)
{
	return (int)((m[i / BITS_PER_LONG] >> (i % BITS_PER_LONG)) & 1);
}

static unsigned long next_rand(unsigned long *seed)
{
	*seed = *seed * 6364136223846793005UL + 1442695040888963407UL;
	return (*seed >> 11) ^ (*seed << 29);
}

/* The first i >= start below n where want(i); n if none. */
#define REF_NEXT(n, start, want)                                               \
	({                                                                     \
		unsigned long __i = (start);                                   \
		while (__i < (n) && !(want))                                   \
			__i++;                                                 \
		__i < (n) ? __i : (n);                                         \
	})

static int searches(unsigned long n, const unsigned long *a,
		    const unsigned long *b)
{
	unsigned long last = n, i, seen = 0;
	int bad = 0;

	for (unsigned long s = 0; s <= n + 1; s++) {
		bad += find_next_bit(a, n, s) != REF_NEXT(n, s, bit(a, __i));
		bad += find_next_zero_bit(a, n, s) !=
		       REF_NEXT(n, s, !bit(a, __i));
		bad += find_next_and_bit(a, b, n, s) !=
		       REF_NEXT(n, s, bit(a, __i) && bit(b, __i));
		bad += find_next_andnot_bit(a, b, n, s) !=
		       REF_NEXT(n, s, bit(a, __i) && !bit(b, __i));
	}
	bad += find_first_bit(a, n) != REF_NEXT(n, 0, bit(a, __i));
	bad += find_first_zero_bit(a, n) != REF_NEXT(n, 0, !bit(a, __i));
	bad += find_first_and_bit(a, b, n) !=
	       REF_NEXT(n, 0, bit(a, __i) && bit(b, __i));
	for (i = 0; i < n; i++)
		if (bit(a, i))
			last = i;
	bad += find_last_bit(a, n) != last;
	for (i = 0; i < n; i++) {
		if (!bit(a, i))
			continue;
		bad += find_nth_bit(a, n, seen) != i;
		seen++;
	}
	bad += find_nth_bit(a, n, seen) < n;
	seen = 0;
	for_each_set_bit(i, a, n) seen++;
	bad += seen != bitmap_weight(a, (unsigned int)n);
#ifndef PK_OWN_FIND_BIT
	seen = 0;
	for (i = 0; i < n; i++) {
		if (!bit(a, i) || !bit(b, i))
			continue;
		bad += __find_nth_and_bit(a, b, n, seen) != i;
		seen++;
	}
	bad += __find_nth_and_bit(a, b, n, seen) < n;
	if (n % 8 == 0) {
		for (unsigned long s = 0; s < n; s += 8) {
			unsigned long clump = 0, want = n;

			for (i = s; i < n && want == n; i += 8)
				if (bitmap_get_value8(a, i))
					want = i;
			bad += find_next_clump8(&clump, a, n, s) != want;
			bad += want < n && clump != bitmap_get_value8(a, want);
		}
	}
#endif
	return bad;
}

static int words(unsigned long *seed)
{
	int bad = 0;

	for (int t = 0; t < 200; t++) {
		unsigned long w = next_rand(seed) & next_rand(seed);
		unsigned long map[2] = {w, ~w};

		for (unsigned int k = 0; k < BITS_PER_LONG + 2; k++) {
			unsigned long x = w, want;

			for (unsigned int j = 0; j < k && x; j++)
				x &= x - 1;
			want = x ? __ffs(x) : BITS_PER_LONG;
			bad += fns(w, k) != want;
		}
		for (unsigned int s = 0; s < 2 * BITS_PER_LONG; s += 8)
			bad += bitmap_get_value8(map, s) !=
			       (map[s / BITS_PER_LONG] >> (s % BITS_PER_LONG) &
				0xff);
	}
	return bad;
}

static int checks(unsigned long seed)
{
	unsigned long a[WORDS], b[WORDS];
	int bad = words(&seed);

	for (unsigned long n = 1; n <= MAXBITS; n += 1 + n / 16) {
		for (unsigned int k = 0; k < WORDS; k++) {
			unsigned long r = next_rand(&seed);

			/* sparse, dense, empty and full words alike */
			a[k] = n % 3 == 0
				       ? r & next_rand(&seed) & next_rand(&seed)
			       : n % 3 == 1 ? r | next_rand(&seed)
			       : (r & 1)    ? 0UL
					    : ~0UL;
			b[k] = next_rand(&seed) | next_rand(&seed);
		}
		bad += searches(n, a, b);
	}
	return bad;
}

static void find_bits(void **state)
{
	(void)state;
	check_in_every_context(checks, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(find_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
