/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_STDDEF_H
#define _LINUX_STDDEF_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/compiler_types.h>

#define sizeof_field(TYPE, MEMBER) sizeof((((TYPE *)0)->MEMBER))
#define offsetofend(TYPE, MEMBER)                                              \
	(offsetof(TYPE, MEMBER) + sizeof_field(TYPE, MEMBER))

/* Members reachable both one by one and as a whole struct. */
#define struct_group(NAME, MEMBERS...)                                         \
	union {                                                                \
		struct {                                                       \
			MEMBERS                                                \
		};                                                             \
		struct {                                                       \
			MEMBERS                                                \
		} NAME;                                                        \
	}
#define DECLARE_FLEX_ARRAY(TYPE, NAME)                                         \
	struct {                                                               \
		struct {                                                       \
		} __empty_##NAME;                                              \
		TYPE NAME[];                                                   \
	}

#endif /* _LINUX_STDDEF_H */
