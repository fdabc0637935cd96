// SPDX-License-Identifier: MIT
/*
 * The kernel's small library functions: string copies,
 * CPU masks and static keys.  The bitmap searches lib/find_bit.c
 * defines are in find_bit.c, the operations lib/bitmap.c defines in
 * bitmap.c, bitmap_print_to_pagebuf() in
 * bitmap_str.c: a program's copy of the file replaces them whole.
 */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

/* ---- strings ---- */

char *skip_spaces(const char *str)
{
	while (isspace((unsigned char)*str))
		str++;
	return (char *)str;
}

char *strim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return skip_spaces(s);
}

ssize_t strscpy(char *dest, const char *src, size_t count)
{
	size_t len;

	if (count == 0)
		return -E2BIG;
	len = strnlen(src, count);
	if (len == count) {
		memcpy(dest, src, count - 1);
		dest[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dest, src, len + 1);
	return (ssize_t)len;
}

ssize_t strscpy_pad(char *dest, const char *src, size_t count)
{
	ssize_t n = strscpy(dest, src, count);
	size_t used = n < 0 ? count : (size_t)n + 1;

	if (used < count)
		memset(dest + used, 0, count - used);
	return n;
}

char *kstrdup(const char *s, gfp_t gfp)
{
	return s ? kmemdup(s, strlen(s) + 1, gfp) : NULL;
}

char *kstrndup(const char *s, size_t max, gfp_t gfp)
{
	size_t len;
	char *p;

	if (!s)
		return NULL;
	len = strnlen(s, max);
	p = kmalloc(len + 1, gfp);
	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

const char *kstrdup_const(const char *s, gfp_t gfp)
{
	return kstrdup(s, gfp);
}

void kfree_const(const void *x)
{
	kfree(x);
}

void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = kmalloc(len, gfp);

	if (p)
		memcpy(p, src, len);
	return p;
}

char *memdup_user_nul(const void __user *src, size_t len)
{
	char *p = kmalloc(len + 1, GFP_KERNEL);

	if (!p)
		return ERR_PTR(-ENOMEM);
	if (copy_from_user(p, src, len)) {
		kfree(p);
		return ERR_PTR(-EFAULT);
	}
	p[len] = '\0';
	return p;
}

char *strnchrnul(const char *s, size_t count, int c)
{
	while (count-- && *s && *s != (char)c)
		s++;
	return (char *)s;
}

ssize_t memory_read_from_buffer(void *to, size_t count, loff_t *ppos,
				const void *from, size_t available)
{
	loff_t pos = *ppos;

	if (pos < 0)
		return -EINVAL;
	if ((size_t)pos >= available || !count)
		return 0;
	count = min(count, available - (size_t)pos);
	memcpy(to, (const char *)from + pos, count);
	*ppos = pos + (loff_t)count;
	return (ssize_t)count;
}

void *memchr_inv(const void *start, int c, size_t bytes)
{
	const u8 *p = start;

	for (size_t i = 0; i < bytes; i++)
		if (p[i] != (u8)c)
			return (void *)(p + i);
	return NULL;
}

bool sysfs_streq(const char *s1, const char *s2)
{
	while (*s1 && *s1 == *s2) {
		s1++;
		s2++;
	}
	if (*s1 == *s2)
		return true;
	if (!*s1 && *s2 == '\n' && !s2[1])
		return true;
	if (*s1 == '\n' && !s1[1] && !*s2)
		return true;
	return false;
}

int match_string(const char *const *array, size_t n, const char *string)
{
	for (size_t i = 0; i < n; i++) {
		if (!array[i])
			break;
		if (!strcmp(array[i], string))
			return (int)i;
	}
	return -EINVAL;
}

/* ---- CPU masks (the masks themselves: init.c) ---- */

static struct cpumask cpu_bit_masks[NR_CPUS];

__attribute__((constructor)) static void cpu_bit_masks_init(void)
{
	for (int c = 0; c < NR_CPUS; c++)
		__set_bit(c, cpu_bit_masks[c].bits);
}

const struct cpumask *cpumask_of(unsigned int cpu)
{
	return &cpu_bit_masks[cpu % NR_CPUS];
}

unsigned int cpumask_local_spread(unsigned int i, int node)
{
	unsigned int n = cpumask_weight(cpu_online_mask);

	(void)node;
	return n ? cpumask_nth(i % n, cpu_online_mask) : 0;
}

/*
 * One cursor for all CPUs (the kernel keeps one per CPU): callers on any
 * CPU, or none, still spread; a race only repeats a CPU.
 */
static atomic_t distribute_prev = ATOMIC_INIT(-1);

unsigned int cpumask_any_and_distribute(const struct cpumask *a,
					const struct cpumask *b)
{
	unsigned int next =
		cpumask_next_and(atomic_read(&distribute_prev), a, b);

	if (next >= nr_cpu_ids)
		next = cpumask_first_and(a, b);
	if (next < nr_cpu_ids)
		atomic_set(&distribute_prev, (int)next);
	return next;
}

unsigned int cpumask_any_distribute(const struct cpumask *srcp)
{
	return cpumask_any_and_distribute(srcp, cpu_possible_mask);
}

/* The library's, which takes the mask as a word (preempt/sched.h). */
extern int pk_set_cpus_allowed_word(struct task_struct *p,
				    u64 mask) __asm__("set_cpus_allowed_ptr");

int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *new_mask)
{
	BUILD_BUG_ON(NR_CPUS > BITS_PER_LONG);
	return pk_set_cpus_allowed_word(p, cpumask_bits(new_mask)[0]);
}

/* ---- static keys ---- */

void static_key_slow_inc(struct static_key *key)
{
	might_sleep();
	atomic_inc(&key->enabled);
}

void static_key_slow_dec(struct static_key *key)
{
	might_sleep();
	WARN(atomic_dec_return(&key->enabled) < 0,
	     "jump label: negative count!\n");
}

void static_key_enable(struct static_key *key)
{
	might_sleep();
	atomic_set(&key->enabled, 1);
}

void static_key_disable(struct static_key *key)
{
	might_sleep();
	atomic_set(&key->enabled, 0);
}
