/* SPDX-License-Identifier: MIT */
#ifndef PK_PORT_SIGCHAIN_H
#define PK_PORT_SIGCHAIN_H

/*
 * Handing a signal to the handler installed before ours (ASan's, cmocka's,
 * another layer's), as a fault we do not own must be.  Async-signal-safe.
 */

#include <signal.h>

static inline void pk_sigaction_chain(const struct sigaction *old, int sig,
				      siginfo_t *si, void *uctx)
{
	if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
		old->sa_sigaction(sig, si, uctx);
		return;
	}
	if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
		old->sa_handler(sig);
		return;
	}
	/* Returning re-executes the access, which now kills us. */
	signal(sig, SIG_DFL);
}

#endif /* PK_PORT_SIGCHAIN_H */
