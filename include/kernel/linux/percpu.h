/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_PERCPU_H
#define _LINUX_PERCPU_H

/*
 * Dynamic per-CPU memory in the same offset model as DEFINE_PER_CPU():
 * alloc_percpu() returns a per-CPU pointer (not dereferenceable itself);
 * per_cpu_ptr() gives a CPU's instance.  Zeroed.  Task context with a
 * blocking @gfp; GFP_ATOMIC/GFP_NOWAIT from atomic context, not NMI.
 */

#include <linux/cpumask.h>
#include <linux/gfp_types.h>
#include <linux/percpu-defs.h>
#include <linux/types.h>

/* Bytes per CPU for all per-CPU data. */
#define PERCPU_ENOUGH_ROOM (1UL << 20)

void __percpu *__alloc_percpu_gfp(size_t size, size_t align, gfp_t gfp);
void __percpu *__alloc_percpu(size_t size, size_t align);
/** free_percpu() - free what alloc_percpu() returned (NULL ignored). */
void free_percpu(void __percpu *pdata);
#define alloc_percpu_gfp(type, gfp)                                            \
	((__typeof__(type) __percpu *)__alloc_percpu_gfp(                      \
		sizeof(type), __alignof__(type), gfp))
#define alloc_percpu(type)                                                     \
	((__typeof__(type) __percpu *)__alloc_percpu(sizeof(type),             \
						     __alignof__(type)))
/** is_kernel_percpu_address() - inside the per-CPU area? */
bool is_kernel_percpu_address(unsigned long addr);

#endif /* _LINUX_PERCPU_H */
