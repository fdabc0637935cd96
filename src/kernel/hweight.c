// SPDX-License-Identifier: MIT
/*
 * The portable bit counts, defining only the names lib/hweight.c defines:
 * a program's copy of the file replaces this object whole.  The
 * compiler's builtins count; linux/bitops.h's hweight*() use them inline.
 */

#include <linux/bitops.h>

unsigned int __sw_hweight8(unsigned int w)
{
	return (unsigned int)__builtin_popcount(w & 0xffU);
}

unsigned int __sw_hweight16(unsigned int w)
{
	return (unsigned int)__builtin_popcount(w & 0xffffU);
}

unsigned int __sw_hweight32(unsigned int w)
{
	return (unsigned int)__builtin_popcount(w);
}

unsigned long __sw_hweight64(__u64 w)
{
	return (unsigned long)__builtin_popcountll(w);
}
