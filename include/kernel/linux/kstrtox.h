/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_KSTRTOX_H
#define _LINUX_KSTRTOX_H

/*
 * String to integer, strictly: the whole string (one trailing newline
 * allowed) must be a number that fits; 0, -EINVAL or -ERANGE.  Base 0
 * means C's prefixes (0x, 0).  Any context.
 */

#include <linux/compiler.h>
#include <linux/types.h>

int __must_check kstrtoull(const char *s, unsigned int base,
			   unsigned long long *res);
int __must_check kstrtoll(const char *s, unsigned int base, long long *res);
int __must_check kstrtoul(const char *s, unsigned int base, unsigned long *res);
int __must_check kstrtol(const char *s, unsigned int base, long *res);
int __must_check kstrtouint(const char *s, unsigned int base,
			    unsigned int *res);
int __must_check kstrtoint(const char *s, unsigned int base, int *res);
int __must_check kstrtou16(const char *s, unsigned int base, u16 *res);
int __must_check kstrtou8(const char *s, unsigned int base, u8 *res);
int __must_check kstrtobool(const char *s, bool *res);
#define kstrtou64 kstrtoull
#define kstrtos64 kstrtoll
#define kstrtou32 kstrtouint
#define kstrtos32 kstrtoint

#endif /* _LINUX_KSTRTOX_H */
