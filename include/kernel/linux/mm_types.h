/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_MM_TYPES_H
#define _LINUX_MM_TYPES_H
#include <linux/types.h>
#include <preempt/mm.h>
#endif
