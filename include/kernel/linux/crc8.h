/* SPDX-License-Identifier: MIT */
#ifndef __CRC8_H_
#define __CRC8_H_

/*
 * CRC-8 for any polynomial: populate a 256-entry table for the
 * polynomial, in the bit order the data uses, then crc8() over the bytes.
 * lib/crc8.c, which a program brings.  Any context.
 */

#include <linux/types.h>

#define CRC8_INIT_VALUE 0xFF
/* The value a correct message with its CRC appended leaves. */
#define CRC8_GOOD_VALUE(_table) (_table[0xFF])
#define CRC8_TABLE_SIZE 256
#define DECLARE_CRC8_TABLE(_table) static u8 _table[CRC8_TABLE_SIZE]

/* Least significant bit first (the polynomial given reflected). */
void crc8_populate_lsb(u8 table[CRC8_TABLE_SIZE], u8 polynomial);
/* Most significant bit first. */
void crc8_populate_msb(u8 table[CRC8_TABLE_SIZE], u8 polynomial);
u8 crc8(const u8 table[CRC8_TABLE_SIZE], const u8 *pdata, size_t nbytes,
	u8 crc);

#endif /* __CRC8_H_ */
