// SPDX-License-Identifier: MIT
/* WARN(), BUG() and the DEBUG_PREEMPT checks of preempt_count_add/sub. */
#include <stdarg.h>
#include <stdio.h>

#include <preempt/bug.h>
#include <preempt/irqflags.h>
#include <preempt/tracepoint.h>

#include "report.h"

static void pk_splat_warn_header(struct pk_rbuf *buf, const char *file,
				 int line, unsigned long ip)
{
	char comm[16];

	if (file)
		pk_rbuf_printf(buf, "WARNING: CPU: %d PID: %d at %s:%d",
			       pk_current_cpu(), pk_current_pid(), file, line);
	else
		pk_rbuf_printf(buf, "WARNING: CPU: %d PID: %d at",
			       pk_current_cpu(), pk_current_pid());
	pk_rbuf_sym(buf, ip);
	pk_rbuf_printf(buf, "CPU: %d PID: %d Comm: %s %s (model: %s)\n",
		       pk_current_cpu(), pk_current_pid(),
		       pk_current_comm(comm), pk_taint_str(),
		       preempt_model_str(preempt_model()));
	pk_rbuf_printf(buf, "preempt_count: %x\n", preempt_count());
}

static void pk_splat_warn(enum pk_report_kind kind, const char *file, int line,
			  unsigned long ip, const char *fmt, va_list ap)
{
	struct pk_rbuf buf = {0};

	pk_rbuf_printf(&buf, "------------[ cut here ]------------\n");
	if (fmt) {
		size_t room = sizeof(buf.text) - buf.len;
		int n = vsnprintf(buf.text + buf.len, room, fmt, ap);

		if (n > 0)
			buf.len += (size_t)n < room ? (size_t)n : room - 1;
		if (buf.len && buf.text[buf.len - 1] != '\n')
			pk_rbuf_printf(&buf, "\n");
	}
	pk_splat_warn_header(&buf, file, line, ip);
	pk_rbuf_backtrace(&buf);
	pk_rbuf_printf(&buf, "---[ end trace 0000000000000000 ]---\n");
	pk_report_emit(kind, file, line, &buf);
}

void pk_warn_kind(enum pk_report_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pk_splat_warn(kind, NULL, 0, (unsigned long)__builtin_return_address(0),
		      fmt, ap);
	va_end(ap);
}

void pk_warn_slowpath(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pk_splat_warn(PK_REPORT_WARN, file, line,
		      (unsigned long)__builtin_return_address(0), fmt, ap);
	va_end(ap);
}

void pk_bug(const char *file, int line)
{
	struct pk_rbuf buf = {0};

	pk_rbuf_printf(&buf, "------------[ cut here ]------------\n");
	pk_rbuf_printf(&buf, "kernel BUG at %s:%d!\n", file, line);
	pk_rbuf_printf(&buf, "Oops: invalid opcode: 0000 [#1] SMP\n");
	pk_splat_warn_header(&buf, file, line,
			     (unsigned long)__builtin_return_address(0));
	pk_rbuf_backtrace(&buf);
	pk_rbuf_printf(&buf, "---[ end trace 0000000000000000 ]---\n");
	pk_report_emit(PK_REPORT_BUG, file, line, &buf);
	__builtin_unreachable(); /* pk_report_emit() aborts for BUG */
}

/*
 * DEBUG_LOCKS_WARN_ON(): the kernel prints only the first one and then
 * turns the lock debugging off; the repair (skipping the operation) still
 * happens every time.  pk_debug_ratelimit_reset() turns it back on.
 */
static unsigned int debug_locks_off_gen;

static bool pk_splat_debug_locks(const char *cond, const char *hint,
				 unsigned long ip)
{
	unsigned int gen =
		__atomic_load_n(&pk_debug_generation, __ATOMIC_RELAXED) + 1;
	struct pk_rbuf buf = {0};

	if (__atomic_exchange_n(&debug_locks_off_gen, gen, __ATOMIC_RELAXED) ==
	    gen)
		return true;
	pk_rbuf_printf(&buf, "------------[ cut here ]------------\n");
	pk_rbuf_printf(&buf, "DEBUG_LOCKS_WARN_ON(%s)\n", cond);
	if (hint)
		pk_rbuf_printf(&buf, "%s\n", hint);
	pk_splat_warn_header(&buf, NULL, 0, ip);
	pk_rbuf_backtrace(&buf);
	pk_rbuf_printf(&buf, "---[ end trace 0000000000000000 ]---\n");
	pk_report_emit(PK_REPORT_PREEMPT_COUNT, NULL, 0, &buf);
	return true;
}

void(preempt_count_add)(int val)
{
	unsigned long ip = (unsigned long)__builtin_return_address(0);

	__preempt_count_add(val);
	/* Spinlock count overflowing soon? */
	if (unlikely((preempt_count() & PREEMPT_MASK) >= PREEMPT_MASK - 10))
		pk_splat_debug_locks("(preempt_count() & PREEMPT_MASK) >= "
				     "PREEMPT_MASK - 10",
				     "preempt depth near 255: "
				     "spinlock count overflowing soon?",
				     ip);
	/* The outermost disable: remember it for "Preemption disabled at:". */
	if (preempt_count() == val)
		pk_preempt_disable_ip = ip;
	/* The preemptoff tracers need this out-of-line add, as in Linux. */
	pk_trace(preempt_add, ip, val);
}

void(preempt_count_sub)(int val)
{
	unsigned long ip = (unsigned long)__builtin_return_address(0);
	int pc = preempt_count();

	/* Underflow: leave the count as it was, as the kernel does. */
	if (unlikely(val > pc)) {
		pk_splat_debug_locks(
			"val > preempt_count()",
			"preempt_count underflow: more enables than "
			"disables",
			ip);
		return;
	}
	if (unlikely(val < (int)PREEMPT_MASK && !(pc & PREEMPT_MASK))) {
		pk_splat_debug_locks(
			"(val < PREEMPT_MASK) && !(preempt_count() & "
			"PREEMPT_MASK)",
			"preempt depth underflow: preempt_enable() "
			"without preempt_disable()",
			ip);
		return;
	}
	pk_trace(preempt_sub, ip, val);
	__preempt_count_sub(val);
}

void pk_warn_bogus_irq_restore(void)
{
	WARN_ONCE(1, "raw_local_irq_restore() called with IRQs enabled");
}
