// SPDX-License-Identifier: MIT
/*
 * Preemption at interrupt return keeps every register of the preempted
 * code, in both ways the irq layer can take it: resumed in the task's own
 * context (the port's redirect, x86-64) and through PK_SIGRESCHED.
 *
 * A normal task spins in assembly with a known value in each general
 * register and each SSE register; an interrupt handler wakes a SCHED_FIFO
 * task, which preempts it at interrupt return and overwrites every
 * register the ABI lets a function overwrite.  After each spin the first
 * task checks its values.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>

#include <preempt/interrupt.h>
#include <preempt/sched.h>

#include "pk_machine.h"

#define LINE 11
#define PREEMPTIONS 200
#define SPIN 200000L

#if defined(__x86_64__)

/* xmm0-15's values: byte i of register r is r * 16 + i. */
__attribute__((used, aligned(16))) static unsigned char
	xmm_values[16 * 16] __asm__("irqret_xmm_values");
__attribute__((used)) static int registers_lost __asm__("irqret_lost");
/* The spin's count, rip-relative: no operand may need a register. */
__attribute__((used)) static long spin_count __asm__("irqret_spin_count");

static void fill_xmm_values(void)
{
	for (int i = 0; i < 16 * 16; i++)
		xmm_values[i] = (unsigned char)i;
}

#define XMM_LOAD(n) "movdqa irqret_xmm_values+" #n "*16(%%rip), %%xmm" #n "\n"
#define XMM_CHECK(n)                                                           \
	"pcmpeqb irqret_xmm_values+" #n "*16(%%rip), %%xmm" #n "\n"            \
	"pmovmskb %%xmm" #n ", %%eax\n"                                        \
	"cmpl $0xffff, %%eax\n"                                                \
	"jne 2f\n"
#define GPR_LOAD(r, v) "movq $" #v ", %%" #r "\n"
#define GPR_CHECK(r, v)                                                        \
	"cmpq $" #v ", %%" #r "\n"                                             \
	"jne 2f\n"

/* Spins @n times with every register but rsp, rbp and r15 (the count) set. */
// clang-format off
static void spin_keeping_registers(long n)
{
	spin_count = n;
	__asm__ __volatile__(
		"movq irqret_spin_count(%%rip), %%r15\n"
		GPR_LOAD(rax, 0x1010101) GPR_LOAD(rbx, 0x2020202)
		GPR_LOAD(rcx, 0x3030303) GPR_LOAD(rdx, 0x4040404)
		GPR_LOAD(rsi, 0x5050505) GPR_LOAD(rdi, 0x6060606)
		GPR_LOAD(r8, 0x7070707) GPR_LOAD(r9, 0x8080808)
		GPR_LOAD(r10, 0x9090909) GPR_LOAD(r11, 0xa0a0a0a)
		GPR_LOAD(r12, 0xb0b0b0b) GPR_LOAD(r13, 0xc0c0c0c)
		GPR_LOAD(r14, 0xd0d0d0d)
		XMM_LOAD(0) XMM_LOAD(1) XMM_LOAD(2) XMM_LOAD(3)
		XMM_LOAD(4) XMM_LOAD(5) XMM_LOAD(6) XMM_LOAD(7)
		XMM_LOAD(8) XMM_LOAD(9) XMM_LOAD(10) XMM_LOAD(11)
		XMM_LOAD(12) XMM_LOAD(13) XMM_LOAD(14) XMM_LOAD(15)
		"1: decq %%r15\n"
		"jnz 1b\n"
		GPR_CHECK(rax, 0x1010101) GPR_CHECK(rbx, 0x2020202)
		GPR_CHECK(rcx, 0x3030303) GPR_CHECK(rdx, 0x4040404)
		GPR_CHECK(rsi, 0x5050505) GPR_CHECK(rdi, 0x6060606)
		GPR_CHECK(r8, 0x7070707) GPR_CHECK(r9, 0x8080808)
		GPR_CHECK(r10, 0x9090909) GPR_CHECK(r11, 0xa0a0a0a)
		GPR_CHECK(r12, 0xb0b0b0b) GPR_CHECK(r13, 0xc0c0c0c)
		GPR_CHECK(r14, 0xd0d0d0d)
		XMM_CHECK(0) XMM_CHECK(1) XMM_CHECK(2) XMM_CHECK(3)
		XMM_CHECK(4) XMM_CHECK(5) XMM_CHECK(6) XMM_CHECK(7)
		XMM_CHECK(8) XMM_CHECK(9) XMM_CHECK(10) XMM_CHECK(11)
		XMM_CHECK(12) XMM_CHECK(13) XMM_CHECK(14) XMM_CHECK(15)
		"jmp 3f\n"
		"2: movl $1, irqret_lost(%%rip)\n"
		"3:\n"
		:
		:
		: "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10",
		  "r11", "r12", "r13", "r14", "r15", "xmm0", "xmm1", "xmm2",
		  "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
		  "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "cc",
		  "memory");
}
// clang-format on

/* What a preempting task may leave in the registers the ABI lets it. */
static void overwrite_registers(void)
{
	__asm__ __volatile__("pcmpeqb %%xmm0, %%xmm0\n"
			     "movdqa %%xmm0, %%xmm1\n"
			     "movdqa %%xmm0, %%xmm2\n"
			     "movdqa %%xmm0, %%xmm3\n"
			     "movdqa %%xmm0, %%xmm4\n"
			     "movdqa %%xmm0, %%xmm5\n"
			     "movdqa %%xmm0, %%xmm6\n"
			     "movdqa %%xmm0, %%xmm7\n"
			     "movdqa %%xmm0, %%xmm8\n"
			     "movdqa %%xmm0, %%xmm9\n"
			     "movdqa %%xmm0, %%xmm10\n"
			     "movdqa %%xmm0, %%xmm11\n"
			     "movdqa %%xmm0, %%xmm12\n"
			     "movdqa %%xmm0, %%xmm13\n"
			     "movdqa %%xmm0, %%xmm14\n"
			     "movdqa %%xmm0, %%xmm15\n"
			     "movq $-1, %%rax\n"
			     "movq $-1, %%rcx\n"
			     "movq $-1, %%rdx\n"
			     "movq $-1, %%rsi\n"
			     "movq $-1, %%rdi\n"
			     "movq $-1, %%r8\n"
			     "movq $-1, %%r9\n"
			     "movq $-1, %%r10\n"
			     "movq $-1, %%r11\n"
			     :
			     :
			     : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9",
			       "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3",
			       "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
			       "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
			       "xmm15", "cc");
}

#define HAVE_REGISTER_CHECK 1
#else
#define HAVE_REGISTER_CHECK 0
static int registers_lost;
static void fill_xmm_values(void)
{
}
static void spin_keeping_registers(long n)
{
	(void)n;
}
static void overwrite_registers(void)
{
}
#endif

static struct task_struct *preempter;
static int preempter_runs, stop_raising;

static int preempter_fn(void *arg)
{
	(void)arg;
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
		overwrite_registers();
		__atomic_add_fetch(&preempter_runs, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static irqreturn_t wake_preempter(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	wake_up_process(preempter);
	return IRQ_HANDLED;
}

/*
 * MXCSR, its status flags left out: the spinner's own (round toward
 * zero), and the ABI's initial one, which the code that switches it out
 * must start from whatever the spinner set.
 */
#define MXCSR_CONTROL(x) ((x) & ~0x3fu)
#define MXCSR_SPINNER 0x7f80u
#define MXCSR_INITIAL 0x1f80u

/* Elsewhere than x86-64: as if always the initial one (nothing to see). */
static unsigned int mxcsr(void)
{
	unsigned int v = MXCSR_INITIAL;

	if (HAVE_REGISTER_CHECK)
		__asm__ __volatile__("stmxcsr %0" : "=m"(v));
	return MXCSR_CONTROL(v);
}

static void set_mxcsr(unsigned int v)
{
	if (HAVE_REGISTER_CHECK)
		__asm__ __volatile__("ldmxcsr %0" : : "m"(v));
}

static struct task_struct *spinner_task;
static int switch_saw_spinner_mxcsr;

/* Runs in the spinner as it is switched out, in the code that preempts. */
static void sched_out_mxcsr(struct task_struct *prev, struct task_struct *next)
{
	(void)next;
	if (prev == spinner_task && mxcsr() != MXCSR_INITIAL)
		switch_saw_spinner_mxcsr = 1;
}

static struct pk_switch_hook mxcsr_hook = {.sched_out = sched_out_mxcsr};

/* Until the preempter has run PREEMPTIONS times after a raise each. */
static int spinner_fn(void *arg)
{
	(void)arg;
	set_mxcsr(MXCSR_SPINNER);
	while (__atomic_load_n(&preempter_runs, __ATOMIC_RELAXED) <
	       PREEMPTIONS) {
		spin_keeping_registers(SPIN);
		if (HAVE_REGISTER_CHECK && mxcsr() != MXCSR_SPINNER)
			registers_lost = 1;
	}
	set_mxcsr(MXCSR_INITIAL);
	return 0;
}

static void *raiser_fn(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop_raising, __ATOMIC_ACQUIRE)) {
		irq_raise(LINE, pk_vcpu_irq_cpu(0));
		usleep(500);
	}
	return NULL;
}

/* One vCPU, full: the spinner preempted from interrupts until done. */
static struct pk_irq_stats preempt_spinner(int irq_return)
{
	struct machine_config cfg = {.nr_cpus = 1,
				     .hz = 1000,
				     .model = PREEMPT_MODEL_FULL,
				     .irq_return = irq_return};
	struct task_struct *spinner;
	struct pk_irq_stats st;
	pthread_t raiser;

	fill_xmm_values();
	registers_lost = 0;
	switch_saw_spinner_mxcsr = 0;
	assert_int_equal(pk_switch_hook_register(&mxcsr_hook), 0);
	preempter_runs = 0;
	stop_raising = 0;
	assert_int_equal(machine_boot(&cfg), 0);
	assert_int_equal(request_irq(LINE, wake_preempter, 0, "irqret", NULL),
			 0);
	preempter = kthread_create(preempter_fn, NULL, "preempter");
	get_task_struct(preempter);
	sched_set_fifo(preempter);
	wake_up_process(preempter);
	spinner = kthread_create(spinner_fn, NULL, "spinner");
	get_task_struct(spinner);
	spinner_task = spinner;
	wake_up_process(spinner);
	assert_int_equal(pthread_create(&raiser, NULL, raiser_fn, NULL), 0);
	kthread_stop(spinner);
	put_task_struct(spinner);
	__atomic_store_n(&stop_raising, 1, __ATOMIC_RELEASE);
	pthread_join(raiser, NULL);
	kthread_stop(preempter);
	put_task_struct(preempter);
	free_irq(LINE, NULL);
	st = pk_irq_stats(0);
	machine_shutdown();
	assert_int_equal(pk_switch_hook_unregister(&mxcsr_hook), 0);
	return st;
}

static void registers_survive_redirected_return(void **state)
{
	struct pk_irq_stats st;

	(void)state;
	if (!HAVE_REGISTER_CHECK)
		skip();
	st = preempt_spinner(1);
	assert_int_equal(registers_lost, 0);
	/* The scheduler ran in the ABI's floating-point state, not the
	 * spinner's rounding mode. */
	assert_int_equal(switch_saw_spinner_mxcsr, 0);
	assert_true(preempter_runs >= PREEMPTIONS);
	/* The redirect did the preempting, no signal. */
	assert_true(st.return_redirects > 0);
	assert_int_equal(st.resched_signals, 0);
}

/* Every port takes this way; the registers are checked on x86-64. */
static void registers_survive_resched_signal(void **state)
{
	struct pk_irq_stats st;

	(void)state;
	st = preempt_spinner(-1);
	if (HAVE_REGISTER_CHECK)
		assert_int_equal(registers_lost, 0);
	assert_int_equal(switch_saw_spinner_mxcsr, 0);
	assert_true(preempter_runs >= PREEMPTIONS);
	assert_true(st.resched_signals > 0);
	assert_int_equal(st.return_redirects, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(registers_survive_redirected_return,
					  machine_teardown),
		cmocka_unit_test_teardown(registers_survive_resched_signal,
					  machine_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
