/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_LOCKDEP_TYPES_H
#define PREEMPT_LOCKDEP_TYPES_H

/*
 * The lock validator's types, embedded in every lock (see lockdep.h).
 *
 * A lock's class is named by a key: the address of a static
 * struct lock_class_key planted at the lock's init site by the init macro,
 * or, for a lock defined statically (DEFINE_SPINLOCK() ...), the lock's
 * own address.  A key's eight bytes give eight subclasses distinct
 * addresses, so key + subclass names a class.
 */

#include <stdint.h>

#ifndef CONFIG_DEBUG_PREEMPT
#define CONFIG_DEBUG_PREEMPT 1
#endif
/* The validator, CONFIG_PROVE_LOCKING: on with the debug checks. */
#ifndef CONFIG_LOCKDEP
#define CONFIG_LOCKDEP CONFIG_DEBUG_PREEMPT
#endif
#ifndef CONFIG_PROVE_LOCKING
#define CONFIG_PROVE_LOCKING CONFIG_LOCKDEP
#endif
#ifndef CONFIG_DEBUG_LOCK_ALLOC
#define CONFIG_DEBUG_LOCK_ALLOC CONFIG_LOCKDEP
#endif

#define MAX_LOCKDEP_SUBCLASSES 8UL
#define SINGLE_DEPTH_NESTING 1
/* Held locks a task (with its interrupt handlers) can stack. */
#define MAX_LOCK_DEPTH 48

struct lock_class_key {
	char subkeys[MAX_LOCKDEP_SUBCLASSES];
};

/*
 * How a lock waits (its outer type) and what may be taken while it is held
 * (its inner type), printed as -{outer:inner}: a lock whose outer type is
 * above what the context and the locks held allow is an invalid wait
 * context (the kernel's CONFIG_PROVE_RAW_LOCK_NESTING, always on here).
 */
enum lockdep_wait_type {
	LD_WAIT_INV = 0, /* not checked: take the lock's inner type */
	LD_WAIT_FREE,	 /* wait-free: RCU readers */
	LD_WAIT_SPIN,	 /* spins: raw_spinlock_t, bit_spin_lock() */
	LD_WAIT_CONFIG,	 /* spins, or sleeps under rt: spinlock_t */
	LD_WAIT_SLEEP,	 /* sleeps: mutexes, rw_semaphores */
	LD_WAIT_MAX,	 /* task context: anything */
};

enum lockdep_lock_type {
	LD_LOCK_NORMAL = 0,
	LD_LOCK_PERCPU, /* local_lock_t */
};

/*
 * @key: the class key (NULL: a static lock, keyed by its own address)
 * @class_cache: the class of subclass 0, found once
 * @name: printed in reports; NULL with a NULL key: not validated (a
 *        zeroed lock no init macro set up, or the library's own)
 */
struct lockdep_map {
	struct lock_class_key *key;
	void *class_cache;
	const char *name;
	uint8_t wait_type_outer;
	uint8_t wait_type_inner;
	uint8_t lock_type;
	uint8_t pk_novalidate;
	uint8_t pk_subclass; /* lockdep_set_subclass() */
};

/* One entry of a task's held-lock stack. */
struct held_lock {
	uint64_t prev_chain_key;
	unsigned long acquire_ip;
	struct lockdep_map *instance;
	struct lockdep_map *nest_lock;
	unsigned int class_idx;
	uint8_t irq_context; /* 0 task, 1 hardirq, 2 softirq */
	uint8_t trylock;
	uint8_t read; /* 0 write, 1 read, 2 recursive read */
	uint8_t check;
	uint8_t hardirqs_off;
	uint8_t subclass;
	uint8_t sync; /* lock_sync(): acquired and released at once */
	uint16_t references;
};

/*
 * The library's own locks are not validated (its nesting of runqueue,
 * wait-queue and pi locks is its own business); its sources are built
 * with PK_LOCKDEP_INTERNAL.  Nor is anything without the validator.
 */
#if CONFIG_LOCKDEP && !defined(PK_LOCKDEP_INTERNAL)
#define PK_LOCKDEP_KEY(k) static struct lock_class_key k
#define PK_LOCKDEP_KEYP(k) (&(k))
#define PK_LOCKDEP_NAME(n) (n)
#else
#define PK_LOCKDEP_KEY(k) (void)0
#define PK_LOCKDEP_KEYP(k) ((struct lock_class_key *)0)
#define PK_LOCKDEP_NAME(n) ((const char *)0)
#endif

#define STATIC_LOCKDEP_MAP_INIT(_name, _key)                                   \
	{                                                                      \
		.key = (_key), .name = PK_LOCKDEP_NAME(_name)                  \
	}
#define PK_DEP_MAP_INIT(_name, _wait)                                          \
	{                                                                      \
		.name = PK_LOCKDEP_NAME(_name), .wait_type_inner = (_wait)     \
	}

#endif /* PREEMPT_LOCKDEP_TYPES_H */
