/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_LCM_H
#define _LINUX_LCM_H

/*
 * lcm() is 0 when either argument is; lcm_not_zero() then answers the
 * other one.  lib/math/lcm.c, which a program brings.  Any context.
 */

#include <linux/compiler.h>

unsigned long lcm(unsigned long a, unsigned long b) __attribute_const__;
unsigned long lcm_not_zero(unsigned long a,
			   unsigned long b) __attribute_const__;

#endif /* _LINUX_LCM_H */
