/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RCUPDATE_WAIT_H
#define _LINUX_RCUPDATE_WAIT_H

/* Waiting for grace periods: all in <linux/rcupdate.h> here. */

#include <linux/rcupdate.h>

#endif /* _LINUX_RCUPDATE_WAIT_H */
