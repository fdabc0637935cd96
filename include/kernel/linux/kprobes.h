/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_KPROBES_H
#define _LINUX_KPROBES_H

/*
 * No kprobes here: the markers that keep a function out of their reach
 * are accepted and mean nothing.
 */

#define NOKPROBE_SYMBOL(fname)
#define __kprobes

#endif /* _LINUX_KPROBES_H */
