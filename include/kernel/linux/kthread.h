/* SPDX-License-Identifier: MIT */
/* <linux/kthread.h> for kernel code: the library's own header. */
#ifndef _LINUX_KTHREAD_H
#define _LINUX_KTHREAD_H

#include <preempt/kthread.h>

#endif
