// SPDX-License-Identifier: MIT
/*
 * The port layer: stacks with guard pages and the context switch. Every
 * check that needs a task's view is recorded in a variable on the task and
 * asserted back on the thread's own stack, as a cmocka failure longjmps to
 * the runner and must not do so from a task stack.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <execinfo.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/port/switch.h"

#define STACK_SIZE (64 * 1024)

/* The thread's own context and one task, shared by the simple tests. */
static struct pk_context main_ctx, task_ctx;
static struct pk_stack task_stack;

static void new_task(void (*entry)(void *), void *arg, size_t size)
{
	assert_int_equal(pk_stack_alloc(&task_stack, size), 0);
	pk_context_init(&task_ctx, &task_stack, entry, arg);
}

/* A task that ended is never switched to again: its stack can go. */
static void free_task(void)
{
	pk_stack_free(&task_stack);
}

/* --- values across switches, and the "last" context ------------------- */

static volatile long mailbox;
static struct pk_context *task_saw_prev;

static void echo_task(void *arg)
{
	long *rounds = arg;

	for (;;) {
		mailbox = mailbox * 2 + 1;
		(*rounds)++;
		task_saw_prev = pk_context_switch(&task_ctx, &main_ctx);
	}
}

static void ping_pong_passes_values(void **state)
{
	long rounds = 0;

	(void)state;
	new_task(echo_task, &rounds, STACK_SIZE);
	for (long i = 0; i < 1000; i++) {
		mailbox = i;
		assert_ptr_equal(pk_context_switch(&main_ctx, &task_ctx),
				 &task_ctx);
		assert_int_equal(mailbox, 2 * i + 1);
		assert_int_equal(rounds, i + 1);
		if (i)
			assert_ptr_equal(task_saw_prev, &main_ctx);
	}
	free_task();
}

/* --- callee-saved registers, control words ------------------------------ */

static volatile int task_rounding_ok = 1;
static volatile unsigned long task_lost; /* registers the task lost */

/*
 * pk_test_call_with(base, fn) (assembly): put base + i in callee-saved
 * register i, call fn(), and return a bit for each register that did not
 * survive the call. Around a switch, both sides run under it with different
 * bases: a register the switch fails to save or restore arrives holding the
 * other side's value, whatever registers the compiler picked.
 */
unsigned long pk_test_call_with(unsigned long base, void (*fn)(void));

/* Assembly, laid out by hand: clang-format cannot. */
/* clang-format off */
#if defined(__x86_64__)
#define SET(reg, i)	"leaq " #i "(%rdi), %" #reg "\n\t"
#define CHECK(reg, i)	"leaq " #i "(%rdx), %rcx\n\t"			\
			"cmpq %rcx, %" #reg "\n\t"			\
			"je 1f\n\t"					\
			"orq $1 << " #i ", %rax\n"			\
			"1:\n\t"
/* Six pushes and the base leave rsp 16-byte aligned for the call. */
__asm__(".text\n"
	".globl pk_test_call_with\n"
	".type pk_test_call_with, @function\n"
	"pk_test_call_with:\n\t"
	"pushq %rbx\n\t"
	"pushq %rbp\n\t"
	"pushq %r12\n\t"
	"pushq %r13\n\t"
	"pushq %r14\n\t"
	"pushq %r15\n\t"
	"pushq %rdi\n\t"
	SET(rbx, 0) SET(rbp, 1) SET(r12, 2) SET(r13, 3) SET(r14, 4)
	SET(r15, 5)
	"call *%rsi\n\t"
	"popq %rdx\n\t"
	"xorl %eax, %eax\n\t"
	CHECK(rbx, 0) CHECK(rbp, 1) CHECK(r12, 2) CHECK(r13, 3)
	CHECK(r14, 4) CHECK(r15, 5)
	"popq %r15\n\t"
	"popq %r14\n\t"
	"popq %r13\n\t"
	"popq %r12\n\t"
	"popq %rbp\n\t"
	"popq %rbx\n\t"
	"ret\n\t"
	".size pk_test_call_with, .-pk_test_call_with\n");
#define NR_CALLEE_SAVED 6
#elif defined(__aarch64__)
#define SETX(reg, i)	"add " #reg ", x0, #" #i "\n\t"
#define SETD(reg, i)	"add x9, x0, #" #i "\n\t"			\
			"fmov " #reg ", x9\n\t"
#define CHECKX(reg, i)	"add x9, x10, #" #i "\n\t"			\
			"cmp " #reg ", x9\n\t"				\
			"b.eq 1f\n\t"					\
			"orr x0, x0, #1 << " #i "\n"			\
			"1:\n\t"
#define CHECKD(reg, i)	"fmov x11, " #reg "\n\t"			\
			"add x9, x10, #" #i "\n\t"			\
			"cmp x11, x9\n\t"				\
			"b.eq 1f\n\t"					\
			"orr x0, x0, #1 << " #i "\n"			\
			"1:\n\t"
__asm__(".text\n"
	".globl pk_test_call_with\n"
	".type pk_test_call_with, %function\n"
	"pk_test_call_with:\n\t"
	"stp x29, x30, [sp, #-176]!\n\t"
	"mov x29, sp\n\t"
	"stp x19, x20, [sp, #16]\n\t"
	"stp x21, x22, [sp, #32]\n\t"
	"stp x23, x24, [sp, #48]\n\t"
	"stp x25, x26, [sp, #64]\n\t"
	"stp x27, x28, [sp, #80]\n\t"
	"stp d8, d9, [sp, #96]\n\t"
	"stp d10, d11, [sp, #112]\n\t"
	"stp d12, d13, [sp, #128]\n\t"
	"stp d14, d15, [sp, #144]\n\t"
	"str x0, [sp, #160]\n\t"
	SETX(x19, 0)  SETX(x20, 1)  SETX(x21, 2)  SETX(x22, 3)
	SETX(x23, 4)  SETX(x24, 5)  SETX(x25, 6)  SETX(x26, 7)
	SETX(x27, 8)  SETX(x28, 9)
	SETD(d8, 10)  SETD(d9, 11)  SETD(d10, 12) SETD(d11, 13)
	SETD(d12, 14) SETD(d13, 15) SETD(d14, 16) SETD(d15, 17)
	"blr x1\n\t"
	"ldr x10, [sp, #160]\n\t"
	"mov x0, #0\n\t"
	CHECKX(x19, 0)  CHECKX(x20, 1)  CHECKX(x21, 2)  CHECKX(x22, 3)
	CHECKX(x23, 4)  CHECKX(x24, 5)  CHECKX(x25, 6)  CHECKX(x26, 7)
	CHECKX(x27, 8)  CHECKX(x28, 9)
	CHECKD(d8, 10)  CHECKD(d9, 11)  CHECKD(d10, 12) CHECKD(d11, 13)
	CHECKD(d12, 14) CHECKD(d13, 15) CHECKD(d14, 16) CHECKD(d15, 17)
	"ldp x19, x20, [sp, #16]\n\t"
	"ldp x21, x22, [sp, #32]\n\t"
	"ldp x23, x24, [sp, #48]\n\t"
	"ldp x25, x26, [sp, #64]\n\t"
	"ldp x27, x28, [sp, #80]\n\t"
	"ldp d8, d9, [sp, #96]\n\t"
	"ldp d10, d11, [sp, #112]\n\t"
	"ldp d12, d13, [sp, #128]\n\t"
	"ldp d14, d15, [sp, #144]\n\t"
	"ldp x29, x30, [sp], #176\n\t"
	"ret\n\t"
	".size pk_test_call_with, .-pk_test_call_with\n");
#define NR_CALLEE_SAVED 18
#endif
/* clang-format on */

#ifndef NR_CALLEE_SAVED
/* No assembly for this architecture: a plain call, nothing checked. */
unsigned long pk_test_call_with(unsigned long base, void (*fn)(void))
{
	(void)base;
	fn();
	return 0;
}
#endif

#define MAIN_BASE 0x5a5a5a5a00000000ul
#define TASK_BASE 0x0dead00000000000ul

static void main_side_switch(void)
{
	pk_context_switch(&main_ctx, &task_ctx);
}

static void task_side_switch(void)
{
	pk_context_switch(&task_ctx, &main_ctx);
}

/* The floating-point controls the ABI says a call preserves: MXCSR's
 * rounding and masks and the x87 control word on x86-64, FPCR on arm64. */
static unsigned long fp_control(void)
{
#if defined(__x86_64__)
	unsigned int mxcsr;
	unsigned short fcw;

	__asm__ __volatile__("stmxcsr %0" : "=m"(mxcsr));
	__asm__ __volatile__("fnstcw %0" : "=m"(fcw));
	return (mxcsr & ~0x3fu) | (unsigned long)fcw << 32;
#elif defined(__aarch64__)
	unsigned long fpcr;

	__asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
	return fpcr;
#else
	return 0;
#endif
}

static void set_fp_control(unsigned long v)
{
#if defined(__x86_64__)
	unsigned int mxcsr = (unsigned int)v;
	unsigned short fcw = (unsigned short)(v >> 32);

	__asm__ __volatile__("ldmxcsr %0" : : "m"(mxcsr));
	__asm__ __volatile__("fldcw %0" : : "m"(fcw));
#elif defined(__aarch64__)
	__asm__ __volatile__("msr fpcr, %0" : : "r"(v));
#else
	(void)v;
#endif
}

/* Round towards +infinity: a mode a task may set and must keep. */
#if defined(__x86_64__)
#define ROUND_UP_CONTROL (fp_control() | 0x4000ul | 0x800ul << 32)
#elif defined(__aarch64__)
#define ROUND_UP_CONTROL (fp_control() | 0x400000ul)
#else
#define ROUND_UP_CONTROL 0ul
#endif

static void clobber_task(void *arg)
{
	unsigned long mine = ROUND_UP_CONTROL;

	(void)arg;
	set_fp_control(mine);
	for (;;) {
		task_lost |= pk_test_call_with(TASK_BASE, task_side_switch);
		if (fp_control() != mine)
			task_rounding_ok = 0;
	}
}

static void callee_saved_registers_survive(void **state)
{
	/* More live values than there are callee-saved registers (x86-64
	 * has 6 general ones, arm64 10 and 8 floating-point), so the
	 * compiler keeps as many as it can in them across the switch. */
	volatile unsigned long seed = 3;
	volatile double fseed = 0.5;
	unsigned long a = seed, b = a * 3, c = b * 5, d = c * 7, e = d * 11,
		      f = e * 13, g = f * 17, h = g * 19, k = h * 23,
		      l = k * 29, m = l * 31, n = m * 37;
	double x0 = fseed, x1 = x0 * 3, x2 = x1 * 5, x3 = x2 * 7, x4 = x3 * 11,
	       x5 = x4 * 13, x6 = x5 * 17, x7 = x6 * 19, x8 = x7 * 23;
	unsigned long control = fp_control();

	(void)state;
	new_task(clobber_task, NULL, STACK_SIZE);
	for (unsigned long i = 0; i < 1000; i++) {
		pk_context_switch(&main_ctx, &task_ctx);
		a += i, b += i, c += i, d += i, e += i, f += i, g += i, h += i;
		k += i, l += i, m += i, n += i;
		x0 += 1, x1 += 1, x2 += 1, x3 += 1, x4 += 1, x5 += 1, x6 += 1;
		x7 += 1, x8 += 1;
	}
	assert_int_equal(a, 3 + 999 * 1000 / 2);
	assert_int_equal(b - a, 3 * 3 - 3);
	assert_int_equal(c - a, 3 * 15 - 3);
	assert_int_equal(d - a, 3 * 105 - 3);
	assert_int_equal(e - a, 3 * 1155 - 3);
	assert_int_equal(f - a, 3 * 15015 - 3);
	assert_int_equal(g - a, 3 * 255255 - 3);
	assert_int_equal(h - a, 3 * 4849845 - 3);
	assert_int_equal(k - a, 3 * 111546435ul - 3);
	assert_int_equal(l - a, 3 * 3234846615ul - 3);
	assert_int_equal(m - a, 3 * 100280245065ul - 3);
	assert_int_equal(n - a, 3 * 3710369067405ul - 3);
	/* Small integers and halves: every sum is exact. */
	assert_true(x0 == 0.5 + 1000);
	assert_true(x1 == 1.5 + 1000);
	assert_true(x2 == 7.5 + 1000);
	assert_true(x3 == 52.5 + 1000);
	assert_true(x4 == 577.5 + 1000);
	assert_true(x5 == 7507.5 + 1000);
	assert_true(x6 == 127627.5 + 1000);
	assert_true(x7 == 2424922.5 + 1000);
	assert_true(x8 == 55773217.5 + 1000);
	/* The task runs rounding up; this side never saw it, nor the task
	 * lost it across a switch. */
	assert_int_equal(fp_control(), control);
	assert_true(task_rounding_ok);
	free_task();
}

static void every_callee_saved_register_survives(void **state)
{
	(void)state;
#ifdef NR_CALLEE_SAVED
	task_lost = 0;
	new_task(clobber_task, NULL, STACK_SIZE);
	for (int i = 0; i < 100; i++)
		assert_int_equal(pk_test_call_with(MAIN_BASE, main_side_switch),
				 0);
	assert_int_equal(task_lost, 0);
	free_task();
#else
	skip();
#endif
}

/* --- deep recursion on a task stack ------------------------------------- */

static char *deep_top;
static size_t deep_reached;
static volatile int deep_ok;

/* Each level fills its frame with a pattern, recurses until most of the
 * stack is used, switches away from the bottom, and checks the patterns
 * on the way back up. */
static int __attribute__((noinline)) recurse(unsigned int level, size_t want)
{
	volatile unsigned char frame[256];
	/* The frame address, not the array's: ASan may put the array on
	 * its fake stack (detect_stack_use_after_return). */
	size_t used = (size_t)(deep_top - (char *)__builtin_frame_address(0));
	int ok = 1;

	for (size_t i = 0; i < sizeof(frame); i++)
		frame[i] = (unsigned char)(level + i);
	if (used < want) {
		ok = recurse(level + 1, want);
	} else {
		deep_reached = used;
		pk_context_switch(&task_ctx, &main_ctx);
	}
	for (size_t i = 0; i < sizeof(frame); i++)
		ok &= frame[i] == (unsigned char)(level + i);
	return ok;
}

static void deep_task(void *arg)
{
	deep_top = (char *)task_stack.base + task_stack.size;
	deep_ok = recurse(0, *(size_t *)arg);
	for (;;)
		pk_context_switch(&task_ctx, &main_ctx);
}

static void deep_recursion_on_a_task_stack(void **state)
{
	size_t want = STACK_SIZE * 3 / 4; /* 48 KiB of 64 */

	(void)state;
	new_task(deep_task, &want, STACK_SIZE);
	deep_ok = -1;
	pk_context_switch(&main_ctx, &task_ctx); /* down to the bottom */
	assert_true(deep_reached >= want);
	assert_true(deep_reached < STACK_SIZE);
	assert_int_equal(deep_ok, -1);
	pk_context_switch(&main_ctx, &task_ctx); /* and back up */
	assert_int_equal(deep_ok, 1);
	free_task();
}

/* --- the guard page ------------------------------------------------------ */

static char *guard_lo, *guard_hi;
static volatile unsigned int overflow_limit = ~0u;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	char *addr = si->si_addr;

	(void)sig;
	(void)uc;
	/* 42: the fault was in the guard page, as it must be. */
	_exit(addr >= guard_lo && addr < guard_hi ? 42 : 43);
}

static unsigned int __attribute__((noinline)) overflow(unsigned int depth)
{
	volatile char frame[512];

	frame[0] = (char)depth;
	if (depth > overflow_limit) /* never: keeps the recursion legal */
		return 0;
	return overflow(depth + 1) + (unsigned int)frame[0];
}

static void overflow_task(void *arg)
{
	(void)arg;
	overflow(0);
	pk_context_switch(&task_ctx, &main_ctx);
}

static void guard_page_faults(void **state)
{
	int status;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static char alt[64 * 1024];
		stack_t ss = {.ss_sp = alt, .ss_size = sizeof(alt)};
		struct sigaction sa = {.sa_sigaction = on_segv,
				       .sa_flags = SA_SIGINFO | SA_ONSTACK};

		/* A reused slot: freeing gave its memory back, not its guard.
		 */
		if (pk_stack_alloc(&task_stack, 16 * 1024))
			_exit(2);
		guard_lo = task_stack.map;
		pk_stack_free(&task_stack);
		if (pk_stack_alloc(&task_stack, 16 * 1024) ||
		    task_stack.map != guard_lo)
			_exit(2);
		guard_hi = task_stack.base;
		sigaltstack(&ss, NULL);
		sigaction(SIGSEGV, &sa, NULL);
		pk_context_init(&task_ctx, &task_stack, overflow_task, NULL);
		pk_context_switch(&main_ctx, &task_ctx);
		_exit(3); /* the overflow went unnoticed */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	/* Our handler says where it faulted. Under ASan its own SEGV
	 * handler may get there first: a report and a failed exit. */
	if (WIFEXITED(status) && WEXITSTATUS(status) != 42) {
		assert_true(PK_PORT_ASAN);
		assert_int_not_equal(WEXITSTATUS(status), 3);
		assert_int_not_equal(WEXITSTATUS(status), 43);
		assert_int_not_equal(WEXITSTATUS(status), 0);
	} else if (!WIFEXITED(status)) {
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), SIGSEGV);
	}
}

/* --- stack allocation ---------------------------------------------------- */

static void stacks_are_page_rounded(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct pk_stack s;

	(void)state;
	assert_int_equal(pk_stack_alloc(&s, 0), -EINVAL);
	assert_int_equal(pk_stack_alloc(&s, SIZE_MAX), -EINVAL);
	assert_int_equal(pk_stack_alloc(&s, page + 1), 0);
	assert_int_equal(s.size, 2 * page);
	assert_int_equal(s.map_size, 3 * page);
	assert_ptr_equal((char *)s.map + page, s.base);
	assert_int_equal((uintptr_t)s.base % page, 0);
	memset(s.base, 0xa5, s.size); /* all of it is writable */
	pk_stack_free(&s);
	assert_null(s.map);
	pk_stack_free(&s); /* twice is harmless */
}

/* --- alignment at entry -------------------------------------------------- */

static uintptr_t entry_frame, entry_object;
static char entry_printed[32];

static void __attribute__((noinline)) aligned_entry(void *arg)
{
	alignas(max_align_t) volatile char object[16];

	(void)arg;
	/* The frame pointer: 16-byte aligned exactly when the stack was
	 * aligned at the call, the ABI's promise to every function. */
	entry_frame = (uintptr_t)__builtin_frame_address(0);
	entry_object = (uintptr_t)object;
	object[0] = 0;
	/* glibc formats doubles with aligned SSE stores: it faults on a
	 * misaligned stack. */
	snprintf(entry_printed, sizeof(entry_printed), "%.3f", 1.5);
	for (;;)
		pk_context_switch(&task_ctx, &main_ctx);
}

static void stack_is_aligned_at_entry(void **state)
{
	(void)state;
	new_task(aligned_entry, NULL, STACK_SIZE);
	pk_context_switch(&main_ctx, &task_ctx);
	assert_int_equal(entry_frame % 16, 0);
	assert_int_equal(entry_object % alignof(max_align_t), 0);
	assert_true(entry_frame > (uintptr_t)task_stack.base);
	assert_true(entry_frame < (uintptr_t)task_stack.base + STACK_SIZE);
	assert_string_equal(entry_printed, "1.500");
	free_task();
}

/* --- backtraces end at the task's first frame ---------------------------- */

static int bt_frames = -1;

static void backtrace_task(void *arg)
{
	void *frames[64];

	(void)arg;
	bt_frames = backtrace(frames, 64);
	for (;;)
		pk_context_switch(&task_ctx, &main_ctx);
}

static void backtrace_stops_at_the_entry(void **state)
{
	(void)state;
	new_task(backtrace_task, NULL, STACK_SIZE);
	pk_context_switch(&main_ctx, &task_ctx);
	/* backtrace_task and the trampoline; under ASan also its backtrace
	 * interceptor and pk_port_start, with ucontext glibc's start frame
	 * and uc_start: then nothing, the unwinder stopped at the top. */
	assert_true(bt_frames >= 1);
	assert_true(bt_frames <= 6);
	free_task();
}

/* --- an entry that returns ----------------------------------------------- */

static void returning_task(void *arg)
{
	(void)arg;
}

static void returning_entry_aborts(void **state)
{
	int status, devnull;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		devnull = open("/dev/null", O_WRONLY);
		if (devnull >= 0)
			dup2(devnull, STDERR_FILENO);
		if (pk_stack_alloc(&task_stack, STACK_SIZE))
			_exit(2);
		pk_context_init(&task_ctx, &task_stack, returning_task, NULL);
		pk_context_switch(&main_ctx, &task_ctx);
		_exit(3);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

/* --- many contexts, round robin ------------------------------------------ */

#define NR_TASKS 100
#define NR_ROUNDS 50

static struct pk_context ring_ctx[NR_TASKS];
static struct pk_stack ring_stack[NR_TASKS];
static int ring_trace[NR_TASKS * NR_ROUNDS];
static int ring_len;

static void ring_task(void *arg)
{
	int me = (int)(intptr_t)arg;
	struct pk_context *next =
		me + 1 < NR_TASKS ? &ring_ctx[me + 1] : &main_ctx;

	for (int round = 0;; round++) {
		/* A value on this stack, checked after every switch. */
		if (ring_len < NR_TASKS * NR_ROUNDS)
			ring_trace[ring_len++] = me * 1000 + round;
		pk_context_switch(&ring_ctx[me], next);
	}
}

static void many_contexts_round_robin(void **state)
{
	(void)state;
	for (int i = 0; i < NR_TASKS; i++) {
		assert_int_equal(pk_stack_alloc(&ring_stack[i], 32 * 1024), 0);
		pk_context_init(&ring_ctx[i], &ring_stack[i], ring_task,
				(void *)(intptr_t)i);
	}
	ring_len = 0;
	for (int round = 0; round < NR_ROUNDS; round++)
		assert_ptr_equal(pk_context_switch(&main_ctx, &ring_ctx[0]),
				 &ring_ctx[NR_TASKS - 1]);
	assert_int_equal(ring_len, NR_TASKS * NR_ROUNDS);
	for (int round = 0; round < NR_ROUNDS; round++)
		for (int i = 0; i < NR_TASKS; i++)
			assert_int_equal(ring_trace[round * NR_TASKS + i],
					 i * 1000 + round);
	for (int i = 0; i < NR_TASKS; i++)
		pk_stack_free(&ring_stack[i]);
}

/* --- resumed on another thread ------------------------------------------- */

static __thread int thread_tag;
static int seen_tags[8];
static pthread_t seen_threads[8];
static int nr_seen;

/* Out of line: the TLS address must be taken on the thread running now. */
static int __attribute__((noinline)) current_tag(void)
{
	__asm__ __volatile__("" ::: "memory");
	return thread_tag;
}

static void migrating_task(void *arg)
{
	/* Whoever switched to us is where we go back: the "last" value, as
	 * the main context differs from thread to thread. */
	struct pk_context *back = arg;
	volatile unsigned long local = 0x5eed;

	for (;;) {
		seen_tags[nr_seen] = current_tag();
		seen_threads[nr_seen] = pthread_self();
		nr_seen++;
		local = local * 31 + 1;
		back = pk_context_switch(&task_ctx, back);
	}
}

struct thread_b {
	struct pk_context main; /* thread B's own context */
	pthread_t self;
};

static void *thread_b_fn(void *arg)
{
	struct thread_b *b = arg;

	thread_tag = 2;
	b->self = pthread_self();
	/* Switched out on thread A, switched in here, twice. */
	for (int i = 0; i < 2; i++)
		if (pk_context_switch(&b->main, &task_ctx) != &task_ctx)
			return (void *)1;
	return NULL;
}

static void resumed_on_another_thread(void **state)
{
	struct thread_b b;
	pthread_t t;
	void *ret;

	(void)state;
	thread_tag = 1;
	nr_seen = 0;
	new_task(migrating_task, &main_ctx, STACK_SIZE);
	pk_context_switch(&main_ctx, &task_ctx); /* starts on A */
	assert_int_equal(pthread_create(&t, NULL, thread_b_fn, &b), 0);
	assert_int_equal(pthread_join(t, &ret), 0);
	assert_null(ret);
	/* Back on A: its last switch out was on B. */
	assert_ptr_equal(pk_context_switch(&main_ctx, &task_ctx), &task_ctx);
	assert_int_equal(nr_seen, 4);
	assert_int_equal(seen_tags[0], 1);
	assert_int_equal(seen_tags[1], 2);
	assert_int_equal(seen_tags[2], 2);
	assert_int_equal(seen_tags[3], 1);
	assert_true(pthread_equal(seen_threads[0], pthread_self()));
	assert_true(pthread_equal(seen_threads[1], b.self));
	assert_true(pthread_equal(seen_threads[2], b.self));
	assert_true(pthread_equal(seen_threads[3], pthread_self()));
	free_task();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ping_pong_passes_values),
		cmocka_unit_test(callee_saved_registers_survive),
		cmocka_unit_test(every_callee_saved_register_survives),
		cmocka_unit_test(deep_recursion_on_a_task_stack),
		cmocka_unit_test(guard_page_faults),
		cmocka_unit_test(stacks_are_page_rounded),
		cmocka_unit_test(stack_is_aligned_at_entry),
		cmocka_unit_test(backtrace_stops_at_the_entry),
		cmocka_unit_test(returning_entry_aborts),
		cmocka_unit_test(many_contexts_round_robin),
		cmocka_unit_test(resumed_on_another_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
