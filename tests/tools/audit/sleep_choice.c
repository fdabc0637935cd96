// SPDX-License-Identifier: MIT
/* A sleeping or a busy-waiting path picked from the context. */
#include "fake_kernel.h"

void settle(void)
{
	/* EXPECT sleep-choice */
	if (in_atomic())
		mdelay(5);
	else
		msleep(5);
}

void take(struct dev *d)
{
	/* EXPECT sleep-choice */
	if (!in_interrupt()) {
		mutex_lock(&d->lock);
		d->users++;
		mutex_unlock(&d->lock);
	}
}
