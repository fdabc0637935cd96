// SPDX-License-Identifier: MIT
/*
 * 100,000 tasks at once: stacks are carved from pooled host mappings, so
 * the process's mapping limit (vm.max_map_count, 65530 by default) is no
 * limit on tasks.  Two mappings a task (a stack and its guard) ran out
 * near 32,000.  Without the host's guard markers (an older kernel, or
 * PREEMPT_STACK_GUARD=mprotect as under qemu-user) a guard is a mapping of
 * its own again: then 20,000 tasks, within two mappings each.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "pk_machine.h"

#define NR_TASKS 100000
#define NR_TASKS_MPROTECT 20000
#define BATCH 1024
#define MADV_GUARD_INSTALL_ 102 /* Linux 6.13 */

static struct task_struct *tasks[NR_TASKS];
static int ran;

static int host_mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	int lines = 0, c;

	assert_non_null(f);
	while ((c = fgetc(f)) != EOF)
		lines += c == '\n';
	fclose(f);
	return lines;
}

/* Guard pages that split no mapping need the host's guard markers. */
static bool guard_markers_in_use(void)
{
	const char *env = getenv("PREEMPT_STACK_GUARD");
	long page = sysconf(_SC_PAGESIZE);
	void *p;
	bool ok;

	if (env && !strcmp(env, "mprotect"))
		return false;
	p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	ok = madvise(p, (size_t)page, MADV_GUARD_INSTALL_) == 0;
	munmap(p, (size_t)page);
	return ok;
}

static int count_run(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
	return 0;
}

static long rss_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static void many_tasks_fit_the_mapping_limit(void **state)
{
	bool markers = guard_markers_in_use();
	int nr = markers ? NR_TASKS : NR_TASKS_MPROTECT;
	long t0, t1, t2;
	int before, grown;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	before = host_mappings();
	t0 = now_ms();
	for (int i = 0; i < nr; i++) {
		tasks[i] = kthread_create(count_run, NULL, "many/%d", i);
		assert_non_null(tasks[i]);
	}
	t1 = now_ms();
	grown = host_mappings() - before;
	/* In batches, so the stacks they touch are given back as we go. */
	for (int i = 0; i < nr; i += BATCH) {
		for (int j = i; j < i + BATCH && j < nr; j++)
			wake_up_process(tasks[j]);
		for (int j = i; j < i + BATCH && j < nr; j++)
			assert_int_equal(kthread_stop(tasks[j]), 0);
	}
	t2 = now_ms();
	assert_int_equal(ran, nr);
	printf("%d tasks, guards by %s: %d host mappings more (%.4f a task), "
	       "created in %ld ms, run and stopped in %ld ms, max RSS %ld "
	       "MiB\n",
	       nr, markers ? "markers" : "mprotect", grown,
	       (double)grown / nr, t1 - t0, t2 - t1, rss_kib() / 1024);
	/* Markers: 64 stacks a region, and neighbouring regions merge. */
	if (markers)
		assert_true(grown <= nr / 64 + 16);
	else
		assert_true(grown <= 2 * nr + 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			many_tasks_fit_the_mapping_limit,
			machine_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
