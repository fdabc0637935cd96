// SPDX-License-Identifier: MIT
/*
 * kmap(), kmap_atomic() and kmap_local_page() over the emulated high
 * memory: what each does to the context, that high pages are really
 * unmapped until mapped, that a task's local mappings survive being
 * preempted by a task that maps its own at the same slots, and that
 * misuse is reported while the machine goes on.
 *
 * Switches are forced, not waited for: on one vCPU a SCHED_FIFO task
 * woken by complete() preempts the waker before complete() returns.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <preempt/bottom_half.h>
#include <preempt/gfp.h>
#include <preempt/highmem.h>
#include <preempt/interrupt.h>
#include <preempt/slab.h>
#include <preempt/uaccess.h>
#include <preempt/wait.h>

#include "../../src/mm/mm_internal.h"
#include "pk_machine.h"

static struct page *high_page(void)
{
	struct page *page = alloc_page(GFP_HIGHUSER);

	assert_non_null(page);
	assert_true(PageHighMem(page));
	return page;
}

static struct page *low_page(void)
{
	struct page *page = alloc_page(GFP_KERNEL);

	assert_non_null(page);
	assert_false(PageHighMem(page));
	return page;
}

static void high_pages_have_no_address_until_mapped(void **state)
{
	struct page *hi = high_page(), *lo = low_page();
	char *a, *b;

	(void)state;
	assert_non_null(page_address(lo));
	assert_ptr_equal(virt_to_page(page_address(lo)), lo);
	assert_null(page_address(hi));
	a = kmap(hi);
	assert_non_null(a);
	assert_ptr_equal(page_address(hi), a);
	b = kmap(hi); /* the same page twice: the same slot */
	assert_ptr_equal(a, b);
	strcpy(a, "high");
	kunmap(hi);
	assert_ptr_equal(page_address(hi), a);
	kunmap(hi);
	assert_null(page_address(hi));
	/* Mapped again elsewhere, the data is the page's, not the slot's. */
	b = kmap_local_page(hi);
	assert_string_equal(b, "high");
	kunmap_local(b);
	assert_ptr_equal(kmap(lo), page_address(lo));
	kunmap(lo);
	/* Freed dirty, taken back zeroed (the free lists are LIFO). */
	__free_page(hi);
	hi = alloc_page(GFP_HIGHUSER | __GFP_ZERO);
	b = kmap_local_page(hi);
	for (size_t i = 0; i < PAGE_SIZE; i++)
		if (b[i])
			fail_msg("byte %zu of a __GFP_ZERO page is %d", i,
				 b[i]);
	kunmap_local(b);
	__free_page(hi);
	__free_page(lo);
	assert_int_equal(captured.nr, 0);
}

static void kmap_atomic_is_atomic_in_every_model(void **state)
{
	struct page *pages[2] = {low_page(), high_page()};

	(void)state;
	for (int m = 0; m < PREEMPT_MODEL_NR; m++) {
		assert_int_equal(preempt_model_set(m), 0);
		for (int i = 0; i < 2; i++) {
			int *p;

			assert_false(in_atomic());
			p = kmap_atomic(pages[i]);
			assert_non_null(p);
			assert_true(in_atomic());
			assert_false(preemptible());
			assert_true(pagefault_disabled());
			assert_true(faulthandler_disabled());
			*p = m;
			kunmap_atomic(p);
			assert_false(in_atomic());
			assert_false(pagefault_disabled());
		}
	}
	preempt_model_set(PREEMPT_MODEL_FULL);
	__free_page(pages[0]);
	__free_page(pages[1]);
	assert_int_equal(captured.nr, 0);
}

static void kmap_local_only_disables_migration(void **state)
{
	struct page *hi = high_page(), *hi2 = high_page();
	char *a, *b;

	(void)state;
	a = kmap_local_page(hi);
	assert_true(preemptible());
	assert_true(is_migration_disabled());
	assert_false(pagefault_disabled());
	b = kmap_local_page(hi2);		/* nests, in another slot */
	assert_ptr_equal(b, a + 2 * PAGE_SIZE); /* slots are kept apart */
	assert_int_equal(pk_kmap_local_depth(), 2);
	kunmap_local(b + 100); /* any address inside the page will do */
	kunmap_local(a);
	assert_false(is_migration_disabled());
	assert_int_equal(pk_kmap_local_depth(), 0);
	__free_page(hi);
	__free_page(hi2);
	assert_int_equal(captured.nr, 0);
}

static void kmap_in_atomic_context_reports(void **state)
{
	struct page *lo = low_page();

	(void)state;
	preempt_disable();
	(void)kmap(lo); /* a low page: reports all the same */
	kunmap(lo);
	preempt_enable();
	assert_int_equal(captured.nr, 1);
	assert_int_equal(captured.kind, PK_REPORT_MIGHT_SLEEP);
	assert_report_contains("BUG: sleeping function called from invalid");
	assert_report_contains("highmem.c");
	__free_page(lo);
}

static volatile int sink;

static void use_after_kunmap_faults(void **state)
{
	struct page *hi = high_page();
	int *p;

	(void)state;
	/* cmocka catches SIGSEGV in each test: the layer's handler goes in
	 * front again, and passes cmocka the faults that are not its own. */
	pk_mm_fault_handler_install();
	p = kmap_local_page(hi);
	*p = 42;
	kunmap_local(p);
	sink = *(volatile int *)p; /* the slot is PROT_NONE: a real fault */
	pk_report_flush();	   /* reports from the handler are deferred */
	assert_int_equal(captured.nr, 1);
	assert_report_contains("BUG: unable to handle page fault for address");
	assert_report_contains("kmap_local/kmap_atomic slot");
	assert_int_equal(sink, 0); /* scratch memory, not the page */

	p = kmap(hi);
	assert_int_equal(*p, 42);
	kunmap(hi);
	*(volatile int *)p = 1;
	pk_report_flush();
	assert_int_equal(captured.nr, 2);
	assert_report_contains("write access");
	assert_report_contains("a kmap() slot");
	__free_page(hi);
}

static void out_of_order_and_overflow_are_reported(void **state)
{
	struct page *hi[KM_MAX_IDX + 1];
	char *a[KM_MAX_IDX + 1];

	(void)state;
	for (int i = 0; i <= KM_MAX_IDX; i++)
		hi[i] = high_page();
	a[0] = kmap_local_page(hi[0]);
	a[1] = kmap_local_page(hi[1]);
	kunmap_local(a[0]); /* out of order: reported, and really unmapped */
	assert_int_equal(captured.nr, 1);
	assert_report_contains("unmapped out of order");
	assert_int_equal(pk_kmap_local_depth(), 2);
	kunmap_local(a[1]); /* the hole below goes with it */
	assert_int_equal(pk_kmap_local_depth(), 0);
	migrate_disable(); /* for the bad unmap's migrate_enable() */
	kunmap_local(a[1]);
	assert_int_equal(captured.nr, 2);
	assert_report_contains("is not mapped on this CPU");

	for (int i = 0; i < KM_MAX_IDX; i++)
		a[i] = kmap_local_page(hi[i]);
	a[KM_MAX_IDX] = kmap_local_page(hi[KM_MAX_IDX]);
	assert_null(a[KM_MAX_IDX]);
	assert_int_equal(captured.nr, 3);
	assert_report_contains("all 16 slots of this CPU are in use");
	kunmap_local(a[KM_MAX_IDX]); /* NULL: only migrate_enable() */
	for (int i = KM_MAX_IDX; i-- > 0;)
		kunmap_local(a[i]);
	assert_int_equal(captured.nr, 3);
	assert_false(is_migration_disabled());
	for (int i = 0; i <= KM_MAX_IDX; i++)
		__free_page(hi[i]);
}

/* ---- interrupts map above the task ---- */

#define LINE 11

static struct page *irq_page;
static char *irq_addr;
static int irq_depth, irq_ok;

static irqreturn_t map_in_hardirq(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	irq_addr = kmap_atomic(irq_page);
	irq_depth = pk_kmap_local_depth();
	irq_ok = !strcmp(irq_addr, "irq page") && in_hardirq();
	kunmap_atomic(irq_addr);
	return IRQ_HANDLED;
}

static void a_hardirq_maps_above_the_task(void **state)
{
	struct page *hi = high_page();
	int cpu = pk_irq_cpu_register();
	char *p;

	(void)state;
	irq_page = high_page();
	memcpy_to_page(irq_page, 0, "irq page", 9);
	assert_int_equal(request_irq(LINE, map_in_hardirq, 0, "km", NULL), 0);
	p = kmap_local_page(hi);
	strcpy(p, "task page");
	assert_int_equal(irq_raise(LINE, cpu), 0); /* runs right here */
	assert_true(irq_ok);
	assert_int_equal(irq_depth, 2);
	assert_ptr_equal(irq_addr, p + 2 * PAGE_SIZE);
	assert_int_equal(pk_kmap_local_depth(), 1);
	assert_string_equal(p, "task page");
	kunmap_local(p);
	free_irq(LINE, NULL);
	__free_page(hi);
	__free_page(irq_page);
	assert_int_equal(captured.nr, 0);
}

/* ---- kmap() waits for a slot ---- */

static struct page *pool[LAST_PKMAP + 1];
static volatile int waiter_done;

static void *kmap_waiter(void *arg)
{
	char *p = kmap(pool[LAST_PKMAP]);

	(void)arg;
	strcpy(p, "got one");
	kunmap(pool[LAST_PKMAP]);
	__atomic_store_n(&waiter_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void kmap_sleeps_when_every_slot_is_taken(void **state)
{
	pthread_t t;

	(void)state;
	for (int i = 0; i <= LAST_PKMAP; i++)
		pool[i] = high_page();
	for (int i = 0; i < LAST_PKMAP; i++)
		assert_non_null(kmap(pool[i]));
	assert_int_equal(pthread_create(&t, NULL, kmap_waiter, NULL), 0);
	while (pk_mm_stats().waiting == 0) /* asleep, not timed */
		usleep(1000);
	assert_false(__atomic_load_n(&waiter_done, __ATOMIC_ACQUIRE));
	kunmap(pool[3]);
	pthread_join(t, NULL);
	assert_true(waiter_done);
	memcpy_from_page((char[8]){0}, pool[LAST_PKMAP], 0, 8);
	for (int i = 0; i < LAST_PKMAP; i++)
		if (i != 3)
			kunmap(pool[i]);
	for (int i = 0; i <= LAST_PKMAP; i++)
		__free_page(pool[i]);
	assert_int_equal(captured.nr, 0);
}

/* ---- a preempted task keeps its local mappings ---- */

struct km_run {
	struct completion a_mapped, b_done;
	struct page *page_a[2], *page_b;
	char *addr_a[2], *addr_b;
	int b_ran_inside_complete;
	int a_intact, b_saw_own, a_cpu_before, a_cpu_after;
	int a_preemptible;
};

static int task_b(void *arg) /* SCHED_FIFO: preempts A when woken */
{
	struct km_run *r = arg;

	wait_for_completion(&r->a_mapped);
	r->addr_b = kmap_local_page(r->page_b);
	strcpy(r->addr_b, "task B");
	r->b_saw_own = strcmp(r->addr_b, "task B") == 0;
	kunmap_local(r->addr_b);
	r->b_ran_inside_complete = 1;
	complete(&r->b_done);
	return 0;
}

static int task_a(void *arg)
{
	struct km_run *r = arg;

	r->addr_a[0] = kmap_local_page(r->page_a[0]);
	r->addr_a[1] = kmap_local_page(r->page_a[1]);
	strcpy(r->addr_a[0], "task A, first");
	strcpy(r->addr_a[1], "task A, second");
	r->a_preemptible = preemptible();
	r->a_cpu_before = raw_smp_processor_id();
	complete(&r->a_mapped);	       /* B runs before this returns */
	if (!r->b_ran_inside_complete) /* none/voluntary: sleep instead */
		wait_for_completion(&r->b_done);
	r->a_cpu_after = raw_smp_processor_id();
	r->a_intact = !strcmp(r->addr_a[0], "task A, first") &&
		      !strcmp(r->addr_a[1], "task A, second");
	kunmap_local(r->addr_a[1]);
	kunmap_local(r->addr_a[0]);
	return 0;
}

static void run_two_tasks(enum preempt_model model, struct km_run *r)
{
	struct task_struct *a, *b;

	init_completion(&r->a_mapped);
	init_completion(&r->b_done);
	r->page_a[0] = high_page();
	r->page_a[1] = high_page();
	r->page_b = high_page();
	pk_boot_online(1, model);
	b = kthread_create(task_b, r, "kmap-b");
	assert_non_null(b);
	sched_set_fifo(b);
	wake_up_process(b);
	a = kthread_run(task_a, r, "kmap-a");
	assert_non_null(a);
	assert_int_equal(kthread_stop(a), 0);
	assert_int_equal(kthread_stop(b), 0);
	machine_shutdown();
	assert_true(r->a_preemptible);
	assert_true(r->b_saw_own);
	assert_true(r->a_intact);
	/* B's one slot is A's first: the same address, another page. */
	assert_ptr_equal(r->addr_b, r->addr_a[0]);
	assert_int_equal(r->a_cpu_before, r->a_cpu_after);
	for (int i = 0; i < 2; i++)
		__free_page(r->page_a[i]);
	__free_page(r->page_b);
	assert_int_equal(captured.nr, 0);
}

static void preempted_task_finds_its_kmap_local_intact(void **state)
{
	struct km_run r = {0};

	(void)state;
	run_two_tasks(PREEMPT_MODEL_FULL, &r);
	assert_true(r.b_ran_inside_complete); /* A was preempted */
}

static void sleeping_task_finds_its_kmap_local_intact(void **state)
{
	struct km_run r = {0};

	(void)state;
	run_two_tasks(PREEMPT_MODEL_NONE, &r); /* A sleeps, B runs */
}

/* ---- rt: a softirq's local mapping survives its task's preemption ---- */

static struct {
	struct completion b_go;
	struct page *page_a, *page_s, *page_b;
	int s_ran, s_preemptible, s_intact;
} rt_km;

static void km_softirq_action(void)
{
	char *p = kmap_local_page(rt_km.page_s);

	strcpy(p, "softirq");
	rt_km.s_preemptible = preemptible() && in_serving_softirq();
	complete(&rt_km.b_go); /* B (SCHED_FIFO) runs before this returns */
	rt_km.s_intact = !strcmp(p, "softirq");
	kunmap_local(p);
	rt_km.s_ran = 1;
}

static int rt_km_b(void *arg)
{
	char *p;

	(void)arg;
	wait_for_completion(&rt_km.b_go);
	p = kmap_local_page(rt_km.page_b); /* the softirq's slot, if lost */
	strcpy(p, "task B");
	kunmap_local(p);
	return 0;
}

static int rt_km_a(void *arg)
{
	char *p = kmap_local_page(rt_km.page_a); /* A has a record now */

	(void)arg;
	kunmap_local(p);
	local_bh_disable();
	raise_softirq(BLOCK_SOFTIRQ);
	local_bh_enable(); /* served here, in A, preemptibly */
	return 0;
}

static void rt_softirq_keeps_its_kmap_local(void **state)
{
	struct task_struct *a, *b;

	(void)state;
	memset(&rt_km, 0, sizeof(rt_km));
	init_completion(&rt_km.b_go);
	rt_km.page_a = high_page();
	rt_km.page_s = high_page();
	rt_km.page_b = high_page();
	open_softirq(BLOCK_SOFTIRQ, km_softirq_action);
	pk_boot_online(1, PREEMPT_MODEL_RT);
	b = kthread_create(rt_km_b, NULL, "kmap-rt-b");
	assert_non_null(b);
	sched_set_fifo(b);
	wake_up_process(b);
	a = kthread_run(rt_km_a, NULL, "kmap-rt-a");
	assert_non_null(a);
	assert_int_equal(kthread_stop(a), 0);
	assert_int_equal(kthread_stop(b), 0);
	machine_shutdown();
	open_softirq(BLOCK_SOFTIRQ, NULL);
	assert_true(rt_km.s_ran);
	assert_true(rt_km.s_preemptible);
	assert_true(rt_km.s_intact);
	__free_page(rt_km.page_a);
	__free_page(rt_km.page_s);
	__free_page(rt_km.page_b);
	assert_int_equal(captured.nr, 0);
}

static long now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/*
 * At the host's mapping limit every slot mmap() fails (injected here, the
 * system limit untouched): each way of mapping returns NULL, never the
 * slot with what was mapped there before, and says so once a second.
 */
static void map_failure_returns_null_never_another_page(void **state)
{
	struct page *a = high_page(), *b = high_page();
	long start = now_s();
	char *p;

	(void)state;
	p = kmap_local_page(a);
	memset(p, 'A', PAGE_SIZE);
	kunmap_local(p);
	memcpy_to_page(b, 0, "B", 1);
	pk_highmem_fail_maps(3 * 100);
	for (int i = 0; i < 100; i++) {
		p = kmap_local_page(b);
		assert_null(p);
		kunmap_local(p);
		p = kmap_atomic(b);
		assert_null(p);
		kunmap_atomic(p);
		assert_null(kmap(b));
	}
	assert_int_equal(pk_kmap_local_depth(), 0);
	assert_true(captured.nr >= 1 && captured.nr <= 1 + now_s() - start);
	assert_report_contains("kmap: cannot map page");
	assert_report_contains("returning NULL");

	/* The mapping works again, with the right page in it. */
	p = kmap_local_page(b);
	assert_non_null(p);
	assert_int_equal(p[0], 'B');
	kunmap_local(p);
	p = kmap(b);
	assert_non_null(p);
	assert_int_equal(p[0], 'B');
	kunmap(b);
	__free_page(a);
	__free_page(b);
}

/* The host mapping [start, end) holding @addr, from /proc/self/maps. */
static void host_mapping(const void *addr, unsigned long *start,
			 unsigned long *end)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];

	assert_non_null(f);
	*start = *end = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", start, end) == 2 &&
		    *start <= (unsigned long)addr && (unsigned long)addr < *end)
			break;
	fclose(f);
}

/*
 * Consecutive pages in consecutive slots would merge into one host
 * mapping, and unmapping one would then split it: a new mapping, which
 * fails at the host's limit and leaves the old page there.  Each mapped
 * slot is a mapping of its own.
 */
static void a_mapped_slot_is_a_host_mapping_of_its_own(void **state)
{
	struct page *pair = alloc_pages(GFP_HIGHUSER, 1);
	unsigned long start, end;
	char *a, *b;

	(void)state;
	assert_non_null(pair);
	a = kmap_local_page(pair);
	b = kmap_local_page(pair + 1);
	host_mapping(a, &start, &end);
	assert_int_equal(start, (unsigned long)a);
	assert_int_equal(end, (unsigned long)a + PAGE_SIZE);
	host_mapping(b, &start, &end);
	assert_int_equal(start, (unsigned long)b);
	assert_int_equal(end, (unsigned long)b + PAGE_SIZE);
	kunmap_local(b);
	kunmap_local(a);
	a = kmap(pair);
	b = kmap(pair + 1);
	host_mapping(b, &start, &end);
	assert_int_equal(end - start, PAGE_SIZE);
	kunmap(pair + 1);
	kunmap(pair);
	__free_pages(pair, 1);
}

/* Split a big mapping page by page until the host refuses one more. */
static void use_up_host_mappings(void)
{
	size_t n = 1 << 17;
	char *m = mmap(NULL, n * PAGE_SIZE, PROT_READ,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (m == MAP_FAILED)
		_exit(20);
	for (size_t i = 1; i < n; i += 2)
		if (mprotect(m + i * PAGE_SIZE, PAGE_SIZE, PROT_NONE))
			return;
	_exit(21);
}

/*
 * The real limit, in a child: a map that needs a new host mapping fails
 * with NULL; a stale slot then faults where the handler can put no
 * scratch memory, which must end the child (SIGSEGV), not report forever.
 */
static void child_at_the_mapping_limit(void)
{
	struct page *hi = alloc_page(GFP_HIGHUSER);
	volatile char *p;

	signal(SIGSEGV, SIG_DFL); /* cmocka's, which would go on testing */
	pk_mm_fault_handler_install();
	p = kmap_local_page(hi);
	if (!p)
		_exit(22);
	kunmap_local((void *)p);
	use_up_host_mappings();
	if (kmap_local_page(hi))
		_exit(23);
	kunmap_local(NULL);
	sink = *p; /* used after kunmap, and no mapping left for scratch */
	_exit(24);
}

static void at_the_real_mapping_limit_maps_fail_cleanly(void **state)
{
	bool reaped = false;
	int status = 0;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		child_at_the_mapping_limit();
	/* A child that reports forever is the bug: give it 60 s. */
	for (int i = 0; i < 600 && !reaped; i++) {
		reaped = waitpid(pid, &status, WNOHANG) == pid;
		if (!reaped)
			usleep(100 * 1000);
	}
	if (!reaped) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		fail_msg("the child is still faulting after 60 s");
	}
	if (WIFEXITED(status))
		fail_msg("the child exited with %d", WEXITSTATUS(status));
	assert_int_equal(WTERMSIG(status), SIGSEGV);
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct pk_mm_config cfg = {.lowmem = 4 << 20, .highmem = 2 << 20};
	const struct CMUnitTest tests[] = {
		T(high_pages_have_no_address_until_mapped),
		T(kmap_atomic_is_atomic_in_every_model),
		T(kmap_local_only_disables_migration),
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP,
			   T(kmap_in_atomic_context_reports)),
		T(use_after_kunmap_faults),
		T(out_of_order_and_overflow_are_reported),
		T(a_hardirq_maps_above_the_task),
		T(kmap_sleeps_when_every_slot_is_taken),
		T(preempted_task_finds_its_kmap_local_intact),
		T(sleeping_task_finds_its_kmap_local_intact),
		T(rt_softirq_keeps_its_kmap_local),
		T(map_failure_returns_null_never_another_page),
		T(a_mapped_slot_is_a_host_mapping_of_its_own),
		T(at_the_real_mapping_limit_maps_fail_cleanly),
	};

	if (pk_mm_init(&cfg) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
