// SPDX-License-Identifier: MIT
/*
 * <linux/random.h> on the host's getrandom(2).  A system call, so safe in
 * a host signal handler (an interrupt here); no state, no lock.
 */

#include <errno.h>
#include <sys/random.h>
#include <linux/bug.h>
#include <linux/random.h>

void get_random_bytes(void *buf, size_t len)
{
	u8 *p = buf;

	while (len) {
		ssize_t n = getrandom(p, len, 0);

		if (n < 0) {
			/* EINTR: a signal; anything else cannot happen here. */
			WARN_ON_ONCE(errno != EINTR);
			continue;
		}
		p += n;
		len -= (size_t)n;
	}
}

u32 get_random_u32(void)
{
	u32 v;

	get_random_bytes(&v, sizeof(v));
	return v;
}

u64 get_random_u64(void)
{
	u64 v;

	get_random_bytes(&v, sizeof(v));
	return v;
}

/* Rejection sampling: no bias toward the low values. */
u32 get_random_u32_below(u32 ceil)
{
	u32 limit = -ceil % ceil, v; /* (2^32 - ceil) mod ceil */

	do
		v = get_random_u32();
	while (v < limit);
	return v % ceil;
}
