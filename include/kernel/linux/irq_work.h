/* SPDX-License-Identifier: MIT */
/* <linux/irq_work.h> for kernel code: the library's own header. */
#ifndef _LINUX_IRQ_WORK_H
#define _LINUX_IRQ_WORK_H

#include <preempt/irq_work.h>

#endif
