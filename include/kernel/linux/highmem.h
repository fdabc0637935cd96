/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_HIGHMEM_H
#define _LINUX_HIGHMEM_H
#include <linux/mm.h>
#include <preempt/highmem.h>
#endif
