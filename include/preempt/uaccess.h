/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_UACCESS_H
#define PREEMPT_UACCESS_H

/*
 * Page-fault disabling and copies to and from "user" memory.
 *
 * User memory is what pk_user_map() hands out: regions whose pages are
 * not populated until first touched.  A fault inside copy_from_user() and
 * friends is caught by the layer's SIGSEGV handler, which looks the
 * faulting instruction up in an exception table, as the kernel does:
 *  - page faults enabled (faulthandler_disabled() false): a page of a
 *    region that is not populated yet is populated, which is where the
 *    kernel may sleep, and the copy goes on;
 *  - otherwise, or for an address no region covers, the copy stops there
 *    and returns the number of bytes it did not copy.
 * Faults the layer does not own go to the handler that was installed
 * before it (ASan's, or the default, which kills the process).
 */

#include <stdbool.h>
#include <stddef.h>
#include <preempt/debug.h>
#include <preempt/preempt.h>
#include <preempt/sched.h>

#ifndef __user
#define __user /* a user-space address: only uaccess functions touch it */
#endif

#ifndef EFAULT
#define EFAULT 14
#endif

/**
 * pagefault_disable() - make page faults fail fast instead of sleeping
 *
 * Any context; nests.  A per-task counter, so it follows the task across
 * a context switch; it does not disable preemption.
 */
static inline void pagefault_disable(void)
{
	current->pagefault_disabled++;
	barrier();
}

/** pagefault_enable() - undo pagefault_disable().  Any context. */
static inline void pagefault_enable(void)
{
	barrier();
	if (!WARN_ON_ONCE(current->pagefault_disabled <= 0))
		current->pagefault_disabled--;
}

/** pagefault_disabled() - is pagefault_disable() in effect?  Any. */
static inline bool pagefault_disabled(void)
{
	return current->pagefault_disabled != 0;
}

/**
 * faulthandler_disabled() - must a fault fail instead of being handled?
 *
 * Any context.  True with page faults disabled or in atomic context,
 * where the handler could not sleep.
 */
#define faulthandler_disabled() (pagefault_disabled() || in_atomic())

/** __might_fault() - might_fault()'s check, for @file:@line.  Task. */
void __might_fault(const char *file, int line);

/**
 * might_fault() - annotate code that may take a page fault (and so sleep)
 *
 * Reports as might_sleep() unless page faults are disabled.
 */
#if CONFIG_DEBUG_ATOMIC_SLEEP
#define might_fault() __might_fault(__FILE__, __LINE__)
#else
#define might_fault()                                                          \
	do {                                                                   \
	} while (0)
#endif

/**
 * pk_mm_fault_handler_install() - put the layer's SIGSEGV handler in
 * front of the one installed now, which it passes foreign faults to
 *
 * Thread or task context.  The layer installs it by itself when it
 * starts; call this again after code that replaced it (cmocka does around
 * every test).
 */
void pk_mm_fault_handler_install(void);

/**
 * pk_user_map() - a user region of @size bytes (rounded up to pages),
 * nothing populated yet, with an unmapped guard page after it
 *
 * Task or thread context.  Returns NULL on failure.
 */
void __user *pk_user_map(size_t size);

/** pk_user_unmap() - remove a region from pk_user_map().  Task/thread. */
int pk_user_unmap(void __user *addr);

/**
 * pk_user_depopulate() - make the pages of [@addr, @addr + @size) not
 * populated again (their contents are lost), so the next touch faults
 *
 * Task or thread context.  Returns 0 or -EINVAL.
 */
int pk_user_depopulate(void __user *addr, size_t size);

/**
 * access_ok() - may a copy try [@addr, @addr + @size)?  It must start in a
 * user region and not wrap; a part past the region faults in the copy.
 * Any context.
 */
bool access_ok(const void __user *addr, size_t size);

/**
 * copy_from_user() - copy @n bytes from user @from to @to
 *
 * Task context, may sleep (a fault may populate a page) unless page faults
 * are disabled.  Returns the number of bytes not copied (0 on success);
 * those bytes of @to are zeroed.
 */
unsigned long copy_from_user(void *to, const void __user *from,
			     unsigned long n);

/**
 * copy_to_user() - copy @n bytes from @from to user @to
 *
 * As copy_from_user().  Returns the number of bytes not copied.
 */
unsigned long copy_to_user(void __user *to, const void *from, unsigned long n);

/**
 * __copy_from_user_inatomic() / __copy_to_user_inatomic() - the copies
 * without might_fault(), for callers that disabled page faults
 *
 * Any context but NMI.  Return the number of bytes not copied; unlike
 * copy_from_user(), they leave the bytes of @to past a fault as they were.
 */
unsigned long __copy_from_user_inatomic(void *to, const void __user *from,
					unsigned long n);
unsigned long __copy_to_user_inatomic(void __user *to, const void *from,
				      unsigned long n);

/**
 * copy_from_user_nofault() - copy from user memory without ever sleeping
 *
 * Any context but NMI.  Returns 0 or -EFAULT.
 */
long copy_from_user_nofault(void *dst, const void __user *src, size_t size);

/**
 * get_user() - read the user variable *@ptr into @x
 *
 * As copy_from_user().  Evaluates to 0, or -EFAULT with @x zeroed.
 */
#define get_user(x, ptr)                                                       \
	({                                                                     \
		__typeof__(*(ptr)) __gu_val;                                   \
		int __gu_err =                                                 \
			copy_from_user(&__gu_val, (ptr), sizeof(__gu_val))     \
				? -EFAULT                                      \
				: 0;                                           \
		(x) = __gu_err ? (__typeof__(*(ptr)))0 : __gu_val;             \
		__gu_err;                                                      \
	})

/**
 * put_user() - write @x to the user variable *@ptr
 *
 * As copy_to_user().  Evaluates to 0 or -EFAULT.
 */
#define put_user(x, ptr)                                                       \
	({                                                                     \
		__typeof__(*(ptr)) __pu_val = (x);                             \
		copy_to_user((ptr), &__pu_val, sizeof(__pu_val)) ? -EFAULT     \
								 : 0;          \
	})

#endif /* PREEMPT_UACCESS_H */
