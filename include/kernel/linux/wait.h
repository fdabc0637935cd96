/* SPDX-License-Identifier: MIT */
/* <linux/wait.h> for kernel code: the library's own header. */
#ifndef _LINUX_WAIT_H
#define _LINUX_WAIT_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <preempt/wait.h>

/*
 * Kernel code takes a queue's lock itself (spin_lock_irqsave(&wq->lock),
 * then wake_up_locked()).  The library's queue lock is a raw lock word,
 * an int, so the spinlock_t operations also accept an int *: the queue's
 * lock taken as the library's own wake-ups take it, spinning in every
 * model (under rt too, where the kernel's would sleep: nothing kernel
 * code does under it may sleep either way).
 */
static __always_inline void __pk_wq_lock0(int *l)
{
	pk_wq_lock(l, 0);
}
static __always_inline void __pk_wq_unlock0(int *l)
{
	pk_wq_unlock(l, 0, 0);
}
static __always_inline void __pk_wq_lock1(int *l)
{
	pk_wq_lock(l, 1);
}
static __always_inline void __pk_wq_unlock1(int *l)
{
	pk_wq_unlock(l, 1, 0);
}
static __always_inline unsigned long __pk_wq_lock2(int *l)
{
	return pk_wq_lock(l, 2);
}
static __always_inline void __pk_wq_unlock2(int *l, unsigned long flags)
{
	pk_wq_unlock(l, 2, flags);
}

/* Each call is type-checked against the function _Generic picks. */
#define spin_lock(lock)                                                        \
	_Generic((lock), int * : __pk_wq_lock0, default : spin_lock)(lock)
#define spin_unlock(lock)                                                      \
	_Generic((lock), int * : __pk_wq_unlock0, default : spin_unlock)(lock)
#define spin_lock_irq(lock)                                                    \
	_Generic((lock), int * : __pk_wq_lock1, default : spin_lock_irq)(lock)
#define spin_unlock_irq(lock)                                                  \
	_Generic((lock), int *: __pk_wq_unlock1, default: spin_unlock_irq)(lock)
#undef spin_lock_irqsave
#define spin_lock_irqsave(lock, flags)                                           \
	do {                                                                     \
		(flags) = _Generic((lock), int *: __pk_wq_lock2,               \
				   default: __pk_spin_lock_irqsave)(lock); \
	} while (0)
#undef spin_unlock_irqrestore
#define spin_unlock_irqrestore(lock, flags)                                    \
	_Generic((lock), int *: __pk_wq_unlock2,                               \
		 default: __pk_spin_unlock_irqrestore)(lock, flags)

#endif
