/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_IRQFLAGS_H
#define _LINUX_IRQFLAGS_H
#include <preempt/irqflags.h>
#endif
