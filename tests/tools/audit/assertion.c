// SPDX-License-Identifier: MIT
/* Asserting the context, not deciding from it. */
#include "fake_kernel.h"

void must_be_atomic(struct dev *d)
{
	/* EXPECT assertion */
	WARN_ON_ONCE(!irqs_disabled());
	d->count++;
}

void must_not_be_irq(void)
{
	/* EXPECT assertion */
	BUG_ON(in_interrupt());
}

void must_be_enabled(void)
{
	/* EXPECT assertion */
	MY_DRV_ASSERT(!irqs_disabled());
}
