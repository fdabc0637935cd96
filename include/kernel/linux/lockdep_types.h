/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_LOCKDEP_TYPES_H
#define _LINUX_LOCKDEP_TYPES_H

/* Lockdep's types, accepted: no lock dependency checking here. */
struct lock_class_key {
	char pk_unused;
};
struct lockdep_map {
	const char *name;
};
#define SINGLE_DEPTH_NESTING 1
#define MAX_LOCKDEP_SUBCLASSES 8UL
#define STATIC_LOCKDEP_MAP_INIT(_name, _key)                                   \
	{                                                                      \
		.name = (_name)                                                \
	}

#endif /* _LINUX_LOCKDEP_TYPES_H */
