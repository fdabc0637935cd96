/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_HEX_H
#define _LINUX_HEX_H

/*
 * Hex digits both ways.  Any context: no allocation, no locks.  The
 * library's are in one object (src/kernel/hexdump.c) with
 * hex_dump_to_buffer() and print_hex_dump(), so a program's own
 * lib/hexdump.c replaces them all.
 */

#include <linux/compiler.h>
#include <linux/types.h>

extern const char hex_asc[];
#define hex_asc_lo(x) hex_asc[((x)&0x0f)]
#define hex_asc_hi(x) hex_asc[((x)&0xf0) >> 4]
extern const char hex_asc_upper[];
#define hex_asc_upper_lo(x) hex_asc_upper[((x)&0x0f)]
#define hex_asc_upper_hi(x) hex_asc_upper[((x)&0xf0) >> 4]

/* Two lower-case digits of @byte at @buf; returns @buf + 2. */
static inline char *hex_byte_pack(char *buf, u8 byte)
{
	*buf++ = hex_asc_hi(byte);
	*buf++ = hex_asc_lo(byte);
	return buf;
}

static inline char *hex_byte_pack_upper(char *buf, u8 byte)
{
	*buf++ = hex_asc_upper_hi(byte);
	*buf++ = hex_asc_upper_lo(byte);
	return buf;
}

/** hex_to_bin() - the value of hex digit @ch, or -1. */
int hex_to_bin(unsigned char ch);
/** hex2bin() - @count bytes from 2 * @count digits; -EINVAL on a non-digit. */
int __must_check hex2bin(u8 *dst, const char *src, size_t count);
/** bin2hex() - 2 * @count lower-case digits, unterminated; returns the end. */
char *bin2hex(char *dst, const void *src, size_t count);

#endif /* _LINUX_HEX_H */
