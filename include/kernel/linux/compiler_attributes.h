/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_COMPILER_ATTRIBUTES_H
#define _LINUX_COMPILER_ATTRIBUTES_H
#include <linux/compiler_types.h>
#endif
