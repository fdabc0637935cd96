// SPDX-License-Identifier: MIT
/*
 * Spinning locks: the debug checks (the queued slow path is in
 * qspinlock.c), and
 * spinlock_t/rwlock_t choosing between spinning and PREEMPT_RT's sleeping
 * substitution.  The choice is made per hold at lock time (rt_held), so an
 * unlock always undoes what its lock did.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>

#include <preempt/bug.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "../debug/report.h"
#include "../sched/sched_internal.h"
#include "../port/sim.h"

#define SPINS_BEFORE_YIELD 256
#define _RET_IP_ ((unsigned long)__builtin_return_address(0))

/* One round of waiting: the holder's vCPU thread may be off the host CPU. */
static void spin_backoff(int spins)
{
	if (spins >= SPINS_BEFORE_YIELD)
		pk_host_yield();
	else
		pk_cpu_relax();
}

void pk_irq_preempt_restore_slow(unsigned long flags)
{
	/* Interrupts that arrived while off run now, in hardirq context. */
	if (!flags && pk_task_tls(pk_irq_soft_pending))
		pk_irq_replay();
	if (should_resched(0))
		preempt_schedule();
}

/* ---- debug ---- */

static void spin_bug(raw_spinlock_t *lock, const char *msg)
{
	struct task_struct *owner = lock->owner_task;
	char sym[160];

	pk_warn_kind(PK_REPORT_WARN,
		     "BUG: spinlock %s on CPU#%d, %s/%d\n"
		     " lock: %s, .magic: %08x, .owner: %s/%d, .owner_cpu: %d",
		     msg, raw_smp_processor_id(), current->comm, current->pid,
		     pk_sym_str((unsigned long)lock, sym, sizeof(sym)),
		     lock->magic, owner ? owner->comm : "<none>",
		     owner ? owner->pid : -1, lock->owner_cpu);
}

/*
 * The list is the task's, and a handler interrupting this CPU records its
 * own locks in it (current is the interrupted task): every update runs
 * with interrupts disabled, or a handler's push lands between our store
 * and our count.
 */
static void held_push(void *lock)
{
	struct task_struct *p = current;
	unsigned long flags;

	raw_local_irq_save(flags);
	if (p->pk_nr_held <
	    (int)(sizeof(p->pk_held_locks) / sizeof(p->pk_held_locks[0])))
		p->pk_held_locks[p->pk_nr_held] = lock;
	p->pk_nr_held++;
	raw_local_irq_restore(flags);
}

static void held_remove(struct task_struct *p, void *lock)
{
	int n = p->pk_nr_held < 8 ? p->pk_nr_held : 8;

	for (int i = n - 1; i >= 0; i--)
		if (p->pk_held_locks[i] == lock) {
			for (; i < n - 1; i++)
				p->pk_held_locks[i] = p->pk_held_locks[i + 1];
			p->pk_nr_held--;
			return;
		}
	if (p->pk_nr_held > 8)
		p->pk_nr_held--; /* beyond what we track */
}

static void held_pop(void *lock)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	held_remove(current, lock);
	raw_local_irq_restore(flags);
}

/*
 * The lock holds a reference on its owner, so a report about the lock
 * never reads a freed task, even one that exited holding it.
 */
static void note_owner(raw_spinlock_t *lock)
{
	get_task_struct(current);
	lock->owner_task = current;
	lock->owner_cpu = raw_smp_processor_id();
	held_push(lock);
}

void pk_raw_spin_lock_debug_nested(raw_spinlock_t *lock, unsigned int sub,
				   struct lockdep_map *nest, unsigned long ip)
{
	/* Zero is a static, never-initialized lock: fine in user space. */
	if (unlikely(lock->magic != SPINLOCK_MAGIC && lock->magic))
		spin_bug(lock, "bad magic");
	if (unlikely(lock->owner_task == current && raw_spin_is_locked(lock))) {
		/* Spinning here would never end: report and let it through. */
		spin_bug(lock, "recursion");
		lock->recursion++;
		return;
	}
	/* Before spinning, so an order that can deadlock is reported first. */
	lock_acquire(&lock->dep_map, sub, 0, 0, 1, nest, ip);
	arch_spin_lock(lock);
	note_owner(lock);
}

void pk_raw_spin_lock_debug(raw_spinlock_t *lock)
{
	pk_raw_spin_lock_debug_nested(
		lock, 0, NULL, (unsigned long)__builtin_return_address(0));
}

int pk_raw_spin_trylock_debug(raw_spinlock_t *lock)
{
	if (!arch_spin_trylock(lock))
		return 0;
	lock_acquire(&lock->dep_map, 0, 1, 0, 1, NULL,
		     (unsigned long)__builtin_return_address(0));
	note_owner(lock);
	return 1;
}

bool pk_raw_spin_unlock_debug(raw_spinlock_t *lock)
{
	struct task_struct *owner;

	if (unlikely(lock->recursion && lock->owner_task == current)) {
		lock->recursion--;
		return true;
	}
	if (unlikely(!raw_spin_is_locked(lock))) {
		spin_bug(lock, "already unlocked");
		return false; /* nothing was taken: undo nothing */
	}
	owner = lock->owner_task;
	if (unlikely(owner != current)) {
		spin_bug(lock, "wrong owner");
	} else {
		held_pop(lock);
		lock_release(&lock->dep_map,
			     (unsigned long)__builtin_return_address(0));
	}
	lock->owner_task = NULL;
	lock->owner_cpu = -1;
	arch_spin_unlock(lock);
	if (owner)
		put_task_struct(owner);
	return true;
}

/* ---- spinlock_t ---- */

bool pk_spinlocks_sleep(void)
{
	/* Softirqs run in tasks under rt; hardirq spins for the rt_mutex. */
	return pk_machine_rt() && pk_on_machine_task() && !in_hardirq();
}

void __spin_lock_init(spinlock_t *lock, const char *name,
		      struct lock_class_key *key)
{
	__raw_spin_lock_init(&lock->rlock, name, key, LD_WAIT_CONFIG);
	rt_mutex_init(&lock->rtm);
	lock->rt_held = 0;
}

enum { RT_HELD_NONE, RT_HELD_SLEEPING, RT_HELD_SPINNING };

/* Cannot sleep, must still exclude the tasks that sleep for @rtm. */
static void rt_spin_for(struct rt_mutex *rtm)
{
	for (int spins = 0; !pk_rt_mutex_trylock_any(rtm); spins++)
		spin_backoff(spins);
}

/* Debug: an rt hold counts for "still has locks held!" at exit. */
static void rt_note_held(struct rt_mutex *rtm)
{
	if (CONFIG_DEBUG_SPINLOCK)
		held_push(rtm);
}

/*
 * PREEMPT_RT: the rt_mutex is the lock.  A task sleeps for it, with PI,
 * and stays on its CPU while it holds it; a context that cannot sleep (an
 * interrupt handler, a thread outside the machine) spins for it.  False
 * when no rt machine runs: the caller spins on the raw lock.
 */
static bool rt_lock(struct rt_mutex *rtm, int *rt_held, struct lockdep_map *map,
		    unsigned int sub, struct lockdep_map *nest,
		    unsigned long ip)
{
	bool sleep;

	if (!pk_machine_rt())
		return false;
	sleep = pk_spinlocks_sleep();
	if (unlikely(rt_mutex_owner(rtm) == current)) {
		/* Reported and counted by the rt_mutex; the outer hold's
		 * mark stays, for the outer unlock. */
		rt_mutex_lock(rtm);
		return true;
	}
	lock_acquire(map, sub, 0, 0, 1, nest, ip);
	if (sleep) {
		migrate_disable();
		pk_rt_mutex_lock_rtlock(rtm);
	} else {
		/* In an interrupt handler: the kernel's report, then spin. */
		might_sleep();
		rt_spin_for(rtm);
	}
	*rt_held = sleep ? RT_HELD_SLEEPING : RT_HELD_SPINNING;
	rt_note_held(rtm);
	return true;
}

static bool rt_unlock(struct rt_mutex *rtm, int *rt_held,
		      struct lockdep_map *map, unsigned long ip)
{
	int how = *rt_held;
	bool outer = !rtm->depth;

	if (how == RT_HELD_NONE)
		return false;
	/* Not ours: reported by the rt_mutex; the holder's marks stay. */
	if (unlikely(rt_mutex_owner(rtm) != current)) {
		rt_mutex_unlock(rtm);
		return true;
	}
	if (outer) {
		*rt_held = RT_HELD_NONE;
		if (CONFIG_DEBUG_SPINLOCK)
			held_pop(rtm);
		lock_release(map, ip);
	}
	rt_mutex_unlock(rtm);
	if (outer && how == RT_HELD_SLEEPING)
		migrate_enable();
	return true;
}

/* rt_lock() without waiting: 1 taken, 0 busy, -1 no rt machine. */
static int rt_trylock(struct rt_mutex *rtm, int *rt_held,
		      struct lockdep_map *map, unsigned long ip)
{
	if (!pk_machine_rt())
		return -1;
	if (!pk_spinlocks_sleep()) {
		if (!pk_rt_mutex_trylock_any(rtm))
			return 0;
		*rt_held = RT_HELD_SPINNING;
		rt_note_held(rtm);
		lock_acquire(map, 0, 1, 0, 1, NULL, ip);
		return 1;
	}
	migrate_disable();
	/* Not rt_mutex_trylock(): that refuses softirq context, which is a
	 * task here. */
	if (pk_rt_mutex_trylock_any(rtm)) {
		*rt_held = RT_HELD_SLEEPING;
		rt_note_held(rtm);
		lock_acquire(map, 0, 1, 0, 1, NULL, ip);
		return 1;
	}
	migrate_enable();
	return 0;
}

void pk_spin_lock_rt(spinlock_t *lock)
{
	if (!rt_lock(&lock->rtm, &lock->rt_held, &lock->dep_map, 0, NULL,
		     _RET_IP_))
		raw_spin_lock(&lock->rlock);
}

void pk_spin_unlock_rt(spinlock_t *lock)
{
	if (!rt_unlock(&lock->rtm, &lock->rt_held, &lock->dep_map, _RET_IP_))
		raw_spin_unlock(&lock->rlock);
}

/* The raw half of the nested forms: the count as raw_spin_lock*() add. */
static void raw_lock_nested(raw_spinlock_t *lock, unsigned int sub,
			    struct lockdep_map *nest, unsigned long ip)
{
	if (CONFIG_DEBUG_SPINLOCK)
		pk_raw_spin_lock_debug_nested(lock, sub, nest, ip);
	else
		arch_spin_lock(lock);
}

unsigned long pk_spin_lock_nested(spinlock_t *lock, unsigned int sub,
				  struct lockdep_map *nest, int how)
{
	unsigned long flags = 0;

	if (pk_machine_rt()) {
		if (how == 1)
			local_bh_disable();
		local_save_flags(flags);
		rt_lock(&lock->rtm, &lock->rt_held, &lock->dep_map, sub, nest,
			_RET_IP_);
		return flags;
	}
	if (how == 1)
		__local_bh_disable_ip(_RET_IP_, SOFTIRQ_LOCK_OFFSET);
	else if (how == 2)
		local_irq_save(flags);
	if (how != 1)
		preempt_disable();
	raw_lock_nested(&lock->rlock, sub, nest, _RET_IP_);
	return flags;
}

int spin_trylock(spinlock_t *lock)
{
	int ret = rt_trylock(&lock->rtm, &lock->rt_held, &lock->dep_map,
			     _RET_IP_);

	return ret >= 0 ? ret : raw_spin_trylock(&lock->rlock);
}

/* rt: bh state is the task's, so the bh section may sleep for the lock. */
void spin_lock_bh(spinlock_t *lock)
{
	if (pk_machine_rt()) {
		local_bh_disable();
		spin_lock(lock);
		return;
	}
	raw_spin_lock_bh(&lock->rlock);
}

void spin_unlock_bh(spinlock_t *lock)
{
	if (lock->rt_held) {
		spin_unlock(lock);
		local_bh_enable();
		return;
	}
	raw_spin_unlock_bh(&lock->rlock);
}

void spin_lock_irq(spinlock_t *lock)
{
	/* rt: interrupts stay enabled, handlers run in threads anyway. */
	if (!rt_lock(&lock->rtm, &lock->rt_held, &lock->dep_map, 0, NULL,
		     _RET_IP_))
		raw_spin_lock_irq(&lock->rlock);
}

void spin_unlock_irq(spinlock_t *lock)
{
	if (!rt_unlock(&lock->rtm, &lock->rt_held, &lock->dep_map, _RET_IP_))
		raw_spin_unlock_irq(&lock->rlock);
}

unsigned long pk_spin_lock_irqsave(spinlock_t *lock)
{
	unsigned long flags;

	if (rt_lock(&lock->rtm, &lock->rt_held, &lock->dep_map, 0, NULL,
		    _RET_IP_)) {
		local_save_flags(flags);
		return flags;
	}
	raw_spin_lock_irqsave(&lock->rlock, flags);
	return flags;
}

void pk_spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	if (!rt_unlock(&lock->rtm, &lock->rt_held, &lock->dep_map, _RET_IP_))
		raw_spin_unlock_irqrestore(&lock->rlock, flags);
}

bool spin_is_locked(spinlock_t *lock)
{
	/* While an rt machine runs, every holder holds the rt_mutex. */
	return pk_machine_rt() ? rt_mutex_is_locked(&lock->rtm)
			       : raw_spin_is_locked(&lock->rlock);
}

/* ---- rwlock_t ---- */

void __rwlock_init(rwlock_t *lock, const char *name, struct lock_class_key *key)
{
	lock->cnt = 0;
	rt_mutex_init(&lock->rtm);
	lock->rt_writer = NULL;
	lock->rt_wait_lock = 0;
	lockdep_init_map_wait(&lock->dep_map, name, key, 0, LD_WAIT_CONFIG);
}

/*
 * A reader waits for no reader, but a queued writer makes a second read
 * hold of a task wait for it: only in interrupt context, where readers
 * are let in past a waiting writer, is a read lock recursive (Linux's
 * queued rwlocks).
 */
static void rwlock_acquire_read(rwlock_t *lock, unsigned long ip)
{
	lock_acquire(&lock->dep_map, 0, 0, in_interrupt() ? 2 : 1, 1, NULL, ip);
}

/*
 * ---- rwlock_t under rt ----
 * Readers add to cnt while it is not negative.  A writer takes the rt_mutex
 * (so writers, and readers that find one, queue there with PI among
 * themselves), subtracts the bias so that new readers queue too, and sleeps
 * until the readers inside have left; the last one wakes it.  Contexts that
 * cannot sleep spin where a task would sleep.
 */

#define RW_WRITER_BIAS (1 << 30)

static bool rt_read_trylock(rwlock_t *lock)
{
	int v = __atomic_load_n(&lock->cnt, __ATOMIC_RELAXED);

	while (v >= 0)
		if (__atomic_compare_exchange_n(&lock->cnt, &v, v + 1, true,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return true;
	return false;
}

/* Take @lock's rt_mutex as a task (true) or by spinning (false). */
static bool rw_rtm_lock(rwlock_t *lock)
{
	bool sleep = pk_spinlocks_sleep();

	if (sleep) {
		migrate_disable();
		pk_rt_mutex_lock_rtlock(&lock->rtm);
	} else {
		might_sleep(); /* in an interrupt handler: the kernel's report
				*/
		rt_spin_for(&lock->rtm);
	}
	return sleep;
}

static void rw_rtm_unlock(rwlock_t *lock, bool sleep)
{
	rt_mutex_unlock(&lock->rtm);
	if (sleep)
		migrate_enable();
}

static void rt_read_lock(rwlock_t *lock)
{
	if (rt_read_trylock(lock)) {
		if (pk_spinlocks_sleep())
			migrate_disable();
		return;
	}
	/* A writer holds or waits: behind it.  Once we hold the rt_mutex
	 * no writer does, so cnt is not negative. */
	rw_rtm_lock(lock);
	__atomic_add_fetch(&lock->cnt, 1, __ATOMIC_ACQUIRE);
	rt_mutex_unlock(&lock->rtm); /* the reader keeps migrate_disable() */
}

static void rt_read_unlock(rwlock_t *lock)
{
	int v = __atomic_sub_fetch(&lock->cnt, 1, __ATOMIC_SEQ_CST);
	struct task_struct *writer;
	unsigned long flags;

	if (WARN_ONCE((v < 0 && v > -RW_WRITER_BIAS / 2) || v < -RW_WRITER_BIAS,
		      "read_unlock() of an rwlock not read-held")) {
		__atomic_add_fetch(&lock->cnt, 1, __ATOMIC_RELAXED);
		return;
	}
	lock_release(&lock->dep_map, _RET_IP_);
	if (v == -RW_WRITER_BIAS) {
		/* Under the wait lock, so the writer cannot see the readers
		 * gone, return and exit before its wake-up is done. */
		pk_lock_irqsave(&lock->rt_wait_lock, flags);
		writer = __atomic_load_n(&lock->rt_writer, __ATOMIC_SEQ_CST);
		if (writer)
			wake_up_process(writer);
		pk_unlock_irqrestore(&lock->rt_wait_lock, flags);
	}
	if (pk_spinlocks_sleep())
		migrate_enable();
}

static void rt_write_lock(rwlock_t *lock)
{
	bool sleep = rw_rtm_lock(lock);
	unsigned long flags;

	pk_store_mb(&lock->rt_writer, sleep ? current : NULL);
	__atomic_sub_fetch(&lock->cnt, RW_WRITER_BIAS, __ATOMIC_SEQ_CST);
	for (int spins = 0;
	     __atomic_load_n(&lock->cnt, __ATOMIC_ACQUIRE) != -RW_WRITER_BIAS;
	     spins++) {
		if (!sleep) {
			spin_backoff(spins);
			continue;
		}
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (__atomic_load_n(&lock->cnt, __ATOMIC_SEQ_CST) !=
		    -RW_WRITER_BIAS)
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	pk_lock_irqsave(&lock->rt_wait_lock, flags);
	__atomic_store_n(&lock->rt_writer, NULL, __ATOMIC_RELAXED);
	pk_unlock_irqrestore(&lock->rt_wait_lock, flags);
}

static void rt_write_unlock(rwlock_t *lock)
{
	if (WARN_ONCE(__atomic_load_n(&lock->cnt, __ATOMIC_RELAXED) !=
			      -RW_WRITER_BIAS,
		      "write_unlock() of an rwlock not write-held"))
		return;
	lock_release(&lock->dep_map, _RET_IP_);
	__atomic_add_fetch(&lock->cnt, RW_WRITER_BIAS, __ATOMIC_RELEASE);
	rw_rtm_unlock(lock, pk_spinlocks_sleep());
}

static void arch_read_lock(rwlock_t *lock)
{
	for (int spins = 0;; spins++) {
		int v = __atomic_load_n(&lock->cnt, __ATOMIC_RELAXED);

		if (v >= 0 && __atomic_compare_exchange_n(
				      &lock->cnt, &v, v + 1, true,
				      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return;
		spin_backoff(spins);
	}
}

static void arch_write_lock(rwlock_t *lock)
{
	for (int spins = 0;; spins++) {
		int zero = 0;

		if (__atomic_compare_exchange_n(&lock->cnt, &zero, -1, true,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
		spin_backoff(spins);
	}
}

static void arch_read_unlock(rwlock_t *lock)
{
	if (WARN_ONCE(__atomic_load_n(&lock->cnt, __ATOMIC_RELAXED) <= 0,
		      "read_unlock() of an rwlock not read-held"))
		return;
	lock_release(&lock->dep_map, _RET_IP_);
	__atomic_sub_fetch(&lock->cnt, 1, __ATOMIC_RELEASE);
}

static void arch_write_unlock(rwlock_t *lock)
{
	if (WARN_ONCE(__atomic_load_n(&lock->cnt, __ATOMIC_RELAXED) != -1,
		      "write_unlock() of an rwlock not write-held"))
		return;
	lock_release(&lock->dep_map, _RET_IP_);
	__atomic_store_n(&lock->cnt, 0, __ATOMIC_RELEASE);
}

void read_lock(rwlock_t *lock)
{
	rwlock_acquire_read(lock, _RET_IP_);
	if (pk_machine_rt()) {
		rt_read_lock(lock);
		return;
	}
	preempt_disable();
	arch_read_lock(lock);
}

void read_unlock(rwlock_t *lock)
{
	if (pk_machine_rt()) {
		rt_read_unlock(lock);
		return;
	}
	arch_read_unlock(lock);
	preempt_enable();
}

void write_lock(rwlock_t *lock)
{
	lock_acquire(&lock->dep_map, 0, 0, 0, 1, NULL, _RET_IP_);
	if (pk_machine_rt()) {
		rt_write_lock(lock);
		return;
	}
	preempt_disable();
	arch_write_lock(lock);
}

void write_unlock(rwlock_t *lock)
{
	if (pk_machine_rt()) {
		rt_write_unlock(lock);
		return;
	}
	arch_write_unlock(lock);
	preempt_enable();
}

void read_lock_bh(rwlock_t *lock)
{
	local_bh_disable();
	read_lock(lock);
}

void read_unlock_bh(rwlock_t *lock)
{
	read_unlock(lock);
	local_bh_enable();
}

void write_lock_bh(rwlock_t *lock)
{
	local_bh_disable();
	write_lock(lock);
}

void write_unlock_bh(rwlock_t *lock)
{
	write_unlock(lock);
	local_bh_enable();
}

/*
 * The _irq forms without rt: interrupts and preemption off in one update
 * of the word when the debug checks are off (see spinlock.h).
 */
static unsigned long rw_irq_off(void)
{
	unsigned long flags;

	if (PK_LOCK_IRQ_ONE_UPDATE)
		return __pk_irq_preempt_save();
	local_irq_save(flags);
	preempt_disable();
	return flags;
}

static void rw_irq_restore(unsigned long flags)
{
	if (PK_LOCK_IRQ_ONE_UPDATE) {
		__pk_irq_preempt_restore(flags);
		return;
	}
	local_irq_restore(flags);
	preempt_enable();
}

static unsigned long read_lock_irqsave_ip(rwlock_t *lock, unsigned long ip)
{
	unsigned long flags;

	if (pk_machine_rt()) {
		/* rt: interrupts stay on, as spin_lock_irq() leaves them. */
		local_save_flags(flags);
		rwlock_acquire_read(lock, ip);
		rt_read_lock(lock);
		return flags;
	}
	/* Off first: the validator sees an irq-safe hold. */
	flags = rw_irq_off();
	rwlock_acquire_read(lock, ip);
	arch_read_lock(lock);
	return flags;
}

static unsigned long write_lock_irqsave_ip(rwlock_t *lock, unsigned long ip)
{
	unsigned long flags;

	if (pk_machine_rt()) {
		local_save_flags(flags);
		lock_acquire(&lock->dep_map, 0, 0, 0, 1, NULL, ip);
		rt_write_lock(lock);
		return flags;
	}
	flags = rw_irq_off();
	lock_acquire(&lock->dep_map, 0, 0, 0, 1, NULL, ip);
	arch_write_lock(lock);
	return flags;
}

void read_lock_irq(rwlock_t *lock)
{
	(void)read_lock_irqsave_ip(lock, _RET_IP_);
}

void read_unlock_irq(rwlock_t *lock)
{
	read_unlock_irqrestore(lock, 0);
}

void write_lock_irq(rwlock_t *lock)
{
	(void)write_lock_irqsave_ip(lock, _RET_IP_);
}

void write_unlock_irq(rwlock_t *lock)
{
	write_unlock_irqrestore(lock, 0);
}

unsigned long pk_read_lock_irqsave(rwlock_t *lock)
{
	return read_lock_irqsave_ip(lock, _RET_IP_);
}

unsigned long pk_write_lock_irqsave(rwlock_t *lock)
{
	return write_lock_irqsave_ip(lock, _RET_IP_);
}

void read_unlock_irqrestore(rwlock_t *lock, unsigned long flags)
{
	if (pk_machine_rt()) {
		rt_read_unlock(lock);
		return;
	}
	arch_read_unlock(lock);
	rw_irq_restore(flags);
}

void write_unlock_irqrestore(rwlock_t *lock, unsigned long flags)
{
	if (pk_machine_rt()) {
		rt_write_unlock(lock);
		return;
	}
	arch_write_unlock(lock);
	rw_irq_restore(flags);
}

bool pk_spin_lock_held(spinlock_t *lock)
{
	if (lock->rt_held)
		return rt_mutex_owner(&lock->rtm) == current;
	if (CONFIG_DEBUG_SPINLOCK)
		return raw_spin_is_locked(&lock->rlock) &&
		       lock->rlock.owner_task == current;
	return raw_spin_is_locked(&lock->rlock);
}

int spin_trylock_bh(spinlock_t *lock)
{
	local_bh_disable();
	if (spin_trylock(lock))
		return 1;
	local_bh_enable();
	return 0;
}

int spin_trylock_irq(spinlock_t *lock)
{
	bool rt = pk_machine_rt();

	if (!rt)
		local_irq_disable();
	if (spin_trylock(lock))
		return 1;
	if (!rt)
		local_irq_enable();
	return 0;
}

int pk_spin_trylock_irqsave(spinlock_t *lock, unsigned long *flags)
{
	bool rt = pk_machine_rt();

	local_save_flags(*flags);
	if (!rt)
		local_irq_save(*flags);
	if (spin_trylock(lock))
		return 1;
	if (!rt)
		local_irq_restore(*flags);
	return 0;
}

/*
 * ---- PREEMPT_RT's per-CPU bottom-half lock ----
 * The irq layer keeps an rt task's bh state in the task; what keeps two
 * tasks' bh sections on one CPU apart is this lock, an rt_mutex per CPU,
 * so a task that waits for it lends its priority to the holder.  It lives
 * here, beside spinlock_t, so that a static link that takes locks gets it.
 */

static struct rt_mutex bh_locks[PK_NR_CPUS];

static void bh_lock(void)
{
	migrate_disable();
	/* PREEMPT_RT's is a local_lock, a spinlock_t: allowed inside an RCU
	 * reader (kernel/workqueue.c's __flush_work() of a BH item). */
	pk_rt_mutex_lock_rtlock(&bh_locks[raw_smp_processor_id()]);
}

static void bh_unlock(void)
{
	rt_mutex_unlock(&bh_locks[raw_smp_processor_id()]);
	migrate_enable();
}

/*
 * The kernel's rt local_bh_enable() ends the rcu_read_lock() its disable
 * took: a section that a preemption put on RCU's blocked list leaves it
 * here, not at a later tick, which a next section begun at once would
 * hold off (back-to-back sections: spin_lock_bh() loops, rcuc, ksoftirqd).
 */
static void bh_ended(void)
{
	if (pk_rcu_hooks)
		pk_rcu_hooks->qs();
}

static const struct pk_bh_rt_ops bh_rt_ops = {
	.task = pk_spinlocks_sleep,
	.lock = bh_lock,
	.unlock = bh_unlock,
	.ended = bh_ended,
};

__attribute__((constructor)) static void bh_lock_init(void)
{
	for (int cpu = 0; cpu < PK_NR_CPUS; cpu++)
		rt_mutex_init(&bh_locks[cpu]);
	pk_softirq_set_rt_ops(&bh_rt_ops);
}
