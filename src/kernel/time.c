// SPDX-License-Identifier: MIT
/* Wall-clock time (ktime_get() is the library's monotonic clock). */

#include <time.h>
#include <linux/ktime.h>

ktime_t ktime_get_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ktime_set(ts.tv_sec, (unsigned long)ts.tv_nsec);
}
