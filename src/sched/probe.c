// SPDX-License-Identifier: MIT
/*
 * The context probe script.  Interrupt entries are done at the count level,
 * as the kernel's __irq_enter_raw()/__nmi_enter() do, so the script runs
 * on any thread without a machine or a signal.
 */
#include <preempt/bottom_half.h>
#include <preempt/irqflags.h>
#include <preempt/preempt.h>
#include <preempt/probe.h>

const struct pk_probe_step pk_probe_script[] = {
	{PK_PROBE_PREEMPT_DISABLE, "task disables preemption"},
	{PK_PROBE_PREEMPT_DISABLE, "... nested"},
	{PK_PROBE_PREEMPT_ENABLE, "inner enable"},
	{PK_PROBE_PREEMPT_ENABLE, "back to a preemptible task"},
	{PK_PROBE_BH_DISABLE, "task disables bottom halves"},
	{PK_PROBE_PREEMPT_DISABLE, "... and preemption inside"},
	{PK_PROBE_PREEMPT_ENABLE, "preemption back on, bh still off"},
	{PK_PROBE_BH_ENABLE, "bottom halves back on"},
	{PK_PROBE_IRQ_SAVE, "task saves and disables interrupts"},
	{PK_PROBE_IRQ_SAVE, "... nested save"},
	{PK_PROBE_IRQ_RESTORE, "inner restore: still disabled"},
	{PK_PROBE_IRQ_RESTORE, "outer restore: enabled"},
	{PK_PROBE_IRQ_DISABLE, "local_irq_disable() in a task"},
	{PK_PROBE_IRQ_ENABLE, "local_irq_enable()"},
	{PK_PROBE_SOFTIRQ_ENTER, "a softirq is being served"},
	{PK_PROBE_BH_DISABLE, "... which disables bh itself"},
	{PK_PROBE_HARDIRQ_ENTER, "a hardirq interrupts the softirq"},
	{PK_PROBE_NMI_ENTER, "an NMI hits the hardirq"},
	{PK_PROBE_NMI_EXIT, "NMI returns"},
	{PK_PROBE_HARDIRQ_EXIT, "hardirq returns"},
	{PK_PROBE_BH_ENABLE, "softirq handler enables bh"},
	{PK_PROBE_SOFTIRQ_EXIT, "softirq done"},
	{PK_PROBE_HARDIRQ_ENTER, "a hardirq interrupts a task"},
	{PK_PROBE_HARDIRQ_ENTER, "... and nests"},
	{PK_PROBE_PREEMPT_DISABLE, "handler disables preemption"},
	{PK_PROBE_PREEMPT_ENABLE, "... and enables it"},
	{PK_PROBE_HARDIRQ_EXIT, "inner hardirq returns"},
	{PK_PROBE_HARDIRQ_EXIT, "outer hardirq returns"},
	{PK_PROBE_PREEMPT_DISABLE, "task disables preemption"},
	{PK_PROBE_NMI_ENTER, "an NMI interrupts it"},
	{PK_PROBE_NMI_ENTER, "... a nested NMI"},
	{PK_PROBE_NMI_EXIT, "inner NMI returns"},
	{PK_PROBE_NMI_EXIT, "outer NMI returns"},
	{PK_PROBE_PREEMPT_ENABLE, "back to a preemptible task"},
};

const size_t pk_probe_script_len =
	sizeof(pk_probe_script) / sizeof(pk_probe_script[0]);

static const char *const op_names[PK_PROBE_NR] = {
	[PK_PROBE_PREEMPT_DISABLE] = "preempt_disable()",
	[PK_PROBE_PREEMPT_ENABLE] = "preempt_enable()",
	[PK_PROBE_BH_DISABLE] = "local_bh_disable()",
	[PK_PROBE_BH_ENABLE] = "local_bh_enable()",
	[PK_PROBE_SOFTIRQ_ENTER] = "softirq entry (+SOFTIRQ_OFFSET)",
	[PK_PROBE_SOFTIRQ_EXIT] = "softirq exit",
	[PK_PROBE_HARDIRQ_ENTER] = "irq entry (+HARDIRQ_OFFSET, irqs off)",
	[PK_PROBE_HARDIRQ_EXIT] = "irq exit",
	[PK_PROBE_NMI_ENTER] = "nmi entry (+NMI_OFFSET+HARDIRQ_OFFSET)",
	[PK_PROBE_NMI_EXIT] = "nmi exit",
	[PK_PROBE_IRQ_SAVE] = "local_irq_save()",
	[PK_PROBE_IRQ_RESTORE] = "local_irq_restore()",
	[PK_PROBE_IRQ_DISABLE] = "local_irq_disable()",
	[PK_PROBE_IRQ_ENABLE] = "local_irq_enable()",
};

const char *pk_probe_op_str(enum pk_probe_op op)
{
	return (unsigned int)op < PK_PROBE_NR ? op_names[op] : "?";
}

static int push_irq_save(struct pk_probe_state *st)
{
	unsigned long flags;

	if (st->depth >= sizeof(st->flags) / sizeof(st->flags[0]))
		return -1;
	local_irq_save(flags);
	st->flags[st->depth++] = flags;
	return 0;
}

static int pop_irq_restore(struct pk_probe_state *st)
{
	if (!st->depth)
		return -1;
	local_irq_restore(st->flags[--st->depth]);
	return 0;
}

int pk_probe_apply(struct pk_probe_state *st, enum pk_probe_op op)
{
	switch (op) {
	case PK_PROBE_PREEMPT_DISABLE:
		preempt_disable();
		return 0;
	case PK_PROBE_PREEMPT_ENABLE:
		preempt_enable();
		return 0;
	case PK_PROBE_BH_DISABLE:
		local_bh_disable();
		return 0;
	case PK_PROBE_BH_ENABLE:
		local_bh_enable();
		return 0;
	case PK_PROBE_SOFTIRQ_ENTER:
		preempt_count_add(SOFTIRQ_OFFSET);
		return 0;
	case PK_PROBE_SOFTIRQ_EXIT:
		preempt_count_sub(SOFTIRQ_OFFSET);
		return 0;
	case PK_PROBE_HARDIRQ_ENTER:
		if (push_irq_save(st))
			return -1;
		preempt_count_add(HARDIRQ_OFFSET);
		return 0;
	case PK_PROBE_HARDIRQ_EXIT:
		preempt_count_sub(HARDIRQ_OFFSET);
		return pop_irq_restore(st);
	case PK_PROBE_NMI_ENTER:
		preempt_count_add(NMI_OFFSET + HARDIRQ_OFFSET);
		return 0;
	case PK_PROBE_NMI_EXIT:
		preempt_count_sub(NMI_OFFSET + HARDIRQ_OFFSET);
		return 0;
	case PK_PROBE_IRQ_SAVE:
		return push_irq_save(st);
	case PK_PROBE_IRQ_RESTORE:
		return pop_irq_restore(st);
	case PK_PROBE_IRQ_DISABLE:
		local_irq_disable();
		return 0;
	case PK_PROBE_IRQ_ENABLE:
		local_irq_enable();
		return 0;
	default:
		return -1;
	}
}

void pk_context_read(struct pk_context *ctx)
{
	*ctx = (struct pk_context){
		.count = (unsigned int)preempt_count(),
		.hardirq_count = hardirq_count(),
		.softirq_count = softirq_count(),
		.nmi_count = nmi_count(),
		.irq_count = irq_count(),
		.in_nmi = in_nmi(),
		.in_hardirq = in_hardirq(),
		.in_serving_softirq = in_serving_softirq(),
		.in_softirq = in_softirq(),
		.in_interrupt = in_interrupt(),
		.in_task = in_task(),
		.in_atomic = in_atomic(),
		.in_atomic_preempt_off = in_atomic_preempt_off(),
		.preemptible = preemptible(),
		.irqs_disabled = irqs_disabled(),
		.interrupt_context_level = interrupt_context_level(),
		.need_resched = test_preempt_need_resched(),
	};
}

void pk_context_rt(struct pk_context *ctx)
{
	ctx->count -= ctx->softirq_count & ~SOFTIRQ_OFFSET & ctx->count;
	ctx->in_atomic = ctx->count != 0;
	ctx->in_atomic_preempt_off = ctx->count != PREEMPT_DISABLE_OFFSET;
	ctx->preemptible = ctx->count == 0 && !ctx->irqs_disabled;
}
