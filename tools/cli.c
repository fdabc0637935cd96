// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	if (cmd)
		fprintf(stderr, "preempt: %s: ", cmd);
	else
		fputs("preempt: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return CLI_EXIT_USAGE;
}

static bool progress_shown;
static long progress_last_ns;

void cli_progress(const char *fmt, ...)
{
	struct timespec ts;
	long now;
	va_list ap;

	if (!isatty(STDERR_FILENO))
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = ts.tv_sec * 1000000000L + ts.tv_nsec;
	if (progress_shown && now - progress_last_ns < 500000000L)
		return;
	progress_last_ns = now;
	fputc('\r', stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\033[K", stderr);
	progress_shown = true;
}

void cli_progress_clear(void)
{
	if (progress_shown)
		fputs("\r\033[K", stderr);
	progress_shown = false;
}
