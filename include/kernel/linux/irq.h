/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_IRQ_H
#define _LINUX_IRQ_H
/* Interrupt lines: the library's controllers (preempt/interrupt.h). */
#include <linux/interrupt.h>
#endif
