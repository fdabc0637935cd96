/* SPDX-License-Identifier: MIT */
#ifndef __CRC16_H
#define __CRC16_H

/*
 * CRC-16 with the polynomial x^16 + x^15 + x^2 + 1 (0x8005), processed
 * least significant bit first (CRC-16/ARC with a 0 seed).  The table and
 * crc16() come from lib/crc16.c, which a program brings.  Any context.
 */

#include <linux/types.h>

extern u16 const crc16_table[256];
u16 crc16(u16 crc, const u8 *buffer, size_t len);

static inline u16 crc16_byte(u16 crc, const u8 data)
{
	return (crc >> 8) ^ crc16_table[(crc ^ data) & 0xff];
}

#endif /* __CRC16_H */
