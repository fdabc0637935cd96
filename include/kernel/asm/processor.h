/* SPDX-License-Identifier: MIT */
#ifndef _ASM_PROCESSOR_H
#define _ASM_PROCESSOR_H
#include <asm/barrier.h>
#endif
