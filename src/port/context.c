// SPDX-License-Identifier: MIT
/*
 * The C half of the port: the first frame of a new context for the
 * assembly ports, the ASan-annotated switch, and what a task that returns
 * from its entry function ends in.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<sanitizer/common_interface_defs.h>)
#include <sanitizer/common_interface_defs.h>
#endif
#endif

#include "switch.h"

void pk_port_entry_returned(void)
{
	static const char msg[] =
		"BUG: a task's entry function returned; a task ends by "
		"switching away for good\n";
	/* Not BUG(): the port sits below the debug layer and must work
	 * without it. One write(2): it may run on a broken stack. */
	ssize_t n = write(STDERR_FILENO, msg, sizeof(msg) - 1);

	(void)n;
	abort();
}

#if PK_PORT_ASAN || PK_PORT_USE_UCONTEXT
void pk_port_start(struct pk_context *self, struct pk_context *prev)
{
#if PK_PORT_ASAN
	/* A new fiber has no fake frames to restore (NULL); what ASan
	 * returns are the bounds of the stack we came from, which is how
	 * a thread's own context, never set up by pk_context_init(),
	 * gets them before anything switches back to it. */
	__sanitizer_finish_switch_fiber(NULL, &prev->stack_bottom,
					&prev->stack_size);
#else
	(void)prev;
#endif
	self->entry(self->arg);
	pk_port_entry_returned();
}
#endif

#if PK_PORT_ASAN
struct pk_context *pk_context_switch(struct pk_context *from,
				     struct pk_context *to)
{
	struct pk_context *prev;

	/* ASan checks every access against the stack it believes it is on;
	 * without these it would take the new stack for a wild pointer and
	 * its fake frames for the old stack's. */
	__sanitizer_start_switch_fiber(&from->fake_stack, to->stack_bottom,
				       to->stack_size);
	prev = pk_port_switch(from, to);
	/* Back on @from's stack, maybe on another thread: @prev comes from
	 * the switch itself, not from anything per-thread. */
	__sanitizer_finish_switch_fiber(from->fake_stack, &prev->stack_bottom,
					&prev->stack_size);
	return prev;
}
#endif

#if !PK_PORT_USE_UCONTEXT
/* switch_<arch>.S: where the first switch to a new context returns to. */
extern void pk_port_trampoline(void) __pk_port_internal;

/*
 * The frame pk_port_switch() pops, laid out as switch_<arch>.S documents,
 * below two zero words at the 16-byte aligned top of the stack: a null
 * frame pointer and return address, where walkers stop.
 */
static void *initial_frame(struct pk_stack *stack, void (*fn)(void), void *arg)
{
	uintptr_t top = ((uintptr_t)stack->base + stack->size) & ~(uintptr_t)15;
	uint64_t *sp;

#if defined(__x86_64__)
	uint32_t mxcsr;
	uint16_t fcw;

	/* A task starts with its creator's rounding and exception masks,
	 * as a thread does; the sticky status flags start clear. */
	__asm__("stmxcsr %0" : "=m"(mxcsr));
	__asm__("fnstcw %0" : "=m"(fcw));
	sp = (uint64_t *)top - 2 - 7;
	/* Below the saved sp, as the switch leaves them (its red zone). */
	sp[-1] = (mxcsr & ~(uint32_t)0x3f) | (uint64_t)fcw << 32;
	sp[0] = 0;		/* r15 */
	sp[1] = 0;		/* r14 */
	sp[2] = 0;		/* r13 */
	sp[3] = (uintptr_t)arg; /* r12 */
	sp[4] = (uintptr_t)fn;	/* rbx */
	sp[5] = 0;		/* rbp: ends frame-pointer chains */
	sp[6] = (uintptr_t)pk_port_trampoline;
	sp[7] = 0;
	sp[8] = 0;
#elif defined(__aarch64__)
	uint64_t fpcr;

	__asm__("mrs %0, fpcr" : "=r"(fpcr));
	sp = (uint64_t *)top - 2 - 22;
	for (int i = 0; i < 24; i++)
		sp[i] = 0;	/* x21-x28, d8-d15, the null frame record */
	sp[0] = (uintptr_t)fn;	/* x19 */
	sp[1] = (uintptr_t)arg; /* x20 */
	sp[10] = 0;		/* x29: ends the chain */
	sp[11] = (uintptr_t)pk_port_trampoline; /* x30 */
	sp[20] = fpcr;
#else
#error "no assembly port for this architecture: build with PK_PORT_UCONTEXT"
#endif
	return sp;
}

void pk_context_init(struct pk_context *ctx, struct pk_stack *stack,
		     void (*entry)(void *), void *arg)
{
#if PK_PORT_ASAN
	/* A C frame first, to tell ASan the switch has landed. */
	ctx->entry = entry;
	ctx->arg = arg;
	ctx->stack_bottom = stack->base;
	ctx->stack_size = stack->size;
	ctx->fake_stack = NULL;
	ctx->sp = initial_frame(stack, (void (*)(void))pk_port_start, ctx);
#else
	/* The trampoline calls @entry directly: nothing in between. */
	ctx->sp = initial_frame(stack, (void (*)(void))entry, arg);
#endif
}
#endif /* !PK_PORT_USE_UCONTEXT */
