// SPDX-License-Identifier: MIT
/*
 * kstrto*(): the symbols the kernel's lib/kstrtox.c defines (a subset),
 * in an object of their own, so that a program that compiles
 * lib/kstrtox.c links its own and this member stays out.  kstrtoul() and
 * kstrtol() are inline in <linux/kstrtox.h>, as in the kernel.
 */

#include <ctype.h>
#include <limits.h>
#include <linux/errno.h>
#include <linux/hex.h>
#include <linux/kstrtox.h>
#include <linux/uaccess.h>

/* Base 0: 0x -> 16, 0 -> 8, else 10; 16 accepts a 0x prefix. */
static const char *kstrto_base(const char *s, unsigned int *base)
{
	if (*base == 0) {
		if (s[0] == '0' && (s[1] | 0x20) == 'x' &&
		    isxdigit((unsigned char)s[2]))
			*base = 16;
		else if (s[0] == '0')
			*base = 8;
		else
			*base = 10;
	}
	if (*base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	return s;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v = 0;
	const char *p;

	if (s[0] == '+')
		s++;
	p = s = kstrto_base(s, &base);
	for (; *p; p++) {
		int d = hex_to_bin((unsigned char)*p);

		if (d < 0 || (unsigned int)d >= base)
			break;
		if (__builtin_mul_overflow(v, base, &v) ||
		    __builtin_add_overflow(v, (unsigned long long)d, &v))
			return -ERANGE;
	}
	if (p == s)
		return -EINVAL;
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*res = v;
	return 0;
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long v;
	int err;

	if (s[0] == '-') {
		err = kstrtoull(s + 1, base, &v);
		if (err)
			return err;
		if (v > (unsigned long long)LLONG_MAX + 1)
			return -ERANGE;
		*res = (long long)(0 - v);
		return 0;
	}
	err = kstrtoull(s, base, &v);
	if (err)
		return err;
	if (v > LLONG_MAX)
		return -ERANGE;
	*res = (long long)v;
	return 0;
}

/* The wide conversion, then the range of the narrow type. */
#define PK_KSTRTO(name, type, wide, conv, check)                               \
	int name(const char *s, unsigned int base, type *res)                  \
	{                                                                      \
		wide v;                                                        \
		int err = conv(s, base, &v);                                   \
		if (err)                                                       \
			return err;                                            \
		if (!(check))                                                  \
			return -ERANGE;                                        \
		*res = (type)v;                                                \
		return 0;                                                      \
	}
PK_KSTRTO(_kstrtoul, unsigned long, unsigned long long, kstrtoull,
	  v <= ULONG_MAX)
PK_KSTRTO(_kstrtol, long, long long, kstrtoll, v >= LONG_MIN && v <= LONG_MAX)
PK_KSTRTO(kstrtouint, unsigned int, unsigned long long, kstrtoull,
	  v <= UINT_MAX)
PK_KSTRTO(kstrtoint, int, long long, kstrtoll, v >= INT_MIN && v <= INT_MAX)
PK_KSTRTO(kstrtou16, u16, unsigned long long, kstrtoull, v <= USHRT_MAX)
PK_KSTRTO(kstrtos16, s16, long long, kstrtoll, v >= SHRT_MIN && v <= SHRT_MAX)
PK_KSTRTO(kstrtou8, u8, unsigned long long, kstrtoull, v <= UCHAR_MAX)
PK_KSTRTO(kstrtos8, s8, long long, kstrtoll, v >= SCHAR_MIN && v <= SCHAR_MAX)

int kstrtobool(const char *s, bool *res)
{
	if (!s)
		return -EINVAL;
	switch (s[0]) {
	case 'y':
	case 'Y':
	case 't':
	case 'T':
	case '1':
		*res = true;
		return 0;
	case 'n':
	case 'N':
	case 'f':
	case 'F':
	case '0':
		*res = false;
		return 0;
	case 'o':
	case 'O':
		if ((s[1] | 0x20) == 'n') {
			*res = true;
			return 0;
		}
		if ((s[1] | 0x20) == 'f') {
			*res = false;
			return 0;
		}
		break;
	default:
		break;
	}
	return -EINVAL;
}

/* The _from_user forms: at most a short line from user memory. */
#define PK_KSTRTO_USER(name, conv, type)                                       \
	int name(const char __user *s, size_t count, unsigned int base,        \
		 type *res)                                                    \
	{                                                                      \
		char buf[1 + sizeof(unsigned long long) * 8 + 1 + 1];          \
		count = count < sizeof(buf) - 1 ? count : sizeof(buf) - 1;     \
		if (copy_from_user(buf, s, count))                             \
			return -EFAULT;                                        \
		buf[count] = '\0';                                             \
		return conv(buf, base, res);                                   \
	}
PK_KSTRTO_USER(kstrtoull_from_user, kstrtoull, unsigned long long)
PK_KSTRTO_USER(kstrtoll_from_user, kstrtoll, long long)
PK_KSTRTO_USER(kstrtoul_from_user, kstrtoul, unsigned long)
PK_KSTRTO_USER(kstrtol_from_user, kstrtol, long)
PK_KSTRTO_USER(kstrtouint_from_user, kstrtouint, unsigned int)
PK_KSTRTO_USER(kstrtoint_from_user, kstrtoint, int)
PK_KSTRTO_USER(kstrtou16_from_user, kstrtou16, u16)
PK_KSTRTO_USER(kstrtos16_from_user, kstrtos16, s16)
PK_KSTRTO_USER(kstrtou8_from_user, kstrtou8, u8)
PK_KSTRTO_USER(kstrtos8_from_user, kstrtos8, s8)

int kstrtobool_from_user(const char __user *s, size_t count, bool *res)
{
	char buf[4] = {0};

	count = count < sizeof(buf) - 1 ? count : sizeof(buf) - 1;
	if (copy_from_user(buf, s, count))
		return -EFAULT;
	return kstrtobool(buf, res);
}
