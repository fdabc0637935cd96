// SPDX-License-Identifier: MIT
/*
 * The user copy's fault side: finding the faulting instruction in the
 * exception table and resuming at its fixup (uaccess.h).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <ucontext.h>

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

bool pk_port_fault_write(const void *uctx)
{
#if defined(__x86_64__)
	/* The page-fault error code: bit 1 set for a write. */
	return ((const ucontext_t *)uctx)->uc_mcontext.gregs[REG_ERR] & 2;
#else
	(void)uctx;
	return false;
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
