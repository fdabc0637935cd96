/* SPDX-License-Identifier: MIT */
#ifndef __ASYNC_H__
#define __ASYNC_H__

/*
 * Asynchronous function calls (kernel/async.c, which a program brings):
 * async_schedule() runs a function in a worker, in parallel with its
 * caller, and hands back a cookie ordering it among all such calls;
 * async_synchronize_cookie() waits for every call scheduled before a
 * cookie, async_synchronize_full() for all of them.  A domain groups
 * calls; an exclusive one is left out of the full synchronization.
 */

#include <linux/compiler.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/numa.h>
#include <linux/types.h>

typedef u64 async_cookie_t;
typedef void (*async_func_t)(void *data, async_cookie_t cookie);

struct async_domain {
	struct list_head pending;
	unsigned registered : 1;
};

/* A domain async_synchronize_full() waits for too. */
#define ASYNC_DOMAIN(_name)                                                    \
	struct async_domain _name = {.pending = LIST_HEAD_INIT(_name.pending), \
				     .registered = 1}
/* A domain only its own synchronization waits for. */
#define ASYNC_DOMAIN_EXCLUSIVE(_name)                                          \
	struct async_domain _name = {.pending = LIST_HEAD_INIT(_name.pending), \
				     .registered = 0}

/**
 * async_schedule_node_domain() - run @func(@data, cookie) asynchronously
 * in @domain, preferably near @node; the cookie.  Any context (a caller
 * with interrupts off too); when memory is short @func runs at once.
 */
async_cookie_t async_schedule_node_domain(async_func_t func, void *data,
					  int node,
					  struct async_domain *domain);
/** async_schedule_node() - the same in the default domain. */
async_cookie_t async_schedule_node(async_func_t func, void *data, int node);

/** async_schedule() - async_schedule_node() on no node in particular. */
static inline async_cookie_t async_schedule(async_func_t func, void *data)
{
	return async_schedule_node(func, data, NUMA_NO_NODE);
}

/** async_schedule_domain() - async_schedule() in @domain. */
static inline async_cookie_t async_schedule_domain(async_func_t func,
						   void *data,
						   struct async_domain *domain)
{
	return async_schedule_node_domain(func, data, NUMA_NO_NODE, domain);
}

/** async_schedule_dev() - async_schedule() of @func(@dev). */
static inline async_cookie_t async_schedule_dev(async_func_t func,
						struct device *dev)
{
	return async_schedule_node(func, dev, dev_to_node(dev));
}

/**
 * async_schedule_dev_nocall() - as async_schedule_dev(), but false and
 * nothing run when it cannot be scheduled (6.8 on).
 */
bool async_schedule_dev_nocall(async_func_t func, struct device *dev);

/** async_schedule_dev_domain() - async_schedule_dev() in @domain. */
static inline async_cookie_t
async_schedule_dev_domain(async_func_t func, struct device *dev,
			  struct async_domain *domain)
{
	return async_schedule_node_domain(func, dev, dev_to_node(dev), domain);
}

/** async_synchronize_full() - wait for every call in registered domains. */
void async_synchronize_full(void);
/** async_synchronize_full_domain() - wait for every call in @domain. */
void async_synchronize_full_domain(struct async_domain *domain);
/** async_synchronize_cookie() - wait for the calls before @cookie. */
void async_synchronize_cookie(async_cookie_t cookie);
/** async_synchronize_cookie_domain() - the same within @domain. */
void async_synchronize_cookie_domain(async_cookie_t cookie,
				     struct async_domain *domain);
/** current_is_async() - is the caller running an async call? */
bool current_is_async(void);
/**
 * async_init() - the file's workqueue (6.9 on): boot calls it before the
 * initcalls, as start_kernel() does, when the file is linked.
 */
void async_init(void);

/* Links the boot runner (src/kernel/init.c), which calls async_init(). */
extern const char pk_kernel_initcalls[];
static const char *const __pk_async_init_ref __used = pk_kernel_initcalls;

#endif
