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
