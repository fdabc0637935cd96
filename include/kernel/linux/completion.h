/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_COMPLETION_H
#define _LINUX_COMPLETION_H
/* Completions: the library's (preempt/wait.h). */
#include <preempt/wait.h>

/* The completion's own lockdep map is the library's: @map is not used. */
#define init_completion_map(x, map) ((void)(map), init_completion(x))
#define COMPLETION_INITIALIZER_ONSTACK_MAP(work, map)                          \
	(*({                                                                   \
		init_completion_map(&(work), &(map));                          \
		&(work);                                                       \
	}))
#define COMPLETION_INITIALIZER_ONSTACK(work)                                   \
	(*({                                                                   \
		init_completion(&(work));                                      \
		&(work);                                                       \
	}))
#endif
