/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SIGNAL_H
#define _LINUX_SIGNAL_H

/*
 * Kernel signals as tasks see them: signal_pending(),
 * fatal_signal_pending(), send_sig() & co. are the library's
 * (<preempt/sched.h>, through linux/sched.h); linux/sched/signal.h is the
 * same header.
 */

#include <linux/sched.h>

#endif
