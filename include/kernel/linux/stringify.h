/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_STRINGIFY_H
#define _LINUX_STRINGIFY_H
#include <linux/compiler.h>
#endif
