/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_UACCESS_H
#define _LINUX_UACCESS_H
#include <linux/kernel.h>
#include <preempt/uaccess.h>
#endif
