/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RWSEM_H
#define _LINUX_RWSEM_H
#include <linux/lockdep.h>
#include <preempt/rwsem.h>
#define down_read_killable(sem) (down_read(sem), 0)
#define down_write_killable(sem) (down_write(sem), 0)
#define down_read_interruptible(sem) (down_read(sem), 0)
#endif
