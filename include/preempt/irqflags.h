/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_IRQFLAGS_H
#define PREEMPT_IRQFLAGS_H

/*
 * Lazy interrupt disabling: local_irq_*() change nothing but the
 * interrupt-disable depth kept in bits 24-30 of the context word.  No
 * syscall, no signal mask.  An interrupt signal that arrives while the
 * depth is non-zero leaves its lines pending and returns; the enabling
 * edge (local_irq_enable(), or a restore to enabled) replays them before
 * it returns.
 *
 * Semantics match the kernel's for every sequence kernel code may use:
 *  - local_irq_save() returns the depth it found (non-zero: interrupts were
 *    off) and deepens it; local_irq_restore() puts that depth back, so
 *    nested save/restore pairs unwind exactly.
 *  - local_irq_disable() deepens; local_irq_enable() enables, whatever the
 *    depth, as the hardware flag would.
 */

#include <preempt/preempt.h>
#include <preempt/tracepoint.h>

#ifndef CONFIG_TRACE_IRQFLAGS
#define CONFIG_TRACE_IRQFLAGS CONFIG_DEBUG_PREEMPT
#endif

/* Where interrupts were last disabled (debug builds), reports print it:
 * pk_irqs_disabled_ip, in <preempt/preempt.h>. */

/*
 * Set by the interrupt signal handler when it found interrupts disabled and
 * left its lines pending; the edge that enables interrupts replays them.
 */
#define pk_irq_soft_pending (pk_cpu_tls.irq_soft_pending)

/* Run what arrived while interrupts were disabled (irq layer). */
void pk_irq_replay(void);

/* Debug check (CONFIG_TRACE_IRQFLAGS): restore to enabled from enabled. */
void pk_warn_bogus_irq_restore(void);

/*
 * Lines left pending while interrupts were off?  Read at an enabling edge,
 * after the depth is cleared.  x86: one compare with the TLS slot as its
 * operand, no load into a register first.
 */
static __always_inline bool __pk_irq_pending(void)
{
#if defined(__x86_64__) || defined(__i386__)
	bool pending;

	__asm__ __volatile__("cmpl $0, %1"
			     : "=@ccnz"(pending)
			     : "m"(pk_irq_soft_pending));
	return pending;
#else
	return pk_task_tls(pk_irq_soft_pending) != 0;
#endif
}

static __always_inline unsigned long __pk_irq_depth_bits(void)
{
	return __pk_word() & HARDIRQ_DISABLE_MASK;
}

/* @old: the depth bits just read (one load of the word serves both). */
static __always_inline void __pk_irq_disable_from(unsigned long old,
						  unsigned long ip)
{
	/* Saturate: an unbalanced disable loop must not spill into NR. */
	if (likely(old != HARDIRQ_DISABLE_MASK))
		__pk_word_add(HARDIRQ_DISABLE_OFFSET);
	if (CONFIG_TRACE_IRQFLAGS && !old) {
		pk_task_tls(pk_irqs_disabled_ip) = ip;
		pk_trace(irqs_off, ip);
	}
	barrier();
}

static __always_inline void __pk_irq_disable(unsigned long ip)
{
	__pk_irq_disable_from(__pk_irq_depth_bits(), ip);
}

/**
 * raw_local_irq_disable() - disable interrupts on this CPU
 *
 * Any context.  Nests; local_irq_enable() undoes every level at once.
 */
#define raw_local_irq_disable() __pk_irq_disable(_THIS_IP_)

static __always_inline void __pk_irq_enable(unsigned long ip)
{
	/* The tracer takes the section's end while it is still off. */
	if (CONFIG_TRACE_IRQFLAGS)
		pk_trace(irqs_on, ip);
	barrier();
	__pk_word_and(~HARDIRQ_DISABLE_MASK);
	/* A signal before the and left its lines pending; one after it ran
	 * them itself.  So the flag is read after the depth is cleared. */
	barrier();
	if (unlikely(__pk_irq_pending()))
		pk_irq_replay();
	pk_sim_hook(PK_SIM_IRQ_ON);
}

/**
 * raw_local_irq_enable() - enable interrupts on this CPU
 *
 * Any context where enabling is legal (not hardirq or NMI).  Interrupts
 * that arrived while disabled run, in hardirq context, before it returns.
 */
#define raw_local_irq_enable() __pk_irq_enable(_THIS_IP_)

static __always_inline unsigned long __pk_irq_save(unsigned long ip)
{
	unsigned long flags = __pk_irq_depth_bits();

	__pk_irq_disable_from(flags, ip);
	return flags;
}

static __always_inline void __pk_irq_restore(unsigned long flags,
					     unsigned long ip)
{
	unsigned long depth;

	/*
	 * Back to enabled, the common case, is an enable: one and, no load
	 * of the word to wait for.  The debug build first checks that they
	 * are off (a restore to enabled from enabled only warns).
	 */
	if (likely(!flags)) {
		if (CONFIG_TRACE_IRQFLAGS && unlikely(!__pk_irq_depth_bits())) {
			pk_warn_bogus_irq_restore();
			return;
		}
		__pk_irq_enable(ip);
		return;
	}
	depth = __pk_irq_depth_bits();

	barrier();
	if (CONFIG_TRACE_IRQFLAGS && unlikely(!depth))
		pk_warn_bogus_irq_restore();
	/* Back to the saved depth, disabled: no enabling edge here.
	 * Field-local: the difference never borrows outside the field. */
	if (likely(depth != flags)) {
		__pk_word_add((unsigned int)(flags - depth));
		if (CONFIG_TRACE_IRQFLAGS && !depth)
			pk_trace(irqs_off, ip);
	}
}

/**
 * raw_local_irq_save() - disable interrupts, remembering the old state
 * @flags: unsigned long that receives the state to restore
 *
 * Any context.
 */
#define raw_local_irq_save(flags)                                              \
	do {                                                                   \
		(flags) = __pk_irq_save(_THIS_IP_);                            \
	} while (0)

/**
 * raw_local_irq_restore() - return to the state saved in @flags
 * @flags: value from local_irq_save()
 *
 * Any context, paired with local_irq_save().
 */
#define raw_local_irq_restore(flags) __pk_irq_restore(flags, _THIS_IP_)

/** raw_local_save_flags() - the current state, without changing it. */
#define raw_local_save_flags(flags)                                            \
	do {                                                                   \
		(flags) = __pk_irq_depth_bits();                               \
	} while (0)

/** irqs_disabled_flags() - does @flags say interrupts were off? */
#define irqs_disabled_flags(flags) ((flags) != 0)

#define local_irq_disable() raw_local_irq_disable()
#define local_irq_enable() raw_local_irq_enable()
#define local_irq_save(flags) raw_local_irq_save(flags)
#define local_irq_restore(flags) raw_local_irq_restore(flags)
#define local_save_flags(flags) raw_local_save_flags(flags)

#endif /* PREEMPT_IRQFLAGS_H */
