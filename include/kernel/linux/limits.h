/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_LIMITS_H
#define _LINUX_LIMITS_H

/*
 * The ABI's limits (the C library's <limits.h> includes this file for
 * them) and the kernel's fixed-width maxima.  INT_MAX and the other C
 * limits come from the compiler's <limits.h> (linux/kernel.h).
 */

#define NR_OPEN 1024
#define NGROUPS_MAX 65536
#define ARG_MAX 131072
#define LINK_MAX 127
#define MAX_CANON 255
#define MAX_INPUT 255
#define NAME_MAX 255
#define PATH_MAX 4096
#define PIPE_BUF 4096
#define XATTR_NAME_MAX 255
#define XATTR_SIZE_MAX 65536
#define XATTR_LIST_MAX 65536
#define RTSIG_MAX 32

#define U8_MAX ((unsigned char)~0U)
#define S8_MAX ((signed char)(U8_MAX >> 1))
#define S8_MIN ((signed char)(-S8_MAX - 1))
#define U16_MAX ((unsigned short)~0U)
#define S16_MAX ((short)(U16_MAX >> 1))
#define S16_MIN ((short)(-S16_MAX - 1))
#define U32_MAX ((unsigned int)~0U)
#define U32_MIN ((unsigned int)0)
#define S32_MAX ((int)(U32_MAX >> 1))
#define S32_MIN ((int)(-S32_MAX - 1))
#define U64_MAX ((unsigned long long)~0ULL)
#define S64_MAX ((long long)(U64_MAX >> 1))
#define S64_MIN ((long long)(-S64_MAX - 1))
#define PHYS_ADDR_MAX (~(unsigned long long)0)

/*
 * INT_MAX and the other C limits, which the kernel's linux/limits.h gives
 * too: last, so that the C library's <limits.h>, which includes this
 * file, finds the ABI's limits above already defined.
 */
#include <limits.h>

#endif /* _LINUX_LIMITS_H */
