// SPDX-License-Identifier: MIT
/*
 * vmalloc() and the kv*() allocators.  vmalloc() maps from the host: a
 * header page in front of the block records its size, and a list of the
 * blocks lets is_vmalloc_addr() answer for any address.
 */

#include <sys/mman.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

struct vm_block {
	struct list_head node;
	unsigned long start, size; /* the caller's part */
	size_t map_size;
};

static LIST_HEAD(vm_blocks);
static DEFINE_RAW_SPINLOCK(vm_lock);

static void *vmalloc_gfp(unsigned long size, gfp_t gfp)
{
	size_t map_size = PAGE_ALIGN(size) + PAGE_SIZE;
	struct vm_block *b;
	unsigned long flags;
	char *base;

	might_sleep_if(gfpflags_allow_blocking(gfp));
	if (!size || size > (1UL << 40))
		return NULL;
	base = mmap(NULL, map_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	b = (struct vm_block *)base; /* mmap'd memory is already zero */
	b->start = (unsigned long)base + PAGE_SIZE;
	b->size = size;
	b->map_size = map_size;
	raw_spin_lock_irqsave(&vm_lock, flags);
	list_add(&b->node, &vm_blocks);
	raw_spin_unlock_irqrestore(&vm_lock, flags);
	return (void *)b->start;
}

void *vmalloc(unsigned long size)
{
	return vmalloc_gfp(size, GFP_KERNEL);
}

void *vzalloc(unsigned long size)
{
	return vmalloc_gfp(size, GFP_KERNEL | __GFP_ZERO);
}

void *__vmalloc(unsigned long size, gfp_t gfp)
{
	return vmalloc_gfp(size, gfp);
}

void *vmalloc_array(size_t n, size_t size)
{
	size_t bytes;

	if (check_mul_overflow(n, size, &bytes))
		return NULL;
	return vmalloc(bytes);
}

void *vcalloc(size_t n, size_t size)
{
	return vmalloc_array(n, size); /* zeroed anyway */
}

static struct vm_block *vm_find(const void *addr)
{
	unsigned long a = (unsigned long)addr;
	struct vm_block *b;

	list_for_each_entry(b, &vm_blocks, node)
		if (a >= b->start && a < b->start + PAGE_ALIGN(b->size))
			return b;
	return NULL;
}

bool is_vmalloc_addr(const void *addr)
{
	unsigned long flags;
	bool found;

	raw_spin_lock_irqsave(&vm_lock, flags);
	found = vm_find(addr) != NULL;
	raw_spin_unlock_irqrestore(&vm_lock, flags);
	return found;
}

void vfree(const void *addr)
{
	struct vm_block *b;
	unsigned long flags;

	if (!addr)
		return;
	raw_spin_lock_irqsave(&vm_lock, flags);
	b = vm_find(addr);
	if (b && b->start == (unsigned long)addr)
		list_del(&b->node);
	raw_spin_unlock_irqrestore(&vm_lock, flags);
	if (WARN(!b || b->start != (unsigned long)addr,
		 "Trying to vfree() nonexistent vm area (%p)\n", addr))
		return;
	munmap(b, b->map_size);
}

void *kvmalloc_node(size_t size, gfp_t gfp, int node)
{
	void *p;

	(void)node;
	/* Small ones, or a caller that cannot sleep: kmalloc() only. */
	if (size <= PAGE_SIZE || !gfpflags_allow_blocking(gfp))
		return kmalloc(size, gfp);
	p = kmalloc(size, gfp | __GFP_NOWARN | __GFP_NORETRY);
	if (p)
		return p;
	return vmalloc_gfp(size, gfp);
}

void kvfree(const void *addr)
{
	if (is_vmalloc_addr(addr))
		vfree(addr);
	else
		kfree(addr);
}

static size_t kv_size(const void *p)
{
	unsigned long flags;
	struct vm_block *b;
	size_t size = 0;

	if (ZERO_OR_NULL_PTR(p))
		return 0;
	raw_spin_lock_irqsave(&vm_lock, flags);
	b = vm_find(p);
	if (b)
		size = b->size;
	raw_spin_unlock_irqrestore(&vm_lock, flags);
	return b ? size : ksize(p);
}

void kvfree_sensitive(const void *addr, size_t len)
{
	if (!ZERO_OR_NULL_PTR(addr)) {
		memset((void *)addr, 0, len);
		kvfree(addr);
	}
}

void kfree_sensitive(const void *p)
{
	if (!ZERO_OR_NULL_PTR(p))
		memset((void *)p, 0, ksize(p));
	kfree(p);
}

void *kvrealloc(const void *p, size_t size, gfp_t gfp)
{
	size_t old = kv_size(p);
	void *n;

	if (size <= old && !is_vmalloc_addr(p))
		return krealloc(p, size, gfp);
	n = kvmalloc(size, gfp);
	if (!n)
		return NULL;
	if (old)
		memcpy(n, p, min(old, size));
	kvfree(p);
	return n;
}

/* Only the flags the library's caches know reach them. */
#undef kmem_cache_create
struct kmem_cache *pk_kernel_cache_create(const char *name, unsigned int size,
					  unsigned int align,
					  slab_flags_t flags,
					  void (*ctor)(void *))
{
	struct kmem_cache *s = kmem_cache_create(
		name, size, align, flags & SLAB_HWCACHE_ALIGN, ctor);

	if (!s && (flags & SLAB_PANIC))
		panic("kmem_cache_create: Failed to create slab '%s'\n", name);
	return s;
}
