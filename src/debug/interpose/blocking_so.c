// SPDX-License-Identifier: MIT
/*
 * libpreempt.so only: the wrapped host functions under their own names,
 * so that a dynamically linked program's calls reach the check by symbol
 * interposition (the .so comes before libc in the lookup order).  The
 * real function is the next definition, resolved by src/debug/blocking.c
 * at load time.  A static program uses the __wrap_* functions instead
 * (docs/blocking.md); this file is not in libpreempt.a, whose plain-named
 * definitions would replace libc's in every program linking it.
 */
#define _GNU_SOURCE
#include <fcntl.h>

#include "../blocking.h"
#include "../blocking_sigs.h"

#define PK_BLK_REAL(name) ((__typeof__(&name))pk_blocking_real(PK_BLK_##name))

#define PK_BLK_PLAIN(ret, name, params, args)                                  \
	ret name params                                                        \
	{                                                                      \
		pk_blocking_check(PK_BLK_##name, PK_RET_IP);                   \
		return PK_BLK_REAL(name) args;                                 \
	}

PK_BLOCKING_SLEEPER_SIGS(PK_BLK_PLAIN)
PK_BLOCKING_MORE_SIGS(PK_BLK_PLAIN)

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	pk_blocking_check(PK_BLK_open, PK_RET_IP);
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return PK_BLK_REAL(open)(path, flags, mode);
}

int __printf_chk(int flag, const char *fmt, ...)
{
	va_list ap;
	int n;

	pk_blocking_check(PK_BLK___printf_chk, PK_RET_IP);
	va_start(ap, fmt);
	n = PK_BLK_REAL(__vfprintf_chk)(stdout, flag, fmt, ap);
	va_end(ap);
	return n;
}

int __fprintf_chk(FILE *f, int flag, const char *fmt, ...)
{
	va_list ap;
	int n;

	pk_blocking_check(PK_BLK___fprintf_chk, PK_RET_IP);
	va_start(ap, fmt);
	n = PK_BLK_REAL(__vfprintf_chk)(f, flag, fmt, ap);
	va_end(ap);
	return n;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	pk_blocking_check(PK_BLK_printf, PK_RET_IP);
	va_start(ap, fmt);
	n = PK_BLK_REAL(vfprintf)(stdout, fmt, ap);
	va_end(ap);
	return n;
}

int fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	pk_blocking_check(PK_BLK_fprintf, PK_RET_IP);
	va_start(ap, fmt);
	n = PK_BLK_REAL(vfprintf)(f, fmt, ap);
	va_end(ap);
	return n;
}

#if PK_BLOCKING_ALLOC
PK_BLOCKING_ALLOC_SIGS(PK_BLK_PLAIN)

void free(void *p)
{
	pk_blocking_check(PK_BLK_free, PK_RET_IP);
	PK_BLK_REAL(free)(p);
}
#endif
