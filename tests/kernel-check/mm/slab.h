/* SPDX-License-Identifier: MIT */
/*
 * Stand-in for the kernel's private mm/slab.h, which mm/mempool.c
 * includes by quotes: a program's own header beside the file, before the
 * library's tree.  mempool.c needs nothing from it here (the slab
 * internals it reads are behind CONFIG_DEBUG_VM and CONFIG_SLUB_DEBUG).
 */
#include <linux/slab.h>
