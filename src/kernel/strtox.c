// SPDX-License-Identifier: MIT
/*
 * simple_strto*(): the kernel has them in lib/vsprintf.c; here they are
 * apart from both vsprintf.c and kstrtox.c, so a program's own
 * lib/kstrtox.c or lib/cmdline.c links with them.  Any context.
 */

#include <linux/hex.h>
#include <linux/kstrtox.h>

unsigned long long simple_strtoull(const char *cp, char **endp,
				   unsigned int base)
{
	unsigned long long v = 0;
	int d;

	if (!base)
		base = cp[0] != '0' ? 10 : (cp[1] | 0x20) == 'x' ? 16 : 8;
	if (base == 16 && cp[0] == '0' && (cp[1] | 0x20) == 'x' &&
	    hex_to_bin((unsigned char)cp[2]) >= 0)
		cp += 2;
	while ((d = hex_to_bin((unsigned char)*cp)) >= 0 &&
	       (unsigned int)d < base) {
		v = v * base + (unsigned int)d;
		cp++;
	}
	if (endp)
		*endp = (char *)cp;
	return v;
}

long long simple_strtoll(const char *cp, char **endp, unsigned int base)
{
	if (*cp == '-')
		return -(long long)simple_strtoull(cp + 1, endp, base);
	return (long long)simple_strtoull(cp, endp, base);
}

unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base)
{
	return (unsigned long)simple_strtoull(cp, endp, base);
}

long simple_strtol(const char *cp, char **endp, unsigned int base)
{
	return (long)simple_strtoll(cp, endp, base);
}
