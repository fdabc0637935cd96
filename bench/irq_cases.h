/* SPDX-License-Identifier: MIT */
#ifndef BENCH_IRQ_CASES_H
#define BENCH_IRQ_CASES_H

/*
 * The irq layer's benchmark cases, beside what they replace: the lazy
 * local_irq_save()/local_irq_restore() pair against masking the interrupt
 * signal with pthread_sigmask(), and a delivered interrupt against a bare
 * signal sent to oneself.  irq_cases.c is compiled once, with the debug
 * checks off, as a user compiles it against the headers.
 */

#include <stdio.h>

#include "count_cases.h"

/* The table, ended by an entry with a NULL @name; every @ref is set. */
extern const struct bench_case bench_cases_irq[];

/**
 * bench_irq_setup() - make the calling thread a CPU and install the lines
 *
 * Registers the thread as a CPU, requests the line the delivery cases
 * raise, and installs the bare signal handler.  Returns 0, or prints why
 * not and returns -1.
 */
int bench_irq_setup(void);

/**
 * bench_irq_verify() - did every raise and every signal arrive exactly once?
 * @out: where the summary line goes
 *
 * Compares the handlers' counters and the CPU's pk_irq_stats() with the
 * raises and signals the loops sent.  Returns 0 when they all match.
 */
int bench_irq_verify(FILE *out);

#endif /* BENCH_IRQ_CASES_H */
