/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SCHED_TASK_H
#define _LINUX_SCHED_TASK_H

/* get_task_struct()/put_task_struct(): the library's, in <linux/sched.h>. */
#include <linux/sched.h>

#endif /* _LINUX_SCHED_TASK_H */
