/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_SPINLOCK_H
#define PREEMPT_SPINLOCK_H

/*
 * Spinning locks and what they do to the count (the seed series' subject):
 *
 *                       non-rt models                 rt (booted rt)
 *  raw_spin_lock        +PREEMPT_LOCK_OFFSET (1)      the same: spins
 *  spin_lock            +1                            rt_mutex (PI), +0,
 *                                                     migrate_disable()
 *  spin_lock_bh         +SOFTIRQ_LOCK_OFFSET (0x201)  bh off (+0x200) + rt
 *  spin_lock_irq(save)  +1, interrupts disabled       rt, interrupts stay on
 *  read/write_lock      +1                            rt_mutex (readers too)
 *
 * raw_spinlock_t is a queued spinlock (the kernel's qspinlock, with its
 * paravirt waits): the fast path is one compare-exchange, the unlock one
 * exchange of the locked byte.  Contended, the first waiter (no queue)
 * sets pending and spins on the lock word, taking the lock with a plain
 * store; later waiters queue first come first served, each spinning on
 * its own node, the queue head on the lock word; every wait spins a
 * bounded time, then the pending waiter queues and a queued one halts on
 * a host futex (the holder's vCPU thread may be descheduled) until the
 * unlock or the predecessor wakes it.  While nobody spins on the word, a
 * newcomer may take a free lock before it queues (src/locking/qspinlock.c
 * says why).
 * The word, little-endian:
 *
 *      63                                        16 15     8 7       0
 *     +--------------------------------------------+---------+---------+
 *     | tail: address of the last queued node      | pending | locked  |
 *     +--------------------------------------------+---------+---------+
 *
 *  locked   0 free, 1 held, 3 held and the queue head halted on the
 *           word's low 32 bits (the unlock wakes it).
 *  pending  1: a waiter spins for the lock, no stealing: the pending
 *           waiter (set when the word was just "locked") or the queue
 *           head (set when clear); the head waits for the pending
 *           waiter's to go.
 *  tail     0: no queue.  Nodes are thread-local, four per thread (task,
 *           softirq, hardirq, NMI nesting); a vCPU is a thread.
 *
 * With CONFIG_DEBUG_SPINLOCK (on with the debug checks) locking goes
 * through checks out of line: recursion reports instead of hanging, unlock
 * of an unlocked lock is refused, unlock by another task is reported, and
 * the task's held locks are tracked for the exit check.
 */

#include <stdbool.h>
#include <stdint.h>

#include <preempt/bottom_half.h>
#include <preempt/irqflags.h>
#include <preempt/lockdep.h>
#include <preempt/preempt.h>
#include <preempt/rtmutex.h>

#ifndef CONFIG_DEBUG_SPINLOCK
#define CONFIG_DEBUG_SPINLOCK CONFIG_DEBUG_PREEMPT
#endif

#define SPINLOCK_MAGIC 0xdead4ead

typedef struct raw_spinlock {
	union {
		uint64_t val;
		struct {
			uint8_t locked;
			uint8_t pending;
		};
		uint16_t locked_pending;
		uint32_t futex; /* the low half: where halted waiters sleep */
	};
	uint32_t magic;
	void *owner_task; /* debug: who holds it */
	int owner_cpu;
	int recursion; /* debug: self-deadlocks reported and let through */
	struct lockdep_map dep_map;
} raw_spinlock_t;

#define __PK_RAW_SPIN_LOCK_INIT(name, wait)                                    \
	{                                                                      \
		.val = 0, .magic = SPINLOCK_MAGIC, .owner_cpu = -1,            \
		.dep_map = PK_DEP_MAP_INIT(name, wait)                         \
	}
#define __RAW_SPIN_LOCK_UNLOCKED(name)                                         \
	__PK_RAW_SPIN_LOCK_INIT(#name, LD_WAIT_SPIN)
#define DEFINE_RAW_SPINLOCK(name)                                              \
	raw_spinlock_t name = __RAW_SPIN_LOCK_UNLOCKED(name)

static inline void __raw_spin_lock_init(raw_spinlock_t *lock, const char *name,
					struct lock_class_key *key, int wait)
{
	*lock = (raw_spinlock_t)__PK_RAW_SPIN_LOCK_INIT(NULL, LD_WAIT_INV);
	lockdep_init_map_wait(&lock->dep_map, name, key, 0, wait);
}

/**
 * raw_spin_lock_init() - initialize @lock, unlocked, its lock class the
 * call site's (named by the expression, as "&dev->lock").  Any context.
 */
#define raw_spin_lock_init(lock)                                               \
	do {                                                                   \
		PK_LOCKDEP_KEY(__key);                                         \
		__raw_spin_lock_init((lock), PK_LOCKDEP_NAME(#lock),           \
				     PK_LOCKDEP_KEYP(__key), LD_WAIT_SPIN);    \
	} while (0)

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "raw_spinlock_t's byte fields assume a little-endian word"
#endif

#define PK_Q_LOCKED 1U
#define PK_Q_SLOW 3U
#define PK_Q_LOCKED_MASK 0xffULL
#define PK_Q_PENDING (1ULL << 8)
#define PK_Q_PENDING_MASK 0xff00ULL
#define PK_Q_TAIL_SHIFT 16
#define PK_Q_TAIL_MASK (~0xffffULL)

void pk_queued_spin_lock_slow(raw_spinlock_t *lock);
void pk_queued_spin_unlock_slow(raw_spinlock_t *lock);
/* How often a waiter halted on the host, and an unlock woke one (tests). */
unsigned long pk_qspin_halts(void);
unsigned long pk_qspin_kicks(void);
/* How often a pending waiter gave up spinning and queued (tests). */
unsigned long pk_qspin_pending_queued(void);
/* Tests: spins before any wait halts or queues (default 512); returns the
 * old value. */
unsigned int pk_qspin_set_spin_limit(unsigned int spins);
void pk_raw_spin_lock_debug(raw_spinlock_t *lock);
/* The same, with the validator's nesting annotation and caller. */
void pk_raw_spin_lock_debug_nested(raw_spinlock_t *lock, unsigned int sub,
				   struct lockdep_map *nest, unsigned long ip);
int pk_raw_spin_trylock_debug(raw_spinlock_t *lock);
/* Returns false when the unlock was refused (the lock was not held). */
bool pk_raw_spin_unlock_debug(raw_spinlock_t *lock);

static __always_inline bool arch_spin_trylock(raw_spinlock_t *lock)
{
	uint64_t old = __atomic_load_n(&lock->val, __ATOMIC_RELAXED);

	if (old)
		return false;
	return __atomic_compare_exchange_n(&lock->val, &old, PK_Q_LOCKED, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static __always_inline void arch_spin_lock(raw_spinlock_t *lock)
{
	uint64_t old = 0;

	if (unlikely(!__atomic_compare_exchange_n(&lock->val, &old, PK_Q_LOCKED,
						  false, __ATOMIC_ACQUIRE,
						  __ATOMIC_RELAXED)))
		pk_queued_spin_lock_slow(lock);
}

static __always_inline void arch_spin_unlock(raw_spinlock_t *lock)
{
	/* An exchange, not a store: a waiter may be marking the byte SLOW. */
	if (unlikely(__atomic_exchange_n(&lock->locked, (uint8_t)0,
					 __ATOMIC_RELEASE) != PK_Q_LOCKED))
		pk_queued_spin_unlock_slow(lock);
}

static __always_inline void do_raw_spin_lock(raw_spinlock_t *lock)
{
	pk_sim_hook(PK_SIM_LOCK);
	if (CONFIG_DEBUG_SPINLOCK)
		pk_raw_spin_lock_debug(lock);
	else
		arch_spin_lock(lock);
}

static __always_inline void do_raw_spin_lock_nested(raw_spinlock_t *lock,
						    unsigned int sub,
						    struct lockdep_map *nest)
{
	if (CONFIG_DEBUG_SPINLOCK)
		pk_raw_spin_lock_debug_nested(lock, sub, nest, _THIS_IP_);
	else
		arch_spin_lock(lock);
}

static __always_inline bool do_raw_spin_unlock(raw_spinlock_t *lock)
{
	bool ret = true;

	if (CONFIG_DEBUG_SPINLOCK)
		ret = pk_raw_spin_unlock_debug(lock);
	else
		arch_spin_unlock(lock);
	pk_sim_hook(PK_SIM_UNLOCK);
	return ret;
}

static __always_inline bool do_raw_spin_trylock(raw_spinlock_t *lock)
{
	if (CONFIG_DEBUG_SPINLOCK)
		return pk_raw_spin_trylock_debug(lock);
	return arch_spin_trylock(lock);
}

/** raw_spin_is_locked() - is @lock held by anyone?  Any context. */
static inline bool raw_spin_is_locked(raw_spinlock_t *lock)
{
	return __atomic_load_n(&lock->locked, __ATOMIC_RELAXED) != 0;
}

/**
 * raw_spin_lock() - take @lock, spinning; preemption off while held
 *
 * Any context.  A raw lock spins in every model.
 */
static __always_inline void raw_spin_lock(raw_spinlock_t *lock)
{
	preempt_disable();
	do_raw_spin_lock(lock);
}

/**
 * raw_spin_lock_nested() - raw_spin_lock() of a second lock of a class
 * already held, at nesting level @sub (SINGLE_DEPTH_NESTING ...), so the
 * validator sees an order, not a recursion.  Any context.
 */
#define raw_spin_lock_nested(lock, sub)                                        \
	do {                                                                   \
		preempt_disable();                                             \
		do_raw_spin_lock_nested(lock, sub, NULL);                      \
	} while (0)
/** raw_spin_lock_irqsave_nested() - the same with interrupts saved off. */
#define raw_spin_lock_irqsave_nested(lock, flags, sub)                         \
	do {                                                                   \
		local_irq_save(flags);                                         \
		raw_spin_lock_nested(lock, sub);                               \
	} while (0)
/**
 * raw_spin_lock_nest_lock() - take @lock, one of many of its class all
 * taken under the held lock @nest (which orders them).
 */
#define raw_spin_lock_nest_lock(lock, nest)                                    \
	do {                                                                   \
		preempt_disable();                                             \
		do_raw_spin_lock_nested(lock, 0, &(nest)->dep_map);            \
	} while (0)

/** raw_spin_unlock() - release @lock.  A preemption point. */
static __always_inline void raw_spin_unlock(raw_spinlock_t *lock)
{
	if (do_raw_spin_unlock(lock))
		preempt_enable();
}

/** raw_spin_trylock() - take @lock if free; 1 on success.  Any context. */
static __always_inline int raw_spin_trylock(raw_spinlock_t *lock)
{
	preempt_disable();
	if (do_raw_spin_trylock(lock))
		return 1;
	preempt_enable();
	return 0;
}

/*
 * With the debug checks off, the *_lock_irq* operations disable interrupts
 * and preemption in one add to the word, and undo both in one subtract
 * (the cover letter's add-on: both states live in the one word).  With
 * them on, the two steps stay separate so each keeps its checks.
 */
#define PK_LOCK_IRQ_ONE_UPDATE                                                 \
	(CONFIG_PREEMPT_COUNT && !CONFIG_DEBUG_SPINLOCK &&                     \
	 !CONFIG_TRACE_IRQFLAGS && !CONFIG_DEBUG_PREEMPT)

/* Interrupts and preemption off together; returns the saved irq flags. */
static __always_inline unsigned long __pk_irq_preempt_save(void)
{
	unsigned long flags = __pk_irq_depth_bits();

	/* Saturate as local_irq_disable() does. */
	if (likely(flags != HARDIRQ_DISABLE_MASK))
		__pk_word_add(HARDIRQ_DISABLE_OFFSET + PREEMPT_OFFSET);
	else
		__pk_word_add(PREEMPT_OFFSET);
	barrier();
	return flags;
}

/* Replay what arrived while off, then the owed reschedule (cold). */
void pk_irq_preempt_restore_slow(unsigned long flags);

/* Back to @flags and preemption on in one subtract. */
static __always_inline void __pk_irq_preempt_restore(unsigned long flags)
{
	unsigned long depth = __pk_irq_depth_bits();

	barrier();
	/* Field-local: the difference never borrows outside the field. */
	if (unlikely(__pk_word_sub_and_test((unsigned int)(depth - flags) +
					    PREEMPT_OFFSET)) ||
	    (!flags && unlikely(pk_task_tls(pk_irq_soft_pending))))
		pk_irq_preempt_restore_slow(flags);
}

/** raw_spin_lock_irq() - disable interrupts, then raw_spin_lock(). */
static __always_inline void raw_spin_lock_irq(raw_spinlock_t *lock)
{
	if (PK_LOCK_IRQ_ONE_UPDATE) {
		(void)__pk_irq_preempt_save();
		arch_spin_lock(lock);
		return;
	}
	local_irq_disable();
	raw_spin_lock(lock);
}

/** raw_spin_unlock_irq() - release @lock and enable interrupts. */
static __always_inline void raw_spin_unlock_irq(raw_spinlock_t *lock)
{
	if (PK_LOCK_IRQ_ONE_UPDATE) {
		arch_spin_unlock(lock);
		__pk_irq_preempt_restore(0);
		return;
	}
	if (do_raw_spin_unlock(lock)) {
		local_irq_enable();
		preempt_enable();
	}
}

static __always_inline unsigned long
__pk_raw_spin_lock_irqsave(raw_spinlock_t *lock)
{
	unsigned long flags;

	if (PK_LOCK_IRQ_ONE_UPDATE) {
		flags = __pk_irq_preempt_save();
		arch_spin_lock(lock);
		return flags;
	}
	local_irq_save(flags);
	raw_spin_lock(lock);
	return flags;
}

static __always_inline void
__pk_raw_spin_unlock_irqrestore(raw_spinlock_t *lock, unsigned long flags)
{
	if (PK_LOCK_IRQ_ONE_UPDATE) {
		arch_spin_unlock(lock);
		__pk_irq_preempt_restore(flags);
		return;
	}
	if (do_raw_spin_unlock(lock)) {
		local_irq_restore(flags);
		preempt_enable();
	}
}

/**
 * raw_spin_lock_irqsave() - save the interrupt state, disable interrupts,
 * take @lock.  Any context.
 */
#define raw_spin_lock_irqsave(lock, flags)                                     \
	do {                                                                   \
		(flags) = __pk_raw_spin_lock_irqsave(lock);                    \
	} while (0)

/** raw_spin_unlock_irqrestore() - release @lock, restore @flags. */
#define raw_spin_unlock_irqrestore(lock, flags)                                \
	__pk_raw_spin_unlock_irqrestore(lock, flags)

/** raw_spin_lock_bh() - take @lock with bottom halves disabled. */
static __always_inline void raw_spin_lock_bh(raw_spinlock_t *lock)
{
	__local_bh_disable_ip(_THIS_IP_, SOFTIRQ_LOCK_OFFSET);
	do_raw_spin_lock(lock);
}

/** raw_spin_unlock_bh() - release; pending softirqs may run here. */
static __always_inline void raw_spin_unlock_bh(raw_spinlock_t *lock)
{
	if (do_raw_spin_unlock(lock))
		__local_bh_enable_ip(_THIS_IP_, SOFTIRQ_LOCK_OFFSET);
}

/* ---- spinlock_t: a raw lock, or under rt a sleeping rt_mutex ---- */

/* dep_map is the raw lock's: both ways of holding it are one class. */
#define PK_DEP_MAP_OFFSET __builtin_offsetof(raw_spinlock_t, dep_map)
typedef struct spinlock {
	union {
		raw_spinlock_t rlock;
		struct {
			char __pad[PK_DEP_MAP_OFFSET];
			struct lockdep_map dep_map;
		};
	};
	struct rt_mutex rtm;
	int rt_held; /* this hold went the rt way (decided at lock time) */
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name)                                             \
	{                                                                      \
		.rlock = __PK_RAW_SPIN_LOCK_INIT(#name, LD_WAIT_CONFIG),       \
		.rtm = __RT_MUTEX_INITIALIZER(name.rtm)                        \
	}
#define DEFINE_SPINLOCK(name) spinlock_t name = __SPIN_LOCK_UNLOCKED(name)

/**
 * pk_spinlocks_sleep() - does spinlock_t sleep here?  True on the tasks of
 * a machine booted with the rt model (PREEMPT_RT's substitution).
 */
bool pk_spinlocks_sleep(void);

void __spin_lock_init(spinlock_t *lock, const char *name,
		      struct lock_class_key *key);
/**
 * spin_lock_init() - initialize @lock, unlocked; its lock class is the
 * call site's.  Any context.
 */
#define spin_lock_init(lock)                                                   \
	do {                                                                   \
		PK_LOCKDEP_KEY(__key);                                         \
		__spin_lock_init((lock), PK_LOCKDEP_NAME(#lock),               \
				 PK_LOCKDEP_KEYP(__key));                      \
	} while (0)

/* Set while a machine booted rt runs (sched.h: pk_machine_rt()). */
extern int pk_rt_machine_running;

/* The rt halves of the inline lock operations below. */
void pk_spin_lock_rt(spinlock_t *lock);
void pk_spin_unlock_rt(spinlock_t *lock);
unsigned long pk_spin_lock_irqsave(spinlock_t *lock);
void pk_spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);

/* One load decides between raw_spin_lock() and rt's sleeping lock. */
static __always_inline bool pk_spin_rt(void)
{
	return unlikely(
		__atomic_load_n(&pk_rt_machine_running, __ATOMIC_ACQUIRE));
}

/**
 * spin_lock() - take @lock
 *
 * Non-rt: as raw_spin_lock().  rt: may sleep (priority inheritance),
 * preemptible but pinned to the CPU (migrate_disable()).
 */
static __always_inline void spin_lock(spinlock_t *lock)
{
	if (pk_spin_rt()) {
		pk_sim_hook(PK_SIM_LOCK);
		pk_spin_lock_rt(lock);
	} else {
		raw_spin_lock(&lock->rlock);
	}
}

/*
 * The nested forms (@how: 0 plain, 1 bh, 2 irqsave; returns the flags):
 * rare enough to live out of line.
 */
unsigned long pk_spin_lock_nested(spinlock_t *lock, unsigned int sub,
				  struct lockdep_map *nest, int how);
/** spin_lock_nested() - spin_lock() at nesting level @sub of its class. */
#define spin_lock_nested(lock, sub)                                            \
	((void)pk_spin_lock_nested(lock, sub, NULL, 0))
/** spin_lock_bh_nested() - spin_lock_bh() at nesting level @sub. */
#define spin_lock_bh_nested(lock, sub)                                         \
	((void)pk_spin_lock_nested(lock, sub, NULL, 1))
/** spin_lock_irqsave_nested() - spin_lock_irqsave() at level @sub. */
#define spin_lock_irqsave_nested(lock, flags, sub)                             \
	do {                                                                   \
		(flags) = pk_spin_lock_nested(lock, sub, NULL, 2);             \
	} while (0)
/** spin_lock_nest_lock() - spin_lock() of one of a class held under @nest. */
#define spin_lock_nest_lock(lock, nest)                                        \
	((void)pk_spin_lock_nested(lock, 0, &(nest)->dep_map, 0))

/** spin_unlock() - release @lock; undoes what its spin_lock() did. */
static __always_inline void spin_unlock(spinlock_t *lock)
{
	if (unlikely(lock->rt_held))
		pk_spin_unlock_rt(lock);
	else
		raw_spin_unlock(&lock->rlock);
}
/** spin_trylock() - take @lock if free; 1 on success. */
int spin_trylock(spinlock_t *lock);
/** spin_lock_bh() - spin_lock() with bottom halves disabled. */
void spin_lock_bh(spinlock_t *lock);
/** spin_unlock_bh() - release; pending softirqs may run. */
void spin_unlock_bh(spinlock_t *lock);
/** spin_lock_irq() - non-rt: interrupts off and spin_lock(). */
void spin_lock_irq(spinlock_t *lock);
/** spin_unlock_irq() - release and enable interrupts (non-rt). */
void spin_unlock_irq(spinlock_t *lock);
static __always_inline unsigned long __pk_spin_lock_irqsave(spinlock_t *lock)
{
	unsigned long flags;

	if (pk_spin_rt())
		return pk_spin_lock_irqsave(lock);
	raw_spin_lock_irqsave(&lock->rlock, flags);
	return flags;
}

static __always_inline void __pk_spin_unlock_irqrestore(spinlock_t *lock,
							unsigned long flags)
{
	if (unlikely(lock->rt_held))
		pk_spin_unlock_irqrestore(lock, flags);
	else
		raw_spin_unlock_irqrestore(&lock->rlock, flags);
}

/** spin_lock_irqsave() - save the interrupt state, then spin_lock_irq(). */
#define spin_lock_irqsave(lock, flags)                                         \
	do {                                                                   \
		(flags) = __pk_spin_lock_irqsave(lock);                        \
	} while (0)
/** spin_unlock_irqrestore() - release, then restore the saved state. */
#define spin_unlock_irqrestore(lock, flags)                                    \
	__pk_spin_unlock_irqrestore(lock, flags)

/** spin_is_locked() - is @lock held by anyone?  Any context. */
bool spin_is_locked(spinlock_t *lock);

/**
 * pk_spin_lock_held() - does the current task hold @lock?  With the lock
 * debugging off (no owner recorded) only "held by someone" is known.
 */
bool pk_spin_lock_held(spinlock_t *lock);

/** assert_spin_locked() - warn once unless @lock is held (by anyone). */
#define assert_spin_locked(lock) WARN_ON_ONCE(!spin_is_locked(lock))

/** spin_trylock_bh() - spin_lock_bh() if free; 1 on success. */
int spin_trylock_bh(spinlock_t *lock);
/** spin_trylock_irq() - spin_lock_irq() if free; 1 on success. */
int spin_trylock_irq(spinlock_t *lock);
int pk_spin_trylock_irqsave(spinlock_t *lock, unsigned long *flags);
/** spin_trylock_irqsave() - spin_lock_irqsave() if free; 1 on success. */
#define spin_trylock_irqsave(lock, flags)                                      \
	pk_spin_trylock_irqsave(lock, &(flags))

/* ---- rwlock_t ---- */

/*
 * Non-rt: cnt counts readers, -1 for a writer.  Under rt (PREEMPT_RT's
 * rwbase): cnt counts readers and drops by PK_RW_WRITER_BIAS while a writer
 * holds or waits; writers, and readers arriving behind one, queue on rtm.
 */
typedef struct {
	int cnt;
	struct rt_mutex rtm;
	struct task_struct *rt_writer; /* waiting for the readers to leave */
	int rt_wait_lock; /* raw: the last reader's wake-up of rt_writer */
	struct lockdep_map dep_map;
} rwlock_t;

#define __RW_LOCK_UNLOCKED(name)                                               \
	{                                                                      \
		.cnt = 0, .rtm = __RT_MUTEX_INITIALIZER(name.rtm),             \
		.dep_map = PK_DEP_MAP_INIT(#name, LD_WAIT_CONFIG)              \
	}
#define DEFINE_RWLOCK(name) rwlock_t name = __RW_LOCK_UNLOCKED(name)

void __rwlock_init(rwlock_t *lock, const char *name,
		   struct lock_class_key *key);
/** rwlock_init() - initialize @lock; its class is the call site's. */
#define rwlock_init(lock)                                                      \
	do {                                                                   \
		PK_LOCKDEP_KEY(__key);                                         \
		__rwlock_init((lock), PK_LOCKDEP_NAME(#lock),                  \
			      PK_LOCKDEP_KEYP(__key));                         \
	} while (0)
/**
 * read_lock() - shared hold; readers run together in every model.  Under
 * rt a reader sleeps only behind a writer (whom it does not boost, as in
 * PREEMPT_RT).  Task, softirq or (non-rt) hardirq context.
 */
void read_lock(rwlock_t *lock);
void read_unlock(rwlock_t *lock);
/** write_lock() - exclusive hold. */
void write_lock(rwlock_t *lock);
void write_unlock(rwlock_t *lock);
void read_lock_bh(rwlock_t *lock);
void read_unlock_bh(rwlock_t *lock);
void write_lock_bh(rwlock_t *lock);
void write_unlock_bh(rwlock_t *lock);
void read_lock_irq(rwlock_t *lock);
void read_unlock_irq(rwlock_t *lock);
void write_lock_irq(rwlock_t *lock);
void write_unlock_irq(rwlock_t *lock);
unsigned long pk_read_lock_irqsave(rwlock_t *lock);
unsigned long pk_write_lock_irqsave(rwlock_t *lock);
void read_unlock_irqrestore(rwlock_t *lock, unsigned long flags);
void write_unlock_irqrestore(rwlock_t *lock, unsigned long flags);
#define read_lock_irqsave(lock, flags)                                         \
	do {                                                                   \
		(flags) = pk_read_lock_irqsave(lock);                          \
	} while (0)
#define write_lock_irqsave(lock, flags)                                        \
	do {                                                                   \
		(flags) = pk_write_lock_irqsave(lock);                         \
	} while (0)

#endif /* PREEMPT_SPINLOCK_H */
