// SPDX-License-Identifier: MIT
/*
 * The safe-point rule for preemption from an interrupt.
 *
 * A task switched out inside host code -- libc, the dynamic loader, the
 * vDSO, this library -- may hold a host lock (malloc's arena lock, stdio's,
 * the loader's) or be half-way through host per-thread state (malloc's
 * tcache lives in the vCPU thread's TLS, which the next task on that thread
 * shares).  The next task would deadlock on the lock or corrupt the state.
 * So, as Go's asynchronous preemption, a task is switched out from an
 * interrupt only where its own code runs and no host code is below it:
 *
 *  1. the interrupted instruction is in the program's own code;
 *  2. no return address into host code is on the task's stack between the
 *     interrupted stack pointer and the task's entry (nor, on arm64, in the
 *     link register): own code called back from inside libc -- a qsort()
 *     comparator, a pthread_once() initializer, an atexit() handler -- runs
 *     while libc may hold a lock.
 *
 * Otherwise need-resched stays set and the next preemption point takes it.
 *
 * "Own code" must not depend on link layout.  When the executable holds
 * only the program (libc and this library are shared objects), it is the
 * executable's code.  When it also holds libc (-static) or this library
 * (libpreempt.a), addresses cannot tell them apart, so the program's own
 * code is what its DWARF compile units cover -- libc.a and libgcc.a carry
 * none -- minus this library's (found by its text bracket, below).  Such a
 * program built without -g has no own code: it is never preempted from an
 * interrupt, and boot says so once.
 *
 * Everything is read at boot, in task context; the check in the signal
 * handler only compares addresses and reads the task's own stack.
 */
#define _GNU_SOURCE
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../port/uctx.h"
#include "sched_internal.h"

/*
 * In libpreempt.a, the first and last words of the library's .text
 * (src/port/text_begin.S, text_end.S, linked around every other object).
 * Absent, so NULL, in libpreempt.so, whose module says where it is.
 */
extern const char pk_text_begin[] __attribute__((weak));
extern const char pk_text_end[] __attribute__((weak));

struct code_range {
	uintptr_t start, end;
};

struct range_set {
	struct code_range *r;
	int n, cap;
};

enum code_class { CODE_NONE, CODE_OWN, CODE_LIBRARY, CODE_HOST };

static struct range_set own_code, library_code, all_text;

static bool range_add(struct range_set *s, uintptr_t start, uintptr_t end)
{
	if (start >= end)
		return true;
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 16;
		struct code_range *r = realloc(s->r, cap * sizeof(*r));

		if (!r)
			return false;
		s->r = r;
		s->cap = cap;
	}
	s->r[s->n++] = (struct code_range){start, end};
	return true;
}

static int range_cmp(const void *a, const void *b)
{
	const struct code_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sorted and merged, so a lookup is one binary search. */
static void range_normalize(struct range_set *s)
{
	int out = 0;

	if (!s->n)
		return;
	qsort(s->r, s->n, sizeof(*s->r), range_cmp);
	for (int i = 1; i < s->n; i++) {
		if (s->r[i].start <= s->r[out].end) {
			if (s->r[i].end > s->r[out].end)
				s->r[out].end = s->r[i].end;
		} else {
			s->r[++out] = s->r[i];
		}
	}
	s->n = out + 1;
}

static bool range_has(const struct range_set *s, uintptr_t a)
{
	int lo = 0, hi = s->n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (a < s->r[mid].start)
			hi = mid - 1;
		else if (a >= s->r[mid].end)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

static bool range_overlaps(const struct range_set *s, uintptr_t start,
			   uintptr_t end)
{
	for (int i = 0; i < s->n; i++)
		if (start < s->r[i].end && s->r[i].start < end)
			return true;
	return false;
}

static void range_reset(struct range_set *s)
{
	free(s->r);
	*s = (struct range_set){0};
}

static enum code_class classify(uintptr_t a)
{
	if (range_has(&own_code, a))
		return CODE_OWN;
	if (range_has(&library_code, a))
		return CODE_LIBRARY;
	return range_has(&all_text, a) ? CODE_HOST : CODE_NONE;
}

/* ---- what is loaded, read at boot ---- */

struct module_scan {
	int modules;
	uintptr_t exe_bias;
	bool exe_holds_library;
	bool libc_shared;
	struct range_set exe_text;
};

static void add_exec_segments(struct range_set *s,
			      const struct dl_phdr_info *info)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
			range_add(s, start, start + ph->p_memsz);
	}
}

static int note_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct module_scan *m = arg;
	struct range_set segs = {0};
	const char *name = info->dlpi_name ? info->dlpi_name : "";

	(void)size;
	add_exec_segments(&segs, info);
	for (int i = 0; i < segs.n; i++)
		range_add(&all_text, segs.r[i].start, segs.r[i].end);
	if (strstr(name, "/libc.so") || !strncmp(name, "libc.so", 7))
		m->libc_shared = true;
	if (m->modules++ == 0) { /* the program itself comes first */
		m->exe_bias = info->dlpi_addr;
		m->exe_text = segs;
		m->exe_holds_library =
			range_has(&segs, (uintptr_t)pk_safepoint_scan);
		return 0;
	}
	if (range_has(&segs, (uintptr_t)pk_safepoint_scan))
		for (int i = 0; i < segs.n; i++)
			range_add(&library_code, segs.r[i].start,
				  segs.r[i].end);
	range_reset(&segs);
	return 0;
}

/* Every compile unit of the program's DWARF, with its address ranges. */
static void for_each_cu_range(Dwarf *dw, uintptr_t bias,
			      void (*fn)(struct range_set *cu, void *arg),
			      void *arg)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		struct range_set cu = {0};
		Dwarf_Addr base, start, end;
		Dwarf_Die die;
		ptrdiff_t it = 0;

		if (dwarf_offdie(dw, off + hsize, &die))
			while ((it = dwarf_ranges(&die, it, &base, &start,
						  &end)) > 0)
				range_add(&cu, bias + start, bias + end);
		fn(&cu, arg);
		range_reset(&cu);
		off = next;
	}
}

/* A unit that overlaps the library's bracket is the library's. */
static void sort_cu(struct range_set *cu, void *arg)
{
	const struct code_range *bracket = arg;
	struct range_set *target =
		range_overlaps(cu, bracket->start, bracket->end) ? &library_code
								 : &own_code;

	for (int i = 0; i < cu->n; i++)
		range_add(target, cu->r[i].start, cu->r[i].end);
}

/* Returns false when the program has no DWARF of its own. */
static bool read_own_dwarf(uintptr_t bias, struct code_range bracket)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	Elf *elf;
	Dwarf *dw;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	dw = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
	if (dw) {
		for_each_cu_range(dw, bias, sort_cu, &bracket);
		dwarf_end(dw);
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return own_code.n > 0;
}

void pk_safepoint_scan(void)
{
	struct module_scan m = {0};
	struct code_range bracket = {0, 0};

	range_reset(&own_code);
	range_reset(&library_code);
	range_reset(&all_text);
	dl_iterate_phdr(note_module, &m);
	if (m.exe_holds_library && pk_text_begin) {
		bracket = (struct code_range){(uintptr_t)pk_text_begin,
					      (uintptr_t)pk_text_end};
		range_add(&library_code, bracket.start, bracket.end);
	}
	if (!m.exe_holds_library && m.libc_shared) {
		own_code = m.exe_text;
		m.exe_text = (struct range_set){0};
	} else if (!read_own_dwarf(m.exe_bias, bracket)) {
		fprintf(stderr,
			"preempt: the program holds %s but no debug info of "
			"its own code: interrupts will not preempt its tasks "
			"(build it with -g)\n",
			m.libc_shared ? "libpreempt.a" : "libc");
	}
	range_reset(&m.exe_text);
	range_normalize(&own_code);
	range_normalize(&library_code);
	range_normalize(&all_text);
}

/* ---- the check, in the signal handler ---- */

/*
 * Reads the task's live stack word by word: most words are data, which
 * is not code; a stale word that looks like a host return address only
 * puts the preemption off.  ASan's redzones are part of the stack.
 */
__attribute__((no_sanitize("address"))) static bool
host_frame_below(uintptr_t sp, uintptr_t top)
{
	for (uintptr_t w = sp; w + sizeof(uintptr_t) <= top;
	     w += sizeof(uintptr_t))
		if (classify(*(const volatile uintptr_t *)w) == CODE_HOST)
			return true;
	return false;
}

bool pk_safe_to_preempt(const void *uctx, unsigned long stack_top)
{
	uintptr_t sp = pk_uctx_sp(uctx);

	if (classify(pk_uctx_ip(uctx)) != CODE_OWN)
		return false;
	if (classify(pk_uctx_link(uctx)) == CODE_HOST)
		return false;
	/* Not on its own stack (or no stack known): say no. */
	if (!stack_top || sp > stack_top ||
	    stack_top - sp > pk_machine_stack_size())
		return false;
	return !host_frame_below(sp, stack_top);
}
