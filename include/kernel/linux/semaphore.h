/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SEMAPHORE_H
#define _LINUX_SEMAPHORE_H

/*
 * Counting semaphores with the kernel's layout (kernel/locking/semaphore.c
 * reads the fields).  The library has a semaphore of its own, with other
 * fields, under the same function names; kernel code's down()/up() are
 * therefore renamed at compile time by asm labels (pk_kernel_down, ...):
 * the library's stay as they are, and the two never meet at link time.
 * The kernel side ships an implementation; a program that compiles the
 * real kernel/locking/semaphore.c gets that one (the same labels apply
 * to its definitions).
 */

#include <linux/list.h>
#include <linux/spinlock.h>

struct semaphore {
	raw_spinlock_t lock;
	unsigned int count;
	struct list_head wait_list;
};

#define __SEMAPHORE_INITIALIZER(name, n)                                       \
	{                                                                      \
		.lock = __RAW_SPIN_LOCK_UNLOCKED((name).lock), .count = (n),   \
		.wait_list = LIST_HEAD_INIT((name).wait_list),                 \
	}
/* 6.1 takes the name only (count 1); 6.4 and later also the count. */
#define __PK_DEFINE_SEMAPHORE(name, n, ...)                                    \
	struct semaphore name = __SEMAPHORE_INITIALIZER(name, n)
#define DEFINE_SEMAPHORE(...) __PK_DEFINE_SEMAPHORE(__VA_ARGS__, 1, 1)
#define DEFINE_BINARY_SEMAPHORE(name) DEFINE_SEMAPHORE(name, 1)

/** sema_init() - @sem with count @val.  Any context. */
static inline void sema_init(struct semaphore *sem, int val)
{
	*sem = (struct semaphore)__SEMAPHORE_INITIALIZER(*sem, val);
}

/** down() - take a unit, sleeping uninterruptibly until one is free.  Task. */
void down(struct semaphore *sem) __asm__("pk_kernel_down");
/** down_interruptible() - down(); 0 (no signals here) or -EINTR.  Task. */
int __must_check down_interruptible(struct semaphore *sem) __asm__(
	"pk_kernel_down_interruptible");
int __must_check
down_killable(struct semaphore *sem) __asm__("pk_kernel_down_killable");
/** down_trylock() - 0 if taken, 1 if not (inverted!).  Any context. */
int __must_check
down_trylock(struct semaphore *sem) __asm__("pk_kernel_down_trylock");
/** down_timeout() - down() for at most @jiffies; 0 or -ETIME.  Task. */
int __must_check down_timeout(struct semaphore *sem,
			      long jiffies) __asm__("pk_kernel_down_timeout");
/** up() - give back a unit, waking one waiter.  Any context. */
void up(struct semaphore *sem) __asm__("pk_kernel_up");

#endif /* _LINUX_SEMAPHORE_H */
