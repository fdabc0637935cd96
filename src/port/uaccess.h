/* SPDX-License-Identifier: MIT */
#ifndef PK_PORT_UACCESS_H
#define PK_PORT_UACCESS_H

/*
 * The port layer's user copy: the one loop whose faults the memory layer
 * turns into "bytes not copied", the kernel's exception table.
 *
 * On x86-64 and arm64 the loop is assembly (uaccess_x86_64.S,
 * uaccess_aarch64.S) whose faulting instructions are listed, with the
 * address to resume at, in pk_port_extable: the fault handler moves the
 * interrupted pc there and the loop returns what it had left, exactly as
 * the kernel's fixups do.  Elsewhere (uaccess.c) a byte loop under
 * sigsetjmp() gives the same answer, more slowly.
 */

#include <signal.h>
#include <stdbool.h>

/* Copy @n bytes from @src to @dst; returns how many were not copied. */
unsigned long pk_port_user_copy(void *dst, const void *src, unsigned long n);

/* Is the fault in @uctx one of the copy loop's instructions? */
bool pk_port_in_user_copy(const void *uctx);

/* Resume the copy in @uctx at its fixup: it returns what it had left. */
void pk_port_user_copy_fixup(void *uctx);

/* The faulting instruction, and whether it wrote (false if unknown). */
unsigned long pk_port_fault_ip(const void *uctx);
bool pk_port_fault_write(const void *uctx);

#endif /* PK_PORT_UACCESS_H */
