/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_BCD_H
#define _LINUX_BCD_H

/*
 * Binary-coded decimal, as real-time clocks keep it: bcd2bin(0x42) is 42.
 * Constants fold at compile time; other values call lib/bcd.c's
 * _bcd2bin()/_bin2bcd(), which a program brings.
 */

#include <linux/compiler_types.h>
#include <linux/types.h>

unsigned _bcd2bin(unsigned char val) __attribute_const__;
unsigned char _bin2bcd(unsigned val) __attribute_const__;

#define bcd2bin(x)                                                             \
	(__builtin_constant_p((u8)(x)) ? (((x)&0x0f) + ((x) >> 4) * 10)        \
				       : _bcd2bin(x))
#define bin2bcd(x)                                                             \
	(__builtin_constant_p((u8)(x)) ? ((((x) / 10) << 4) + (x) % 10)        \
				       : _bin2bcd(x))

#endif /* _LINUX_BCD_H */
