// SPDX-License-Identifier: MIT
/* A sleeping or a busy-waiting path picked from the context. */
#include "fake_kernel.h"

void settle(void)
{
	if (in_atomic()) /* EXPECT sleep-choice */
		mdelay(5);
	else
		msleep(5);
}

void take(struct dev *d)
{
	if (!in_interrupt()) { /* EXPECT sleep-choice */
		mutex_lock(&d->lock);
		d->users++;
		mutex_unlock(&d->lock);
	}
}
