/* SPDX-License-Identifier: MIT */
#ifndef _ASM_UNALIGNED_H
#define _ASM_UNALIGNED_H

/*
 * Loads and stores at addresses that need not be aligned: through a
 * packed struct, so the compiler emits what the CPU allows.  The _le/_be
 * forms assemble bytes in the named order, whatever the CPU's.  Any
 * context.  (Linux 6.12 calls this <linux/unaligned.h>; both exist.)
 */

#include <linux/types.h>

#define __get_unaligned_t(type, ptr)                                           \
	({                                                                     \
		const struct {                                                 \
			type x;                                                \
		} __attribute__((packed)) *__pk_p = (const void *)(ptr);       \
		__pk_p->x;                                                     \
	})
#define __put_unaligned_t(type, val, ptr)                                      \
	do {                                                                   \
		struct {                                                       \
			type x;                                                \
		} __attribute__((packed)) *__pk_p = (void *)(ptr);             \
		__pk_p->x = (val);                                             \
	} while (0)

#define get_unaligned(ptr) __get_unaligned_t(__typeof__(*(ptr)), (ptr))
#define put_unaligned(val, ptr)                                                \
	__put_unaligned_t(__typeof__(*(ptr)), (val), (ptr))

/* @n bytes at @p, least significant first. */
static inline u64 pk_get_le(const void *p, int n)
{
	const u8 *b = p;
	u64 v = 0;

	while (n--)
		v = v << 8 | b[n];
	return v;
}

static inline u64 pk_get_be(const void *p, int n)
{
	const u8 *b = p;
	u64 v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | b[i];
	return v;
}

static inline void pk_put_le(u64 v, void *p, int n)
{
	u8 *b = p;

	for (int i = 0; i < n; i++, v >>= 8)
		b[i] = (u8)v;
}

static inline void pk_put_be(u64 v, void *p, int n)
{
	u8 *b = p;

	while (n--) {
		b[n] = (u8)v;
		v >>= 8;
	}
}

static inline u16 get_unaligned_le16(const void *p)
{
	return (u16)pk_get_le(p, 2);
}
static inline u32 get_unaligned_le24(const void *p)
{
	return (u32)pk_get_le(p, 3);
}
static inline u32 get_unaligned_le32(const void *p)
{
	return (u32)pk_get_le(p, 4);
}
static inline u64 get_unaligned_le48(const void *p)
{
	return pk_get_le(p, 6);
}
static inline u64 get_unaligned_le64(const void *p)
{
	return pk_get_le(p, 8);
}
static inline u16 get_unaligned_be16(const void *p)
{
	return (u16)pk_get_be(p, 2);
}
static inline u32 get_unaligned_be24(const void *p)
{
	return (u32)pk_get_be(p, 3);
}
static inline u32 get_unaligned_be32(const void *p)
{
	return (u32)pk_get_be(p, 4);
}
static inline u64 get_unaligned_be48(const void *p)
{
	return pk_get_be(p, 6);
}
static inline u64 get_unaligned_be64(const void *p)
{
	return pk_get_be(p, 8);
}
static inline void put_unaligned_le16(u16 v, void *p)
{
	pk_put_le(v, p, 2);
}
static inline void put_unaligned_le24(u32 v, void *p)
{
	pk_put_le(v, p, 3);
}
static inline void put_unaligned_le32(u32 v, void *p)
{
	pk_put_le(v, p, 4);
}
static inline void put_unaligned_le48(u64 v, void *p)
{
	pk_put_le(v, p, 6);
}
static inline void put_unaligned_le64(u64 v, void *p)
{
	pk_put_le(v, p, 8);
}
static inline void put_unaligned_be16(u16 v, void *p)
{
	pk_put_be(v, p, 2);
}
static inline void put_unaligned_be24(u32 v, void *p)
{
	pk_put_be(v, p, 3);
}
static inline void put_unaligned_be32(u32 v, void *p)
{
	pk_put_be(v, p, 4);
}
static inline void put_unaligned_be48(u64 v, void *p)
{
	pk_put_be(v, p, 6);
}
static inline void put_unaligned_be64(u64 v, void *p)
{
	pk_put_be(v, p, 8);
}

#endif /* _ASM_UNALIGNED_H */
