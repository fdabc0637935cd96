/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_JUMP_LABEL_H
#define _LINUX_JUMP_LABEL_H

/*
 * Static keys without code patching: a branch on an atomic count (one
 * load).  The API and semantics are the kernel's: a key is enabled while
 * its count is above 0; static_branch_enable()/disable() set it to 1/0,
 * inc/dec count.  Changing a key is task context (might_sleep(), as the
 * kernel takes cpus_read_lock()); testing it any context.
 */

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/types.h>

struct static_key {
	atomic_t enabled;
};
struct static_key_true {
	struct static_key key;
};
struct static_key_false {
	struct static_key key;
};

#define STATIC_KEY_INIT_TRUE                                                   \
	{                                                                      \
		.enabled = ATOMIC_INIT(1)                                      \
	}
#define STATIC_KEY_INIT_FALSE                                                  \
	{                                                                      \
		.enabled = ATOMIC_INIT(0)                                      \
	}
#define STATIC_KEY_TRUE_INIT                                                   \
	(struct static_key_true)                                               \
	{                                                                      \
		.key = STATIC_KEY_INIT_TRUE                                    \
	}
#define STATIC_KEY_FALSE_INIT                                                  \
	(struct static_key_false)                                              \
	{                                                                      \
		.key = STATIC_KEY_INIT_FALSE                                   \
	}
#define DEFINE_STATIC_KEY_TRUE(name)                                           \
	struct static_key_true name = {.key = STATIC_KEY_INIT_TRUE}
#define DEFINE_STATIC_KEY_FALSE(name)                                          \
	struct static_key_false name = {.key = STATIC_KEY_INIT_FALSE}
#define DEFINE_STATIC_KEY_TRUE_RO(name) DEFINE_STATIC_KEY_TRUE(name)
#define DEFINE_STATIC_KEY_FALSE_RO(name) DEFINE_STATIC_KEY_FALSE(name)
#define DECLARE_STATIC_KEY_TRUE(name) extern struct static_key_true name
#define DECLARE_STATIC_KEY_FALSE(name) extern struct static_key_false name
/* A key true when Kconfig symbol @cfg is set, false otherwise. */
#define __PK_STATIC_KEY_MAYBE_1(name) DEFINE_STATIC_KEY_TRUE(name)
#define __PK_STATIC_KEY_MAYBE_0(name) DEFINE_STATIC_KEY_FALSE(name)
#define __PK_DECLARE_KEY_MAYBE_1(name) DECLARE_STATIC_KEY_TRUE(name)
#define __PK_DECLARE_KEY_MAYBE_0(name) DECLARE_STATIC_KEY_FALSE(name)
#define __pk_key_maybe(what, set, name) __pk_key_maybe_(what, set, name)
#define __pk_key_maybe_(what, set, name) what##set(name)
#define DEFINE_STATIC_KEY_MAYBE(cfg, name)                                     \
	__pk_key_maybe(__PK_STATIC_KEY_MAYBE_, IS_BUILTIN(cfg), name)
#define DECLARE_STATIC_KEY_MAYBE(cfg, name)                                    \
	__pk_key_maybe(__PK_DECLARE_KEY_MAYBE_, IS_BUILTIN(cfg), name)
#define DEFINE_STATIC_KEY_ARRAY_FALSE(name, count)                             \
	struct static_key_false name[count] = {                                \
		[0 ...(count) - 1] = {.key = STATIC_KEY_INIT_FALSE}}

static __always_inline bool static_key_enabled_raw(const struct static_key *k)
{
	return atomic_read(&k->enabled) > 0;
}
#define static_key_enabled(x) static_key_enabled_raw(&(x)->key)
#define static_key_count(x) atomic_read(&(x)->enabled)
#define static_branch_likely(x) likely(static_key_enabled(x))
#define static_branch_unlikely(x) unlikely(static_key_enabled(x))
/* Likely when Kconfig symbol @config is set (the key's default then). */
#define static_branch_maybe(config, x)                                         \
	(IS_ENABLED(config) ? static_branch_likely(x)                          \
			    : static_branch_unlikely(x))
#define static_key_false(x) unlikely(static_key_enabled_raw(x))
#define static_key_true(x) likely(static_key_enabled_raw(x))

void static_key_slow_inc(struct static_key *key);
void static_key_slow_dec(struct static_key *key);
void static_key_enable(struct static_key *key);
void static_key_disable(struct static_key *key);
#define static_branch_inc(x) static_key_slow_inc(&(x)->key)
#define static_branch_dec(x) static_key_slow_dec(&(x)->key)
#define static_branch_enable(x) static_key_enable(&(x)->key)
#define static_branch_disable(x) static_key_disable(&(x)->key)
#define static_branch_enable_cpuslocked(x) static_key_enable(&(x)->key)
#define static_branch_disable_cpuslocked(x) static_key_disable(&(x)->key)
#define static_key_slow_inc_cpuslocked(k) static_key_slow_inc(k)
#define static_key_slow_dec_cpuslocked(k) static_key_slow_dec(k)

#endif /* _LINUX_JUMP_LABEL_H */
