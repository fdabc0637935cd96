/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_CRC7_H
#define _LINUX_CRC7_H

/*
 * CRC-7 (polynomial x^7 + x^3 + 1, as SD/MMC commands use it), kept in
 * the top seven bits of the byte: the usual value is the result >> 1.
 * lib/crc7.c, which a program brings.
 */

#include <linux/types.h>

extern const u8 crc7_be_syndrome_table[256];

static inline u8 crc7_be_byte(u8 crc, u8 data)
{
	return crc7_be_syndrome_table[crc ^ data];
}

u8 crc7_be(u8 crc, const u8 *buffer, size_t len);

#endif /* _LINUX_CRC7_H */
