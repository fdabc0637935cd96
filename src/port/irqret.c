// SPDX-License-Identifier: MIT
/*
 * Interrupt return into the task's own context: the handler side of
 * irqret_x86_64.S, which says how the interrupted context is resumed.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

#include "irqret.h"

#if defined(__x86_64__)

#include <cpuid.h>

/* The interrupted rsp less its red zone and the slot for its rip. */
#define RED_ZONE 128
#define RIP_SLOT 8

void pk_port_irq_return_entry(void);

/* Read by the assembly: the extended state's area, and XSAVE or FXSAVE. */
__attribute__((visibility("hidden"))) unsigned long pk_port_xsave_size = 512;
__attribute__((visibility("hidden"))) unsigned char pk_port_has_xsave;
/* What the trampoline calls: the irq layer's, given at init. */
__attribute__((visibility("hidden"))) void (*pk_port_irq_return_fn)(void);
/* XCR0 enables the AVX state: the trampoline may clear its upper halves. */
__attribute__((visibility("hidden"))) unsigned char pk_port_has_avx;

#define XCR0_AVX (1u << 2)

static unsigned int xcr0(void)
{
	unsigned int lo, hi;

	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return lo;
}

/* CPUID.1:ECX.OSXSAVE: the OS enabled XSAVE (and set XCR0). */
#define CPUID1_ECX_OSXSAVE (1u << 27)

bool pk_port_irq_return_init(void (*fn)(void))
{
	unsigned int a, b, c, d;

	pk_port_irq_return_fn = fn;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return true; /* FXSAVE's 512 bytes */
	if (!(c & CPUID1_ECX_OSXSAVE) || __get_cpuid_max(0, NULL) < 0xd)
		return true;
	/* Leaf 0xD, sub-leaf 0: EBX is the size XCR0's features need now. */
	__cpuid_count(0xd, 0, a, b, c, d);
	if (b < 576)
		return true;
	pk_port_xsave_size = (b + 63) & ~63ul;
	pk_port_has_xsave = 1;
	pk_port_has_avx = !!(xcr0() & XCR0_AVX);
	return true;
}

/* Not instrumented: below the interrupted rsp, ASan's shadow is not ours. */
__attribute__((no_sanitize("address"))) void
pk_port_irq_return_redirect(void *uctx)
{
	ucontext_t *uc = uctx;
	uintptr_t slot =
		(uintptr_t)uc->uc_mcontext.gregs[REG_RSP] - RED_ZONE - RIP_SLOT;

	*(uintptr_t *)slot = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	uc->uc_mcontext.gregs[REG_RSP] = (greg_t)slot;
	uc->uc_mcontext.gregs[REG_RIP] =
		(greg_t)(uintptr_t)pk_port_irq_return_entry;
}

#else

bool pk_port_irq_return_init(void (*fn)(void))
{
	(void)fn;
	return false;
}

void pk_port_irq_return_redirect(void *uctx)
{
	(void)uctx;
}

#endif
