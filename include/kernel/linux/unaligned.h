/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_UNALIGNED_H
#define _LINUX_UNALIGNED_H

/* Linux 6.12's name for <asm/unaligned.h>. */
#include <asm/unaligned.h>

#endif /* _LINUX_UNALIGNED_H */
