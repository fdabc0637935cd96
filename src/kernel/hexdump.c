// SPDX-License-Identifier: MIT
/*
 * Hex digits and hex dumps: the symbols the kernel's lib/hexdump.c
 * defines, and no others, in one object of their own, so that a program
 * that compiles lib/hexdump.c links its own and this member stays out.
 * Any context: snprintf() into the caller's buffer, printk() per line.
 */

#include <linux/errno.h>
#include <linux/hex.h>
#include <linux/kernel.h>
#include <linux/printk.h>

const char hex_asc[] = "0123456789abcdef";
const char hex_asc_upper[] = "0123456789ABCDEF";

int hex_to_bin(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch |= 0x20; /* lower case */
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

int hex2bin(u8 *dst, const char *src, size_t count)
{
	while (count--) {
		int hi = hex_to_bin((unsigned char)*src++);
		int lo = hi < 0 ? -1 : hex_to_bin((unsigned char)*src++);

		if (lo < 0)
			return -EINVAL;
		*dst++ = (u8)(hi << 4 | lo);
	}
	return 0;
}

char *bin2hex(char *dst, const void *src, size_t count)
{
	const u8 *p = src;

	while (count--)
		dst = hex_byte_pack(dst, *p++);
	return dst;
}

/* One group of @groupsize bytes, as a little-endian number. */
static unsigned long long hex_group(const u8 *p, int groupsize)
{
	unsigned long long v = 0;

	for (int i = groupsize - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

int hex_dump_to_buffer(const void *buf, size_t len, int rowsize, int groupsize,
		       char *linebuf, size_t linebuflen, bool ascii)
{
	const u8 *p = buf;
	int ngroups, n = 0, hexlen;

	if (rowsize != 16 && rowsize != 32)
		rowsize = 16;
	if (len > (size_t)rowsize)
		len = (size_t)rowsize;
	if (groupsize != 1 && groupsize != 2 && groupsize != 4 &&
	    groupsize != 8)
		groupsize = 1;
	if (len % (size_t)groupsize)
		groupsize = 1;
	ngroups = (int)len / groupsize;
	if (linebuflen)
		linebuf[0] = '\0';
	for (int g = 0; g < ngroups; g++)
		n += snprintf(linebuf + n,
			      (size_t)n < linebuflen ? linebuflen - (size_t)n
						     : 0,
			      "%s%0*llx", g ? " " : "", 2 * groupsize,
			      hex_group(p + g * groupsize, groupsize));
	if (!ascii)
		return n;
	/* The text column starts where a full row's hex would end. */
	hexlen = (rowsize / groupsize) * (2 * groupsize + 1) - 1;
	while (n < hexlen + 2)
		n += snprintf(linebuf + n,
			      (size_t)n < linebuflen ? linebuflen - (size_t)n
						     : 0,
			      " ");
	for (size_t i = 0; i < len; i++)
		n += snprintf(linebuf + n,
			      (size_t)n < linebuflen ? linebuflen - (size_t)n
						     : 0,
			      "%c", p[i] >= 0x20 && p[i] < 0x7f ? p[i] : '.');
	return n;
}

void print_hex_dump(const char *level, const char *prefix_str, int prefix_type,
		    int rowsize, int groupsize, const void *buf, size_t len,
		    bool ascii)
{
	const u8 *p = buf;
	char line[200];

	if (rowsize != 16 && rowsize != 32)
		rowsize = 16;
	for (size_t i = 0; i < len; i += (size_t)rowsize) {
		size_t l = min_t(size_t, (size_t)rowsize, len - i);

		hex_dump_to_buffer(p + i, l, rowsize, groupsize, line,
				   sizeof(line), ascii);
		switch (prefix_type) {
		case DUMP_PREFIX_ADDRESS:
			printk("%s%s%p: %s\n", level, prefix_str,
			       (void *)(p + i), line);
			break;
		case DUMP_PREFIX_OFFSET:
			printk("%s%s%.8zx: %s\n", level, prefix_str, i, line);
			break;
		default:
			printk("%s%s%s\n", level, prefix_str, line);
			break;
		}
	}
}
