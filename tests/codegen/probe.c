// SPDX-License-Identifier: MIT
/*
 * Compiled as a user would compile kernel-style code against the headers;
 * test_codegen disassembles the object.  One function per primitive.
 */
#include <preempt/irqflags.h>
#include <preempt/preempt.h>

void probe_preempt_disable(void);
void probe_preempt_enable(void);
int probe_in_atomic(void);

void probe_preempt_disable(void)
{
	preempt_disable();
}

void probe_preempt_enable(void)
{
	preempt_enable();
}

int probe_in_atomic(void)
{
	return in_atomic();
}
