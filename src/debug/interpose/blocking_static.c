// SPDX-License-Identifier: MIT
/*
 * libpreempt-wrap.a: strong references to every __real_NAME of the
 * --wrap recipe, for a fully static link (cc -static).  libpreempt.a's
 * wrappers reach the real functions through weak __real_NAME references,
 * so that a program linked without the recipe still links; but a weak
 * reference never pulls a member out of libc.a, and a static program has
 * no dlsym() to fall back on.  `pkg-config --static` adds this archive
 * and -Wl,--undefined=pk_blocking_static_refs, so libc.a's definitions
 * come in and the weak references resolve to them.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "../blocking_sigs.h"

#define PK_REAL_DECL(ret, name, params, args) extern ret __real_##name params;
#define PK_REAL_REF(ret, name, params, args) (void (*)(void)) __real_##name,

/* Under ASan the allocators are not wrapped (ASan owns malloc). */
#if defined(__SANITIZE_ADDRESS__)
#define PK_ALLOC_SIGS(W)
#else
#define PK_ALLOC_SIGS(W) PK_BLOCKING_ALLOC_SIGS(W) W(void, free, (void *p), (p))
#endif

/* The variadic ones, written out by hand in the wrappers. */
#define PK_VARIADIC_SIGS(W)                                                    \
	W(int, open, (const char *path, int flags, ...), ())                   \
	W(int, __printf_chk, (int flag, const char *fmt, ...), ())             \
	W(int, __fprintf_chk, (FILE * f, int flag, const char *fmt, ...), ())

PK_BLOCKING_SLEEPER_SIGS(PK_REAL_DECL)
PK_BLOCKING_MORE_SIGS(PK_REAL_DECL)
PK_VARIADIC_SIGS(PK_REAL_DECL)
PK_ALLOC_SIGS(PK_REAL_DECL)

extern void (*const pk_blocking_static_refs[])(void);
void (*const pk_blocking_static_refs[])(void) = {
	PK_BLOCKING_SLEEPER_SIGS(PK_REAL_REF) PK_BLOCKING_MORE_SIGS(PK_REAL_REF)
		PK_VARIADIC_SIGS(PK_REAL_REF) PK_ALLOC_SIGS(PK_REAL_REF)};
