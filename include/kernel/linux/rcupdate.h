/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RCUPDATE_H
#define _LINUX_RCUPDATE_H

/* RCU readers and updaters: the library's (<preempt/rcupdate.h>). */

#include <linux/types.h>
#include <linux/compiler.h>
#include <preempt/rcupdate.h>

#endif /* _LINUX_RCUPDATE_H */
