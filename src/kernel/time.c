// SPDX-License-Identifier: MIT
/* Wall-clock time (ktime_get() is the library's monotonic clock). */

#include <time.h>
#include <linux/ktime.h>

#include "../port/sim.h"

/* A simulated machine's wall clock: a fixed date plus the virtual clock,
 * so replays read the same time (2026-01-01T00:00:00Z at boot). */
#define SIM_EPOCH_S 1767225600LL

ktime_t ktime_get_real(void)
{
	struct timespec ts;

	if (pk_sim_active())
		return SIM_EPOCH_S * 1000000000LL + pk_clock_ns();
	clock_gettime(CLOCK_REALTIME, &ts);
	return ktime_set(ts.tv_sec, (unsigned long)ts.tv_nsec);
}

/* linux/delay.h: a nominal calibration (no delay loop here to measure). */
unsigned long loops_per_jiffy = 4000000;
