/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RCULIST_H
#define _LINUX_RCULIST_H

/* RCU-protected lists and hlists over <linux/list.h>'s. */

#include <linux/list.h>
#include <linux/rcupdate.h>
#include <preempt/rculist.h>

#endif /* _LINUX_RCULIST_H */
