/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_CRC_CCITT_H
#define _LINUX_CRC_CCITT_H

/*
 * CRC-CCITT, polynomial 0x1021: crc_ccitt() processes bits least
 * significant first (CRC-16/KERMIT with a 0 seed), crc_ccitt_false() most
 * significant first (CRC-16/CCITT-FALSE with a 0xffff seed).  The tables
 * and functions come from lib/crc-ccitt.c, which a program brings.
 */

#include <linux/types.h>

extern u16 const crc_ccitt_table[256];
extern u16 const crc_ccitt_false_table[256];

u16 crc_ccitt(u16 crc, const u8 *buffer, size_t len);
/* 6.1 only: Linux 6.12's lib/crc-ccitt.c no longer has the _false form. */
u16 crc_ccitt_false(u16 crc, const u8 *buffer, size_t len);

static inline u16 crc_ccitt_byte(u16 crc, const u8 c)
{
	return (crc >> 8) ^ crc_ccitt_table[(crc ^ c) & 0xff];
}

static inline u16 crc_ccitt_false_byte(u16 crc, const u8 c)
{
	return (u16)(crc << 8) ^ crc_ccitt_false_table[(crc >> 8) ^ c];
}

#endif /* _LINUX_CRC_CCITT_H */
