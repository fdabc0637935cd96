// SPDX-License-Identifier: MIT
/* The fixes: context passed in, lockdep asserting.  No findings here. */
#include "fake_kernel.h"

void *buf_alloc_fixed(size_t n, gfp_t gfp)
{
	if (gfpflags_allow_blocking(gfp))
		might_sleep();
	return kmalloc(n, gfp);
}

void must_be_atomic_fixed(struct dev *d)
{
	lockdep_assert_irqs_disabled();
	d->count++;
}
