/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_NOTIFIER_H
#define _LINUX_NOTIFIER_H

/*
 * Notifier chains: callbacks kept in priority order (higher first) and
 * called in turn with an event, until one answers with NOTIFY_STOP_MASK.
 * Four kinds, by how the chain is protected:
 *  - atomic: a spinlock for changes, RCU for calls: call from any context,
 *    callbacks must not sleep; unregistering waits for an RCU grace period;
 *  - blocking: an rw_semaphore: task context, callbacks may sleep;
 *  - raw: no protection, the caller's;
 *  - SRCU: a mutex for changes, SRCU for calls: cheap calls that may sleep.
 * The functions come from kernel/notifier.c, which a program brings.
 */

#include <linux/errno.h>
#include <linux/kernel.h> /* system_state, as the kernel's includes bring it */
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>

struct notifier_block;

typedef int (*notifier_fn_t)(struct notifier_block *nb, unsigned long action,
			     void *data);

struct notifier_block {
	notifier_fn_t notifier_call;
	struct notifier_block __rcu *next;
	int priority;
};

struct atomic_notifier_head {
	spinlock_t lock;
	struct notifier_block __rcu *head;
};

struct blocking_notifier_head {
	struct rw_semaphore rwsem;
	struct notifier_block __rcu *head;
};

struct raw_notifier_head {
	struct notifier_block __rcu *head;
};

struct srcu_notifier_head {
	struct mutex mutex;
	struct srcu_struct srcu;
	struct notifier_block __rcu *head;
};

#define ATOMIC_INIT_NOTIFIER_HEAD(name)                                        \
	do {                                                                   \
		spin_lock_init(&(name)->lock);                                 \
		(name)->head = NULL;                                           \
	} while (0)
#define BLOCKING_INIT_NOTIFIER_HEAD(name)                                      \
	do {                                                                   \
		init_rwsem(&(name)->rwsem);                                    \
		(name)->head = NULL;                                           \
	} while (0)
#define RAW_INIT_NOTIFIER_HEAD(name)                                           \
	do {                                                                   \
		(name)->head = NULL;                                           \
	} while (0)

/* Task context: sets up the SRCU state. */
void srcu_init_notifier_head(struct srcu_notifier_head *nh);
#define srcu_cleanup_notifier_head(name) cleanup_srcu_struct(&(name)->srcu)

#define ATOMIC_NOTIFIER_INIT(name)                                             \
	{                                                                      \
		.lock = __SPIN_LOCK_UNLOCKED(name.lock), .head = NULL          \
	}
#define BLOCKING_NOTIFIER_INIT(name)                                           \
	{                                                                      \
		.rwsem = __RWSEM_INITIALIZER((name).rwsem), .head = NULL       \
	}
#define RAW_NOTIFIER_INIT(name)                                                \
	{                                                                      \
		.head = NULL                                                   \
	}
#define SRCU_NOTIFIER_INIT(name, pcpu)                                         \
	{                                                                      \
		.mutex = __MUTEX_INITIALIZER(name.mutex),                      \
		.srcu = __SRCU_STRUCT_INIT(name.srcu), .head = NULL,           \
	}

#define ATOMIC_NOTIFIER_HEAD(name)                                             \
	struct atomic_notifier_head name = ATOMIC_NOTIFIER_INIT(name)
#define BLOCKING_NOTIFIER_HEAD(name)                                           \
	struct blocking_notifier_head name = BLOCKING_NOTIFIER_INIT(name)
#define RAW_NOTIFIER_HEAD(name)                                                \
	struct raw_notifier_head name = RAW_NOTIFIER_INIT(name)
#define SRCU_NOTIFIER_HEAD(name)                                               \
	struct srcu_notifier_head name = SRCU_NOTIFIER_INIT(name, 0)
#define SRCU_NOTIFIER_HEAD_STATIC(name)                                        \
	static struct srcu_notifier_head name = SRCU_NOTIFIER_INIT(name, 0)

/* Registering: 0, or -EEXIST for a block already on the chain (_unique_prio: or
 * its priority). */
int atomic_notifier_chain_register(struct atomic_notifier_head *nh,
				   struct notifier_block *nb);
int blocking_notifier_chain_register(struct blocking_notifier_head *nh,
				     struct notifier_block *nb);
int raw_notifier_chain_register(struct raw_notifier_head *nh,
				struct notifier_block *nb);
int srcu_notifier_chain_register(struct srcu_notifier_head *nh,
				 struct notifier_block *nb);
int atomic_notifier_chain_register_unique_prio(struct atomic_notifier_head *nh,
					       struct notifier_block *nb);
int blocking_notifier_chain_register_unique_prio(
	struct blocking_notifier_head *nh, struct notifier_block *nb);

/* 0, or -ENOENT when @nb is not on the chain. */
int atomic_notifier_chain_unregister(struct atomic_notifier_head *nh,
				     struct notifier_block *nb);
int blocking_notifier_chain_unregister(struct blocking_notifier_head *nh,
				       struct notifier_block *nb);
int raw_notifier_chain_unregister(struct raw_notifier_head *nh,
				  struct notifier_block *nb);
int srcu_notifier_chain_unregister(struct srcu_notifier_head *nh,
				   struct notifier_block *nb);

/* The last callback's answer (NOTIFY_DONE for an empty chain). */
int atomic_notifier_call_chain(struct atomic_notifier_head *nh,
			       unsigned long val, void *v);
int blocking_notifier_call_chain(struct blocking_notifier_head *nh,
				 unsigned long val, void *v);
int raw_notifier_call_chain(struct raw_notifier_head *nh, unsigned long val,
			    void *v);
int srcu_notifier_call_chain(struct srcu_notifier_head *nh, unsigned long val,
			     void *v);
/*
 * _robust: when a callback refuses @val_up, the ones already called are
 * called again with @val_down, and the refusal is returned.
 */
int blocking_notifier_call_chain_robust(struct blocking_notifier_head *nh,
					unsigned long val_up,
					unsigned long val_down, void *v);
int raw_notifier_call_chain_robust(struct raw_notifier_head *nh,
				   unsigned long val_up, unsigned long val_down,
				   void *v);
bool atomic_notifier_call_chain_is_empty(struct atomic_notifier_head *nh);

#define NOTIFY_DONE 0x0000		       /* not interested */
#define NOTIFY_OK 0x0001		       /* handled */
#define NOTIFY_STOP_MASK 0x8000		       /* call no further callbacks */
#define NOTIFY_BAD (NOTIFY_STOP_MASK | 0x0002) /* refused */
#define NOTIFY_STOP (NOTIFY_OK | NOTIFY_STOP_MASK)

/* An errno as a notifier's answer, and back: 0 is NOTIFY_OK. */
static inline int notifier_from_errno(int err)
{
	if (err)
		return NOTIFY_STOP_MASK | (NOTIFY_OK - err);
	return NOTIFY_OK;
}

static inline int notifier_to_errno(int ret)
{
	ret &= ~NOTIFY_STOP_MASK;
	return ret > NOTIFY_OK ? NOTIFY_OK - ret : 0;
}

#endif /* _LINUX_NOTIFIER_H */
