/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_PID_H
#define _LINUX_PID_H
/* Task ids: task_pid_nr() and friends come with linux/sched.h. */
#include <linux/sched.h>
#endif
