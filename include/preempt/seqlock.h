/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_SEQLOCK_H
#define PREEMPT_SEQLOCK_H

/*
 * Sequence counts and seqlocks.  A reader that races a writer retries; a
 * writer preempted mid-update would leave readers spinning on an odd count
 * for its whole time off the CPU, so writers of a plain seqcount_t must
 * not be preemptible (checked, as the kernel's lockdep does).
 */

#include <sched.h> /* sched_yield() */
#include <preempt/lockdep.h>
#include <preempt/spinlock.h>

typedef struct {
	unsigned int sequence;
} seqcount_t;

#define SEQCNT_ZERO(name)                                                      \
	{                                                                      \
		0                                                              \
	}

/** seqcount_init() - zero @s.  Any context. */
static inline void seqcount_init(seqcount_t *s)
{
	s->sequence = 0;
}

/** read_seqcount_begin() - start a read; waits out a writer.  Any. */
static inline unsigned int read_seqcount_begin(const seqcount_t *s)
{
	unsigned int seq;

	while ((seq = __atomic_load_n(&s->sequence, __ATOMIC_ACQUIRE)) & 1)
		sched_yield(); /* a writer (possibly on this host CPU) runs */
	return seq;
}

/** read_seqcount_retry() - did a writer run since @start?  Any context. */
static inline int read_seqcount_retry(const seqcount_t *s, unsigned int start)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&s->sequence, __ATOMIC_RELAXED) != start;
}

/** raw_write_seqcount_begin() - start a write, unchecked. */
static inline void raw_write_seqcount_begin(seqcount_t *s)
{
	__atomic_store_n(&s->sequence, s->sequence + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

/** raw_write_seqcount_end() - end a write, unchecked. */
static inline void raw_write_seqcount_end(seqcount_t *s)
{
	__atomic_store_n(&s->sequence, s->sequence + 1, __ATOMIC_RELEASE);
}

/**
 * write_seqcount_begin() - start a write
 *
 * Preemption (or interrupts) must be disabled: reported otherwise.
 */
static inline void write_seqcount_begin(seqcount_t *s)
{
	lockdep_assert_preemption_disabled();
	raw_write_seqcount_begin(s);
}

/** write_seqcount_end() - end a write. */
static inline void write_seqcount_end(seqcount_t *s)
{
	raw_write_seqcount_end(s);
}

/* ---- seqlock_t: a seqcount whose writers serialize on a spinlock ---- */

typedef struct {
	seqcount_t seqcount;
	spinlock_t lock;
} seqlock_t;

#define __SEQLOCK_UNLOCKED(name)                                               \
	{                                                                      \
		SEQCNT_ZERO(name.seqcount), __SPIN_LOCK_UNLOCKED(name.lock)    \
	}
#define DEFINE_SEQLOCK(name) seqlock_t name = __SEQLOCK_UNLOCKED(name)

static inline void seqlock_init(seqlock_t *sl)
{
	seqcount_init(&sl->seqcount);
	spin_lock_init(&sl->lock);
}

/** read_seqbegin() / read_seqretry() - a lockless read.  Any context. */
static inline unsigned int read_seqbegin(const seqlock_t *sl)
{
	return read_seqcount_begin(&sl->seqcount);
}

static inline unsigned int read_seqretry(const seqlock_t *sl,
					 unsigned int start)
{
	return read_seqcount_retry(&sl->seqcount, start);
}

/*
 * The writer holds the spinlock: under rt that sleeps and stays
 * preemptible, which is why this path does not assert on the count.
 */
static inline void write_seqlock(seqlock_t *sl)
{
	spin_lock(&sl->lock);
	raw_write_seqcount_begin(&sl->seqcount);
}

static inline void write_sequnlock(seqlock_t *sl)
{
	raw_write_seqcount_end(&sl->seqcount);
	spin_unlock(&sl->lock);
}

static inline void write_seqlock_bh(seqlock_t *sl)
{
	spin_lock_bh(&sl->lock);
	raw_write_seqcount_begin(&sl->seqcount);
}

static inline void write_sequnlock_bh(seqlock_t *sl)
{
	raw_write_seqcount_end(&sl->seqcount);
	spin_unlock_bh(&sl->lock);
}

#define write_seqlock_irqsave(sl, flags)                                       \
	do {                                                                   \
		spin_lock_irqsave(&(sl)->lock, flags);                         \
		raw_write_seqcount_begin(&(sl)->seqcount);                     \
	} while (0)

#define write_sequnlock_irqrestore(sl, flags)                                  \
	do {                                                                   \
		raw_write_seqcount_end(&(sl)->seqcount);                       \
		spin_unlock_irqrestore(&(sl)->lock, flags);                    \
	} while (0)

#endif /* PREEMPT_SEQLOCK_H */
