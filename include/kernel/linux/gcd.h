/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_GCD_H
#define _LINUX_GCD_H

/* gcd(a, 0) is a; lib/math/gcd.c, which a program brings. Any context. */

#include <linux/compiler.h>

unsigned long gcd(unsigned long a, unsigned long b) __attribute_const__;

#endif /* _LINUX_GCD_H */
