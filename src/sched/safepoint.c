// SPDX-License-Identifier: MIT
/*
 * The safe-point rule for preemption from an interrupt: a task may be
 * switched out inside the signal handler only if the instruction it was
 * interrupted at is in the program's own code.  In libc (which may hold a
 * lock the next task on this thread would deadlock on, as FreeRTOS's POSIX
 * port found), the dynamic loader, the vDSO, this library or any other
 * shared object, need-resched stays set and the next preemption point
 * (preempt_enable(), cond_resched(), the next tick) takes it.  Go's
 * runtime has the same rule.
 *
 * The program's executable segments are read once at boot; the check in
 * the signal handler only compares addresses.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdbool.h>
#include <stdint.h>

#include "sched_internal.h"

#define MAX_RANGES 8

static struct {
	uintptr_t start, end;
} ranges[MAX_RANGES];
static int nr_ranges;

static int note_program(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	/* The first object is the program itself (empty name). */
	for (int i = 0; i < info->dlpi_phnum && nr_ranges < MAX_RANGES; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		ranges[nr_ranges].start = info->dlpi_addr + ph->p_vaddr;
		ranges[nr_ranges].end = ranges[nr_ranges].start + ph->p_memsz;
		nr_ranges++;
	}
	return 1; /* stop after the program */
}

void pk_safepoint_scan(void)
{
	nr_ranges = 0;
	dl_iterate_phdr(note_program, NULL);
}

bool pk_safe_to_preempt(unsigned long ip)
{
	for (int i = 0; i < nr_ranges; i++)
		if (ip >= ranges[i].start && ip < ranges[i].end)
			return true;
	return false;
}
