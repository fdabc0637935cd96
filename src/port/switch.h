/* SPDX-License-Identifier: MIT */
#ifndef PK_PORT_SWITCH_H
#define PK_PORT_SWITCH_H

/*
 * The port layer: task stacks and the context switch, the only
 * machine-specific code the scheduler uses (the kernel's switch_to()).
 *
 * x86-64 and arm64 switch in assembly (switch_x86_64.S, switch_aarch64.S):
 * the callee-saved registers are pushed on the old stack, the stack pointer
 * is swapped, they are popped from the new one. No syscall, no signal
 * mask, nothing but the registers the ABI says a call preserves: the
 * compiler has already saved everything else around the call.
 *
 * Every other architecture, or any build with -DPK_PORT_UCONTEXT (for the
 * whole build: it changes struct pk_context), uses makecontext() and
 * swapcontext() (switch_ucontext.c). swapcontext() also saves and restores
 * the signal mask, a rt_sigprocmask() syscall per switch: correct, but
 * some 15 times slower (bench_switch), and a task then carries its signal
 * mask with it from thread to thread.
 *
 * Under AddressSanitizer every switch tells ASan which stack it moves to
 * (context.c); without it pk_context_switch() is the bare primitive.
 *
 * No per-thread state travels with a context: a task switched out on one
 * thread may be switched in on another, as the scheduler migrates tasks
 * between vCPUs.
 */

#include <stddef.h>

#if defined(PK_PORT_UCONTEXT) || !(defined(__x86_64__) || defined(__aarch64__))
#define PK_PORT_USE_UCONTEXT 1
#include <ucontext.h>
#else
#define PK_PORT_USE_UCONTEXT 0
#endif

#if defined(__SANITIZE_ADDRESS__)
#define PK_PORT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PK_PORT_ASAN 1
#endif
#endif
#ifndef PK_PORT_ASAN
#define PK_PORT_ASAN 0
#endif

/** struct pk_stack - a task stack with a guard page below it */
struct pk_stack {
	void *map; /* the stack's slot, guard page included */
	size_t map_size;
	void *region; /* the pooled region it was carved from, or NULL */
	void *base;   /* usable stack: [base, base + size) */
	size_t size;
	unsigned int valgrind_id; /* VALGRIND_STACK_REGISTER id, 0 if none */
};

/**
 * pk_stack_alloc() - map a stack of at least @size bytes
 *
 * @size is rounded up to whole pages; one guard page below the stack
 * turns an overflow into SIGSEGV instead of silent corruption of whatever
 * was mapped there.  Stacks share pooled host mappings (stack.c), so a
 * task costs well under one of the process's vm.max_map_count.  Task
 * context, or a thread outside the machine; never from an interrupt
 * handler.  Returns 0 or -errno (-EINVAL for a @size of 0).
 */
int pk_stack_alloc(struct pk_stack *s, size_t size);

/**
 * pk_stack_free() - give back a stack no context runs on any more
 *
 * Any context but an interrupt handler; takes no host lock.
 */
void pk_stack_free(struct pk_stack *s);

/**
 * struct pk_context - a suspended execution context
 *
 * @sp must stay the first member: the assembly finds it at offset 0.
 * A context for the stack a thread already runs on (its "main" or idle
 * context) needs no initialization: the first pk_context_switch() away from
 * it fills it in.
 */
struct pk_context {
	void *sp; /* saved stack pointer, the registers are above it */
#if PK_PORT_USE_UCONTEXT
	ucontext_t uc;
#endif
#if PK_PORT_ASAN || PK_PORT_USE_UCONTEXT
	void (*entry)(void *); /* what the C-level first entry calls */
	void *arg;
#endif
#if PK_PORT_ASAN
	/* ASan's view: the stack this context runs on, learned from the
	 * switch away from it when it was not set up by pk_context_init(). */
	const void *stack_bottom;
	size_t stack_size;
	void *fake_stack; /* ASan's fake frames, saved while switched out */
#endif
};

/**
 * pk_context_init() - prepare @ctx to run entry(arg) on @stack
 *
 * The first switch to @ctx calls @entry with the stack pointer aligned as a
 * call requires. @entry must never return: a task ends by switching away
 * for good. If it does return, the process aborts with a message.
 * @ctx must not move between pk_context_init() and the first switch to it.
 */
void pk_context_init(struct pk_context *ctx, struct pk_stack *stack,
		     void (*entry)(void *), void *arg);

/* The primitive: switch_<arch>.S or switch_ucontext.c. Returns the context
 * that switched back to @from. Use pk_context_switch(). */
struct pk_context *pk_port_switch(struct pk_context *from,
				  struct pk_context *to);

/**
 * pk_context_switch() - save the current context in @from, continue @to
 *
 * Returns when something switches back to @from, possibly on another
 * thread, with the context that did so: the kernel's switch_to(prev, next,
 * last) "last", which a scheduler needs to finish the switch on the new
 * stack (release a dead task's stack, drop the old task's lock).
 */
#if PK_PORT_ASAN
struct pk_context *pk_context_switch(struct pk_context *from,
				     struct pk_context *to);
#else
static inline struct pk_context *pk_context_switch(struct pk_context *from,
						   struct pk_context *to)
{
	return pk_port_switch(from, to);
}
#endif

/*
 * Internal to src/port/. pk_port_start() is a new context's first C frame
 * where one is needed (ASan, ucontext): it finishes the switch that got
 * there, calls ctx->entry(ctx->arg) and never returns. A returning entry
 * ends in pk_port_entry_returned(). Hidden: the assembly calls them
 * directly, no PLT, and the library does not export them.
 */
#define __pk_port_internal __attribute__((visibility("hidden")))
__pk_port_internal void pk_port_start(struct pk_context *self,
				      struct pk_context *prev)
	__attribute__((noreturn));
__pk_port_internal void pk_port_entry_returned(void) __attribute__((noreturn));

#endif /* PK_PORT_SWITCH_H */
