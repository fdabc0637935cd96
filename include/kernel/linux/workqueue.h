/* SPDX-License-Identifier: MIT */
/* <linux/workqueue.h> for kernel code: the library's own header. */
#ifndef _LINUX_WORKQUEUE_H
#define _LINUX_WORKQUEUE_H

#include <preempt/workqueue.h>

#endif
