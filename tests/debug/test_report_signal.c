// SPDX-License-Identifier: MIT
/*
 * A report made in an interrupt handler, which runs inside a signal
 * handler, must not allocate: the interrupted code may hold malloc's lock.
 * Every allocation is counted (malloc interposed in this binary, or the
 * sanitizer's allocator hooks under ASan) and one made in hardirq context
 * fails the test.  The report must still come out whole, symbolized, from
 * task context, and the hook must not run in the handler.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include <preempt/interrupt.h>

#include "pk_test.h"

#define LINE 13

static long hardirq_allocs, hook_in_hardirq;

static void count_alloc(void)
{
	if (in_hardirq() || in_nmi())
		__atomic_add_fetch(&hardirq_allocs, 1, __ATOMIC_RELAXED);
}

#if defined(__SANITIZE_ADDRESS__)
/* The runtime's; GCC ships no header declaring it. */
int __sanitizer_install_malloc_and_free_hooks(
	void (*malloc_hook)(const volatile void *, size_t),
	void (*free_hook)(const volatile void *));

static void malloc_hook(const volatile void *ptr, size_t size)
{
	(void)ptr;
	(void)size;
	count_alloc();
}

static void free_hook(const volatile void *ptr)
{
	(void)ptr;
}

static void count_allocs(void)
{
	__sanitizer_install_malloc_and_free_hooks(malloc_hook, free_hook);
}
#else
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

/* Interposed for the whole process, libdw included. */
void *malloc(size_t size)
{
	count_alloc();
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	count_alloc();
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	count_alloc();
	return __libc_realloc(p, size);
}

static void count_allocs(void)
{
}
#endif

static bool hook(const struct pk_report *report, void *arg)
{
	if (in_hardirq() || in_nmi())
		hook_in_hardirq++;
	return capture_hook(report, arg);
}

static __attribute__((noinline)) irqreturn_t warning_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	WARN(1, "warning from hardirq");
	return IRQ_HANDLED;
}

static void hardirq_report_allocates_nothing(void **state)
{
	int cpu = pk_irq_cpu_register();

	(void)state;
	count_allocs();
	capture_reset();
	pk_set_report_hook(hook, NULL);
	assert_true(cpu >= 0);
	assert_int_equal(request_irq(LINE, warning_handler, 0, "warner", NULL),
			 0);
	/* Twice: the first report may warm caches the second reuses. */
	for (int i = 0; i < 2; i++) {
		pk_debug_ratelimit_reset();
		assert_int_equal(irq_raise(LINE, cpu), 0); /* runs right here */
		pk_report_flush();
		assert_int_equal(captured.nr, i + 1);
		assert_report_contains("warning from hardirq");
		assert_report_contains("WARNING: CPU: ");
		assert_report_contains("Call Trace:");
		/* Symbolized after all, from task context. */
		assert_report_contains(" warning_handler+0x");
		assert_null(strchr(captured.text, '\x01'));
	}
	assert_int_equal(hardirq_allocs, 0);
	assert_int_equal(hook_in_hardirq, 0);
	free_irq(LINE, NULL);
	pk_irq_cpu_unregister();
	capture_stop();
}

/* ---- the unwinder stops at the signal frame ---- */

/* The library's own (src/debug/report.h); the test links the library. */
int pk_stack_capture(unsigned long *out, int max, unsigned long from);

#define CAPTURE_LINE 14

static unsigned long handler_frames[64], raiser_return;
static int nr_handler_frames;

static irqreturn_t capturing_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	nr_handler_frames = pk_stack_capture(handler_frames, 64, 0);
	return IRQ_HANDLED;
}

static __attribute__((noinline)) void raise_and_note(int cpu)
{
	raiser_return = (unsigned long)__builtin_return_address(0);
	irq_raise(CAPTURE_LINE, cpu); /* runs right here */
	__asm__ __volatile__("" ::: "memory");
}

static __attribute__((noinline)) void raiser(int cpu)
{
	raise_and_note(cpu);
	__asm__ __volatile__("" ::: "memory");
}

/*
 * From a handler, a capture holds the handler's frames and the
 * interrupted pc, never the interrupted code's callers: one unwind step
 * out of arbitrary interrupted code (a PLT stub, the lazy binder) has read
 * garbage as a return address and faulted.  The interrupted code here is
 * irq_raise(), called from raise_and_note(): its return into raiser() must
 * not be among the frames.
 */
static void handler_capture_stops_at_the_signal_frame(void **state)
{
	int cpu = pk_irq_cpu_register();
	bool found_raiser = false;

	(void)state;
	assert_true(cpu >= 0);
	assert_int_equal(
		request_irq(CAPTURE_LINE, capturing_handler, 0, "cap", NULL),
		0);
	raiser(cpu);
	assert_true(nr_handler_frames >= 2);
	for (int i = 0; i < nr_handler_frames; i++)
		if (handler_frames[i] == raiser_return)
			found_raiser = true;
	assert_false(found_raiser);
	/* In task context the same walk does go on into the callers. */
	nr_handler_frames = pk_stack_capture(handler_frames, 64, 0);
	assert_true(nr_handler_frames >= 2);
	free_irq(CAPTURE_LINE, NULL);
	pk_irq_cpu_unregister();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hardirq_report_allocates_nothing),
		cmocka_unit_test(handler_capture_stops_at_the_signal_frame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
