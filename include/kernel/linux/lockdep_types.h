/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_LOCKDEP_TYPES_H
#define _LINUX_LOCKDEP_TYPES_H

/* The validator's types are the library's (docs/lockdep.md). */
#include <preempt/lockdep_types.h>

#endif /* _LINUX_LOCKDEP_TYPES_H */
