// SPDX-License-Identifier: MIT
/* A driver that picks its path from the context: flagged as driver code. */
#include "../../fake_kernel.h"

static void foo_nic_reset(struct foo_nic *nic)
{
	/* EXPECT sleep-choice driver */
	if (in_interrupt())
		schedule_work(&nic->reset_work);
	else
		foo_nic_do_reset(nic);
}
