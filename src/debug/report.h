/* SPDX-License-Identifier: MIT */
#ifndef PK_DEBUG_REPORT_H
#define PK_DEBUG_REPORT_H

/*
 * Reports are built in a buffer on the reporter's stack and emitted in one
 * write(2), so concurrent reports never interleave and a report from a
 * signal handler allocates nothing.
 */

#include <stdbool.h>
#include <stddef.h>
#include <preempt/debug.h>

#define PK_REPORT_MAX 8192

struct pk_rbuf {
	size_t len;
	char text[PK_REPORT_MAX];
};

void pk_rbuf_printf(struct pk_rbuf *buf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "[<ip>] symbol+0xoff/0xsize (file:line)" for a return address. */
void pk_rbuf_ip_sym(struct pk_rbuf *buf, unsigned long ip);
/* The same without the address, as WARNING lines show the caller. */
void pk_rbuf_sym(struct pk_rbuf *buf, unsigned long ip);
/* "Call Trace:" and the caller's frames, report machinery left out. */
void pk_rbuf_backtrace(struct pk_rbuf *buf);

/*
 * A WARN-style report ("cut here", @fmt, WARNING line naming the caller,
 * trace) of @kind, for checks in other layers.
 */
void pk_warn_kind(enum pk_report_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noinline, cold));

/* "symbol+0xoff/0xsize" of @ip into @buf (the kernel's %pS). */
const char *pk_sym_str(unsigned long ip, char *buf, size_t size);

/* False while this kind printed less than a second ago (kernel: HZ). */
bool pk_ratelimit_ok(enum pk_report_kind kind);

/* Hook or stderr, count, taint; aborts under panic_on_warn or for BUG. */
void pk_report_emit(enum pk_report_kind kind, const char *file, int line,
		    struct pk_rbuf *buf);

/* "Not tainted" until the first report, then the kernel's W taint. */
const char *pk_taint_str(void);

/* Who is running: until a machine boots, the thread is the task. */
int pk_current_pid(void);
const char *pk_current_comm(char comm[16]);
int pk_current_cpu(void);
extern bool (*pk_identity_hook)(int *pid, char comm[16], int *cpu);

/* Symbol of @ip into @name (NULL when unknown); false if no symbol. */
bool pk_symbolize(unsigned long ip, char *name, size_t size, unsigned long *off,
		  unsigned long *symsize, const char **file, int *line);

#endif /* PK_DEBUG_REPORT_H */
