/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_ALIGN_H
#define _LINUX_ALIGN_H
#include <linux/math.h>
#endif
