/* SPDX-License-Identifier: MIT */
#ifndef PK_PORT_UCTX_H
#define PK_PORT_UCTX_H

/*
 * The registers of the code a signal interrupted, read from the handler's
 * ucontext: what the irq layer needs to say where an interrupt landed.
 * Zero where the architecture is not known.
 */

#include <signal.h>
#include <stdint.h>
#include <ucontext.h>

/* The interrupted instruction. */
static inline uintptr_t pk_uctx_ip(const void *uctx)
{
	const ucontext_t *uc = uctx;

#if defined(__x86_64__)
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)uc->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

/* The interrupted stack pointer. */
static inline uintptr_t pk_uctx_sp(const void *uctx)
{
	const ucontext_t *uc = uctx;

#if defined(__x86_64__)
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
	return (uintptr_t)uc->uc_mcontext.sp;
#else
	(void)uc;
	return 0;
#endif
}

/*
 * Where the interrupted function returns to while that is still in a
 * register: arm64's link register, which a leaf function never spills.
 * On x86-64 every return address is on the stack.
 */
static inline uintptr_t pk_uctx_link(const void *uctx)
{
#if defined(__aarch64__)
	const ucontext_t *uc = uctx;

	return (uintptr_t)uc->uc_mcontext.regs[30];
#else
	(void)uctx;
	return 0;
#endif
}

#endif /* PK_PORT_UCTX_H */
