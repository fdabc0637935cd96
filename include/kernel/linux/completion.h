/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_COMPLETION_H
#define _LINUX_COMPLETION_H
/* Completions: the library's (preempt/wait.h). */
#include <preempt/wait.h>
#endif
