// SPDX-License-Identifier: MIT
/* Other behaviour decided from the context. */
#include "fake_kernel.h"

int rx_deliver(struct pkt *p)
{
	/* EXPECT decision */
	if (in_softirq())
		return deliver_now(p);
	return deliver_later(p);
}

void drain(struct ring *r)
{
	/* EXPECT decision */
	while (!in_irq() && ring_busy(r))
		ring_poll(r);
}
