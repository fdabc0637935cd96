/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_STATIC_KEY_H
#define _LINUX_STATIC_KEY_H
#include <linux/jump_label.h>
#endif
