// SPDX-License-Identifier: MIT
/*
 * Per-CPU areas in the kernel's offset model (linux/percpu-defs.h).  Before
 * main(), one unit per possible CPU is mapped: the unit starts with a copy
 * of section pk_percpu (the DEFINE_PER_CPU() variables with their initial
 * values) and goes on with the dynamic area alloc_percpu() carves.  A
 * per-CPU pointer is an address as if in the section; CPU c's instance is
 * at that address plus __per_cpu_offset[c].
 */

#include <sys/mman.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/string.h>

extern char __start_pk_percpu[], __stop_pk_percpu[];
#define PCPU_IMAGE_SIZE                                                        \
	((unsigned long)__stop_pk_percpu - (unsigned long)__start_pk_percpu)

/* Makes sure the section exists, whatever the program defines. */
static DEFINE_PER_CPU(long, pk_percpu_anchor);

#define PCPU_GRANULE 16UL
#define PCPU_DYN_SIZE (1UL << 20)
#define PCPU_DYN_GRANULES (PCPU_DYN_SIZE / PCPU_GRANULE)

unsigned long __per_cpu_offset[NR_CPUS];
static char *pcpu_base;
static unsigned long pcpu_static_size, pcpu_unit_size;
static DECLARE_BITMAP(pcpu_used, PCPU_DYN_GRANULES);
static unsigned int pcpu_len[PCPU_DYN_GRANULES]; /* granules, at a start */
static DEFINE_RAW_SPINLOCK(pcpu_lock);

/* A plain byte copy: the sanitizers must not see the section as objects. */
__attribute__((__no_sanitize_address__)) static void
copy_image(char *dst, const char *src, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		dst[i] = ((const volatile char *)src)[i];
}

__attribute__((constructor(101))) static void percpu_setup(void)
{
	(void)&pk_percpu_anchor;
	pcpu_static_size = ALIGN(PCPU_IMAGE_SIZE, PAGE_SIZE);
	pcpu_unit_size = pcpu_static_size + PCPU_DYN_SIZE;
	pcpu_base = mmap(NULL, pcpu_unit_size * NR_CPUS, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (pcpu_base == MAP_FAILED)
		panic("percpu: cannot map %lu bytes\n",
		      pcpu_unit_size * NR_CPUS);
	for (int c = 0; c < NR_CPUS; c++) {
		char *unit = pcpu_base + (unsigned long)c * pcpu_unit_size;

		copy_image(unit, __start_pk_percpu, PCPU_IMAGE_SIZE);
		__per_cpu_offset[c] =
			(unsigned long)unit - (unsigned long)__start_pk_percpu;
	}
}

bool is_kernel_percpu_address(unsigned long addr)
{
	unsigned long start = (unsigned long)__start_pk_percpu;

	return addr >= start && addr < start + pcpu_unit_size;
}

void __percpu *__alloc_percpu_gfp(size_t size, size_t align, gfp_t gfp)
{
	unsigned long n = DIV_ROUND_UP(size ? size : 1, PCPU_GRANULE);
	unsigned long mask =
		align > PCPU_GRANULE ? align / PCPU_GRANULE - 1 : 0;
	unsigned long flags, g;
	unsigned long off;

	might_sleep_if(gfpflags_allow_blocking(gfp));
	raw_spin_lock_irqsave(&pcpu_lock, flags);
	g = bitmap_find_next_zero_area(pcpu_used, PCPU_DYN_GRANULES, 0,
				       (unsigned int)n, mask);
	if (g + n > PCPU_DYN_GRANULES) {
		raw_spin_unlock_irqrestore(&pcpu_lock, flags);
		if (!(gfp & __GFP_NOWARN))
			pr_warn("percpu: allocation failed, size=%zu "
				"align=%zu\n",
				size, align);
		return NULL;
	}
	bitmap_set(pcpu_used, (unsigned int)g, (int)n);
	pcpu_len[g] = (unsigned int)n;
	raw_spin_unlock_irqrestore(&pcpu_lock, flags);
	off = pcpu_static_size + g * PCPU_GRANULE;
	for (int c = 0; c < NR_CPUS; c++)
		memset(pcpu_base + (unsigned long)c * pcpu_unit_size + off, 0,
		       n * PCPU_GRANULE);
	return (void __percpu *)(__start_pk_percpu + off);
}

void __percpu *__alloc_percpu(size_t size, size_t align)
{
	return __alloc_percpu_gfp(size, align, GFP_KERNEL);
}

void free_percpu(void __percpu *ptr)
{
	unsigned long off, g, flags;

	if (!ptr)
		return;
	off = (unsigned long)ptr - (unsigned long)__start_pk_percpu;
	g = (off - pcpu_static_size) / PCPU_GRANULE;
	raw_spin_lock_irqsave(&pcpu_lock, flags);
	if (WARN(off < pcpu_static_size || g >= PCPU_DYN_GRANULES ||
			 !pcpu_len[g],
		 "percpu: free_percpu() of %p, not allocated\n", ptr)) {
		raw_spin_unlock_irqrestore(&pcpu_lock, flags);
		return;
	}
	bitmap_clear(pcpu_used, (unsigned int)g, (int)pcpu_len[g]);
	pcpu_len[g] = 0;
	raw_spin_unlock_irqrestore(&pcpu_lock, flags);
}
