/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_BH_H
#define _LINUX_BH_H
#include <preempt/bottom_half.h>
#endif
