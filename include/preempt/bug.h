/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_BUG_H
#define PREEMPT_BUG_H

/*
 * WARN_ON() and friends print the kernel's "cut here" report with a
 * symbolized backtrace and let execution go on (unless panic_on_warn);
 * BUG_ON() reports and aborts, as the kernel oopses.
 */

#include <stdbool.h>
#include <stddef.h>
#include <preempt/preempt.h>

void pk_warn_slowpath(const char *file, int line, const char *fmt, ...)
	__attribute__((__format__(printf, 3, 4), __noinline__, __cold__));
void pk_bug(const char *file, int line) __attribute__((__noreturn__, __cold__));

/* Bumped by pk_debug_ratelimit_reset() to re-arm the once-only sites. */
extern unsigned int pk_debug_generation;

/*
 * One word per call site holding the generation it last fired in, plus one;
 * the exchange keeps racing threads to a single report.
 */
#define __PK_ONCE(cond, report)                                                \
	({                                                                     \
		static unsigned int __pk_fired;                                \
		bool __pk_c = !!(cond);                                        \
		if (unlikely(__pk_c)) {                                        \
			unsigned int __pk_g =                                  \
				__atomic_load_n(&pk_debug_generation,          \
						__ATOMIC_RELAXED) +            \
				1;                                             \
			if (__atomic_exchange_n(&__pk_fired, __pk_g,           \
						__ATOMIC_RELAXED) != __pk_g)   \
				report;                                        \
		}                                                              \
		unlikely(__pk_c);                                              \
	})

/**
 * WARN() - report with a message when @cond holds; returns @cond
 *
 * Any context.
 */
#define WARN(cond, ...)                                                        \
	({                                                                     \
		bool __pk_c = !!(cond);                                        \
		if (unlikely(__pk_c))                                          \
			pk_warn_slowpath(__FILE__, __LINE__, __VA_ARGS__);     \
		unlikely(__pk_c);                                              \
	})

/** WARN_ON() - report when @cond holds; returns @cond.  Any context. */
#define WARN_ON(cond) WARN(cond, NULL)

/** WARN_ONCE() - WARN() at most once per call site.  Any context. */
#define WARN_ONCE(cond, ...)                                                   \
	__PK_ONCE(cond, pk_warn_slowpath(__FILE__, __LINE__, __VA_ARGS__))

/** WARN_ON_ONCE() - WARN_ON() at most once per call site.  Any context. */
#define WARN_ON_ONCE(cond) WARN_ONCE(cond, NULL)

/** BUG() - report and abort.  Any context. */
#define BUG() pk_bug(__FILE__, __LINE__)

/** BUG_ON() - BUG() when @cond holds.  Any context. */
#define BUG_ON(cond)                                                           \
	do {                                                                   \
		if (unlikely(cond))                                            \
			BUG();                                                 \
	} while (0)

#endif /* PREEMPT_BUG_H */
