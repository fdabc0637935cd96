// SPDX-License-Identifier: MIT
/* The answer handed on to a caller that will act on it. */
#include "fake_kernel.h"

bool may_block(void)
{
	/* EXPECT passed-on */
	return in_task();
}

void note_ctx(struct ctx *c)
{
	/* EXPECT passed-on */
	c->in_hardirq = in_serving_softirq();
}
