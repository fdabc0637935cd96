/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_IRQRETURN_H
#define _LINUX_IRQRETURN_H
#include <preempt/interrupt.h>
#endif
