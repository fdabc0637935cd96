/* SPDX-License-Identifier: MIT */
#ifndef CRC_ITU_T_H
#define CRC_ITU_T_H

/*
 * CRC-ITU-T (V.41), polynomial 0x1021, most significant bit first
 * (CRC-16/XMODEM with a 0 seed).  lib/crc-itu-t.c, which a program brings.
 */

#include <linux/types.h>

extern u16 const crc_itu_t_table[256];
u16 crc_itu_t(u16 crc, const u8 *buffer, size_t len);

static inline u16 crc_itu_t_byte(u16 crc, const u8 data)
{
	return (u16)(crc << 8) ^ crc_itu_t_table[((crc >> 8) ^ data) & 0xff];
}

#endif /* CRC_ITU_T_H */
