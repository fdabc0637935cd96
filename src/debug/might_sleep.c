// SPDX-License-Identifier: MIT
/*
 * might_sleep(), cant_sleep(), cant_migrate(): the kernel's
 * CONFIG_DEBUG_ATOMIC_SLEEP checks.  They read only the word and the
 * per-task counters beside it, so they answer the same in every model.
 *
 * The checks are on hot paths (every sleeping primitive calls
 * might_sleep()); the 8 KiB report buffer lives in the cold, out-of-line
 * report functions so the silent case costs a few instructions.
 */
#include <preempt/debug.h>
#include <preempt/irqflags.h>

#include "report.h"

#define __report __attribute__((noinline, cold))

void pk_splat_preempt_disable_ip(struct pk_rbuf *buf, int expected)
{
	int preempt_part = preempt_count() & ~(int)HARDIRQ_DISABLE_MASK;

	if (!CONFIG_DEBUG_PREEMPT || preempt_part == expected ||
	    !pk_preempt_disable_ip)
		return;
	pk_rbuf_printf(buf, "Preemption disabled at:\n");
	pk_rbuf_ip_sym(buf, pk_preempt_disable_ip);
}

void pk_splat_irqs_disabled_ip(struct pk_rbuf *buf)
{
	if (!irqs_disabled() || !pk_irqs_disabled_ip)
		return;
	pk_rbuf_printf(buf, "hardirqs last disabled at (depth %u):\n",
		       pk_irq_disable_depth());
	pk_rbuf_ip_sym(buf, pk_irqs_disabled_ip);
}

static __report void pk_splat_might_resched(const char *file, int line,
					    int expected,
					    unsigned int rcu_expected)
{
	struct pk_rbuf buf = {0};
	char comm[16];

	pk_rbuf_printf(&buf,
		       "BUG: sleeping function called from invalid context "
		       "at %s:%d\n",
		       file, line);
	pk_rbuf_printf(&buf,
		       "in_atomic(): %d, irqs_disabled(): %d, non_block: %d, "
		       "pid: %d, name: %s\n",
		       in_atomic(), irqs_disabled(), pk_non_block_count,
		       pk_current_pid(), pk_current_comm(comm));
	pk_rbuf_printf(&buf, "preempt_count: %x, expected: %x\n",
		       preempt_count(), expected);
	if (__atomic_load_n(&pk_rcu_preempt_flavour, __ATOMIC_RELAXED))
		pk_rbuf_printf(&buf, "RCU nest depth: %d, expected: %u\n",
			       pk_rcu_sleep_depth(), rcu_expected);
	pk_splat_irqs_disabled_ip(&buf);
	pk_splat_preempt_disable_ip(&buf, expected);
	pk_rbuf_printf(&buf, "CPU: %d PID: %d Comm: %s %s (model: %s)\n",
		       pk_current_cpu(), pk_current_pid(), comm, pk_taint_str(),
		       preempt_model_str(preempt_model()));
	pk_rbuf_backtrace(&buf);
	pk_report_emit(PK_REPORT_MIGHT_SLEEP, file, line, &buf);
}

void __might_resched(const char *file, int line, unsigned int offsets)
{
	int expected = (int)(offsets & MIGHT_RESCHED_PREEMPT_MASK);
	unsigned int rcu_expected = offsets >> MIGHT_RESCHED_RCU_SHIFT;

	/* Under PREEMPT_RCU a reader is not in the count: check its depth
	 * (under rt a bh-disabled section's too). */
	if (likely(preempt_count() == expected && !irqs_disabled() &&
		   !pk_non_block_count &&
		   pk_rcu_sleep_depth() == (int)rcu_expected)) {
		/* A sleeping point is task context: the console's too. */
		pk_report_flush_point();
		return;
	}
	if (pk_ratelimit_ok(PK_REPORT_MIGHT_SLEEP))
		pk_splat_might_resched(file, line, expected, rcu_expected);
}

void __might_sleep(const char *file, int line)
{
	__might_resched(file, line, 0);
}

static __report void pk_splat_cant_sleep(const char *file, int line)
{
	struct pk_rbuf buf = {0};
	char comm[16];

	pk_rbuf_printf(&buf, "BUG: assuming atomic context at %s:%d\n", file,
		       line);
	pk_rbuf_printf(&buf,
		       "in_atomic(): %d, irqs_disabled(): %d, pid: %d, "
		       "name: %s\n",
		       in_atomic(), irqs_disabled(), pk_current_pid(),
		       pk_current_comm(comm));
	pk_rbuf_backtrace(&buf);
	pk_report_emit(PK_REPORT_CANT_SLEEP, file, line, &buf);
}

void __cant_sleep(const char *file, int line, int preempt_offset)
{
	if (likely(irqs_disabled() || preempt_count() > preempt_offset))
		return;
	if (pk_ratelimit_ok(PK_REPORT_CANT_SLEEP))
		pk_splat_cant_sleep(file, line);
}

static __report void pk_splat_cant_migrate(const char *file, int line)
{
	struct pk_rbuf buf = {0};
	char comm[16];

	pk_rbuf_printf(&buf, "BUG: assuming non migratable context at %s:%d\n",
		       file, line);
	pk_rbuf_printf(&buf,
		       "in_atomic(): %d, irqs_disabled(): %d, "
		       "migration_disabled() %u pid: %d, name: %s\n",
		       in_atomic(), irqs_disabled(),
		       (unsigned int)pk_migrate_disable_count, pk_current_pid(),
		       pk_current_comm(comm));
	pk_rbuf_backtrace(&buf);
	pk_report_emit(PK_REPORT_CANT_MIGRATE, file, line, &buf);
}

void __cant_migrate(const char *file, int line)
{
	if (likely(irqs_disabled() || pk_migration_disabled() ||
		   preempt_count() > 0))
		return;
	if (pk_ratelimit_ok(PK_REPORT_CANT_MIGRATE))
		pk_splat_cant_migrate(file, line);
}
