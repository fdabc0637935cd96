// SPDX-License-Identifier: MIT
/*
 * Bitmaps to and from text: bitmap_print_to_pagebuf(), bitmap_parselist()
 * and bitmap_parse(), which lib/bitmap-str.c defines in 6.12 and
 * lib/bitmap.c in 6.1: an object of its own, so a program's copy of
 * either file replaces it instead of clashing with it.  Any context.
 */

#include <linux/bitmap.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/hex.h>
#include <linux/kernel.h>
#include <linux/sprintf.h>
#include <asm/page.h>

int bitmap_print_to_pagebuf(bool list, char *buf, const unsigned long *maskp,
			    int nmaskbits)
{
	/* @buf is a page, as sysfs gives a show() method. */
	return scnprintf(buf, PAGE_SIZE, list ? "%*pbl\n" : "%*pb\n", nmaskbits,
			 maskp);
}

/* A decimal number, or N for the last bit; at *@s, which it advances. */
static int parse_num(const char **s, int nmaskbits, unsigned int *v)
{
	unsigned long long n = 0;
	const char *p = *s;

	if (*p == 'N') {
		*v = (unsigned int)(nmaskbits - 1);
		*s = p + 1;
		return 0;
	}
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		n = n * 10 + (unsigned int)(*p - '0');
		if (n > UINT_MAX)
			return -EOVERFLOW;
	}
	*v = (unsigned int)n;
	*s = p;
	return 0;
}

/* One "a[-b[:used/group]]" region at *@s, set in @maskp. */
static int parse_region(const char **s, unsigned long *maskp, int nmaskbits)
{
	unsigned int a, b, used = 1, group = 1;
	int ret = parse_num(s, nmaskbits, &a);

	b = a;
	if (!ret && **s == '-') {
		(*s)++;
		ret = parse_num(s, nmaskbits, &b);
		used = group = b - a + 1;
		if (!ret && **s == ':') {
			(*s)++;
			ret = parse_num(s, nmaskbits, &used);
			if (!ret && *(*s)++ != '/')
				ret = -EINVAL;
			if (!ret)
				ret = parse_num(s, nmaskbits, &group);
		}
	}
	if (ret)
		return ret;
	if (a > b || !group || used > group)
		return -EINVAL;
	if (b >= (unsigned int)nmaskbits)
		return -ERANGE;
	for (unsigned int start = a; start <= b && start >= a; start += group)
		bitmap_set(maskp, start, (int)min(used, b - start + 1));
	return 0;
}

int bitmap_parselist(const char *buf, unsigned long *maskp, int nmaskbits)
{
	const char *s = buf;

	bitmap_zero(maskp, (unsigned int)nmaskbits);
	for (;;) {
		int ret;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			return 0;
		ret = parse_region(&s, maskp, nmaskbits);
		if (ret)
			return ret;
		if (*s == ',')
			s++;
		else if (*s && !isspace((unsigned char)*s))
			return -EINVAL;
	}
}

int bitmap_parse(const char *buf, unsigned int buflen, unsigned long *maskp,
		 int nmaskbits)
{
	const char *end = buf + strnlen(buf, buflen);
	unsigned int chunks = 0;

	while (end > buf && isspace((unsigned char)end[-1]))
		end--;
	bitmap_zero(maskp, (unsigned int)nmaskbits);
	/* Chunks of up to 8 hex digits, the least significant last. */
	while (end > buf) {
		const char *start = end;
		unsigned long v = 0;

		while (start > buf && start[-1] != ',' && end - start < 9)
			start--;
		if (start == end || end - start > 8)
			return -EINVAL;
		for (const char *p = start; p < end; p++) {
			if (!isxdigit((unsigned char)*p))
				return -EINVAL;
			v = v << 4 | (unsigned long)hex_to_bin(*p);
		}
		for (unsigned int i = 0; v; i++, v >>= 1) {
			if (!(v & 1))
				continue;
			if (chunks * 32 + i >= (unsigned int)nmaskbits)
				return -EOVERFLOW;
			__set_bit(chunks * 32 + i, maskp);
		}
		chunks++;
		end = start > buf ? start - 1 : start;
		if (start > buf && end == buf)
			return -EINVAL; /* a leading comma */
	}
	return 0;
}
