/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_KDEBUG_H
#define _LINUX_KDEBUG_H

/*
 * The die notifier chain: notify_die() tells registered callbacks about
 * an oops or a trap.  The library raises none itself; code may call
 * notify_die() and register callbacks (kernel/notifier.c).  The event
 * numbers are x86's <asm/kdebug.h>; any distinct values would do.
 */

#include <linux/notifier.h>

struct pt_regs;

enum die_val {
	DIE_OOPS = 1,
	DIE_INT3,
	DIE_DEBUG,
	DIE_PANIC,
	DIE_NMI,
	DIE_DIE,
	DIE_KERNELDEBUG,
	DIE_TRAP,
	DIE_GPF,
	DIE_CALL,
	DIE_PAGE_FAULT,
	DIE_NMIUNKNOWN,
};

struct die_args {
	struct pt_regs *regs;
	const char *str;
	long err;
	int trapnr;
	int signr;
};

int register_die_notifier(struct notifier_block *nb);
int unregister_die_notifier(struct notifier_block *nb);
/* Any context: the chain is an atomic one. */
int notify_die(enum die_val val, const char *str, struct pt_regs *regs,
	       long err, int trap, int sig);

#endif /* _LINUX_KDEBUG_H */
