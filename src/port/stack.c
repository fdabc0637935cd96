// SPDX-License-Identifier: MIT
/*
 * Task stacks: an anonymous mapping with one inaccessible page at its low
 * end, so that an overflow faults instead of overwriting the neighbour.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#if __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>
#endif
#endif

#include "switch.h"

#ifndef MAP_STACK
#define MAP_STACK 0
#endif

static size_t page_size(void)
{
	static size_t size;

	if (!size) {
		long s = sysconf(_SC_PAGESIZE);

		size = s > 0 ? (size_t)s : 4096;
	}
	return size;
}

int pk_stack_alloc(struct pk_stack *s, size_t size)
{
	size_t page = page_size();
	void *map;

	if (!size || size > SIZE_MAX - 2 * page)
		return -EINVAL;
	size = (size + page - 1) & ~(page - 1);
	map = mmap(NULL, size + page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (map == MAP_FAILED)
		return -errno;
	/* Stacks grow down on every architecture we build for. */
	if (mprotect(map, page, PROT_NONE)) {
		int err = errno;

		munmap(map, size + page);
		return -err;
	}
	s->map = map;
	s->map_size = size + page;
	s->base = (char *)map + page;
	s->size = size;
	s->valgrind_id = 0;
#ifdef VALGRIND_STACK_REGISTER
	/* Valgrind tells a switch to another stack from a big frame by
	 * the stacks it knows (end: the highest byte). 0 natively. */
	s->valgrind_id =
		VALGRIND_STACK_REGISTER(s->base, (char *)s->base + s->size - 1);
#endif
	return 0;
}

void pk_stack_free(struct pk_stack *s)
{
	if (!s->map)
		return;
#ifdef VALGRIND_STACK_DEREGISTER
	VALGRIND_STACK_DEREGISTER(s->valgrind_id); /* no-op natively */
#endif
#if PK_PORT_ASAN
	/* A task that never returned left its frames' redzones poisoned;
	 * the next mapping at these addresses must not inherit them. */
	ASAN_UNPOISON_MEMORY_REGION(s->base, s->size);
#endif
	munmap(s->map, s->map_size);
	s->map = NULL;
	s->base = NULL;
}
