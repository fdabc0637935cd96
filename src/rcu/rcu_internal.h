/* SPDX-License-Identifier: MIT */
#ifndef PK_RCU_INTERNAL_H
#define PK_RCU_INTERNAL_H

/* Between the rcu layer's files: tree.c (RCU) and srcu.c. */

#include <stdbool.h>

/* Is a machine booted, with the rcu kthreads running? */
bool pk_rcu_booted(void);

/* A host thread's pause while it polls (no machine: nothing wakes it). */
void pk_rcu_poll_pause(void);

/* srcu.c: its kthread, started and stopped with the machine's. */
void pk_srcu_boot(void);
void pk_srcu_shutdown(void);

#endif /* PK_RCU_INTERNAL_H */
