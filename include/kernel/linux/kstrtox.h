/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_KSTRTOX_H
#define _LINUX_KSTRTOX_H

/*
 * String to integer, strictly: the whole string (one trailing newline
 * allowed) must be a number that fits; 0, -EINVAL or -ERANGE.  Base 0
 * means C's prefixes (0x, 0).  Any context.  The out-of-line set is the
 * one lib/kstrtox.c defines (src/kernel/kstrtox.c), so a program's own
 * lib/kstrtox.c replaces it whole.
 */

#include <linux/compiler.h>
#include <linux/types.h>

int __must_check kstrtoull(const char *s, unsigned int base,
			   unsigned long long *res);
int __must_check kstrtoll(const char *s, unsigned int base, long long *res);
int __must_check _kstrtoul(const char *s, unsigned int base,
			   unsigned long *res);
int __must_check _kstrtol(const char *s, unsigned int base, long *res);

/* long is long long here: the wide conversion serves. */
static inline int __must_check kstrtoul(const char *s, unsigned int base,
					unsigned long *res)
{
	if (sizeof(unsigned long) == sizeof(unsigned long long) &&
	    __alignof__(unsigned long) == __alignof__(unsigned long long))
		return kstrtoull(s, base, (unsigned long long *)res);
	return _kstrtoul(s, base, res);
}

static inline int __must_check kstrtol(const char *s, unsigned int base,
				       long *res)
{
	if (sizeof(long) == sizeof(long long) &&
	    __alignof__(long) == __alignof__(long long))
		return kstrtoll(s, base, (long long *)res);
	return _kstrtol(s, base, res);
}

int __must_check kstrtouint(const char *s, unsigned int base,
			    unsigned int *res);
int __must_check kstrtoint(const char *s, unsigned int base, int *res);
int __must_check kstrtou16(const char *s, unsigned int base, u16 *res);
int __must_check kstrtos16(const char *s, unsigned int base, s16 *res);
int __must_check kstrtou8(const char *s, unsigned int base, u8 *res);
int __must_check kstrtos8(const char *s, unsigned int base, s8 *res);
/* y/Y/t/T/1/on true, n/N/f/F/0/off false. */
int __must_check kstrtobool(const char *s, bool *res);

static inline int __must_check kstrtou64(const char *s, unsigned int base,
					 u64 *res)
{
	return kstrtoull(s, base, (unsigned long long *)res);
}

static inline int __must_check kstrtos64(const char *s, unsigned int base,
					 s64 *res)
{
	return kstrtoll(s, base, (long long *)res);
}

static inline int __must_check kstrtou32(const char *s, unsigned int base,
					 u32 *res)
{
	return kstrtouint(s, base, res);
}

static inline int __must_check kstrtos32(const char *s, unsigned int base,
					 s32 *res)
{
	return kstrtoint(s, base, res);
}

/* The same from user memory (may fault: task context). */
int __must_check kstrtoull_from_user(const char __user *s, size_t count,
				     unsigned int base,
				     unsigned long long *res);
int __must_check kstrtoll_from_user(const char __user *s, size_t count,
				    unsigned int base, long long *res);
int __must_check kstrtoul_from_user(const char __user *s, size_t count,
				    unsigned int base, unsigned long *res);
int __must_check kstrtol_from_user(const char __user *s, size_t count,
				   unsigned int base, long *res);
int __must_check kstrtouint_from_user(const char __user *s, size_t count,
				      unsigned int base, unsigned int *res);
int __must_check kstrtoint_from_user(const char __user *s, size_t count,
				     unsigned int base, int *res);
int __must_check kstrtou16_from_user(const char __user *s, size_t count,
				     unsigned int base, u16 *res);
int __must_check kstrtos16_from_user(const char __user *s, size_t count,
				     unsigned int base, s16 *res);
int __must_check kstrtou8_from_user(const char __user *s, size_t count,
				    unsigned int base, u8 *res);
int __must_check kstrtos8_from_user(const char __user *s, size_t count,
				    unsigned int base, s8 *res);
int __must_check kstrtobool_from_user(const char __user *s, size_t count,
				      bool *res);

/*
 * simple_strto*() - the old, lax conversions: digits as far as they go,
 * the end in *@endp, no error.  Base 0 and 16 as above.
 */
unsigned long long simple_strtoull(const char *cp, char **endp,
				   unsigned int base);
long long simple_strtoll(const char *cp, char **endp, unsigned int base);
unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base);
long simple_strtol(const char *cp, char **endp, unsigned int base);

#endif /* _LINUX_KSTRTOX_H */
