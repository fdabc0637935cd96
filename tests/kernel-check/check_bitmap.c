// SPDX-License-Identifier: MIT
/*
 * lib/bitmap.c: the operations behind linux/bitmap.h against bit-at-a-time
 * references on random bitmaps of 1 to 200 bits, with garbage beyond the
 * last bit that queries must ignore; zero-area searches with alignment and
 * offset; the list and mask print forms; on two CPUs at once and from a
 * hard interrupt handler.  Device-managed resources: actions released
 * newest first when the driver is detached, removed unrun or released
 * early, devm_kzalloc().  With the kernel's file, also what only it
 * defines: bitmap_cut(), __bitmap_replace(), __bitmap_or_equal(), the
 * weight of an and/andnot, bitmap_remap()/bitmap_bitremap(), the u32
 * array conversions and devm_bitmap_zalloc().
 *
 * PK_OWN_BITMAP (make test's kernel/test_bitmap_kernel): against the
 * kernel side's own src/kernel/bitmap.c instead of the kernel's file.
 */

#include <linux/bitmap.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/slab.h>

#include "check.h"

#define MAXBITS 200
#define WORDS BITS_TO_LONGS(MAXBITS)

#ifndef PK_OWN_BITMAP
/* Defined by lib/bitmap.c; the tree's header declares only the library's. */
void bitmap_cut(unsigned long *dst, const unsigned long *src,
		unsigned int first, unsigned int cut, unsigned int nbits);
void __bitmap_replace(unsigned long *dst, const unsigned long *old,
		      const unsigned long *new, const unsigned long *mask,
		      unsigned int nbits);
bool __bitmap_or_equal(const unsigned long *a, const unsigned long *b,
		       const unsigned long *c, unsigned int nbits);
unsigned int __bitmap_weight_and(const unsigned long *a, const unsigned long *b,
				 unsigned int nbits);
unsigned int __bitmap_weight_andnot(const unsigned long *a,
				    const unsigned long *b, unsigned int nbits);
void bitmap_remap(unsigned long *dst, const unsigned long *src,
		  const unsigned long *old, const unsigned long *new,
		  unsigned int nbits);
int bitmap_bitremap(int oldbit, const unsigned long *old,
		    const unsigned long *new, int bits);
void bitmap_from_arr32(unsigned long *bitmap, const u32 *buf,
		       unsigned int nbits);
void bitmap_to_arr32(u32 *buf, const unsigned long *bitmap, unsigned int nbits);
unsigned long *devm_bitmap_zalloc(struct device *dev, unsigned int nbits,
				  gfp_t flags);
#endif

static int bit(const unsigned long *m, unsigned int i)
{
	return (int)((m[i / BITS_PER_LONG] >> (i % BITS_PER_LONG)) & 1);
}

static void put(unsigned long *m, unsigned int i, int v)
{
	unsigned long b = 1UL << (i % BITS_PER_LONG);

	if (v)
		m[i / BITS_PER_LONG] |= b;
	else
		m[i / BITS_PER_LONG] &= ~b;
}

static unsigned long next_rand(unsigned long *seed)
{
	*seed = *seed * 6364136223846793005UL + 1442695040888963407UL;
	return (*seed >> 11) ^ (*seed << 29);
}

/* Random words, every bit of them (beyond @nbits too: garbage). */
static void fill(unsigned long *m, unsigned long *seed)
{
	for (unsigned int k = 0; k < WORDS; k++)
		m[k] = (next_rand(seed) & next_rand(seed)) ^ next_rand(seed);
}

/* Bits below @nbits of @got equal @want's. */
static int same(const unsigned long *got, const unsigned long *want,
		unsigned int nbits)
{
	for (unsigned int i = 0; i < nbits; i++)
		if (bit(got, i) != bit(want, i))
			return 0;
	return 1;
}

/* and, or, xor, andnot, complement and the queries; 0 when all agree. */
static int logic(unsigned int n, const unsigned long *a, const unsigned long *b)
{
	unsigned long d[WORDS], r[WORDS];
	int bad = 0, any = 0, eq = 1, inter = 0, sub = 1;
	unsigned int w = 0;

	for (unsigned int i = 0; i < n; i++) {
		put(r, i, bit(a, i) & bit(b, i));
		any |= bit(a, i) & bit(b, i);
		eq &= bit(a, i) == bit(b, i);
		inter |= bit(a, i) & bit(b, i);
		sub &= (!bit(a, i)) | bit(b, i);
		w += (unsigned int)bit(a, i);
	}
	bad += bitmap_and(d, a, b, n) != any || !same(d, r, n);
	bitmap_or(d, a, b, n);
	for (unsigned int i = 0; i < n; i++)
		bad += bit(d, i) != (bit(a, i) | bit(b, i));
	bitmap_xor(d, a, b, n);
	for (unsigned int i = 0; i < n; i++)
		bad += bit(d, i) != (bit(a, i) ^ bit(b, i));
	any = 0;
	for (unsigned int i = 0; i < n; i++)
		any |= bit(a, i) & !bit(b, i);
	bad += bitmap_andnot(d, a, b, n) != any;
	for (unsigned int i = 0; i < n; i++)
		bad += bit(d, i) != (bit(a, i) & !bit(b, i));
	bitmap_complement(d, a, n);
	for (unsigned int i = 0; i < n; i++)
		bad += bit(d, i) == bit(a, i);
	bad += bitmap_equal(a, b, n) != eq;
	bad += bitmap_intersects(a, b, n) != inter;
	bad += bitmap_subset(a, b, n) != sub;
	bad += bitmap_weight(a, n) != w;
	/* Garbage beyond @n is ignored: a copy differing only there. */
	memcpy(d, a, sizeof(d));
	for (unsigned int i = n; i < WORDS * BITS_PER_LONG; i++)
		put(d, i, !bit(a, i));
	bad += !bitmap_equal(a, d, n) || !bitmap_subset(d, a, n);
	return bad;
}

/* Ranges set and cleared, shifts both ways. */
static int moves(unsigned int n, const unsigned long *a, unsigned long *seed)
{
	unsigned long d[WORDS], s[WORDS];
	unsigned int start = (unsigned int)(next_rand(seed) % n);
	unsigned int len = (unsigned int)(next_rand(seed) % (n - start + 1));
	unsigned int sh = (unsigned int)(next_rand(seed) % (n + 3));
	int bad = 0;

	memcpy(d, a, sizeof(d));
	bitmap_set(d, start, (int)len);
	for (unsigned int i = 0; i < n; i++)
		bad += bit(d, i) !=
		       ((i >= start && i < start + len) | bit(a, i));
	memcpy(d, a, sizeof(d));
	bitmap_clear(d, start, (int)len);
	for (unsigned int i = 0; i < n; i++)
		bad += bit(d, i) !=
		       ((i < start || i >= start + len) && bit(a, i));
	memcpy(s, a, sizeof(s));
	bitmap_shift_right(d, s, sh, n);
	for (unsigned int i = 0; i < n; i++)
		bad += bit(d, i) != (i + sh < n ? bit(a, i + sh) : 0);
	bitmap_shift_left(d, s, sh, n);
	for (unsigned int i = 0; i < n; i++)
		bad += bit(d, i) != (i >= sh ? bit(a, i - sh) : 0);
	return bad;
}

/* The first aligned free run, by brute force; past @size when none. */
static unsigned long ref_area(const unsigned long *m, unsigned long size,
			      unsigned long start, unsigned int nr,
			      unsigned long mask, unsigned long off)
{
	for (unsigned long c = start; c + nr <= size; c++) {
		int ok = ((c + off) & mask) == 0;

		for (unsigned long i = c; ok && i < c + nr; i++)
			ok = !bit(m, (unsigned int)i);
		if (ok)
			return c;
	}
	return size + 1;
}

static int areas(unsigned int n, const unsigned long *a, unsigned long *seed)
{
	unsigned long sparse[WORDS];
	int bad = 0;

	/* Mostly clear, so that runs exist. */
	for (unsigned int k = 0; k < WORDS; k++)
		sparse[k] = a[k] & next_rand(seed) & next_rand(seed);
	for (int t = 0; t < 8; t++) {
		unsigned long start = next_rand(seed) % n;
		unsigned int nr = (unsigned int)(1 + next_rand(seed) % 9);
		unsigned long mask = (1UL << (next_rand(seed) % 4)) - 1;
		unsigned long off = next_rand(seed) % 4;
		unsigned long want = ref_area(sparse, n, start, nr, mask, off);
		unsigned long got = bitmap_find_next_zero_area_off(
			sparse, n, start, nr, mask, off);

		if (want > n)
			bad += got + nr <= n;
		else
			bad += got != want;
		if (off == 0)
			bad += bitmap_find_next_zero_area(sparse, n, start, nr,
							  mask) != got;
	}
	return bad;
}

#ifndef PK_OWN_BITMAP
static unsigned int nth_set(const unsigned long *m, unsigned int n,
			    unsigned int k)
{
	for (unsigned int i = 0; i < n; i++)
		if (bit(m, i) && k-- == 0)
			return i;
	return n;
}

/* Where bitmap_remap() sends bit @i, as Documentation states it. */
static unsigned int ref_remap(unsigned int i, const unsigned long *old,
			      const unsigned long *new, unsigned int n)
{
	unsigned int wo = 0, wn = 0, rank = 0;

	for (unsigned int j = 0; j < n; j++) {
		wo += (unsigned int)bit(old, j);
		wn += (unsigned int)bit(new, j);
		rank += j < i && bit(old, j);
	}
	if (!wo || !wn || !bit(old, i))
		return i;
	return nth_set(new, n, rank % wn);
}

/* What only the kernel's file defines. */
static int file_only(unsigned int n, const unsigned long *a,
		     const unsigned long *b, const unsigned long *c,
		     unsigned long *seed)
{
	unsigned long d[WORDS], r[WORDS] = {0};
	unsigned int first = (unsigned int)(next_rand(seed) % n);
	unsigned int cut = (unsigned int)(next_rand(seed) % (n - first + 1));
	unsigned int w = 0, wn = 0;
	u32 arr[WORDS * 2 + 1];
	int bad = 0, oreq = 1;

	bitmap_cut(d, a, first, cut, n);
	for (unsigned int i = 0; i + cut < n; i++)
		bad += bit(d, i) != bit(a, i < first ? i : i + cut);
	__bitmap_replace(d, a, b, c, n);
	for (unsigned int i = 0; i < n; i++) {
		bad += bit(d, i) != (bit(c, i) ? bit(b, i) : bit(a, i));
		w += (unsigned int)(bit(a, i) & bit(b, i));
		wn += (unsigned int)(bit(a, i) & !bit(b, i));
		oreq &= (bit(a, i) | bit(b, i)) == bit(c, i);
	}
	bad += __bitmap_weight_and(a, b, n) != w;
	bad += __bitmap_weight_andnot(a, b, n) != wn;
	bad += __bitmap_or_equal(a, b, c, n) != oreq;
	__bitmap_or(d, a, b, n);
	bad += !__bitmap_or_equal(a, b, d, n);
	bitmap_remap(d, c, a, b, n);
	for (unsigned int i = 0; i < n; i++)
		if (bit(c, i))
			put(r, ref_remap(i, a, b, n), 1);
	bad += !same(d, r, n);
	for (unsigned int i = 0; i < n; i++)
		bad += bitmap_bitremap((int)i, a, b, (int)n) !=
		       (int)ref_remap(i, a, b, n);
	memset(arr, 0xa5, sizeof(arr));
	bitmap_to_arr32(arr, a, n);
	for (unsigned int i = 0; i < DIV_ROUND_UP(n, 32) * 32; i++)
		bad += (int)((arr[i / 32] >> (i % 32)) & 1) !=
		       (i < n ? bit(a, i) : 0);
	bad += arr[DIV_ROUND_UP(n, 32)] != 0xa5a5a5a5;
	bitmap_from_arr32(d, arr, n);
	bad += !same(d, a, n);
	return bad;
}
#endif

/* Every operation on random bitmaps of 1 to MAXBITS bits; 0 if right. */
static int checks(unsigned long seed)
{
	unsigned long a[WORDS], b[WORDS], c[WORDS];
	int bad = 0;

	for (unsigned int n = 1; n <= MAXBITS; n++) {
		fill(a, &seed);
		fill(b, &seed);
		fill(c, &seed);
		if (n % 7 == 0) /* equal below n, garbage above */
			for (unsigned int i = 0; i < n; i++)
				put(b, i, bit(a, i));
		bad += logic(n, a, b) + moves(n, a, &seed) + areas(n, a, &seed);
#ifndef PK_OWN_BITMAP
		bad += file_only(n, a, b, c, &seed);
#endif
	}
	return bad;
}

static void bitmap_ops(void **state)
{
	(void)state;
	check_in_every_context(checks, 99);
}

static int printer(void *arg)
{
	unsigned long m[WORDS] = {0};
	char buf[256];
	int bad = 0;

	(void)arg;
	bitmap_set(m, 0, 4);
	__set_bit(7, m);
	bitmap_set(m, 60, 10);
	bad += strcmp((bitmap_print_to_pagebuf(true, buf, m, 100), buf),
		      "0-3,7,60-69\n") != 0;
	bad += bitmap_print_to_pagebuf(true, buf, m, 100) != 12;
	/* 70 bits: a 6-bit chunk (two digits), then whole 32-bit ones. */
	bad += strcmp((bitmap_print_to_pagebuf(false, buf, m, 70), buf),
		      "3f,f0000000,0000008f\n") != 0;
	bad += strcmp((bitmap_print_to_pagebuf(false, buf, m, 64), buf),
		      "f0000000,0000008f\n") != 0;
	bad += strcmp((bitmap_print_to_pagebuf(false, buf, m, 5), buf),
		      "0f\n") != 0;
	return bad ? -1 : 0;
}

static void bitmap_print(void **state)
{
	(void)state;
	check_boot(1);
	assert_int_equal(check_run(printer, NULL), 0);
	machine_shutdown();
}

static int order[8], norder;

static void record(void *data)
{
	order[norder++] = (int)(long)data;
}

static int managed(void *arg)
{
	struct device_driver drv = {.name = "bm"};
	struct device dev = {.init_name = "bm0", .driver = &drv};
	static const int want[] = {5, 4, 2, 1};
	unsigned long *zm;
	int bad = 0;
	char *p;

	(void)arg;
	norder = 0;
	for (long i = 1; i <= 3; i++)
		bad += devm_add_action(&dev, record, (void *)i) != 0;
	bad += devm_add_action_or_reset(&dev, record, (void *)4L) != 0;
	devm_remove_action(&dev, record, (void *)3L);
	p = devm_kzalloc(&dev, 64, GFP_KERNEL);
	bad += !p || p[0] || p[63];
	devm_kfree(&dev, p);
	bad += devm_add_action_or_reset(&dev, record, (void *)6L) != 0;
	devm_release_action(&dev, record, (void *)6L);
	bad += norder != 1 || order[0] != 6;
	bad += devm_add_action(&dev, record, (void *)5L) != 0;
#ifndef PK_OWN_BITMAP
	zm = devm_bitmap_zalloc(&dev, 300, GFP_KERNEL);
	bad += !zm || !bitmap_empty(zm, 300);
#else
	zm = devm_kzalloc(&dev, BITS_TO_LONGS(300) * sizeof(long), GFP_KERNEL);
	bad += !zm || !bitmap_empty(zm, 300);
#endif
	norder = 0;
	device_release_driver(&dev);
	bad += norder != 4 || memcmp(order, want, sizeof(want)) != 0;
	bad += dev.driver != NULL;
	device_release_driver(&dev);
	bad += norder != 4;
	return bad ? -1 : 0;
}

static void devres(void **state)
{
	(void)state;
	check_boot(1);
	assert_int_equal(check_run(managed, NULL), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bitmap_ops),
		cmocka_unit_test(bitmap_print),
		cmocka_unit_test(devres),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
