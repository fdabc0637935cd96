// SPDX-License-Identifier: MIT
/*
 * lib/bitmap-str.c (6.12): bitmaps from and to text.  bitmap_parselist()'s
 * ranges, groups ("0-15:2/4"), N, white space and errors;
 * bitmap_parse()'s 32-bit hex chunks and overflow; cpulist_parse() and
 * cpumask_parse() through the tree; bitmap_print_to_pagebuf() giving back
 * what was parsed.  With the kernel's file also the user-memory forms
 * (bitmap_parselist_user(), bitmap_parse_user(): a string in a user
 * region, -EFAULT where it runs into the guard page) and
 * bitmap_print_list_to_buf()'s offsets.  make test runs it against the
 * kernel side's own src/kernel/bitmap_str.c (kernel/test_bitmap_str_kernel,
 * PK_OWN_BITMAP_STR).
 */

#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/mm.h>
#include <linux/uaccess.h>

#include "check.h"

#ifndef PK_OWN_BITMAP_STR
/* Defined by lib/bitmap-str.c; the tree declares only the library's. */
int bitmap_parselist_user(const char __user *ubuf, unsigned int ulen,
			  unsigned long *maskp, int nmaskbits);
int bitmap_parse_user(const char __user *ubuf, unsigned int ulen,
		      unsigned long *maskp, int nmaskbits);
int bitmap_print_list_to_buf(char *buf, const unsigned long *maskp,
			     int nmaskbits, loff_t off, size_t count);
#endif

#define NB 70

/* 1 if @failed, saying which line: the parser's cases are many. */
static int report(int failed, int line)
{
	if (failed)
		pr_err("check_bitmap_str: line %d failed\n", line);
	return failed;
}
#define FAILS(cond) report(!!(cond), __LINE__)

/* @m holds exactly the bits of "list" form @want (printed by us). */
static int holds(const unsigned long *m, const char *want)
{
	char buf[PAGE_SIZE];
	size_t n = strlen(want);

	bitmap_print_to_pagebuf(true, buf, m, NB);
	return strncmp(buf, want, n) == 0 && buf[n] == '\n';
}

static int parsing(void *arg)
{
	unsigned long m[BITS_TO_LONGS(NB)];
	char buf[PAGE_SIZE];
	int bad = 0;

	(void)arg;
	bad += FAILS(bitmap_parselist("0-3,7,60-69", m, NB) != 0);
	bad += FAILS(!holds(m, "0-3,7,60-69"));
	bad += FAILS(bitmap_parselist("0-15:2/4", m, NB) != 0);
	bad += FAILS(!holds(m, "0-1,4-5,8-9,12-13"));
	bad += FAILS(bitmap_parselist("60-N:3/5", m, NB) != 0);
	bad += FAILS(!holds(m, "60-62,65-67"));
	bad += FAILS(bitmap_parselist("N", m, NB) != 0 || !holds(m, "69"));
	bad += FAILS(bitmap_parselist("  1 3,5\n", m, NB) != 0 ||
		     !holds(m, "1,3,5"));
	bad += FAILS(bitmap_parselist("", m, NB) != 0 || !bitmap_empty(m, NB));
	bad += FAILS(bitmap_parselist("3-1", m, NB) != -EINVAL);
	bad += FAILS(bitmap_parselist("1-5:3/2", m, NB) != -EINVAL);
	bad += FAILS(bitmap_parselist("1,a", m, NB) != -EINVAL);
	bad += FAILS(bitmap_parselist("70", m, NB) != -ERANGE);
	bad += FAILS(bitmap_parselist("0-70", m, NB) != -ERANGE);

	bad += FAILS(bitmap_parse("3f,f0000000,0000008f", UINT_MAX, m, NB) !=
		     0);
	bad += FAILS(!holds(m, "0-3,7,60-69"));
	bad += FAILS(bitmap_parse("1,00000000\n", UINT_MAX, m, NB) != 0);
	bad += FAILS(!holds(m, "32"));
	bad += FAILS(bitmap_parse("8f,ignored", 2, m, NB) != 0 ||
		     !holds(m, "0-3,7"));
	bad += FAILS(bitmap_parse("xyz", UINT_MAX, m, NB) != -EINVAL);
	bad += FAILS(bitmap_parse("100", UINT_MAX, m, 8) != -EOVERFLOW);

	/* What is printed parses back to the same bits. */
	bitmap_parselist("0-2,9,33-40,64", m, NB);
	bitmap_print_to_pagebuf(false, buf, m, NB);
	bad += FAILS(strcmp(buf, "01,000001fe,00000207\n") != 0);
	bad += FAILS(bitmap_parse(buf, UINT_MAX, m, NB) != 0);
	bad += FAILS(!holds(m, "0-2,9,33-40,64"));
	return bad ? -1 : 0;
}

static int cpus(void *arg)
{
	cpumask_t c;
	int bad = 0;

	(void)arg;
	bad += FAILS(cpulist_parse("1", &c) != 0 || cpumask_weight(&c) != 1 ||
		     !cpumask_test_cpu(1, &c));
	bad += FAILS(cpulist_parse("0-N", &c) != 0 ||
		     !cpumask_equal(&c, cpu_possible_mask));
	bad += FAILS(cpulist_parse("2", &c) != -ERANGE); /* two CPUs */
	bad += FAILS(cpumask_parse("2", &c) != 0 || !cpumask_test_cpu(1, &c) ||
		     cpumask_test_cpu(0, &c));
	return bad ? -1 : 0;
}

#ifndef PK_OWN_BITMAP_STR
static int user(void *arg)
{
	char __user *u = pk_user_map(PAGE_SIZE);
	unsigned long m[BITS_TO_LONGS(NB)];
	char out[8];
	loff_t n;
	int bad = 0;

	(void)arg;
	if (!u)
		return -1;
	bad += FAILS(copy_to_user(u, "0-3,7", 5) != 0);
	bad += FAILS(bitmap_parselist_user(u, 5, m, NB) != 0 ||
		     !holds(m, "0-3,7"));
	bad += FAILS(copy_to_user(u, "8f", 2) != 0);
	bad += FAILS(bitmap_parse_user(u, 2, m, NB) != 0 || !holds(m, "0-3,7"));
	/* The last two bytes, then the guard page. */
	bad += FAILS(bitmap_parselist_user(u + PAGE_SIZE - 2, 8, m, NB) !=
		     -EFAULT);
	bad += FAILS(bitmap_parse_user(u + PAGE_SIZE - 2, 8, m, NB) != -EFAULT);
	pk_user_unmap(u);

	/* "0-3,7\n" read 4 bytes at a time from offset 2. */
	n = bitmap_print_list_to_buf(out, m, NB, 2, 4);
	bad += FAILS(n != 4 || memcmp(out, "3,7\n", 4) != 0);
	/* The text's terminating NUL is part of what can be read. */
	bad += FAILS(bitmap_print_list_to_buf(out, m, NB, 6, 4) != 1 || out[0]);
	bad += FAILS(bitmap_print_list_to_buf(out, m, NB, 7, 4) != 0);
	return bad ? -1 : 0;
}
#endif

static void bitmap_text(void **state)
{
	(void)state;
	check_boot(2);
	pk_mm_fault_handler_install();
	assert_int_equal(check_run(parsing, NULL), 0);
	assert_int_equal(check_run(cpus, NULL), 0);
#ifndef PK_OWN_BITMAP_STR
	assert_int_equal(check_run(user, NULL), 0);
#endif
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bitmap_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
