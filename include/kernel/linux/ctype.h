/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_CTYPE_H
#define _LINUX_CTYPE_H

/*
 * Character classes.  Kernel code never sets a locale, so the C library's
 * classifiers in the "C" locale are the kernel's ASCII ones (the kernel
 * also classifies Latin-1 letters above 127; these do not).  Any context:
 * a table lookup.
 */

#include <ctype.h>

/** isodigit() - an octal digit? */
static inline int isodigit(const char c)
{
	return c >= '0' && c <= '7';
}

/*
 * _tolower() - lower case of an ASCII letter (any other byte is changed
 * too).  The C library's <ctype.h> may have its own macro of that name.
 */
#undef _tolower
#define _tolower(c) ((char)((c) | 0x20))

#endif /* _LINUX_CTYPE_H */
