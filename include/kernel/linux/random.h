/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RANDOM_H
#define _LINUX_RANDOM_H

/*
 * Random numbers from the host's kernel (getrandom(2): a system call, so
 * any context, interrupt handlers included; never blocks once the host
 * has booted).  Not reproducible between runs.
 */

#include <linux/types.h>

void get_random_bytes(void *buf, size_t len);
u32 get_random_u32(void);
u64 get_random_u64(void);

static inline u8 get_random_u8(void)
{
	return (u8)get_random_u32();
}

static inline u16 get_random_u16(void)
{
	return (u16)get_random_u32();
}

static inline unsigned long get_random_long(void)
{
	return (unsigned long)get_random_u64();
}

#define get_random_int() get_random_u32()

/* Uniform in [0, @ceil): @ceil must not be 0. */
u32 get_random_u32_below(u32 ceil);
#define prandom_u32_max(ceil) get_random_u32_below(ceil)

/* Uniform in [@floor, @ceil], both included. */
static inline u32 get_random_u32_inclusive(u32 floor, u32 ceil)
{
	return floor + get_random_u32_below(ceil - floor + 1);
}

#endif /* _LINUX_RANDOM_H */
