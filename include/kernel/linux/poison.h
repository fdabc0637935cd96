/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_POISON_H
#define _LINUX_POISON_H
/* Unmapped addresses that make a use after list_del() fault. */
#define POISON_POINTER_DELTA 0
#define LIST_POISON1 ((void *)0x100)
#define LIST_POISON2 ((void *)0x122)
#endif
