// SPDX-License-Identifier: MIT
/* Asserting the context, not deciding from it. */
#include "fake_kernel.h"

void must_be_atomic(struct dev *d)
{
	WARN_ON_ONCE(!irqs_disabled()); /* EXPECT assertion */
	d->count++;
}

void must_not_be_irq(void)
{
	BUG_ON(in_interrupt()); /* EXPECT assertion */
}
