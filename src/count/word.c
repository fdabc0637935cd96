// SPDX-License-Identifier: MIT
/*
 * The count layer is header-only; this file only gives its per-task state
 * a home.  A fresh thread starts preemptible with no reschedule owed.
 */
#include <preempt/debug.h>
#include <preempt/irqflags.h>
#include <preempt/preempt.h>

__thread struct pk_cpu_tls pk_cpu_tls = {.word = PREEMPT_ENABLED};
__thread unsigned long pk_irqs_disabled_ip;
__thread unsigned long pk_preempt_disable_ip;
/* RCU's per-task reader state (see <preempt/rcupdate.h>). */
__thread int pk_rcu_nesting;
__thread int pk_rcu_special;
__thread int pk_rcu_thread_mode;
int pk_rcu_preempt_flavour;
