/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_CLEANUP_H
#define _LINUX_CLEANUP_H

/*
 * Scope-based cleanup (Documentation/core-api/cleanup.rst): a variable of
 * a "class" runs the class's destructor when it leaves scope (the
 * compiler's cleanup attribute).  guard(name)(args) holds a lock to the
 * end of the scope, scoped_guard(name, args) for the statement after it.
 */

#include <linux/compiler.h>

#define DEFINE_CLASS(_name, _type, _exit, _init, _init_args...)                \
	typedef _type class_##_name##_t;                                       \
	static inline void class_##_name##_destructor(_type *p)                \
	{                                                                      \
		_type _T = *p;                                                 \
		_exit;                                                         \
	}                                                                      \
	static inline _type class_##_name##_constructor(_init_args)            \
	{                                                                      \
		_type t = _init;                                               \
		return t;                                                      \
	}

#define CLASS(_name, var)                                                      \
	class_##_name##_t var                                                  \
		__attribute__((cleanup(class_##_name##_destructor))) =         \
			class_##_name##_constructor

/* A guard on a pointer: the lock taken by construction, dropped after. */
#define DEFINE_GUARD(_name, _type, _lock, _unlock)                             \
	DEFINE_CLASS(                                                          \
		_name, _type, if (_T) { _unlock; }, ({                         \
			_lock;                                                 \
			_T;                                                    \
		}),                                                            \
		_type _T)

#define guard(_name) CLASS(_name, __UNIQUE_ID(guard))

#define scoped_guard(_name, args...)                                           \
	for (CLASS(_name, scope)(args), *__pk_done = NULL; !__pk_done;         \
	     __pk_done = (void *)1)

/* Lock guards keep the lock (and, for irqsave, the flags) in a struct. */
#define DEFINE_LOCK_GUARD_1(_name, _type, _lock, _unlock, ...)                 \
	typedef struct {                                                       \
		_type *lock;                                                   \
		__VA_ARGS__;                                                   \
	} class_##_name##_t;                                                   \
	static inline void class_##_name##_destructor(class_##_name##_t *_T)   \
	{                                                                      \
		if (_T->lock) {                                                \
			_unlock;                                               \
		}                                                              \
	}                                                                      \
	static inline class_##_name##_t class_##_name##_constructor(_type *l)  \
	{                                                                      \
		class_##_name##_t _t = {.lock = l}, *_T = &_t;                 \
		_lock;                                                         \
		return _t;                                                     \
	}

#define DEFINE_LOCK_GUARD_0(_name, _lock, _unlock, ...)                        \
	typedef struct {                                                       \
		void *lock;                                                    \
		__VA_ARGS__;                                                   \
	} class_##_name##_t;                                                   \
	static inline void class_##_name##_destructor(class_##_name##_t *_T)   \
	{                                                                      \
		if (_T->lock) {                                                \
			_unlock;                                               \
		}                                                              \
	}                                                                      \
	static inline class_##_name##_t class_##_name##_constructor(void)      \
	{                                                                      \
		class_##_name##_t _t = {.lock = (void *)1},                    \
				  *_T __maybe_unused = &_t;                    \
		_lock;                                                         \
		return _t;                                                     \
	}

/* __free(name): a pointer freed by DEFINE_FREE(name)'s code at scope end. */
#define DEFINE_FREE(_name, _type, _free)                                       \
	static inline void __free_##_name(void *p)                             \
	{                                                                      \
		_type _T = *(_type *)p;                                        \
		_free;                                                         \
	}
#define __free(_name) __attribute__((cleanup(__free_##_name)))
#define no_free_ptr(p)                                                         \
	({                                                                     \
		__auto_type __ptr = (p);                                       \
		(p) = NULL;                                                    \
		__ptr;                                                         \
	})
#define return_ptr(p) return no_free_ptr(p)

#endif
