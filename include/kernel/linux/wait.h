/* SPDX-License-Identifier: MIT */
/* <linux/wait.h> for kernel code: the library's own header. */
#ifndef _LINUX_WAIT_H
#define _LINUX_WAIT_H

#include <preempt/wait.h>

#endif
