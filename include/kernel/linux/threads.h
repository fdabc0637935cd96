/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_THREADS_H
#define _LINUX_THREADS_H
#define NR_CPUS CONFIG_NR_CPUS
#define PID_MAX_DEFAULT 0x8000
#endif
