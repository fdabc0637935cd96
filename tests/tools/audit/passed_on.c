// SPDX-License-Identifier: MIT
/* The answer handed on to a caller that will act on it. */
#include "fake_kernel.h"

bool may_block(void)
{
	return in_task(); /* EXPECT passed-on */
}

void note_ctx(struct ctx *c)
{
	c->in_hardirq = in_serving_softirq(); /* EXPECT passed-on */
}
