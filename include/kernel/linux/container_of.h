/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_CONTAINER_OF_H
#define _LINUX_CONTAINER_OF_H

#include <linux/build_bug.h>
#include <linux/stddef.h>

/** container_of() - the structure of type @type whose @member @ptr is. */
#define container_of(ptr, type, member)                                        \
	({                                                                     \
		void *__mptr = (void *)(ptr);                                  \
		_Static_assert(__same_type(*(ptr), ((type *)0)->member) ||     \
				       __same_type(*(ptr), void),              \
			       "pointer type mismatch in container_of()");     \
		/* In integers: llist's iterators step from NULL. */           \
		((type *)((unsigned long)__mptr - offsetof(type, member)));    \
	})
#define container_of_const(ptr, type, member) container_of(ptr, type, member)

#endif /* _LINUX_CONTAINER_OF_H */
