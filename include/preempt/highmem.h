/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_HIGHMEM_H
#define PREEMPT_HIGHMEM_H

/*
 * Mapping pages, high memory included (mm.h).  Three ways, as in Linux:
 *
 *  - kmap(): a slot of a global pool (LAST_PKMAP), valid in every context
 *    until kunmap().  May sleep when the pool is full, so task context
 *    only; might_sleep() says so even for a low page.
 *  - kmap_atomic(): a slot of this CPU's stack; disables preemption and
 *    page faults until kunmap_atomic(), even for a low page, which needs
 *    no mapping: on 64-bit it is the debugging aid that makes code fail
 *    as it would where high memory is real.  Deprecated in Linux.
 *  - kmap_local_page(): a slot of this CPU's stack owned by the task;
 *    only migration is disabled, the task stays preemptible.  When it is
 *    switched out its mappings leave the CPU's window, and they come back,
 *    at the same addresses, when it is switched in again.
 *
 * Local and atomic mappings nest and must be undone in reverse order.
 * Slots that are not mapped are PROT_NONE, so a use after unmap faults;
 * the fault, an out-of-order unmap and running out of slots are reported
 * and the machine goes on.
 *
 * A high page's mapping is a host mapping.  When the host refuses one (at
 * its limit, vm.max_map_count) every way of mapping returns NULL, with
 * one rate-limited report, and never an address showing another page;
 * kmap(), which cannot fail in Linux, does so too, as no amount of
 * sleeping is sure to free a host mapping.  Unmapping cannot fail.
 */

#include <preempt/mm.h>
#include <preempt/sched.h>
#include <preempt/uaccess.h>

#define LAST_PKMAP 64 /* kmap() slots */
#define KM_MAX_IDX 16 /* kmap_local/kmap_atomic slots per CPU and task */

/**
 * kmap() - map @page until kunmap(); the same page twice gets the same
 * address
 *
 * Task context, may sleep (when every slot is in use).  Returns NULL
 * (after a report) only when the host refuses the mapping, or when the pool
 * is full in atomic context (after might_sleep()'s report).
 */
void *kmap(struct page *page);

/** kunmap() - undo kmap().  Any context but NMI. */
void kunmap(struct page *page);

/**
 * __kmap_local_page() - a slot of this CPU's stack for @page, with no
 * context change: the caller keeps itself on this CPU (migration or
 * preemption disabled).  Any context but NMI.
 */
void *__kmap_local_page(struct page *page);
/** __kunmap_local() - undo __kmap_local_page().  The same context. */
void __kunmap_local(const void *addr);

/**
 * kmap_local_page() - map @page in this CPU's window for this task
 *
 * Any context but NMI.  Disables migration until kunmap_local(); the
 * caller stays preemptible.  Returns NULL (after a report) when the slot
 * stack is full or the host refuses the mapping.
 */
static inline void *kmap_local_page(struct page *page)
{
	migrate_disable();
	return __kmap_local_page(page);
}

/**
 * kunmap_local() - undo kmap_local_page() for @addr (any address inside
 * the mapped page)
 *
 * The context that mapped it; mappings are undone in reverse order.
 */
static inline void kunmap_local(const void *addr)
{
	__kunmap_local(addr);
	migrate_enable();
}

/**
 * kmap_atomic() - map @page, disabling preemption and page faults
 *
 * Any context but NMI; atomic until kunmap_atomic(), in every model.
 */
static inline void *kmap_atomic(struct page *page)
{
	preempt_disable();
	pagefault_disable();
	return __kmap_local_page(page);
}

/** kunmap_atomic() - undo kmap_atomic() for @addr.  Same context. */
static inline void kunmap_atomic(const void *addr)
{
	__kunmap_local(addr);
	pagefault_enable();
	preempt_enable();
}

/** clear_highpage() - zero @page.  Any context but NMI. */
void clear_highpage(struct page *page);

/** memcpy_to_page() - copy @len bytes to @page at @offset.  Any context. */
void memcpy_to_page(struct page *page, size_t offset, const void *from,
		    size_t len);

/** memcpy_from_page() - copy @len bytes of @page at @offset to @to. */
void memcpy_from_page(void *to, struct page *page, size_t offset, size_t len);

/**
 * pk_kmap_local_depth() - local and atomic mappings the current context
 * holds on this CPU.  Any context; for tests and reports.
 */
int pk_kmap_local_depth(void);

#endif /* PREEMPT_HIGHMEM_H */
