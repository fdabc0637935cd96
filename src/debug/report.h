/* SPDX-License-Identifier: MIT */
#ifndef PK_DEBUG_REPORT_H
#define PK_DEBUG_REPORT_H

/*
 * Reports are built in a buffer on the reporter's stack and emitted in one
 * write(2), so concurrent reports never interleave.
 *
 * In a signal handler (interrupt, NMI, fault) a report must not allocate or
 * take a host lock: the interrupted code may hold malloc's.  There the
 * symbolizing calls only leave markers (raw addresses) in the text, and the
 * emit copies the text into a preallocated slot; task context expands the
 * markers with libdw and prints it later (printk's deferred console).
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
 * Up to @max return addresses of the calling stack into @out, starting at
 * the frame that returns to @from (0: at the top, this function's caller
 * first), for checks that keep or walk raw frames.  Any context: the
 * unwinder is set up at startup, so it allocates nothing, and in a signal
 * handler the walk ends at the interrupted context's pc.
 */
int pk_stack_capture(unsigned long *out, int max, unsigned long from);
/*
 * pk_stack_capture(out, max, 0), but ending at the first signal frame
 * (its interrupted pc included) in every context: for a capture in the
 * scheduler, which may run on the stack of an interrupt's return.
 */
int pk_stack_capture_to_signal(unsigned long *out, int max);
/*
 * @entry is a signal handler: an unwind from a signal that interrupted it
 * at its first instruction goes on to what it was delivered over.  Task
 * context, at set-up.
 */
void pk_unwind_note_handler(void *entry);
/* "Call Trace:" and @n frames captured earlier (any context). */
void pk_rbuf_trace(struct pk_rbuf *buf, const unsigned long *frames, int n);

/*
 * A WARN-style report ("cut here", @fmt, WARNING line naming the caller,
 * trace) of @kind, for checks in other layers.
 */
void pk_warn_kind(enum pk_report_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noinline, cold));

/* "symbol+0xoff/0xsize" of @ip into @buf (the kernel's %pS). */
const char *pk_sym_str(unsigned long ip, char *buf, size_t size);

/*
 * pk_sym_str() in the form @how names: PK_MARK_STR ("sym+0xoff/0xsize",
 * %pS), PK_MARK_NAME ("sym", %ps) or PK_MARK_RET (%pB: @ip is a return
 * address, looked up at @ip - 1).  In deferred context a marker, which
 * the deferred console expands (@markers), else the bare address.
 */
const char *pk_sym_str_how(unsigned long ip, char how, bool markers, char *buf,
			   size_t size);

/* False while this kind printed less than a second ago (kernel: HZ). */
bool pk_ratelimit_ok(enum pk_report_kind kind);

/* Hook or stderr, count, taint; aborts under panic_on_warn or for BUG. */
void pk_report_emit(enum pk_report_kind kind, const char *file, int line,
		    struct pk_rbuf *buf);

/* "Not tainted" until the first report, then the kernel's W taint. */
const char *pk_taint_str(void);

/*
 * Depth of the library's own signal handlers on this thread.  Raised only
 * around their work, never across a task switch: a task is switched out
 * only where it is zero.
 */
extern __thread int pk_in_signal __attribute__((tls_model("initial-exec")));

static inline void pk_signal_enter(void)
{
	pk_in_signal++;
	__asm__ __volatile__("" ::: "memory");
}

static inline void pk_signal_exit(void)
{
	__asm__ __volatile__("" ::: "memory");
	pk_in_signal--;
}

/* might_sleep()'s "hardirqs last disabled at" and "Preemption disabled at". */
void pk_splat_irqs_disabled_ip(struct pk_rbuf *buf);
void pk_splat_preempt_disable_ip(struct pk_rbuf *buf, int expected);

/*
 * Depth of the library's own calls of host code on this thread that the
 * blocking-call detector must not see: the report machinery reaches
 * libdw, libgcc's unwinder and the hook, which may call wrapped functions
 * (fopen(), malloc(), pthread_mutex_lock()) from any context.  One depth
 * per signal-handler level: an interrupt arriving while task context
 * prints a report must still have its own calls checked.
 */
#define PK_HOST_CALL_LEVELS 8
extern __thread unsigned char pk_host_calls[PK_HOST_CALL_LEVELS]
	__attribute__((tls_model("initial-exec")));

static inline unsigned char *pk_host_calls_here(void)
{
	int level = pk_in_signal;

	return &pk_host_calls[level < PK_HOST_CALL_LEVELS
				      ? level
				      : PK_HOST_CALL_LEVELS - 1];
}

static inline void pk_host_calls_enter(void)
{
	(*pk_host_calls_here())++;
}

static inline void pk_host_calls_exit(void)
{
	(*pk_host_calls_here())--;
}

/* Must a report made here be deferred (in a signal handler)? */
bool pk_report_deferred(void);

/* Reports deferred and not yet flushed: a cheap test for flush points. */
extern int pk_nr_deferred;

/*
 * An automatic flush point: only where nothing is held (count zero,
 * interrupts on), since the flush symbolizes and calls the user's hook.
 */
static inline void pk_report_flush_point(void)
{
	if (__builtin_expect(
		    __atomic_load_n(&pk_nr_deferred, __ATOMIC_RELAXED) != 0,
		    0) &&
	    !preempt_count())
		pk_report_flush();
}

/*
 * Markers a deferred report carries instead of symbols: PK_MARK, a type
 * letter, 16 hex digits of the address.
 */
#define PK_MARK '\x01'
#define PK_MARK_LEN 18
enum {
	PK_MARK_FRAME = 'F', /* pk_rbuf_ip_sym() */
	PK_MARK_SYM = 'S',   /* pk_rbuf_sym() */
	PK_MARK_STR = 'P',   /* pk_sym_str() */
	PK_MARK_NAME = 'N',  /* pk_sym_str_how(): the name only */
	PK_MARK_RET = 'R',   /* pk_sym_str_how(): a return address */
	PK_MARK_TRACE = 'T', /* one frame of pk_rbuf_backtrace() */
};
void pk_rbuf_mark(struct pk_rbuf *buf, char type, unsigned long ip);
/* @in's markers expanded into @out; @symbolize false: bare addresses. */
void pk_rbuf_expand(struct pk_rbuf *out, const char *in, size_t len,
		    bool symbolize);

/* Who is running: until a machine boots, the thread is the task. */
int pk_current_pid(void);
const char *pk_current_comm(char comm[16]);
int pk_current_cpu(void);
extern bool (*pk_identity_hook)(int *pid, char comm[16], int *cpu);

/* Symbol of @ip into @name (NULL when unknown); false if no symbol. */
bool pk_symbolize(unsigned long ip, char *name, size_t size, unsigned long *off,
		  unsigned long *symsize, const char **file, int *line);

#endif /* PK_DEBUG_REPORT_H */
