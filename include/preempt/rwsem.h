/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_RWSEM_H
#define PREEMPT_RWSEM_H

/*
 * Read-write semaphores, as the kernel's: any number of readers or one
 * writer, sleeping while they cannot get in.
 *
 * Writers are preferred, so readers that keep overlapping cannot starve
 * one: while a writer waits, new readers wait too.  A long stream of
 * writers can hold readers back in turn.  Read locks do not nest (a
 * waiting writer between them deadlocks, as in the kernel).
 */

#include <stdbool.h>

#include <preempt/lockdep.h>
#include <preempt/sched.h>
#include <preempt/wait.h>

/* Debug checks: releases of an rwsem not held that way are reported. */
#ifndef CONFIG_DEBUG_RWSEMS
#define CONFIG_DEBUG_RWSEMS CONFIG_DEBUG_PREEMPT
#endif

#define RWSEM_WRITER_LOCKED (-1L)

struct rw_semaphore {
	long count;		   /* readers inside, or RWSEM_WRITER_LOCKED */
	int writers_waiting;	   /* while non-zero, new readers wait */
	struct task_struct *owner; /* the writer inside, NULL otherwise */
	wait_queue_head_t read_wait, write_wait;
	struct lockdep_map dep_map;
};

#define __RWSEM_INITIALIZER(name)                                              \
	{                                                                      \
		.count = 0, .writers_waiting = 0, .owner = NULL,               \
		.read_wait = __WAIT_QUEUE_HEAD_INITIALIZER((name).read_wait),  \
		.write_wait =                                                  \
			__WAIT_QUEUE_HEAD_INITIALIZER((name).write_wait),      \
		.dep_map = PK_DEP_MAP_INIT(#name, LD_WAIT_SLEEP),              \
	}
/** DECLARE_RWSEM() - define an unlocked rw_semaphore named @name. */
#define DECLARE_RWSEM(name) struct rw_semaphore name = __RWSEM_INITIALIZER(name)

void __init_rwsem(struct rw_semaphore *sem, const char *name,
		  struct lock_class_key *key);
/**
 * init_rwsem() - initialize @sem, unlocked; its lock class is the call
 * site's.  Any context.
 */
#define init_rwsem(sem)                                                        \
	do {                                                                   \
		PK_LOCKDEP_KEY(__key);                                         \
		__init_rwsem((sem), PK_LOCKDEP_NAME(#sem),                     \
			     PK_LOCKDEP_KEYP(__key));                          \
	} while (0)

/** down_read_nested() - down_read() at nesting level @subclass. */
void down_read_nested(struct rw_semaphore *sem, int subclass);
/** down_write_nested() - down_write() at nesting level @subclass. */
void down_write_nested(struct rw_semaphore *sem, int subclass);
void pk_down_write_nest_lock(struct rw_semaphore *sem,
			     struct lockdep_map *nest);
/** down_write_nest_lock() - one of many of a class, all under @nest. */
#define down_write_nest_lock(sem, nest)                                        \
	pk_down_write_nest_lock(sem, &(nest)->dep_map)

/**
 * down_read() - enter @sem as a reader, sleeping while a writer is inside
 * or waiting
 *
 * Task context, may sleep (checked by might_sleep()).
 */
void down_read(struct rw_semaphore *sem);

/**
 * down_read_trylock() - enter as a reader if that needs no wait
 *
 * Task context.  Returns 1 if entered, 0 if not.
 */
int down_read_trylock(struct rw_semaphore *sem);

/** up_read() - leave @sem as a reader.  Task context; does not sleep. */
void up_read(struct rw_semaphore *sem);

/**
 * down_write() - enter @sem as its only writer, sleeping until it is free
 *
 * Task context, may sleep (checked by might_sleep()).
 */
void down_write(struct rw_semaphore *sem);

/**
 * down_write_trylock() - enter as the writer if @sem is free
 *
 * Task context.  Returns 1 if entered, 0 if not.
 */
int down_write_trylock(struct rw_semaphore *sem);

/**
 * up_write() - leave @sem as its writer
 *
 * Task context, by the task that took it; does not sleep.
 */
void up_write(struct rw_semaphore *sem);

/**
 * downgrade_write() - turn the caller's write hold into a read hold, and
 * let waiting readers in with it
 *
 * Task context, by the writer; does not sleep.
 */
void downgrade_write(struct rw_semaphore *sem);

/** rwsem_is_locked() - is anyone inside @sem?  Any context. */
static inline bool rwsem_is_locked(struct rw_semaphore *sem)
{
	return __atomic_load_n(&sem->count, __ATOMIC_RELAXED) != 0;
}

#endif /* PREEMPT_RWSEM_H */
