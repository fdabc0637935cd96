/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_BITOPS_H
#define _LINUX_BITOPS_H

/*
 * Bit operations on arrays of unsigned long, bit @nr counted from bit 0 of
 * word 0.  set_bit(), clear_bit() and change_bit() are atomic and unordered;
 * test_and_*() are atomic and fully ordered; the __ forms are plain
 * read-modify-writes for data nobody else touches.  Any context.
 */

#include <strings.h> /* ffs(): the C library's is the kernel's */
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <asm/barrier.h>

#define BITS_TO_U64(nr) (((nr) + 63) / 64)
#define BITS_TO_U32(nr) (((nr) + 31) / 32)
#define BITS_TO_BYTES(nr) (((nr) + 7) / 8)

#define __pk_bitword(nr, addr) ((unsigned long *)(addr) + BIT_WORD(nr))

static __always_inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(__pk_bitword(nr, addr), BIT_MASK(nr),
			  __ATOMIC_RELAXED);
}
static __always_inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(__pk_bitword(nr, addr), ~BIT_MASK(nr),
			   __ATOMIC_RELAXED);
}
static __always_inline void change_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_xor(__pk_bitword(nr, addr), BIT_MASK(nr),
			   __ATOMIC_RELAXED);
}
static __always_inline bool test_and_set_bit(long nr,
					     volatile unsigned long *addr)
{
	return __atomic_fetch_or(__pk_bitword(nr, addr), BIT_MASK(nr),
				 __ATOMIC_SEQ_CST) &
	       BIT_MASK(nr);
}
static __always_inline bool test_and_clear_bit(long nr,
					       volatile unsigned long *addr)
{
	return __atomic_fetch_and(__pk_bitword(nr, addr), ~BIT_MASK(nr),
				  __ATOMIC_SEQ_CST) &
	       BIT_MASK(nr);
}
static __always_inline bool test_and_change_bit(long nr,
						volatile unsigned long *addr)
{
	return __atomic_fetch_xor(__pk_bitword(nr, addr), BIT_MASK(nr),
				  __ATOMIC_SEQ_CST) &
	       BIT_MASK(nr);
}
/* Lock forms: acquire on success, release on unlock. */
static __always_inline bool test_and_set_bit_lock(long nr,
						  volatile unsigned long *addr)
{
	return __atomic_fetch_or(__pk_bitword(nr, addr), BIT_MASK(nr),
				 __ATOMIC_ACQUIRE) &
	       BIT_MASK(nr);
}
static __always_inline void clear_bit_unlock(long nr,
					     volatile unsigned long *addr)
{
	__atomic_fetch_and(__pk_bitword(nr, addr), ~BIT_MASK(nr),
			   __ATOMIC_RELEASE);
}
static __always_inline void __clear_bit_unlock(long nr,
					       volatile unsigned long *addr)
{
	clear_bit_unlock(nr, addr);
}
static __always_inline bool test_bit(long nr,
				     const volatile unsigned long *addr)
{
	return 1UL &
	       (READ_ONCE(addr[BIT_WORD(nr)]) >> (nr & (BITS_PER_LONG - 1)));
}
static __always_inline bool test_bit_acquire(long nr,
					     const volatile unsigned long *addr)
{
	return 1UL & (__atomic_load_n(&addr[BIT_WORD(nr)], __ATOMIC_ACQUIRE) >>
		      (nr & (BITS_PER_LONG - 1)));
}
static __always_inline void __set_bit(long nr, volatile unsigned long *addr)
{
	*__pk_bitword(nr, addr) |= BIT_MASK(nr);
}
static __always_inline void __clear_bit(long nr, volatile unsigned long *addr)
{
	*__pk_bitword(nr, addr) &= ~BIT_MASK(nr);
}
static __always_inline void __change_bit(long nr, volatile unsigned long *addr)
{
	*__pk_bitword(nr, addr) ^= BIT_MASK(nr);
}
static __always_inline bool __test_and_set_bit(long nr,
					       volatile unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	__set_bit(nr, addr);
	return old;
}
static __always_inline bool __test_and_clear_bit(long nr,
						 volatile unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	__clear_bit(nr, addr);
	return old;
}
static __always_inline bool __test_and_change_bit(long nr,
						  volatile unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	__change_bit(nr, addr);
	return old;
}
#define __assign_bit(nr, addr, value)                                          \
	((value) ? __set_bit(nr, addr) : __clear_bit(nr, addr))
#define assign_bit(nr, addr, value)                                            \
	((value) ? set_bit(nr, addr) : clear_bit(nr, addr))

/* ffs()/fls(): 1-based, 0 for no bit; __ffs()/__fls(): 0-based, undefined for
 * 0. */
static __always_inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}
static __always_inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}
static __always_inline unsigned long __ffs(unsigned long word)
{
	return (unsigned long)__builtin_ctzl(word);
}
static __always_inline unsigned long __fls(unsigned long word)
{
	return (unsigned long)(BITS_PER_LONG - 1 - __builtin_clzl(word));
}
static __always_inline unsigned long ffz(unsigned long word)
{
	return __ffs(~word);
}
/* fns() - the index of @word's @n-th set bit (from 0); BITS_PER_LONG if none.
 */
static inline unsigned int fns(unsigned long word, unsigned int n)
{
	while (word && n--)
		word &= word - 1;
	return word ? (unsigned int)__ffs(word) : BITS_PER_LONG;
}
static __always_inline unsigned int __ffs64(u64 word)
{
	return (unsigned int)__builtin_ctzll(word);
}
static __always_inline unsigned int fls_long(unsigned long l)
{
	return (unsigned int)fls64(l);
}
static __always_inline int get_count_order(unsigned int count)
{
	if (count == 0)
		return -1;
	return fls(--count);
}
static __always_inline int get_count_order_long(unsigned long l)
{
	if (l == 0UL)
		return -1;
	return (int)fls_long(--l);
}

/*
 * The portable bit counts the kernel falls back on without a population
 * count instruction (lib/hweight.c).  Any context.
 */
unsigned int __sw_hweight8(unsigned int w);
unsigned int __sw_hweight16(unsigned int w);
unsigned int __sw_hweight32(unsigned int w);
unsigned long __sw_hweight64(__u64 w);

static __always_inline unsigned int hweight8(unsigned int w)
{
	return (unsigned int)__builtin_popcount(w & 0xffU);
}
static __always_inline unsigned int hweight16(unsigned int w)
{
	return (unsigned int)__builtin_popcount(w & 0xffffU);
}
static __always_inline unsigned int hweight32(unsigned int w)
{
	return (unsigned int)__builtin_popcount(w);
}
static __always_inline unsigned long hweight64(u64 w)
{
	return (unsigned long)__builtin_popcountll(w);
}
static __always_inline unsigned long hweight_long(unsigned long w)
{
	return (unsigned long)__builtin_popcountl(w);
}

static inline u64 rol64(u64 word, unsigned int shift)
{
	return (word << (shift & 63)) | (word >> ((-shift) & 63));
}
static inline u64 ror64(u64 word, unsigned int shift)
{
	return (word >> (shift & 63)) | (word << ((-shift) & 63));
}
static inline u32 rol32(u32 word, unsigned int shift)
{
	return (word << (shift & 31)) | (word >> ((-shift) & 31));
}
static inline u32 ror32(u32 word, unsigned int shift)
{
	return (word >> (shift & 31)) | (word << ((-shift) & 31));
}
static inline u16 rol16(u16 word, unsigned int shift)
{
	return (u16)((word << (shift & 15)) | (word >> ((-shift) & 15)));
}
static inline u8 rol8(u8 word, unsigned int shift)
{
	return (u8)((word << (shift & 7)) | (word >> ((-shift) & 7)));
}
static inline s32 sign_extend32(u32 value, int index)
{
	u8 shift = (u8)(31 - index);

	return (s32)(value << shift) >> shift;
}
static inline s64 sign_extend64(u64 value, int index)
{
	u8 shift = (u8)(63 - index);

	return (s64)(value << shift) >> shift;
}

#include <linux/find.h>

#define for_each_set_bit(bit, addr, size)                                      \
	for ((bit) = 0;                                                        \
	     (bit) = find_next_bit((addr), (size), (bit)), (bit) < (size);     \
	     (bit)++)
#define for_each_set_bit_from(bit, addr, size)                                 \
	for (; (bit) = find_next_bit((addr), (size), (bit)), (bit) < (size);   \
	     (bit)++)
#define for_each_clear_bit(bit, addr, size)                                    \
	for ((bit) = 0; (bit) = find_next_zero_bit((addr), (size), (bit)),     \
	    (bit) < (size);                                                    \
	     (bit)++)
#define for_each_clear_bit_from(bit, addr, size)                               \
	for (; (bit) = find_next_zero_bit((addr), (size), (bit)),              \
	       (bit) < (size);                                                 \
	     (bit)++)

#endif /* _LINUX_BITOPS_H */
