/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_CPUMASK_H
#define _LINUX_CPUMASK_H

/*
 * CPU masks, bitmaps of NR_CPUS bits.  The machine's CPUs are possible,
 * present and online from boot to shutdown (no hotplug).  Before a machine
 * boots every CPU up to NR_CPUS counts as possible (so per-CPU data exists
 * for all); machine_boot() narrows the possible, present and online masks
 * and nr_cpu_ids to the CPUs it starts, as the kernel does early in boot.
 */

#include <linux/bitmap.h>
#include <linux/bug.h>
#include <linux/gfp_types.h>
#include <linux/threads.h>
#include <linux/types.h>

typedef struct cpumask {
	DECLARE_BITMAP(bits, NR_CPUS);
} cpumask_t;
typedef struct cpumask cpumask_var_t[1];

extern unsigned int nr_cpu_ids;
#define nr_cpumask_bits nr_cpu_ids
#define small_cpumask_bits nr_cpu_ids
#define large_cpumask_bits nr_cpu_ids

extern struct cpumask __cpu_possible_mask, __cpu_online_mask,
	__cpu_present_mask, __cpu_active_mask;
#define cpu_possible_mask ((const struct cpumask *)&__cpu_possible_mask)
#define cpu_online_mask ((const struct cpumask *)&__cpu_online_mask)
#define cpu_present_mask ((const struct cpumask *)&__cpu_present_mask)
#define cpu_active_mask ((const struct cpumask *)&__cpu_active_mask)
#define cpu_all_mask cpu_possible_mask
#define cpu_none_mask ((const struct cpumask *)&__pk_cpu_none_mask)
extern const struct cpumask __pk_cpu_none_mask;

#define cpumask_bits(maskp) ((maskp)->bits)
#define cpumask_pr_args(maskp) nr_cpu_ids, cpumask_bits(maskp)
#define CPU_BITS_ALL                                                           \
	{                                                                      \
		[0 ... BITS_TO_LONGS(NR_CPUS) - 1] = ~0UL                      \
	}
#define CPU_MASK_NONE                                                          \
	(cpumask_t)                                                            \
	{                                                                      \
		{                                                              \
			[0 ... BITS_TO_LONGS(NR_CPUS) - 1] = 0UL               \
		}                                                              \
	}

/** cpumask_of() - a mask with only @cpu set.  Any context. */
const struct cpumask *cpumask_of(unsigned int cpu);

static inline unsigned int cpumask_check(unsigned int cpu)
{
	WARN_ON_ONCE(cpu >= nr_cpu_ids);
	return cpu;
}
static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *dstp)
{
	set_bit(cpumask_check(cpu), cpumask_bits(dstp));
}
static inline void __cpumask_set_cpu(unsigned int cpu, struct cpumask *dstp)
{
	__set_bit(cpumask_check(cpu), cpumask_bits(dstp));
}
static inline void cpumask_clear_cpu(int cpu, struct cpumask *dstp)
{
	clear_bit(cpumask_check(cpu), cpumask_bits(dstp));
}
static inline void __cpumask_clear_cpu(int cpu, struct cpumask *dstp)
{
	__clear_bit(cpumask_check(cpu), cpumask_bits(dstp));
}
static inline bool cpumask_test_cpu(int cpu, const struct cpumask *cpumask)
{
	return test_bit(cpumask_check(cpu), cpumask_bits(cpumask));
}
static inline bool cpumask_test_and_set_cpu(int cpu, struct cpumask *cpumask)
{
	return test_and_set_bit(cpumask_check(cpu), cpumask_bits(cpumask));
}
static inline bool cpumask_test_and_clear_cpu(int cpu, struct cpumask *cpumask)
{
	return test_and_clear_bit(cpumask_check(cpu), cpumask_bits(cpumask));
}
static inline void cpumask_setall(struct cpumask *dstp)
{
	bitmap_zero(cpumask_bits(dstp), NR_CPUS);
	bitmap_set(cpumask_bits(dstp), 0, nr_cpu_ids);
}
static inline void cpumask_clear(struct cpumask *dstp)
{
	bitmap_zero(cpumask_bits(dstp), NR_CPUS);
}
static inline unsigned int cpumask_first(const struct cpumask *srcp)
{
	return find_first_bit(cpumask_bits(srcp), nr_cpu_ids);
}
static inline unsigned int cpumask_first_zero(const struct cpumask *srcp)
{
	return find_first_zero_bit(cpumask_bits(srcp), nr_cpu_ids);
}
static inline unsigned int cpumask_last(const struct cpumask *srcp)
{
	return find_last_bit(cpumask_bits(srcp), nr_cpu_ids);
}
/** cpumask_next() - the first CPU after @n (n = -1: from the start). */
static inline unsigned int cpumask_next(int n, const struct cpumask *srcp)
{
	return find_next_bit(cpumask_bits(srcp), nr_cpu_ids,
			     (unsigned long)(n + 1));
}
static inline unsigned int cpumask_next_zero(int n, const struct cpumask *srcp)
{
	return find_next_zero_bit(cpumask_bits(srcp), nr_cpu_ids,
				  (unsigned long)(n + 1));
}
static inline unsigned int cpumask_next_and(int n, const struct cpumask *a,
					    const struct cpumask *b)
{
	return find_next_and_bit(cpumask_bits(a), cpumask_bits(b), nr_cpu_ids,
				 (unsigned long)(n + 1));
}
static inline unsigned int cpumask_first_and(const struct cpumask *a,
					     const struct cpumask *b)
{
	return cpumask_next_and(-1, a, b);
}
/** cpumask_next_wrap() - the next CPU after @n, wrapping (6.12 form). */
static inline unsigned int cpumask_next_wrap(int n, const struct cpumask *m)
{
	unsigned int c = cpumask_next(n, m);

	return c < nr_cpu_ids ? c : cpumask_first(m);
}
static inline unsigned int cpumask_nth(unsigned int cpu,
				       const struct cpumask *srcp)
{
	return find_nth_bit(cpumask_bits(srcp), nr_cpu_ids, cpu);
}
#define cpumask_any(srcp) cpumask_first(srcp)
#define cpumask_any_and(a, b) cpumask_first_and(a, b)
#define cpumask_any_but(mask, cpu)                                             \
	({                                                                     \
		unsigned int __pk_c = cpumask_first(mask);                     \
		if (__pk_c == (unsigned int)(cpu))                             \
			__pk_c = cpumask_next(__pk_c, mask);                   \
		__pk_c;                                                        \
	})
static inline unsigned int cpumask_weight(const struct cpumask *srcp)
{
	return bitmap_weight(cpumask_bits(srcp), nr_cpu_ids);
}
/** cpulist_parse() - @dstp from a CPU list, "0-2,5" (bitmap_parselist()). */
static inline int cpulist_parse(const char *buf, struct cpumask *dstp)
{
	return bitmap_parselist(buf, cpumask_bits(dstp), (int)nr_cpu_ids);
}
/** cpumask_parse() - @dstp from hex words, "3,00000001" (bitmap_parse()). */
static inline int cpumask_parse(const char *buf, struct cpumask *dstp)
{
	return bitmap_parse(buf, UINT_MAX, cpumask_bits(dstp), (int)nr_cpu_ids);
}
/** cpumask_weight_and() - the CPUs in both @a and @b. Any context. */
static inline unsigned int cpumask_weight_and(const struct cpumask *a,
					      const struct cpumask *b)
{
	return bitmap_weight_and(cpumask_bits(a), cpumask_bits(b), nr_cpu_ids);
}
/**
 * cpumask_any_and_distribute() - a CPU in both @a and @b, the next one
 * after the previous call's answer (wrapping), so that successive calls
 * spread; nr_cpu_ids or more if there is none.  Any context.
 */
unsigned int cpumask_any_and_distribute(const struct cpumask *a,
					const struct cpumask *b);
/** cpumask_any_distribute() - the same for the CPUs of @srcp. */
unsigned int cpumask_any_distribute(const struct cpumask *srcp);
static inline bool cpumask_empty(const struct cpumask *srcp)
{
	return bitmap_empty(cpumask_bits(srcp), nr_cpu_ids);
}
static inline bool cpumask_full(const struct cpumask *srcp)
{
	return bitmap_full(cpumask_bits(srcp), nr_cpu_ids);
}
static inline bool cpumask_and(struct cpumask *d, const struct cpumask *a,
			       const struct cpumask *b)
{
	return bitmap_and(cpumask_bits(d), cpumask_bits(a), cpumask_bits(b),
			  nr_cpu_ids);
}
static inline void cpumask_or(struct cpumask *d, const struct cpumask *a,
			      const struct cpumask *b)
{
	bitmap_or(cpumask_bits(d), cpumask_bits(a), cpumask_bits(b),
		  nr_cpu_ids);
}
static inline void cpumask_xor(struct cpumask *d, const struct cpumask *a,
			       const struct cpumask *b)
{
	bitmap_xor(cpumask_bits(d), cpumask_bits(a), cpumask_bits(b),
		   nr_cpu_ids);
}
static inline bool cpumask_andnot(struct cpumask *d, const struct cpumask *a,
				  const struct cpumask *b)
{
	return bitmap_andnot(cpumask_bits(d), cpumask_bits(a), cpumask_bits(b),
			     nr_cpu_ids);
}
static inline void cpumask_complement(struct cpumask *d,
				      const struct cpumask *s)
{
	bitmap_complement(cpumask_bits(d), cpumask_bits(s), nr_cpu_ids);
}
static inline bool cpumask_equal(const struct cpumask *a,
				 const struct cpumask *b)
{
	return bitmap_equal(cpumask_bits(a), cpumask_bits(b), nr_cpu_ids);
}
static inline bool cpumask_intersects(const struct cpumask *a,
				      const struct cpumask *b)
{
	return bitmap_intersects(cpumask_bits(a), cpumask_bits(b), nr_cpu_ids);
}
static inline bool cpumask_subset(const struct cpumask *a,
				  const struct cpumask *b)
{
	return bitmap_subset(cpumask_bits(a), cpumask_bits(b), nr_cpu_ids);
}
static inline void cpumask_copy(struct cpumask *d, const struct cpumask *s)
{
	bitmap_copy(cpumask_bits(d), cpumask_bits(s), NR_CPUS);
}
#define cpumask_size() sizeof(struct cpumask)

/* cpumask_var_t is an array of one here (no CPUMASK_OFFSTACK). */
static inline bool alloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{
	return true;
}
static inline bool zalloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{
	cpumask_clear(*mask);
	return true;
}
#define alloc_cpumask_var_node(mask, flags, node) alloc_cpumask_var(mask, flags)
#define zalloc_cpumask_var_node(mask, flags, node)                             \
	zalloc_cpumask_var(mask, flags)
static inline void free_cpumask_var(cpumask_var_t mask)
{
}
static inline bool cpumask_available(cpumask_var_t mask)
{
	return true;
}

#define for_each_cpu(cpu, mask)                                                \
	for ((cpu) = -1; (cpu) = cpumask_next((cpu), (mask)),                  \
	    (unsigned int)(cpu) < nr_cpu_ids;)
#define for_each_cpu_and(cpu, a, b)                                            \
	for ((cpu) = -1; (cpu) = cpumask_next_and((cpu), (a), (b)),            \
	    (unsigned int)(cpu) < nr_cpu_ids;)
#define for_each_cpu_andnot(cpu, a, b)                                         \
	for ((cpu) = -1; (cpu) = cpumask_next((cpu), (a)),                     \
	    (unsigned int)(cpu) < nr_cpu_ids;)                                 \
		if (cpumask_test_cpu((cpu), (b)))                              \
			continue;                                              \
		else
/* Each CPU of @mask once, from @start up, then from 0 up to @start. */
#define for_each_cpu_wrap(cpu, mask, start)                                    \
	for (unsigned int __pk_wrap_i = 0;                                     \
	     __pk_wrap_i < nr_cpu_ids &&                                       \
	     ((cpu) = ((start) + __pk_wrap_i) % nr_cpu_ids, 1);                \
	     __pk_wrap_i++)                                                    \
		if (!cpumask_test_cpu((cpu), (mask)))                          \
			continue;                                              \
		else
#define for_each_possible_cpu(cpu) for_each_cpu((cpu), cpu_possible_mask)
#define for_each_online_cpu(cpu) for_each_cpu((cpu), cpu_online_mask)
#define for_each_present_cpu(cpu) for_each_cpu((cpu), cpu_present_mask)

#define num_possible_cpus() cpumask_weight(cpu_possible_mask)
#define num_present_cpus() cpumask_weight(cpu_present_mask)
#define num_active_cpus() cpumask_weight(cpu_active_mask)
#define cpu_online(cpu) cpumask_test_cpu((cpu), cpu_online_mask)
#define cpu_possible(cpu) cpumask_test_cpu((cpu), cpu_possible_mask)
#define cpu_present(cpu) cpumask_test_cpu((cpu), cpu_present_mask)
#define cpu_active(cpu) cpumask_test_cpu((cpu), cpu_active_mask)
#define cpu_is_offline(cpu) (!cpu_online(cpu))

/** cpumask_local_spread() - the @i-th online CPU, wrapping. */
unsigned int cpumask_local_spread(unsigned int i, int node);

#endif /* _LINUX_CPUMASK_H */
