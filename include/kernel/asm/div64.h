/* SPDX-License-Identifier: MIT */
#ifndef _ASM_DIV64_H
#define _ASM_DIV64_H

/*
 * do_div(n, base): divides the 64-bit lvalue @n by the 32-bit @base in
 * place and yields the remainder.  Any context.
 */

#include <linux/types.h>

#define do_div(n, base)                                                        \
	({                                                                     \
		u32 __pk_base = (base);                                        \
		u32 __pk_rem = (u32)((n) % __pk_base);                         \
		(n) = (n) / __pk_base;                                         \
		__pk_rem;                                                      \
	})

#endif /* _ASM_DIV64_H */
