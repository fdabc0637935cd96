// SPDX-License-Identifier: MIT
/* Memory: vmalloc, kv*(), kmalloc helpers, kmem_cache with a constructor, GFP
 * checks. */

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include "pk_kernel_test.h"

static void test_vmalloc(void **state)
{
	char *p = vmalloc(3 * PAGE_SIZE + 5);
	char *z = vzalloc(100);

	(void)state;
	assert_non_null(p);
	assert_true(PAGE_ALIGNED(p));
	memset(p, 0xab, 3 * PAGE_SIZE + 5);
	assert_true(is_vmalloc_addr(p));
	assert_true(is_vmalloc_addr(p + 3 * PAGE_SIZE));
	assert_null(memchr_inv(z, 0, 100));
	vfree(p);
	vfree(z);
	assert_false(is_vmalloc_addr(p));
	vfree(NULL);
	assert_null(vmalloc_array(SIZE_MAX / 2, 4)); /* overflow refused */
}

static void test_kvmalloc(void **state)
{
	void *small = kvmalloc(64, GFP_KERNEL);
	void *big =
		kvzalloc(16UL << 20, GFP_KERNEL); /* above the page allocator */
	int *arr;

	(void)state;
	assert_non_null(small);
	assert_false(is_vmalloc_addr(small));
	assert_non_null(big);
	assert_true(is_vmalloc_addr(big));
	assert_null(memchr_inv(big, 0, 4096));
	arr = kvcalloc(10, sizeof(int), GFP_KERNEL);
	assert_null(memchr_inv(arr, 0, 10 * sizeof(int)));
	arr = kvrealloc(arr, 20 * sizeof(int), GFP_KERNEL);
	assert_non_null(arr);
	arr[19] = 7;
	kvfree(arr);
	kvfree(small);
	kvfree(big);
	kvfree(NULL);
	assert_null(kvmalloc_array(SIZE_MAX / 2, 4, GFP_KERNEL));
}

static void test_kmalloc_helpers(void **state)
{
	static const char src[] = "kmemdup";
	char *d = kmemdup(src, sizeof(src), GFP_KERNEL);
	int *a = kcalloc(8, sizeof(int), GFP_KERNEL);
	int *z = kzalloc_node(sizeof(int), GFP_KERNEL, NUMA_NO_NODE);

	(void)state;
	assert_memory_equal(d, src, sizeof(src));
	assert_null(memchr_inv(a, 0, 8 * sizeof(int)));
	a[7] = 3;
	a = krealloc(a, 64 * sizeof(int), GFP_KERNEL);
	assert_int_equal(a[7], 3);
	assert_true(ksize(a) >= 64 * sizeof(int));
	assert_null(kmalloc_array(SIZE_MAX / 2, 4, GFP_KERNEL));
	assert_null(krealloc_array(a, SIZE_MAX / 2, 4, GFP_KERNEL));
	assert_int_equal(*z, 0);
	kfree_sensitive(d);
	kfree(a);
	kfree(z);
}

struct obj {
	int magic;
	char pad[60];
};
static int ctor_calls;

static void obj_ctor(void *p)
{
	((struct obj *)p)->magic = 0x5a5a;
	ctor_calls++;
}

static void test_kmem_cache_ctor(void **state)
{
	struct kmem_cache *c =
		kmem_cache_create("ktest_obj", sizeof(struct obj), 0,
				  SLAB_HWCACHE_ALIGN | SLAB_ACCOUNT, obj_ctor);
	struct obj *o[4];

	(void)state;
	assert_non_null(c);
	for (int i = 0; i < 4; i++) {
		o[i] = kmem_cache_alloc(c, GFP_KERNEL);
		assert_non_null(o[i]);
		assert_int_equal(o[i]->magic, 0x5a5a); /* constructed */
		assert_int_equal((unsigned long)o[i] % 64, 0);
	}
	assert_true(ctor_calls >= 4);
	for (int i = 0; i < 4; i++)
		kmem_cache_free(c, o[i]);
	kmem_cache_destroy(c);
	c = KMEM_CACHE(obj, 0);
	assert_non_null(c);
	kmem_cache_destroy(c);
}

/* A blocking allocation under a spinlock: the library's GFP check fires. */
static DEFINE_SPINLOCK(lock);

static int gfp_in_atomic(void *arg)
{
	void *p;

	(void)arg;
	spin_lock(&lock);
	p = kmalloc(32, GFP_ATOMIC);
	spin_unlock(&lock);
	kfree(p);
	if (captured.nr)
		return 1; /* GFP_ATOMIC must not be reported */
	spin_lock(&lock);
	p = kmalloc(32, GFP_KERNEL);
	spin_unlock(&lock);
	kfree(p);
	return 0;
}

static void test_gfp_context(void **state)
{
	(void)state;
	capture_reset();
	pk_boot(1, PREEMPT_MODEL_FULL);
	assert_int_equal(run_on_machine(gfp_in_atomic, NULL), 0);
	machine_shutdown();
	capture_stop();
#if CONFIG_DEBUG_ATOMIC_SLEEP
	assert_true(captured.nr >= 1);
	assert_report_contains("sleeping function called from invalid context");
#else
	assert_int_equal(captured.nr, 0); /* the check is compiled out */
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmalloc),
		cmocka_unit_test(test_kvmalloc),
		cmocka_unit_test(test_kmalloc_helpers),
		cmocka_unit_test(test_kmem_cache_ctor),
		cmocka_unit_test(test_gfp_context),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
