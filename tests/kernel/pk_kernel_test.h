/* SPDX-License-Identifier: MIT */
#ifndef PK_KERNEL_TEST_H
#define PK_KERNEL_TEST_H

/*
 * For the kernel-side tests (compiled with the kernel flags): the console
 * captured from stderr, and the machine helpers.
 */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pk_machine.h"
#include "pk_test.h"

static int console_saved_fd = -1;
static FILE *console_file;
static char console_text[65536];

/* From now on the console (stderr) goes to a file the test reads. */
static inline void console_capture(void)
{
	pk_report_flush();
	fflush(stderr);
	console_file = tmpfile();
	assert_non_null(console_file);
	console_saved_fd = dup(2);
	dup2(fileno(console_file), 2);
}

/* Stop capturing; what was printed (deferred messages flushed first). */
static inline const char *console_release(void)
{
	size_t n;

	pk_report_flush();
	fflush(stderr);
	dup2(console_saved_fd, 2);
	close(console_saved_fd);
	rewind(console_file);
	n = fread(console_text, 1, sizeof(console_text) - 1, console_file);
	console_text[n] = '\0';
	fclose(console_file);
	return console_text;
}

/* How many times @needle occurs in @hay. */
static inline int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Run @fn(@arg) as a kthread on the booted machine and wait for it. */
static inline int run_on_machine(int (*fn)(void *), void *arg)
{
	struct task_struct *k = kthread_run(fn, arg, "ktest");

	assert_non_null(k);
	return kthread_stop(k);
}

static const enum preempt_model all_models[] = {
	PREEMPT_MODEL_NONE, PREEMPT_MODEL_VOLUNTARY, PREEMPT_MODEL_FULL,
	PREEMPT_MODEL_LAZY, PREEMPT_MODEL_RT,
};

#endif /* PK_KERNEL_TEST_H */
