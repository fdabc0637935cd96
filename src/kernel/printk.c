// SPDX-License-Identifier: MIT
/*
 * printk() on the machine's console: level filtering, timestamps, and the
 * library's deferred console for interrupt and NMI context
 * (pk_console_write()).  Formatting is the kernel's vsnprintf() with its
 * %p extensions (vsprintf.c) into a stack buffer: no allocation, no lock,
 * so any context may print.
 */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/spinlock.h>
#include <preempt/debug.h>
#include "../port/sim.h"

#define PK_PRINTK_LINE 1024

int console_printk[4] = {CONSOLE_LOGLEVEL_DEFAULT, MESSAGE_LOGLEVEL_DEFAULT, 1,
			 CONSOLE_LOGLEVEL_DEFAULT};
enum system_states system_state = SYSTEM_BOOTING;
const char hex_asc[] = "0123456789abcdef";

static unsigned long long mono_ns(void)
{
	return (unsigned long long)pk_clock_ns();
}

static unsigned long long start_ns;

__attribute__((constructor)) static void printk_clock_start(void)
{
	start_ns = mono_ns();
}

/* The level of @fmt's KERN_ prefix (or -1: none), and the text after it. */
static int printk_level(const char **fmt, bool *cont)
{
	int level = -1;

	*cont = false;
	while ((*fmt)[0] == KERN_SOH_ASCII && (*fmt)[1]) {
		char c = (*fmt)[1];

		if (c >= '0' && c <= '7')
			level = c - '0';
		else if (c == 'c')
			*cont = true;
		*fmt += 2;
	}
	return level;
}

int vprintk(const char *fmt, va_list args)
{
	char line[PK_PRINTK_LINE];
	unsigned long long t = mono_ns() - start_ns;
	bool cont;
	int level = printk_level(&fmt, &cont);
	int n = 0, body;

	if (level < 0)
		level = cont ? LOGLEVEL_DEFAULT : default_message_loglevel;
	if (level >= READ_ONCE(console_loglevel))
		return 0;
	if (!cont)
		n = snprintf(line, sizeof(line), "[%5llu.%06llu] ",
			     t / 1000000000ULL, (t % 1000000000ULL) / 1000ULL);
	body = pk_kernel_vsnprintf_markers(line + n, sizeof(line) - (size_t)n,
					   true, fmt, args);
	if (body < 0)
		return body;
	n += body;
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	/* A message is a line: the kernel ends it unless continued. */
	if (!cont && (n == 0 || line[n - 1] != '\n'))
		line[n++] = '\n';
	pk_console_write(line, (size_t)n);
	return body;
}

int _printk(const char *fmt, ...)
{
	va_list args;
	int r;

	va_start(args, fmt);
	r = vprintk(fmt, args);
	va_end(args);
	return r;
}

void panic(const char *fmt, ...)
{
	char msg[PK_PRINTK_LINE];
	va_list args;

	va_start(args, fmt);
	vsnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	printk(KERN_EMERG "Kernel panic - not syncing: %s", msg);
	pk_report_flush();
	abort();
}

int hex_to_bin(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch |= 0x20; /* lower case */
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
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
