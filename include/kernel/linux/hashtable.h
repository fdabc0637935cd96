/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_HASHTABLE_H
#define _LINUX_HASHTABLE_H

/*
 * Fixed-size hash tables of hlists: 2^bits buckets, a key hashed with
 * hash_min() picks one.  The _rcu forms are safe against concurrent
 * updaters under the rules of linux/rculist.h.
 */

#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/rculist.h>

#define DEFINE_HASHTABLE(name, bits)                                           \
	struct hlist_head name[1 << (bits)] = {[0 ...((1 << (bits)) - 1)] =    \
						       HLIST_HEAD_INIT}
#define DEFINE_READ_MOSTLY_HASHTABLE(name, bits)                               \
	struct hlist_head name[1 << (bits)] __read_mostly = {                  \
		[0 ...((1 << (bits)) - 1)] = HLIST_HEAD_INIT}
#define DECLARE_HASHTABLE(name, bits) struct hlist_head name[1 << (bits)]

#define HASH_SIZE(name) (ARRAY_SIZE(name))
#define HASH_BITS(name) ilog2(HASH_SIZE(name))

/* A key to a bucket: 32-bit keys hash with hash_32(), others hash_long(). */
#define hash_min(val, bits)                                                    \
	(sizeof(val) <= 4 ? hash_32(val, bits) : hash_long(val, bits))

static inline void __hash_init(struct hlist_head *ht, unsigned int sz)
{
	for (unsigned int i = 0; i < sz; i++)
		INIT_HLIST_HEAD(&ht[i]);
}

/** hash_init() - empty every bucket.  Any context. */
#define hash_init(hashtable) __hash_init(hashtable, HASH_SIZE(hashtable))

/** hash_add() - add @node under @key. */
#define hash_add(hashtable, node, key)                                         \
	hlist_add_head(node, &hashtable[hash_min(key, HASH_BITS(hashtable))])
/** hash_add_rcu() - the same, for RCU readers. */
#define hash_add_rcu(hashtable, node, key)                                     \
	hlist_add_head_rcu(node,                                               \
			   &hashtable[hash_min(key, HASH_BITS(hashtable))])

/** hash_hashed() - is @node in a table? */
static inline bool hash_hashed(struct hlist_node *node)
{
	return !hlist_unhashed(node);
}

static inline bool __hash_empty(struct hlist_head *ht, unsigned int sz)
{
	for (unsigned int i = 0; i < sz; i++)
		if (!hlist_empty(&ht[i]))
			return false;
	return true;
}

/** hash_empty() - no node in any bucket? */
#define hash_empty(hashtable) __hash_empty(hashtable, HASH_SIZE(hashtable))

/** hash_del() - take @node out (it may be added again). */
static inline void hash_del(struct hlist_node *node)
{
	hlist_del_init(node);
}

/** hash_del_rcu() - take @node out; readers may still see it. */
static inline void hash_del_rcu(struct hlist_node *node)
{
	hlist_del_init_rcu(node);
}

/* Every node, bucket by bucket; @bkt an int. */
#define hash_for_each(name, bkt, obj, member)                                  \
	for ((bkt) = 0; (bkt) < (int)HASH_SIZE(name); (bkt)++)                 \
	hlist_for_each_entry(obj, &name[bkt], member)

#define hash_for_each_rcu(name, bkt, obj, member)                              \
	for ((bkt) = 0; (bkt) < (int)HASH_SIZE(name); (bkt)++)                 \
	hlist_for_each_entry_rcu(obj, &name[bkt], member)

#define hash_for_each_safe(name, bkt, tmp, obj, member)                        \
	for ((bkt) = 0; (bkt) < (int)HASH_SIZE(name); (bkt)++)                 \
	hlist_for_each_entry_safe(obj, tmp, &name[bkt], member)

/* The nodes in @key's bucket (other keys may share it: compare). */
#define hash_for_each_possible(name, obj, member, key)                         \
	hlist_for_each_entry(obj, &name[hash_min(key, HASH_BITS(name))], member)

#define hash_for_each_possible_rcu(name, obj, member, key, cond...)            \
	hlist_for_each_entry_rcu(obj, &name[hash_min(key, HASH_BITS(name))],   \
				 member, ##cond)

#define hash_for_each_possible_safe(name, obj, tmp, member, key)               \
	hlist_for_each_entry_safe(                                             \
		obj, tmp, &name[hash_min(key, HASH_BITS(name))], member)

#endif
