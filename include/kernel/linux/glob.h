/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_GLOB_H
#define _LINUX_GLOB_H

/*
 * Shell-style pattern matching (*, ?, [...]) of a whole string; a program
 * brings lib/glob.c.
 */

#include <linux/compiler_types.h>
#include <linux/types.h>

bool __pure glob_match(char const *pat, char const *str);
bool __pure glob_match_len(char const *pat, char const *str, size_t len);

#endif /* _LINUX_GLOB_H */
