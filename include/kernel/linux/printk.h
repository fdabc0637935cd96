/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_PRINTK_H
#define _LINUX_PRINTK_H

/*
 * printk() to the machine's console (stderr), with the kernel's levels and
 * "[seconds.micros] " timestamps.  Safe from any context, NMI included:
 * in an interrupt or NMI handler (a host signal handler) the message is
 * formatted into a stack buffer and kept in a preallocated slot, and task
 * context prints it later (the kernel's deferred console).  Messages with a
 * level above console_loglevel (default 7: all but KERN_DEBUG) are not
 * printed; `loglevel=N` in $PREEMPT_CMDLINE sets it.
 */

#include <stdarg.h>
#include <linux/compiler.h>
#include <linux/kern_levels.h>
#include <linux/linkage.h>
#include <linux/ratelimit_types.h>
#include <linux/hex.h>
#include <linux/init.h>
#include <linux/types.h>

/* %pV's argument: a format and its arguments, printed in place. */
struct va_format {
	const char *fmt;
	va_list *va;
};

extern int console_printk[4];
#define console_loglevel (console_printk[0])
#define default_message_loglevel (console_printk[1])
#define CONSOLE_LOGLEVEL_DEFAULT 7
#define MESSAGE_LOGLEVEL_DEFAULT 4

/** vprintk() - printk() with a va_list.  Any context. */
__printf(1, 0) int vprintk(const char *fmt, va_list args);
/** _printk() - print @fmt at the level its KERN_ prefix says.  Any context. */
__printf(1, 2) __cold int _printk(const char *fmt, ...);
#define printk(fmt, ...) _printk(fmt, ##__VA_ARGS__)
#define printk_deferred(fmt, ...) _printk(fmt, ##__VA_ARGS__)
/* printk() here takes no console lock that a caller could hold: nothing
 * to defer. */
#define printk_deferred_enter() ((void)0)
#define printk_deferred_exit() ((void)0)
#define printk_once(fmt, ...)                                                  \
	({                                                                     \
		static bool __pk_printed;                                      \
		bool __pk_first = !__atomic_exchange_n(&__pk_printed, true,    \
						       __ATOMIC_RELAXED);      \
		if (__pk_first)                                                \
			printk(fmt, ##__VA_ARGS__);                            \
		__pk_first;                                                    \
	})
#define printk_deferred_once printk_once
/* printk() at most 10 times in 5 s per call site. */
#define printk_ratelimited(fmt, ...)                                           \
	({                                                                     \
		static DEFINE_RATELIMIT_STATE(__pk_rs,                         \
					      DEFAULT_RATELIMIT_INTERVAL,      \
					      DEFAULT_RATELIMIT_BURST);        \
		if (__ratelimit(&__pk_rs))                                     \
			printk(fmt, ##__VA_ARGS__);                            \
	})

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
/* Checked like printf but not printed (pr_debug without DEBUG). */
#define no_printk(fmt, ...)                                                    \
	({                                                                     \
		if (0)                                                         \
			_printk(fmt, ##__VA_ARGS__);                           \
		0;                                                             \
	})

#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...) printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warning pr_warn
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)
#define pr_devel(fmt, ...) no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#ifdef DEBUG
#define pr_debug(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#else
#define pr_debug(fmt, ...) no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#endif

#define pr_emerg_once(fmt, ...)                                                \
	printk_once(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert_once(fmt, ...)                                                \
	printk_once(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit_once(fmt, ...) printk_once(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err_once(fmt, ...) printk_once(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_once(fmt, ...)                                                 \
	printk_once(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice_once(fmt, ...)                                               \
	printk_once(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info_once(fmt, ...) printk_once(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug_once(fmt, ...) no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)

#define pr_emerg_ratelimited(fmt, ...)                                         \
	printk_ratelimited(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert_ratelimited(fmt, ...)                                         \
	printk_ratelimited(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit_ratelimited(fmt, ...)                                          \
	printk_ratelimited(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err_ratelimited(fmt, ...)                                           \
	printk_ratelimited(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_ratelimited(fmt, ...)                                          \
	printk_ratelimited(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice_ratelimited(fmt, ...)                                        \
	printk_ratelimited(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info_ratelimited(fmt, ...)                                          \
	printk_ratelimited(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug_ratelimited(fmt, ...)                                         \
	no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)

enum {
	DUMP_PREFIX_NONE,
	DUMP_PREFIX_ADDRESS,
	DUMP_PREFIX_OFFSET,
};
/**
 * print_hex_dump() - @len bytes at @buf as lines of hex (@rowsize 16 or
 * 32 bytes, in groups of @groupsize), each after @prefix_str and the
 * address or offset; with @ascii also as text.  Any context.
 */
void print_hex_dump(const char *level, const char *prefix_str, int prefix_type,
		    int rowsize, int groupsize, const void *buf, size_t len,
		    bool ascii);
#define print_hex_dump_bytes(prefix_str, prefix_type, buf, len)                \
	print_hex_dump(KERN_DEBUG, prefix_str, prefix_type, 16, 1, buf, len,   \
		       true)
#define print_hex_dump_debug(prefix_str, prefix_type, rowsize, groupsize, buf, \
			     len, ascii)                                       \
	no_printk("%s%p%d%d%zu%d", prefix_str, buf, prefix_type + rowsize,     \
		  groupsize, (size_t)(len), ascii)
/**
 * hex_dump_to_buffer() - one line of print_hex_dump() into @linebuf;
 * returns the length it would have.  Any context.
 */
int hex_dump_to_buffer(const void *buf, size_t len, int rowsize, int groupsize,
		       char *linebuf, size_t linebuflen, bool ascii);

/** dump_stack() is the library's (preempt/debug.h). */
void dump_stack(void);

#endif /* _LINUX_PRINTK_H */
