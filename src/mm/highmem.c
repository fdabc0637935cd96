// SPDX-License-Identifier: MIT
/*
 * kmap(), kmap_atomic() and kmap_local_page() over the emulated high
 * memory.
 *
 * One PROT_NONE reservation holds every window: the kmap() pool, then one
 * window of KM_MAX_IDX slots per CPU.  A slot is mapped with
 * mmap(MAP_FIXED) of the page's memfd offset and unmapped by mapping
 * PROT_NONE over it again, so an access through a stale address faults
 * and the fault handler can say which slot it was.
 *
 * Every slot is followed by a reserved page (SLOT_STRIDE), so a mapped
 * slot never merges with a neighbour (consecutive pages in consecutive
 * slots would) and is always one whole host mapping: unmapping it never
 * splits one, so it cannot fail at the host's mapping limit
 * (vm.max_map_count).  Mapping can: then the map returns NULL, with one
 * rate-limited report, and the slot is not used; an address is handed
 * out only after the mapping of that very page succeeded.
 *
 * "Per CPU" is per host thread: a vCPU thread is the CPU, and any other
 * thread is a CPU of its own.  The window and its slot stack live in that
 * thread's TLS, read afresh by every function (a task may be switched to
 * another vCPU between two calls).  The stack is changed with interrupts
 * off, so neither an interrupt nor a context switch sees it half done.
 *
 * kmap_local_page() outside hard interrupts (task context, and softirqs,
 * which rt runs preemptibly) also records the page in the task
 * (task_struct.pk_kmap_ctrl).  The switch hooks unmap the outgoing task's
 * slots from the CPU's window and map the incoming task's back at the same
 * slots; migrate_disable() keeps the task on this CPU, so its addresses
 * stay valid.  Interrupt handlers map above the task's slots and unmap
 * before they return, so at a switch the stack holds only the task's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#include <preempt/irqflags.h>

#include "../debug/report.h"
#include "mm_internal.h"

#define PK_KMAP_WINDOWS 256	    /* threads that may use local mappings */
#define SLOT_STRIDE (2 * PAGE_SIZE) /* a slot and the page keeping it apart */
#define WINDOW_SIZE (KM_MAX_IDX * SLOT_STRIDE)

struct pk_kmap_ctrl {
	int idx;
	struct page *page[KM_MAX_IDX];
	struct pk_kmap_ctrl *next_free;
};

/* This CPU's window and slot stack (NULL entries: unmapped out of order). */
struct pk_kmap_cpu {
	char *window;
	int nr;
	int idx;
	struct page *page[KM_MAX_IDX];
};

static __thread struct pk_kmap_cpu kmap_cpu
	__attribute__((tls_model("initial-exec")));

static char *kmap_area; /* the whole reservation */
static size_t kmap_area_size;
static char *pkmap_base;  /* LAST_PKMAP slots */
static char *window_base; /* PK_KMAP_WINDOWS windows */
static unsigned long window_used[PK_KMAP_WINDOWS / 64];
static pthread_key_t window_key;

static struct {
	int lock;
	struct page *page[LAST_PKMAP];
	int count[LAST_PKMAP];
} pkmap;
static struct pk_mm_waitq pkmap_wait = PK_MM_WAITQ_INIT(pkmap_wait);

static int ctrl_lock;
static struct pk_kmap_ctrl *ctrl_free;

static unsigned int maps_to_fail; /* fault injection, for tests */

/* ---- slots ---- */

static char *slot_addr(char *base, int slot)
{
	return base + (size_t)slot * SLOT_STRIDE;
}

/* The slot of @base's run that @addr is in, or -1 (a separating page). */
static int addr_slot(const char *base, const char *addr)
{
	size_t off = (size_t)(addr - base);

	return off % SLOT_STRIDE < PAGE_SIZE ? (int)(off / SLOT_STRIDE) : -1;
}

void pk_highmem_fail_maps(unsigned int n)
{
	pk_store_mb(&maps_to_fail, n);
}

static bool map_should_fail(void)
{
	unsigned int n = __atomic_load_n(&maps_to_fail, __ATOMIC_RELAXED);

	while (n &&
	       !__atomic_compare_exchange_n(&maps_to_fail, &n, n - 1, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	return n != 0;
}

int pk_highmem_map_at(void *addr, const struct page *page)
{
	off_t off = (off_t)(page_to_pfn(page) -
			    pk_mm.zone[PK_ZONE_HIGHMEM].start_pfn) *
		    (off_t)PAGE_SIZE;

	if (unlikely(map_should_fail()))
		return -ENOMEM;
	if (mmap(addr, PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, pk_mm.highmem_fd, off) == MAP_FAILED)
		return -errno;
	return 0;
}

void pk_highmem_unmap_at(void *addr)
{
	/* Still reserved, so nothing else lands there, and it faults. */
	void *ret = mmap(
		addr, PAGE_SIZE, PROT_NONE,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);

	/* A whole mapping replaced: cannot run into the limit. */
	WARN_ONCE(ret == MAP_FAILED, "kunmap: unmapping slot %p failed\n",
		  addr);
}

/* Interrupt handlers map too: one report a second, and no allocation. */
static void report_map_failure(const struct page *page, int err)
{
	if (!pk_ratelimit_ok(PK_REPORT_WARN))
		return;
	pk_warn_kind(PK_REPORT_WARN,
		     "kmap: cannot map page %lu: error %d (host mapping "
		     "limit, vm.max_map_count?): returning NULL\n",
		     page_to_pfn(page), err);
}

static int map_slot(void *addr, const struct page *page)
{
	int err = pk_highmem_map_at(addr, page);

	if (unlikely(err))
		report_map_failure(page, err);
	return err;
}

/* ---- windows ---- */

static void window_release(void *arg)
{
	struct pk_kmap_cpu *c = &pk_task_tls(kmap_cpu);
	int nr = (int)(long)arg - 1;

	for (int i = 0; i < c->idx; i++)
		if (c->page[i])
			pk_highmem_unmap_at(slot_addr(c->window, i));
	c->idx = 0;
	c->window = NULL;
	__atomic_and_fetch(&window_used[nr / 64], ~(1UL << (nr % 64)),
			   __ATOMIC_RELEASE);
}

/* This thread's window, claimed on first use.  Interrupts off. */
static char *this_window(void)
{
	struct pk_kmap_cpu *c = &pk_task_tls(kmap_cpu);

	if (likely(c->window))
		return c->window;
	for (int nr = 0; nr < PK_KMAP_WINDOWS; nr++) {
		unsigned long bit = 1UL << (nr % 64);

		if (__atomic_fetch_or(&window_used[nr / 64], bit,
				      __ATOMIC_ACQUIRE) &
		    bit)
			continue;
		c->nr = nr;
		c->window = window_base + (size_t)nr * WINDOW_SIZE;
		pthread_setspecific(window_key, (void *)(long)(nr + 1));
		return c->window;
	}
	return NULL;
}

int pk_highmem_setup(void)
{
	kmap_area_size = LAST_PKMAP * SLOT_STRIDE +
			 (size_t)PK_KMAP_WINDOWS * WINDOW_SIZE;
	kmap_area = mmap(NULL, kmap_area_size, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (kmap_area == MAP_FAILED) {
		kmap_area = NULL;
		return -ENOMEM;
	}
	pkmap_base = kmap_area;
	window_base = kmap_area + LAST_PKMAP * SLOT_STRIDE;
	pk_fault_handler_install();
	return pthread_key_create(&window_key, window_release) ? -EAGAIN : 0;
}

/* ---- per-task slots ---- */

static struct pk_kmap_ctrl *ctrl_get(struct task_struct *p)
{
	struct pk_kmap_ctrl *ctrl = p->pk_kmap_ctrl;

	if (likely(ctrl))
		return ctrl;
	pk_raw_lock(&ctrl_lock);
	ctrl = ctrl_free;
	if (ctrl)
		ctrl_free = ctrl->next_free;
	pk_raw_unlock(&ctrl_lock);
	if (!ctrl)
		ctrl = kmalloc(sizeof(*ctrl), GFP_ATOMIC | __GFP_NOWARN);
	if (ctrl)
		memset(ctrl, 0, sizeof(*ctrl));
	p->pk_kmap_ctrl = ctrl;
	return ctrl;
}

/* In the switch: no kfree(), whose wake-up would take a runqueue lock. */
static void ctrl_put(struct task_struct *p)
{
	struct pk_kmap_ctrl *ctrl = p->pk_kmap_ctrl;

	p->pk_kmap_ctrl = NULL;
	pk_raw_lock(&ctrl_lock);
	ctrl->next_free = ctrl_free;
	ctrl_free = ctrl;
	pk_raw_unlock(&ctrl_lock);
}

static void record_task(int slot, struct page *page, int idx)
{
	struct pk_kmap_ctrl *ctrl;

	/*
	 * Hard interrupts unmap before they return, so their slots never
	 * meet a switch.  Softirqs are recorded too: on rt a softirq handler
	 * runs preemptibly in a task, and its mappings must survive that
	 * task being switched out (elsewhere they are popped before the
	 * task is switched, and recording them costs nothing).
	 */
	if (in_nmi() || in_hardirq())
		return;
	ctrl = ctrl_get(current);
	if (WARN_ONCE(!ctrl, "kmap_local: no memory to record the mapping "
			     "in the task: it will not survive a switch\n"))
		return;
	ctrl->page[slot] = page;
	ctrl->idx = idx;
}

/* ---- kmap_local_page() and kmap_atomic() ---- */

static void report_overflow(struct page *page)
{
	pk_warn_kind(PK_REPORT_WARN,
		     "kmap_local: no slot for page %lu: all %d slots of this "
		     "CPU are in use (unmap in reverse order, nest less)\n",
		     page_to_pfn(page), KM_MAX_IDX);
}

void *__kmap_local_page(struct page *page)
{
	struct pk_kmap_cpu *c;
	unsigned long flags;
	char *addr = NULL;
	int slot, err = 0;

	if (!PageHighMem(page))
		return page_address(page);
	local_irq_save(flags);
	c = &pk_task_tls(kmap_cpu);
	if (this_window() && c->idx < KM_MAX_IDX) {
		slot = c->idx;
		err = map_slot(slot_addr(c->window, slot), page);
		if (!err) {
			addr = slot_addr(c->window, slot);
			c->page[slot] = page;
			c->idx++;
			record_task(slot, page, c->idx);
		}
	}
	local_irq_restore(flags);
	if (!addr && !err)
		report_overflow(page);
	return addr;
}

/* Which slot of this CPU's window @addr is in, or -1. */
static int window_slot(const struct pk_kmap_cpu *c, const char *addr)
{
	if (!c->window || addr < c->window || addr >= c->window + WINDOW_SIZE)
		return -1;
	return addr_slot(c->window, addr);
}

static bool in_windows(const char *addr)
{
	return kmap_area && addr >= window_base &&
	       addr < kmap_area + kmap_area_size;
}

static void report_bad_unmap(const void *addr, int slot, int top)
{
	if (slot < 0 || slot >= top)
		pk_warn_kind(PK_REPORT_WARN,
			     "kunmap_local: %p is not mapped on this CPU "
			     "(unmapped twice, or on another CPU?)\n",
			     addr);
	else
		pk_warn_kind(PK_REPORT_WARN,
			     "kunmap_local: %p (slot %d) unmapped out of "
			     "order: slot %d was mapped last\n",
			     addr, slot, top - 1);
}

void __kunmap_local(const void *addr)
{
	struct pk_kmap_cpu *c;
	unsigned long flags;
	int slot, top;

	if (!addr || !in_windows(addr))
		return; /* a low page's address, or a failed map */
	local_irq_save(flags);
	c = &pk_task_tls(kmap_cpu);
	top = c->idx;
	slot = window_slot(c, addr);
	if (slot >= 0 && slot < top && c->page[slot]) {
		pk_highmem_unmap_at(slot_addr(c->window, slot));
		c->page[slot] = NULL;
		while (c->idx && !c->page[c->idx - 1])
			c->idx--;
		record_task(slot, NULL, c->idx);
	}
	local_irq_restore(flags);
	if (slot < 0 || slot >= top || slot != top - 1)
		report_bad_unmap(addr, slot, top);
}

unsigned int pk_kmap_waiters(void)
{
	return __atomic_load_n(&pkmap_wait.waiters, __ATOMIC_RELAXED);
}

int pk_kmap_local_depth(void)
{
	return pk_task_tls(kmap_cpu).idx;
}

/* ---- the context switch ---- */

static void kmap_sched_out(struct task_struct *prev, struct task_struct *next)
{
	struct pk_kmap_ctrl *ctrl = prev->pk_kmap_ctrl;
	struct pk_kmap_cpu *c = &pk_task_tls(kmap_cpu);

	(void)next;
	if (!ctrl)
		return;
	/* No window here: the task moved after unmapping everything. */
	if (c->window) {
		for (int i = 0; i < ctrl->idx; i++)
			if (ctrl->page[i])
				pk_highmem_unmap_at(slot_addr(c->window, i));
		c->idx = 0;
	}
	/* A dead task's record is reused, wherever it dies. */
	if (prev->__state != TASK_DEAD)
		return;
	WARN(ctrl->idx, "kmap_local: %s/%d exited with %d mapping(s)\n",
	     prev->comm, prev->pid, ctrl->idx);
	ctrl_put(prev);
}

static void kmap_sched_in(struct task_struct *prev, struct task_struct *next)
{
	struct pk_kmap_ctrl *ctrl = next->pk_kmap_ctrl;
	struct pk_kmap_cpu *c = &pk_task_tls(kmap_cpu);

	(void)prev;
	if (!ctrl || !ctrl->idx || !c->window)
		return;
	/*
	 * A slot that cannot be mapped again stays PROT_NONE: the task's
	 * next access faults and is reported, it never sees another page.
	 */
	for (int i = 0; i < ctrl->idx; i++) {
		c->page[i] = ctrl->page[i];
		if (ctrl->page[i])
			map_slot(slot_addr(c->window, i), ctrl->page[i]);
	}
	c->idx = ctrl->idx;
}

static struct pk_switch_hook kmap_hook = {
	.sched_out = kmap_sched_out,
	.sched_in = kmap_sched_in,
};

/* Hooks may only be added while no machine runs: before main(). */
__attribute__((constructor)) static void kmap_hook_register(void)
{
	pk_switch_hook_register(&kmap_hook);
}

/* ---- kmap() ---- */

/* A free kmap() slot mapped to @page; -EBUSY if none is free. */
static int kmap_new_slot(struct page *page, void **addr)
{
	for (int i = 0; i < LAST_PKMAP; i++) {
		int err;

		if (pkmap.count[i])
			continue;
		err = pk_highmem_map_at(slot_addr(pkmap_base, i), page);
		if (err)
			return err;
		*addr = slot_addr(pkmap_base, i);
		pkmap.page[i] = page;
		pkmap.count[i] = 1;
		__atomic_store_n(&page->virtual, *addr, __ATOMIC_RELEASE);
		return 0;
	}
	return -EBUSY;
}

/* The page's kmap() address in *@addr, mapping it if need be. */
static int kmap_high_try(struct page *page, void **addr)
{
	unsigned long flags;
	int err = 0;

	pk_lock_irqsave(&pkmap.lock, flags);
	*addr = page->virtual;
	if (*addr)
		pkmap.count[addr_slot(pkmap_base, *addr)]++;
	else
		err = kmap_new_slot(page, addr);
	pk_unlock_irqrestore(&pkmap.lock, flags);
	return err;
}

void *kmap(struct page *page)
{
	void *addr = NULL;
	unsigned int seq;
	int err;

	might_sleep();
	if (!PageHighMem(page))
		return page_address(page);
	err = kmap_high_try(page, &addr);
	if (likely(!err))
		return addr;
	seq = pk_mm_wait_begin(&pkmap_wait);
	/* In atomic context might_sleep() has reported: fail, don't sleep. */
	while (err == -EBUSY && pk_mm_may_sleep_now()) {
		pk_mm_wait(&pkmap_wait, seq);
		seq = __atomic_load_n(&pkmap_wait.seq, __ATOMIC_SEQ_CST);
		err = kmap_high_try(page, &addr);
	}
	pk_mm_wait_end(&pkmap_wait);
	/* Not a full pool, which frees up: the host refused the mapping. */
	if (err && err != -EBUSY)
		report_map_failure(page, err);
	return addr;
}

void kunmap(struct page *page)
{
	unsigned long flags;
	char *addr;
	int i;

	if (!PageHighMem(page))
		return;
	pk_lock_irqsave(&pkmap.lock, flags);
	addr = page->virtual;
	i = addr ? addr_slot(pkmap_base, addr) : -1;
	if (i >= 0 && --pkmap.count[i] == 0) {
		__atomic_store_n(&page->virtual, NULL, __ATOMIC_RELEASE);
		pkmap.page[i] = NULL;
		pk_highmem_unmap_at(addr);
	}
	pk_unlock_irqrestore(&pkmap.lock, flags);
	if (WARN(i < 0, "kunmap: page %lu is not kmap()ed\n",
		 page_to_pfn(page)))
		return;
	pk_mm_wake(&pkmap_wait);
}

/* ---- helpers ---- */

void clear_highpage(struct page *page)
{
	void *addr = kmap_local_page(page);

	if (addr)
		memset(addr, 0, PAGE_SIZE);
	kunmap_local(addr);
}

void memcpy_to_page(struct page *page, size_t offset, const void *from,
		    size_t len)
{
	char *addr = kmap_local_page(page);

	if (addr)
		memcpy(addr + offset, from, len);
	kunmap_local(addr);
}

void memcpy_from_page(void *to, struct page *page, size_t offset, size_t len)
{
	char *addr = kmap_local_page(page);

	if (addr)
		memcpy(to, addr + offset, len);
	kunmap_local(addr);
}

/* ---- use after unmap ---- */

bool pk_kmap_fault(unsigned long addr, bool write, unsigned long ip)
{
	char *page = (char *)(addr & PAGE_MASK);
	struct pk_rbuf buf = {0};
	const char *what;
	char comm[16];

	if (!kmap_area || page < kmap_area ||
	    page >= kmap_area + kmap_area_size)
		return false;
	what = page < window_base ? "a kmap() slot"
				  : "a kmap_local/kmap_atomic slot";
	pk_rbuf_printf(&buf,
		       "BUG: unable to handle page fault for address: %#lx\n",
		       addr);
	pk_rbuf_printf(&buf, "#PF: supervisor %s access in kernel mode\n",
		       write ? "write" : "read");
	pk_rbuf_printf(&buf,
		       "#PF: not-present page: %s that is not mapped "
		       "(used after kunmap?)\n",
		       what);
	pk_rbuf_printf(&buf, "CPU: %d PID: %d Comm: %s %s (model: %s)\n",
		       pk_current_cpu(), pk_current_pid(),
		       pk_current_comm(comm), pk_taint_str(),
		       preempt_model_str(preempt_model()));
	pk_rbuf_printf(&buf, "RIP:");
	pk_rbuf_ip_sym(&buf, ip);
	pk_rbuf_backtrace(&buf);
	pk_report_emit(PK_REPORT_WARN, NULL, 0, &buf);
	/*
	 * Scratch memory under the stale address, so the machine goes on;
	 * the next map of the slot replaces it.  At the host's mapping limit
	 * there is none: the fault is not ours to fix, or it would come back
	 * and be reported forever.
	 */
	return mmap(page, PAGE_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
		    0) != MAP_FAILED;
}
