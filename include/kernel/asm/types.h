/* SPDX-License-Identifier: MIT */
#ifndef _ASM_TYPES_H
#define _ASM_TYPES_H

/* The fixed-width types (u8 ... u64, __u8 ... __u64): linux/types.h's. */
#include <linux/types.h>

#endif /* _ASM_TYPES_H */
