/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SCHED_SIGNAL_H
#define _LINUX_SCHED_SIGNAL_H
/* Signals of tasks: the library's, through linux/sched.h (linux/signal.h). */
#include <linux/signal.h>
#endif
