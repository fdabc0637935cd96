// SPDX-License-Identifier: MIT
/* The README's example: the seed's GFP bug, and might_sleep() catching it. */
#include <stdio.h>

#include <preempt/bottom_half.h>
#include <preempt/debug.h>
#include <preempt/preempt.h>

static const char *pick_gfp(void)
{
	/* Right in every model now that the count is unconditional. */
	return preemptible() ? "GFP_KERNEL" : "GFP_ATOMIC";
}

static void fill_cache(void)
{
	might_sleep(); /* we are about to block */
}

int main(void)
{
	preempt_model_set(PREEMPT_MODEL_NONE);	 /* no kernel preemption... */
	printf("task:        %s\n", pick_gfp()); /* ...still GFP_KERNEL */

	local_bh_disable();
	printf("bh disabled: %s, in_softirq()=%d, count=%#x\n", pick_gfp(),
	       in_softirq(), preempt_count());
	local_bh_enable();

	preempt_disable();
	fill_cache(); /* BUG: sleeping function called from invalid context */
	preempt_enable();
	return preempt_count(); /* 0: balanced */
}
