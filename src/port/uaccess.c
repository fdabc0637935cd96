// SPDX-License-Identifier: MIT
/*
 * The user copy's fault side: finding the faulting instruction in the
 * exception table and resuming at its fixup (uaccess.h).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>
#if defined(__aarch64__)
#include <asm/sigcontext.h>
#endif

#include "uaccess.h"

#if defined(__x86_64__) || defined(__aarch64__)

struct pk_extable_entry {
	unsigned long insn, fixup;
};

extern const struct pk_extable_entry pk_port_extable[]
	__attribute__((visibility("hidden")));

static const struct pk_extable_entry *search_extable(unsigned long ip)
{
	for (const struct pk_extable_entry *e = pk_port_extable; e->insn; e++)
		if (e->insn == ip)
			return e;
	return NULL;
}

#if defined(__x86_64__)
#define UC_PC(uc) ((uc)->uc_mcontext.gregs[REG_RIP])
#else
#define UC_PC(uc) ((uc)->uc_mcontext.pc)
#endif

unsigned long pk_port_fault_ip(const void *uctx)
{
	return (unsigned long)UC_PC((const ucontext_t *)uctx);
}

bool pk_port_in_user_copy(const void *uctx)
{
	return search_extable(pk_port_fault_ip(uctx)) != NULL;
}

void pk_port_user_copy_fixup(void *uctx)
{
	ucontext_t *uc = uctx;
	const struct pk_extable_entry *e = search_extable(pk_port_fault_ip(uc));

	if (e)
		UC_PC(uc) = e->fixup;
}

#if defined(__aarch64__)
/*
 * Does the load/store instruction @insn write memory?  The ARMv8 encoding:
 * loads and stores have bit 27 set and bit 25 clear; in the pair,
 * exclusive and structure classes bit 22 (L) is set for a load; in the
 * single-register class (bits 29:28 = 11) opc (bits 23:22) is 00 for a
 * store of a general register, and bit 22 clear for a SIMD&FP store,
 * while the atomic memory operations (bit 21 set, bits 11:10 = 00 with
 * bit 24 clear) both read and write; literal loads (bits 29:27 = 011,
 * bits 25:24 = 00) only read.
 */
static bool insn_writes(uint32_t insn)
{
	if ((insn & 0x0a000000) != 0x08000000)
		return false; /* not a load or store */
	if ((insn & 0x3b000000) == 0x18000000)
		return false; /* load literal */
	if ((insn & 0x30000000) == 0x30000000) {
		if (!(insn & 0x01000000) && (insn & 0x00200000) &&
		    !(insn & 0x00000c00))
			return true; /* atomic memory operation */
		if (!(insn & 0x04000000))
			return ((insn >> 22) & 3) == 0; /* general register */
	}
	return !(insn & 0x00400000);
}

/* The kernel's esr_context record in the signal frame, if there is one. */
static bool fault_esr(const ucontext_t *uc, uint64_t *esr)
{
	const unsigned char *p =
		(const unsigned char *)uc->uc_mcontext.__reserved;
	const unsigned char *end = p + sizeof(uc->uc_mcontext.__reserved);

	while (p + sizeof(struct _aarch64_ctx) <= end) {
		const struct _aarch64_ctx *ctx = (const void *)p;

		if (!ctx->magic || ctx->size < sizeof(*ctx))
			break;
		if (ctx->magic == ESR_MAGIC) {
			*esr = ((const struct esr_context *)ctx)->esr;
			return true;
		}
		p += ctx->size;
	}
	return false;
}
#endif

bool pk_port_fault_write(const void *uctx)
{
#if defined(__x86_64__)
	/* The page-fault error code: bit 1 set for a write. */
	return ((const ucontext_t *)uctx)->uc_mcontext.gregs[REG_ERR] & 2;
#else
	const ucontext_t *uc = uctx;
	uint64_t esr;

	/* A data abort's syndrome says it (WnR, bit 6); the kernel records
	 * it in the frame.  Where nothing does (qemu-user), the faulting
	 * instruction tells. */
	if (fault_esr(uc, &esr) && ((esr >> 26) & 0x3e) == 0x24)
		return esr & (1U << 6);
	return insn_writes(*(const uint32_t *)uc->uc_mcontext.pc);
#endif
}

#else /* the portable loop */

static __thread sigjmp_buf *copy_env;

unsigned long pk_port_user_copy(void *dst, const void *src, unsigned long n)
{
	volatile unsigned long done = 0;
	sigjmp_buf env;

	if (sigsetjmp(env, 1)) {
		copy_env = NULL;
		return n - done;
	}
	copy_env = &env;
	for (; done < n; done++)
		((volatile char *)dst)[done] =
			((const volatile char *)src)[done];
	copy_env = NULL;
	return 0;
}

bool pk_port_in_user_copy(const void *uctx)
{
	(void)uctx;
	return copy_env != NULL;
}

void pk_port_user_copy_fixup(void *uctx)
{
	(void)uctx;
	siglongjmp(*copy_env, 1);
}

unsigned long pk_port_fault_ip(const void *uctx)
{
	(void)uctx;
	return 0;
}

bool pk_port_fault_write(const void *uctx)
{
	(void)uctx;
	return false;
}

#endif
