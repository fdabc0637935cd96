/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_BITFIELD_H
#define _LINUX_BITFIELD_H

/*
 * Fields of a register word described by their mask: FIELD_PREP() shifts a
 * value into place, FIELD_GET() extracts it.  The mask must be a constant
 * with contiguous bits.
 */

#include <linux/bits.h>
#include <linux/build_bug.h>

#define __bf_shf(x) (__builtin_ffsll(x) - 1)
#define FIELD_MAX(mask) ((__typeof__(mask))((mask) >> __bf_shf(mask)))
#define FIELD_FIT(mask, val)                                                   \
	(!((((__typeof__(mask))(val)) << __bf_shf(mask)) & ~(mask)))
#define FIELD_PREP(mask, val)                                                  \
	({                                                                     \
		BUILD_BUG_ON_MSG(!__builtin_constant_p(mask) || (mask) == 0,   \
				 "FIELD_PREP: mask is not a constant");        \
		((__typeof__(mask))(val) << __bf_shf(mask)) & (mask);          \
	})
#define FIELD_GET(mask, reg)                                                   \
	({                                                                     \
		BUILD_BUG_ON_MSG(!__builtin_constant_p(mask) || (mask) == 0,   \
				 "FIELD_GET: mask is not a constant");         \
		(__typeof__(mask))(((reg) & (mask)) >> __bf_shf(mask));        \
	})

#endif /* _LINUX_BITFIELD_H */
