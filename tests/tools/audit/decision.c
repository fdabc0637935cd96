// SPDX-License-Identifier: MIT
/* Other behaviour decided from the context. */
#include "fake_kernel.h"

int rx_deliver(struct pkt *p)
{
	if (in_softirq()) /* EXPECT decision */
		return deliver_now(p);
	return deliver_later(p);
}

void drain(struct ring *r)
{
	while (!in_irq() && ring_busy(r)) /* EXPECT decision */
		ring_poll(r);
}
