// SPDX-License-Identifier: MIT
/*
 * Interrupt stacks.  Separate from the task stacks' allocator on purpose:
 * one per CPU thread for its lifetime, never pooled.  MAP_NORESERVE: the
 * depth an ASan build needs is address space, only what handlers touch
 * becomes memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>
#endif
#endif

#include "irqstack.h"
#include "switch.h"

int pk_irq_stack_alloc(struct pk_irq_stack *s)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t guard = page > 0 ? (size_t)page : 4096;
	size_t size = PK_IRQ_STACK_SIZE;
	char *map;

	map = mmap(NULL, size + guard, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE, -1,
		   0);
	if (map == MAP_FAILED)
		return -errno;
	/* An overflow of the irq stack faults rather than corrupts. */
	if (mprotect(map, guard, PROT_NONE)) {
		int err = errno;

		munmap(map, size + guard);
		return -err;
	}
	s->map = map;
	s->map_size = size + guard;
	s->base = map + guard;
	s->size = size;
	return 0;
}

void pk_irq_stack_free(struct pk_irq_stack *s)
{
	if (!s->map)
		return;
#if PK_PORT_ASAN
	/* Handlers interrupted by a switch left redzones poisoned. */
	ASAN_UNPOISON_MEMORY_REGION(s->base, s->size);
#endif
	munmap(s->map, s->map_size);
	s->map = NULL;
	s->base = NULL;
}
