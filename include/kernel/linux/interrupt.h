/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_INTERRUPT_H
#define _LINUX_INTERRUPT_H
/* Interrupts, softirqs and tasklets: the library's (preempt/interrupt.h). */
#include <linux/bottom_half.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <preempt/interrupt.h>
#endif
