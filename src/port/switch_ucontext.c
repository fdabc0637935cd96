// SPDX-License-Identifier: MIT
/*
 * The portable port: makecontext()/swapcontext(), for architectures without
 * an assembly switch and for builds with -DPK_PORT_UCONTEXT.
 *
 * swapcontext() saves and restores the signal mask with rt_sigprocmask(),
 * so every switch is a syscall, and a task takes the mask it was switched
 * out with to whichever thread switches it in. It also saves the whole
 * FPU state. Correct, but the assembly ports are the fast path.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "switch.h"

#if PK_PORT_USE_UCONTEXT

/*
 * swapcontext() cannot hand the resumed side a register, so the switching
 * context leaves itself here. Per thread, as the writer and the reader of
 * one switch run on the same thread, even when the resumed context last ran
 * on another one.
 */
static __thread struct pk_context *switch_prev;

/*
 * Out of line so that the thread-local address is computed after the
 * switch: a compiler may keep a TLS address across a call, which is wrong
 * once the call returns on another thread.
 */
static __attribute__((noinline)) struct pk_context *take_prev(void)
{
	struct pk_context *prev = switch_prev;

	__asm__ __volatile__("" ::: "memory");
	return prev;
}

static void __attribute__((noreturn)) die(const char *msg, size_t len)
{
	ssize_t n = write(STDERR_FILENO, msg, len);

	(void)n;
	abort();
}

struct pk_context *pk_port_switch(struct pk_context *from,
				  struct pk_context *to)
{
	static const char msg[] = "BUG: swapcontext() failed\n";

	switch_prev = from;
	if (swapcontext(&from->uc, &to->uc))
		die(msg, sizeof(msg) - 1);
	return take_prev();
}

/* makecontext() passes ints: the context pointer comes in two halves. */
static void uc_start(int hi, int lo)
{
	uint64_t p = (uint64_t)(uint32_t)hi << 32 | (uint32_t)lo;

	pk_port_start((struct pk_context *)(uintptr_t)p, take_prev());
}

void pk_context_init(struct pk_context *ctx, struct pk_stack *stack,
		     void (*entry)(void *), void *arg)
{
	static const char msg[] = "BUG: getcontext() failed\n";
	uint64_t p = (uintptr_t)ctx;

	ctx->sp = NULL;
	ctx->entry = entry;
	ctx->arg = arg;
#if PK_PORT_ASAN
	ctx->stack_bottom = stack->base;
	ctx->stack_size = stack->size;
	ctx->fake_stack = NULL;
#endif
	if (getcontext(&ctx->uc))
		die(msg, sizeof(msg) - 1);
	ctx->uc.uc_stack.ss_sp = stack->base;
	ctx->uc.uc_stack.ss_size = stack->size;
	ctx->uc.uc_link = NULL; /* uc_start() never returns */
	makecontext(&ctx->uc, (void (*)(void))uc_start, 2,
		    (int)(uint32_t)(p >> 32), (int)(uint32_t)p);
}

#endif /* PK_PORT_USE_UCONTEXT */
