/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_CACHE_H
#define _LINUX_CACHE_H
#include <linux/compiler.h>
#define L1_CACHE_SHIFT 6
#define L1_CACHE_BYTES 64
#define SMP_CACHE_BYTES 64
#define cache_line_size() 64
#endif
