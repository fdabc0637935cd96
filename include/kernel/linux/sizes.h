/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SIZES_H
#define _LINUX_SIZES_H
#define SZ_1 0x1
#define SZ_2 0x2
#define SZ_4 0x4
#define SZ_8 0x8
#define SZ_16 0x10
#define SZ_32 0x20
#define SZ_64 0x40
#define SZ_128 0x80
#define SZ_256 0x100
#define SZ_512 0x200
#define SZ_1K 0x400
#define SZ_2K 0x800
#define SZ_4K 0x1000
#define SZ_8K 0x2000
#define SZ_16K 0x4000
#define SZ_32K 0x8000
#define SZ_64K 0x10000
#define SZ_128K 0x20000
#define SZ_256K 0x40000
#define SZ_512K 0x80000
#define SZ_1M 0x100000
#define SZ_2M 0x200000
#define SZ_4M 0x400000
#define SZ_1G 0x40000000
#endif
