// SPDX-License-Identifier: MIT
/*
 * Page faults: the SIGSEGV handler, user regions and the user copies.
 *
 * The handler owns two kinds of fault and passes on every other one:
 *  - in the user copy loop (the port's exception table): a page of a user
 *    region that is not populated yet is populated and the copy retried,
 *    unless faulthandler_disabled(), where the kernel could not sleep to
 *    bring the page in: then, as for an address no region covers, the copy
 *    resumes at its fixup and returns the bytes it did not copy;
 *  - in a kmap window: a use after unmap, reported (highmem.c).
 * Everything else goes to the handler installed before ours, or to the
 * default action, which kills the process as the fault deserves.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>

#include <preempt/irqflags.h>
#include <preempt/uaccess.h>

#include "../debug/report.h"
#include "../port/sigchain.h"
#include "../port/uaccess.h"
#include "mm_internal.h"

#define PK_USER_REGIONS 64

/* Published start last, so the handler never sees half a region. */
static struct {
	char *start;
	size_t size;
} regions[PK_USER_REGIONS];
static int regions_lock;

static struct sigaction old_segv;
static int segv_installed;

/* ---- regions ---- */

static int region_of(const void *addr, size_t size)
{
	const char *p = addr;

	for (int i = 0; i < PK_USER_REGIONS; i++) {
		char *start =
			__atomic_load_n(&regions[i].start, __ATOMIC_ACQUIRE);

		if (start && p >= start && p < start + regions[i].size)
			return (size_t)(start + regions[i].size - p) >= size
				       ? i
				       : -1;
	}
	return -1;
}

bool access_ok(const void __user *addr, size_t size)
{
	/* As the kernel's: a cheap range check; the copy's faults catch
	 * what runs past the region. */
	return (unsigned long)addr + size >= (unsigned long)addr &&
	       region_of(addr, 1) >= 0;
}

void __user *pk_user_map(size_t size)
{
	size_t len = (size + PAGE_SIZE - 1) & PAGE_MASK;
	char *p;

	if (!len)
		return NULL;
	pk_fault_handler_install();
	/* Not populated: PROT_NONE until the fault handler brings a page
	 * in.  One page more stays PROT_NONE for ever, a guard. */
	p = mmap(NULL, len + PAGE_SIZE, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	pk_raw_lock(&regions_lock);
	for (int i = 0; i < PK_USER_REGIONS; i++) {
		if (regions[i].start)
			continue;
		regions[i].size = len;
		__atomic_store_n(&regions[i].start, p, __ATOMIC_RELEASE);
		pk_raw_unlock(&regions_lock);
		return p;
	}
	pk_raw_unlock(&regions_lock);
	munmap(p, len + PAGE_SIZE);
	return NULL;
}

int pk_user_unmap(void __user *addr)
{
	int i = region_of(addr, 1);
	size_t size;

	if (i < 0 || regions[i].start != addr)
		return -EINVAL;
	/* Read before the slot is free: pk_user_map() may reuse it at once. */
	size = regions[i].size;
	__atomic_store_n(&regions[i].start, NULL, __ATOMIC_RELEASE);
	munmap(addr, size + PAGE_SIZE);
	return 0;
}

int pk_user_depopulate(void __user *addr, size_t size)
{
	char *start = (char *)((unsigned long)addr & PAGE_MASK);
	size_t len = ((char *)addr + size - start + PAGE_SIZE - 1) & PAGE_MASK;

	if (region_of(start, len) < 0)
		return -EINVAL;
	madvise(start, len, MADV_DONTNEED);
	return mprotect(start, len, PROT_NONE) ? -errno : 0;
}

/* ---- the handler ---- */

/* A user copy faulted: populate the page, or make the copy stop. */
static void user_copy_fault(void *addr, void *uctx)
{
	if (region_of(addr, 1) >= 0 && !faulthandler_disabled()) {
		char *page = (char *)((unsigned long)addr & PAGE_MASK);

		if (mprotect(page, PAGE_SIZE, PROT_READ | PROT_WRITE) == 0) {
			__atomic_add_fetch(&pk_mm_nr_populated, 1,
					   __ATOMIC_RELAXED);
			return;
		}
	}
	__atomic_add_fetch(&pk_mm_nr_fixed, 1, __ATOMIC_RELAXED);
	pk_port_user_copy_fixup(uctx);
}

static void segv_handler(int sig, siginfo_t *si, void *uctx)
{
	int saved_errno = errno;

	/* Its reports (kmap) are deferred: no allocation in a handler. */
	pk_signal_enter();
	if (pk_port_in_user_copy(uctx))
		user_copy_fault(si->si_addr, uctx);
	else if (!pk_kmap_fault((unsigned long)si->si_addr,
				pk_port_fault_write(uctx),
				pk_port_fault_ip(uctx)))
		pk_sigaction_chain(&old_segv, sig, si, uctx);
	pk_signal_exit();
	errno = saved_errno;
}

void pk_mm_fault_handler_install(void)
{
	struct sigaction sa, cur;

	sigaction(SIGSEGV, NULL, &cur);
	/* Ours already: chaining to ourselves would loop. */
	if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == segv_handler)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = segv_handler;
	/*
	 * SA_ONSTACK, as the stack guard's handler we may chain to: a task
	 * that overflowed its stack has none left for a frame.  A kmap
	 * fault's report, made here, is deferred (raw addresses, no
	 * symbolizing), so it fits an alternate stack.
	 */
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	/* No interrupt may run, or preempt, inside the fixup. */
	sigfillset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);
}

/*
 * Once per process: 0 not yet, 1 being installed, 2 in place.  Nobody
 * returns before it is in place (a region handed out earlier would fault
 * into the default action), and interrupts stay off while this thread
 * holds 1, so whoever waits for it is another thread.
 */
void pk_fault_handler_install(void)
{
	unsigned long flags;

	if (likely(__atomic_load_n(&segv_installed, __ATOMIC_ACQUIRE) == 2))
		return;
	local_irq_save(flags);
	if (__atomic_compare_exchange_n(&segv_installed, &(int){0}, 1, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		pk_mm_fault_handler_install();
		__atomic_store_n(&segv_installed, 2, __ATOMIC_RELEASE);
	}
	local_irq_restore(flags);
	while (__atomic_load_n(&segv_installed, __ATOMIC_ACQUIRE) != 2)
		pk_cpu_relax();
}

/* ---- the copies ---- */

void __might_fault(const char *file, int line)
{
	/* With faults disabled the copy fails instead of sleeping. */
	if (pagefault_disabled())
		return;
	__might_sleep(file, line);
}

static unsigned long user_copy(void *to, const void *from, unsigned long n,
			       const void *user)
{
	unsigned long left = n;

	if (likely(n && access_ok(user, n)))
		left = pk_port_user_copy(to, from, n);
	else if (n)
		__atomic_add_fetch(&pk_mm_nr_fixed, 1, __ATOMIC_RELAXED);
	return left;
}

/* As in the kernel, only copy_from_user() zeroes what it did not copy. */
unsigned long __copy_from_user_inatomic(void *to, const void __user *from,
					unsigned long n)
{
	return user_copy(to, from, n, from);
}

unsigned long __copy_to_user_inatomic(void __user *to, const void *from,
				      unsigned long n)
{
	return user_copy(to, from, n, to);
}

unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	unsigned long left;

	might_fault();
	left = __copy_from_user_inatomic(to, from, n);
	/* What was not copied reads as zeroes. */
	if (unlikely(left))
		memset((char *)to + (n - left), 0, left);
	return left;
}

unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	might_fault();
	return __copy_to_user_inatomic(to, from, n);
}

long copy_from_user_nofault(void *dst, const void __user *src, size_t size)
{
	unsigned long left;

	pagefault_disable();
	left = __copy_from_user_inatomic(dst, src, size);
	pagefault_enable();
	return left ? -EFAULT : 0;
}
