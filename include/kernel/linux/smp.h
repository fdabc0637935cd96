/* SPDX-License-Identifier: MIT */
/* <linux/smp.h> for kernel code: the library's own header. */
#ifndef _LINUX_SMP_H
#define _LINUX_SMP_H

#include <preempt/smp.h>

#endif
