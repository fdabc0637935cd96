/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RWLOCK_H
#define _LINUX_RWLOCK_H
#include <linux/spinlock.h>
#endif
