// SPDX-License-Identifier: MIT
/*
 * Read-write semaphores on the sleeping locks' shared slow path (mutex.c).
 * Readers and writers sleep on queues of their own, so a release wakes the
 * kind that can get in: the last reader out wakes one writer; a writer out
 * wakes the next writer if one waits, else every reader.
 */
#include <preempt/bug.h>
#include <preempt/mutex.h>
#include <preempt/rwsem.h>

#define RET_IP ((unsigned long)__builtin_return_address(0))

void __init_rwsem(struct rw_semaphore *sem, const char *name,
		  struct lock_class_key *key)
{
	sem->count = 0;
	sem->writers_waiting = 0;
	sem->owner = NULL;
	init_waitqueue_head(&sem->read_wait);
	init_waitqueue_head(&sem->write_wait);
	lockdep_init_map_wait(&sem->dep_map, name, key, 0, LD_WAIT_SLEEP);
}

bool pk_rwsem_owned(struct rw_semaphore *sem, int read)
{
	long count = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	if (read == 1)
		return count > 0;
	if (read == 0)
		return count == RWSEM_WRITER_LOCKED && sem->owner == current;
	return count > 0 || sem->owner == current;
}

/* ---- readers ---- */

/* A waiting writer keeps new readers out, so readers cannot starve it. */
static bool read_enter(struct rw_semaphore *sem)
{
	long count = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	while (count >= 0 &&
	       !__atomic_load_n(&sem->writers_waiting, __ATOMIC_RELAXED)) {
		if (__atomic_compare_exchange_n(&sem->count, &count, count + 1,
						false, __ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED))
			return true;
	}
	return false;
}

static bool read_enter_cb(void *sem)
{
	return read_enter(sem);
}

static void down_read_common(struct rw_semaphore *sem, int sub,
			     unsigned long ip)
{
	might_sleep();
	/* A reader is not recursive: a writer queued between two read
	 * holds of one task deadlocks them. */
	lock_acquire(&sem->dep_map, (unsigned int)sub, 0, 1, 1, NULL, ip);
	if (!read_enter(sem))
		pk_lock_wait(&sem->read_wait, read_enter_cb, sem,
			     PK_LOCK_WAIT_FOREVER);
}

void down_read(struct rw_semaphore *sem)
{
	down_read_common(sem, 0, RET_IP);
}

void down_read_nested(struct rw_semaphore *sem, int subclass)
{
	down_read_common(sem, subclass, RET_IP);
}

int down_read_trylock(struct rw_semaphore *sem)
{
	if (!read_enter(sem))
		return 0;
	lock_acquire(&sem->dep_map, 0, 1, 1, 1, NULL, RET_IP);
	return 1;
}

void up_read(struct rw_semaphore *sem)
{
	if (CONFIG_DEBUG_RWSEMS &&
	    WARN_ONCE(__atomic_load_n(&sem->count, __ATOMIC_RELAXED) <= 0,
		      "DEBUG_RWSEMS_WARN_ON(count <= 0)\n"
		      "%s/%d is releasing rwsem %p as a reader, but it is "
		      "not read-locked\n",
		      current->comm, task_pid_nr(current), (void *)sem))
		return;
	lock_release(&sem->dep_map, RET_IP);
	if (__atomic_sub_fetch(&sem->count, 1, __ATOMIC_RELEASE) == 0 &&
	    pk_lock_has_waiters(&sem->write_wait))
		pk_lock_wake_one(&sem->write_wait);
}

/* ---- writers ---- */

static bool write_enter(struct rw_semaphore *sem)
{
	long none = 0;

	if (!__atomic_compare_exchange_n(&sem->count, &none,
					 RWSEM_WRITER_LOCKED, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		return false;
	__atomic_store_n(&sem->owner, current, __ATOMIC_RELAXED);
	return true;
}

static bool write_enter_cb(void *sem)
{
	return write_enter(sem);
}

static void down_write_common(struct rw_semaphore *sem, int sub,
			      struct lockdep_map *nest, unsigned long ip)
{
	might_sleep();
	lock_acquire(&sem->dep_map, (unsigned int)sub, 0, 0, 1, nest, ip);
	if (write_enter(sem))
		return;
	__atomic_add_fetch(&sem->writers_waiting, 1, __ATOMIC_SEQ_CST);
	pk_lock_wait(&sem->write_wait, write_enter_cb, sem,
		     PK_LOCK_WAIT_FOREVER);
	/* Readers held back for us are let in by our up_write(). */
	__atomic_sub_fetch(&sem->writers_waiting, 1, __ATOMIC_RELAXED);
}

void down_write(struct rw_semaphore *sem)
{
	down_write_common(sem, 0, NULL, RET_IP);
}

void down_write_nested(struct rw_semaphore *sem, int subclass)
{
	down_write_common(sem, subclass, NULL, RET_IP);
}

void pk_down_write_nest_lock(struct rw_semaphore *sem, struct lockdep_map *nest)
{
	down_write_common(sem, 0, nest, RET_IP);
}

int down_write_trylock(struct rw_semaphore *sem)
{
	if (!write_enter(sem))
		return 0;
	lock_acquire(&sem->dep_map, 0, 1, 0, 1, NULL, RET_IP);
	return 1;
}

/* Reports misuse; returns false when the caller holds no write lock. */
static bool write_release_checks(struct rw_semaphore *sem)
{
	struct task_struct *owner;

	if (!CONFIG_DEBUG_RWSEMS)
		return true;
	if (WARN_ONCE(__atomic_load_n(&sem->count, __ATOMIC_RELAXED) !=
			      RWSEM_WRITER_LOCKED,
		      "DEBUG_RWSEMS_WARN_ON(count != RWSEM_WRITER_LOCKED)\n"
		      "%s/%d is releasing rwsem %p as its writer, but it is "
		      "not write-locked\n",
		      current->comm, task_pid_nr(current), (void *)sem))
		return false;
	owner = __atomic_load_n(&sem->owner, __ATOMIC_RELAXED);
	WARN_ONCE(owner != current,
		  "DEBUG_RWSEMS_WARN_ON(sem->owner != current)\n"
		  "%s/%d is releasing rwsem %p, write-locked by another task "
		  "(%p)\n",
		  current->comm, task_pid_nr(current), (void *)sem,
		  (void *)owner);
	return true;
}

static void wake_readers(struct rw_semaphore *sem)
{
	/* Only the machine's tasks queue (mutex.c), so wake_up() is safe. */
	if (pk_lock_has_waiters(&sem->read_wait))
		wake_up(&sem->read_wait);
}

void up_write(struct rw_semaphore *sem)
{
	if (!write_release_checks(sem))
		return;
	if (!CONFIG_DEBUG_RWSEMS || sem->owner == current)
		lock_release(&sem->dep_map, RET_IP);
	else
		pk_lockdep_release_task(sem->owner, &sem->dep_map);
	__atomic_store_n(&sem->owner, NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&sem->count, 0, __ATOMIC_RELEASE);
	/* Readers would only queue again behind a waiting writer. */
	if (__atomic_load_n(&sem->writers_waiting, __ATOMIC_SEQ_CST) &&
	    pk_lock_has_waiters(&sem->write_wait))
		pk_lock_wake_one(&sem->write_wait);
	else
		wake_readers(sem);
}

void downgrade_write(struct rw_semaphore *sem)
{
	if (!write_release_checks(sem))
		return;
	lock_downgrade(&sem->dep_map, RET_IP);
	__atomic_store_n(&sem->owner, NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&sem->count, 1, __ATOMIC_RELEASE);
	wake_readers(sem);
}
