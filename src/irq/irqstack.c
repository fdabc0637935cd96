// SPDX-License-Identifier: MIT
/*
 * Per-CPU interrupt stacks and the task stack guard.
 *
 * Every CPU thread runs its interrupt and NMI handlers on its own stack,
 * its sigaltstack, so nested interrupt frames never land on a task stack.
 * A handler never switches tasks there: preemption at interrupt return is
 * a second signal the handler sends its own thread, delivered on the task
 * stack once the interrupt frame is gone (see irq.c and docs/design.md).
 *
 * The alternate stack also lets SIGSEGV run when a task overflowed its
 * stack: a hit on the guard page below the running task's stack becomes
 * the kernel's report, printed async-signal-safely, then the process
 * aborts, as the kernel dies.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include <preempt/debug.h>

#include "../debug/report.h"
#include "../port/irqstack.h"
#include "../port/sigchain.h"
#include "irq.h"

bool (*pk_task_stack_hook)(unsigned long *base, unsigned long *top);

static __thread struct pk_irq_stack irq_stack;
static __thread stack_t prev_altstack;
static struct sigaction old_segv;
static unsigned long guard_size; /* read once: sysconf() in a handler? no */

int pk_irq_stack_on(void)
{
	stack_t ss;
	int err = pk_irq_stack_alloc(&irq_stack);

	if (err)
		return err;
	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = irq_stack.base;
	ss.ss_size = irq_stack.size;
	/* The one set before (a sanitizer's) is put back at unregistration. */
	if (sigaltstack(&ss, &prev_altstack) != 0) {
		pk_irq_stack_free(&irq_stack);
		return -ENOMEM;
	}
	return 0;
}

void pk_irq_stack_off(void)
{
	if (!irq_stack.map)
		return;
	prev_altstack.ss_flags &= ~SS_ONSTACK;
	sigaltstack(&prev_altstack, NULL);
	pk_irq_stack_free(&irq_stack);
}

bool pk_on_irq_stack(void)
{
	char here;
	char *base = irq_stack.base;

	return base && &here >= base && &here < base + irq_stack.size;
}

/*
 * rt_sigreturn restores the alternate stack settings saved in the frame.
 * A task preempted in a handler on one vCPU may return from it on
 * another: it must leave that thread's irq stack in place, not install
 * the first thread's there too.
 */
__attribute__((noinline)) void pk_irq_stack_fix_frame(void *uctx)
{
	ucontext_t *uc = uctx;

	memset(&uc->uc_stack, 0, sizeof(uc->uc_stack));
	if (irq_stack.base) {
		uc->uc_stack.ss_sp = irq_stack.base;
		uc->uc_stack.ss_size = irq_stack.size;
	} else {
		uc->uc_stack.ss_flags = SS_DISABLE;
	}
}

/* ---- the guard page ---- */

static unsigned long fault_ip(const void *uctx)
{
	const ucontext_t *uc = uctx;

#if defined(__x86_64__)
	return (unsigned long)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (unsigned long)uc->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

/* The kernel's handle_stack_overflow(): say so, then die. */
static void report_overflow(unsigned long addr, unsigned long base,
			    unsigned long top, const void *uctx)
{
	struct pk_rbuf buf;
	char comm[16];

	buf.len = 0;
	pk_signal_enter(); /* nothing below may symbolize or allocate */
	pk_rbuf_printf(&buf,
		       "BUG: TASK stack guard page was hit at %#lx "
		       "(stack is %#lx..%#lx)\n",
		       addr, base, top);
	pk_rbuf_printf(&buf, "kernel stack overflow (page fault): 0000 [#1] "
			     "SMP\n");
	pk_rbuf_printf(&buf, "CPU: %d PID: %d Comm: %s %s\n", pk_current_cpu(),
		       pk_current_pid(), pk_current_comm(comm), pk_taint_str());
	pk_rbuf_printf(&buf, "RIP:");
	pk_rbuf_ip_sym(&buf, fault_ip(uctx) + 1);
	pk_rbuf_backtrace(&buf);
	pk_rbuf_printf(&buf, "---[ end trace 0000000000000000 ]---\n");
	pk_rbuf_printf(&buf, "Kernel panic - not syncing: Fatal exception\n");
	pk_report_emit(PK_REPORT_BUG, NULL, 0, &buf); /* aborts */
}

/*
 * fault.c's handler chains to the one it found, and so do we: installed in
 * the other order again later, each may find the other, and a fault owned
 * by neither would go round for ever.  The second time round it is the
 * default action's.
 */
static __thread int chaining;

static void chain(int sig, siginfo_t *si, void *uctx)
{
	if (chaining) {
		signal(SIGSEGV, SIG_DFL);
		return;
	}
	chaining++;
	pk_sigaction_chain(&old_segv, sig, si, uctx);
	chaining--;
}

static void guard_segv(int sig, siginfo_t *si, void *uctx)
{
	unsigned long addr = (unsigned long)si->si_addr, base, top;

	if (pk_task_stack_hook && pk_task_stack_hook(&base, &top) &&
	    addr < base && addr >= base - guard_size)
		report_overflow(addr, base, top, uctx);
	chain(sig, si, uctx);
}

void pk_stack_guard_install(void)
{
	struct sigaction sa;
	long page = sysconf(_SC_PAGESIZE);

	guard_size = page > 0 ? (unsigned long)page : 4096;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = guard_segv;
	/* On the irq stack: the task stack is what overflowed. */
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigfillset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);
}
