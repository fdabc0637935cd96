// SPDX-License-Identifier: MIT
/* The cover letter's seed pattern, and the same choice spelled as if/else. */
#include "fake_kernel.h"

void *buf_alloc(size_t n)
{
	/* EXPECT gfp-choice */
	gfp_t gfp = preemptible() ? GFP_KERNEL : GFP_ATOMIC;

	return kmalloc(n, gfp);
}

void *buf_alloc_irq(size_t n)
{
	/* EXPECT gfp-choice */
	return kmalloc(n, in_interrupt() ? GFP_ATOMIC : GFP_KERNEL);
}

int queue_msg(struct msgq *q)
{
	gfp_t gfp;

	/* EXPECT gfp-choice */
	if (in_atomic())
		gfp = GFP_ATOMIC;
	else
		gfp = GFP_KERNEL;
	return msgq_add(q, gfp);
}
