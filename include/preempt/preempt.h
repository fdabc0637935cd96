/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_PREEMPT_H
#define PREEMPT_PREEMPT_H

/*
 * The context word: one 32-bit preempt_count per task, maintained
 * unconditionally, so every predicate below gives the same answer under
 * every preemption model (the point of the 2020 "make preempt count
 * unconditional" series).
 *
 *      31  30            24 23    20 19    16 15          8 7           0
 *     +---+----------------+--------+--------+-------------+-------------+
 *     |NR | IRQ-DISABLE    |  NMI   |HARDIRQ |   SOFTIRQ   |   PREEMPT   |
 *     +---+----------------+--------+--------+-------------+-------------+
 *
 *  PREEMPT       preempt_disable() nesting depth.
 *  SOFTIRQ       +0x100 while a softirq is being served, +0x200 for each
 *                local_bh_disable(): odd means serving, even means bh-off.
 *  HARDIRQ       hard interrupt nesting.
 *  NMI           NMI nesting.
 *  IRQ-DISABLE   local_irq_disable()/save() nesting depth.  Linux 2020
 *                left bits 24-30 unused; keeping the depth here (the cover
 *                letter's item 2) makes a section with interrupts off
 *                atomic without asking the OS, and keeps every classic
 *                offset where the kernel has it, so kernel values decode
 *                the same.
 *  NR            need-resched, stored inverted as x86 does: the bit is SET
 *                when no reschedule is needed.  preempt_enable() is then
 *                one decrement whose result is zero exactly when nothing
 *                holds the CPU *and* a reschedule is owed.
 *
 * The word lives in initial-exec TLS of the thread that runs the task (the
 * vCPU thread once a machine is booted, as x86 keeps it per CPU).  Every
 * access goes through %fs, so a task that resumes on another thread never
 * touches a stale slot.  A plain thread is a task on its own CPU.
 *
 * This header is the whole 'count' layer: no OS calls.
 */

#include <stdbool.h>

#include <preempt/sim.h>

#ifndef CONFIG_DEBUG_PREEMPT
/* DEBUG_PREEMPT checks on by default; build with -DCONFIG_DEBUG_PREEMPT=0
 * to get the bare incl/decl fast paths. */
#define CONFIG_DEBUG_PREEMPT 1
#endif

#ifndef CONFIG_PREEMPT_COUNT
/*
 * The legacy build (-DCONFIG_PREEMPT_COUNT=0) reproduces Linux's
 * PREEMPT_COUNT=n, for the benchmark that measures what the seed series
 * costs: preempt_disable()/enable() compile to barriers, spinlocks leave
 * the word alone and preemptible() is 0.  Only for comparison.
 */
#define CONFIG_PREEMPT_COUNT 1
#endif

#ifndef CONFIG_PREEMPTION
/*
 * -DCONFIG_PREEMPTION=0 is the kernel's PREEMPTION=n with PREEMPT_COUNT=y
 * (the none or voluntary model chosen at compile time) for the code built
 * so: preempt_enable() only decrements, with no reschedule test, which is
 * what it does in effect under none and voluntary anyway (preempt_schedule()
 * returns at once there).  The count stays exact, so every context check
 * still holds.  Under full, lazy or rt a reschedule owed at such an enable
 * waits for the next preemption point (an interrupt's return, a
 * cond_resched(), an enabling edge of the library's own code): build so
 * only code meant to run under none or voluntary.
 */
#define CONFIG_PREEMPTION 1
#endif

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef barrier
#define barrier() __asm__ __volatile__("" ::: "memory")
#endif

/*
 * smp_store_mb() for library code: a release store, then a full fence.
 * A SEQ_CST store alone (stlr on arm64) is ordered before a later SEQ_CST
 * load only by arm64's own rule for ldar, which qemu-user on an x86 host
 * does not keep: a sleep's state or an idle loop's polling flag, stored
 * that way, could pass the load of the condition it guards, and a
 * wake-up be lost.  The fence is dmb ish on arm64 and mfence on x86.
 */
#define pk_store_mb(p, v)                                                      \
	do {                                                                   \
		__atomic_store_n((p), (v), __ATOMIC_RELEASE);                  \
		__atomic_thread_fence(__ATOMIC_SEQ_CST);                       \
	} while (0)

#define PREEMPT_BITS 8
#define SOFTIRQ_BITS 8
#define HARDIRQ_BITS 4
#define NMI_BITS 4
#define HARDIRQ_DISABLE_BITS 7

#define PREEMPT_SHIFT 0
#define SOFTIRQ_SHIFT (PREEMPT_SHIFT + PREEMPT_BITS)
#define HARDIRQ_SHIFT (SOFTIRQ_SHIFT + SOFTIRQ_BITS)
#define NMI_SHIFT (HARDIRQ_SHIFT + HARDIRQ_BITS)
#define HARDIRQ_DISABLE_SHIFT (NMI_SHIFT + NMI_BITS)

/* The address of the code that expands it (the kernel's _THIS_IP_). */
#ifndef _THIS_IP_
#define _THIS_IP_                                                              \
	({                                                                     \
		__label__ __here;                                              \
__here:                                                                        \
		(unsigned long)&&__here;                                       \
	})
#endif

#define __PK_FIELD_MASK(x) ((1U << (x)) - 1)

#define PREEMPT_MASK (__PK_FIELD_MASK(PREEMPT_BITS) << PREEMPT_SHIFT)
#define SOFTIRQ_MASK (__PK_FIELD_MASK(SOFTIRQ_BITS) << SOFTIRQ_SHIFT)
#define HARDIRQ_MASK (__PK_FIELD_MASK(HARDIRQ_BITS) << HARDIRQ_SHIFT)
#define NMI_MASK (__PK_FIELD_MASK(NMI_BITS) << NMI_SHIFT)
#define HARDIRQ_DISABLE_MASK                                                   \
	(__PK_FIELD_MASK(HARDIRQ_DISABLE_BITS) << HARDIRQ_DISABLE_SHIFT)

#define PREEMPT_OFFSET (1U << PREEMPT_SHIFT)
#define SOFTIRQ_OFFSET (1U << SOFTIRQ_SHIFT)
#define HARDIRQ_OFFSET (1U << HARDIRQ_SHIFT)
#define NMI_OFFSET (1U << NMI_SHIFT)
#define HARDIRQ_DISABLE_OFFSET (1U << HARDIRQ_DISABLE_SHIFT)

/* Serving a softirq adds 1 to the softirq byte, disabling bh adds 2. */
#define SOFTIRQ_DISABLE_OFFSET (2 * SOFTIRQ_OFFSET)

#define PREEMPT_NEED_RESCHED 0x80000000U

/* What one preempt_disable() adds; spinlocks add PREEMPT_LOCK_OFFSET. */
#define PREEMPT_DISABLE_OFFSET PREEMPT_OFFSET
#define PREEMPT_LOCK_OFFSET PREEMPT_DISABLE_OFFSET
#define SOFTIRQ_LOCK_OFFSET (SOFTIRQ_DISABLE_OFFSET + PREEMPT_LOCK_OFFSET)

/*
 * Raw word values (x86 convention: the inverted need-resched bit is set).
 * preempt_count() of PREEMPT_DISABLED reads 1, of FORK_PREEMPT_COUNT 2:
 * a new task starts inside the context switch, with the runqueue lock held.
 */
#define PREEMPT_ENABLED (0U + PREEMPT_NEED_RESCHED)
#define PREEMPT_DISABLED (PREEMPT_DISABLE_OFFSET + PREEMPT_ENABLED)
#define INIT_PREEMPT_COUNT PREEMPT_OFFSET
#define FORK_PREEMPT_COUNT (2 * PREEMPT_DISABLE_OFFSET + PREEMPT_ENABLED)

/*
 * The per-task state besides the word that lives in the vCPU thread's TLS
 * while the task runs, in one block of 16 bytes so that a context switch
 * saves and loads it as one copy each way (src/sched/core.c); each field
 * keeps its own name through the macros below.
 *  - softirq_disable_cnt: PREEMPT_RT keeps the bottom-half state in the
 *    task, not in the word, so that a task with bh disabled or serving a
 *    softirq stays preemptible and may take sleeping locks.  It stays 0
 *    unless a machine booted rt, so the softirq predicates read both.
 *  - non_block, migrate_disable: the counters reports and checks read
 *    (<preempt/debug.h>).
 */
struct pk_task_vars {
	int non_block;
	int migrate_disable;
	unsigned int softirq_disable_cnt;
	unsigned int reserved; /* the block's size: one 16-byte copy */
};
#define pk_softirq_disable_cnt (pk_cpu_tls.vars.softirq_disable_cnt)
#define pk_non_block_count (pk_cpu_tls.vars.non_block)
#define pk_migrate_disable_count (pk_cpu_tls.vars.migrate_disable)

struct rq;
struct task_struct;

/*
 * The vCPU thread's hot thread-locals in one block (as the x86 kernel's
 * pcpu_hot): one thread-local address reaches them all, so the context
 * switch and the finish after it compute it once, not once per variable.
 * Each keeps its own name through a macro.
 *  - word: the running task's word (raw, need-resched inverted); see above.
 *  - irq_soft_pending: interrupts left pending while disabled
 *    (<preempt/irqflags.h>).
 *  - rq, curr: the scheduler's runqueue of this vCPU and its running task
 *    (NULL on a thread that is no vCPU).
 *  - vars: the per-task block above.
 */
struct pk_cpu_tls {
	unsigned int word;
	int irq_soft_pending;
	struct rq *rq;
	struct task_struct *curr;
	struct pk_task_vars vars;
};
extern __thread struct pk_cpu_tls pk_cpu_tls
	__attribute__((tls_model("initial-exec")));
#define pk_preempt_word (pk_cpu_tls.word)

/*
 * pk_task_tls(var) - the running task's copy of a per-task thread-local
 *
 * A task may resume on another vCPU thread after any preemption point, and
 * compilers treat the thread pointer as constant within a function: on
 * arm64 GCC reads tpidr_el0 once and would keep the old thread's address
 * across the switch.  There every access reads the thread pointer afresh
 * (the variable's offset from it is constant and may be hoisted).  x86
 * addresses TLS through %fs, which the switch of threads changes.
 */
#if defined(__aarch64__)
static __always_inline void *__pk_tls_addr(void *var)
{
	unsigned long tp;

	__asm__ __volatile__("mrs %0, tpidr_el0" : "=r"(tp));
	return (void *)(tp + ((unsigned long)var -
			      (unsigned long)__builtin_thread_pointer()));
}
#define pk_task_tls(var) (*(__typeof__(&(var)))__pk_tls_addr(&(var)))
#else
#define pk_task_tls(var) (var)
#endif

#if defined(__x86_64__) || defined(__i386__)
/*
 * Inline asm with the TLS variable as a memory operand: GCC and clang emit
 * %fs-relative addressing, one instruction per operation, and each
 * operation is atomic with respect to a signal on this thread.
 */
/*
 * Volatile: READ_ONCE() semantics.  A handler on this thread changes the
 * word between two reads, so neither may be merged with the other or
 * hoisted out of a `while (!need_resched())` loop.
 */
static __always_inline unsigned int __pk_word(void)
{
	unsigned int word;

	__asm__ __volatile__("movl %1, %0" : "=r"(word) : "m"(pk_preempt_word));
	return word;
}

static __always_inline void __pk_word_add(unsigned int val)
{
	if (__builtin_constant_p(val) && val == 1)
		__asm__ __volatile__("incl %0"
				     : "+m"(pk_preempt_word)::"memory");
	else
		__asm__ __volatile__("addl %1, %0"
				     : "+m"(pk_preempt_word)
				     : "ri"(val)
				     : "memory");
}

static __always_inline void __pk_word_sub(unsigned int val)
{
	if (__builtin_constant_p(val) && val == 1)
		__asm__ __volatile__("decl %0"
				     : "+m"(pk_preempt_word)::"memory");
	else
		__asm__ __volatile__("subl %1, %0"
				     : "+m"(pk_preempt_word)
				     : "ri"(val)
				     : "memory");
}

/* Decrement and report whether the whole word reached zero. */
static __always_inline bool __pk_word_dec_and_test(void)
{
	bool zero;

	__asm__ __volatile__("decl %0"
			     : "+m"(pk_preempt_word), "=@ccz"(zero)::"memory");
	return zero;
}

/* Subtract and report whether the whole word reached zero. */
static __always_inline bool __pk_word_sub_and_test(unsigned int val)
{
	bool zero;

	__asm__ __volatile__("subl %2, %0"
			     : "+m"(pk_preempt_word), "=@ccz"(zero)
			     : "ri"(val)
			     : "memory");
	return zero;
}

static __always_inline void __pk_word_and(unsigned int mask)
{
	__asm__ __volatile__("andl %1, %0"
			     : "+m"(pk_preempt_word)
			     : "ri"(mask)
			     : "memory");
}

static __always_inline void __pk_word_or(unsigned int mask)
{
	__asm__ __volatile__("orl %1, %0"
			     : "+m"(pk_preempt_word)
			     : "ri"(mask)
			     : "memory");
}
#else
/*
 * arm64 (and the portable fallback): every update of the word is one
 * atomic read-modify-write of the running task's slot, found through
 * pk_task_tls() -- add, sub, and, or, and preempt_count_set()'s
 * compare-exchange alike; the word is never written by a plain store.
 * That one discipline is what makes it safe against a signal handler on
 * the same thread (an interrupt setting need-resched, say): an LSE atomic
 * is a single instruction, which a signal cannot split, and an LL/SC
 * sequence that a signal interrupts is retried, since the return from the
 * exception clears the exclusive monitor, so its store-exclusive fails
 * and it reloads the handler's value.  A plain load, modify and store
 * would write back the value it loaded before the handler ran and lose
 * the handler's update.  Relaxed ordering is enough: only this thread
 * writes its word.  tests/count/test_codegen.c checks the generated code.
 */
static __always_inline unsigned int __pk_word(void)
{
	return __atomic_load_n(&pk_task_tls(pk_preempt_word), __ATOMIC_RELAXED);
}

static __always_inline void __pk_word_add(unsigned int val)
{
	__atomic_fetch_add(&pk_task_tls(pk_preempt_word), val,
			   __ATOMIC_RELAXED);
	barrier();
}

static __always_inline void __pk_word_sub(unsigned int val)
{
	barrier();
	__atomic_fetch_sub(&pk_task_tls(pk_preempt_word), val,
			   __ATOMIC_RELAXED);
}

static __always_inline bool __pk_word_dec_and_test(void)
{
	barrier();
	return __atomic_sub_fetch(&pk_task_tls(pk_preempt_word), 1,
				  __ATOMIC_RELAXED) == 0;
}

static __always_inline bool __pk_word_sub_and_test(unsigned int val)
{
	barrier();
	return __atomic_sub_fetch(&pk_task_tls(pk_preempt_word), val,
				  __ATOMIC_RELAXED) == 0;
}

static __always_inline void __pk_word_and(unsigned int mask)
{
	__atomic_fetch_and(&pk_task_tls(pk_preempt_word), mask,
			   __ATOMIC_RELAXED);
}

static __always_inline void __pk_word_or(unsigned int mask)
{
	__atomic_fetch_or(&pk_task_tls(pk_preempt_word), mask,
			  __ATOMIC_RELAXED);
}
#endif

/**
 * preempt_count() - the current task's count, need-resched masked out
 *
 * Any context.
 */
static __always_inline int preempt_count(void)
{
	return (int)(__pk_word() & ~PREEMPT_NEED_RESCHED);
}

/**
 * preempt_count_set() - overwrite the count, keeping need-resched
 * @pc: new count
 *
 * Any context; used by the scheduler to repair a leaked count.
 */
static __always_inline void preempt_count_set(int pc)
{
	unsigned int old = __pk_word(), new;

	/* A signal may set need-resched between the read and the write. */
	do {
		new = (old & PREEMPT_NEED_RESCHED) |
		      ((unsigned int)pc & ~PREEMPT_NEED_RESCHED);
	} while (!__atomic_compare_exchange_n(
		&pk_task_tls(pk_preempt_word), &old, new, false,
		__ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

/**
 * set_preempt_need_resched() - note that a reschedule is owed
 *
 * Any context.  Clears the inverted bit.
 */
static __always_inline void set_preempt_need_resched(void)
{
	__pk_word_and(~PREEMPT_NEED_RESCHED);
}

/**
 * clear_preempt_need_resched() - the owed reschedule happened
 *
 * Any context.
 */
static __always_inline void clear_preempt_need_resched(void)
{
	__pk_word_or(PREEMPT_NEED_RESCHED);
}

/**
 * test_preempt_need_resched() - is a reschedule owed?
 *
 * Any context.
 */
static __always_inline bool test_preempt_need_resched(void)
{
	return !(__pk_word() & PREEMPT_NEED_RESCHED);
}

/**
 * should_resched() - would dropping @preempt_offset make us reschedule?
 * @preempt_offset: what the caller is about to release
 *
 * Any context.  True when the count equals @preempt_offset and a
 * reschedule is owed; the inverted bit makes this a single compare.
 */
static __always_inline bool should_resched(int preempt_offset)
{
	return unlikely(__pk_word() == (unsigned int)preempt_offset);
}

/* The raw operations, no debug checks (the kernel's __preempt_count_*). */
#define __preempt_count_add(val) __pk_word_add((unsigned int)(val))
#define __preempt_count_sub(val) __pk_word_sub((unsigned int)(val))
#define __preempt_count_dec_and_test() __pk_word_dec_and_test()

/**
 * preempt_count_add() - add @val to the count, with DEBUG_PREEMPT checks
 * @val: offset to add (PREEMPT_OFFSET, SOFTIRQ_OFFSET, HARDIRQ_OFFSET, ...)
 *
 * Any context.  The out-of-line version warns when the preempt depth nears
 * 255 and records where preemption was first disabled (for the
 * "Preemption disabled at:" line of reports).
 */
void preempt_count_add(int val);

/**
 * preempt_count_sub() - subtract @val from the count, with DEBUG_PREEMPT
 * @val: offset to subtract
 *
 * Any context.  The out-of-line version refuses (and reports) an underflow,
 * leaving the count as it was.
 */
void preempt_count_sub(int val);

#if !CONFIG_DEBUG_PREEMPT
#define preempt_count_add(val) __preempt_count_add(val)
#define preempt_count_sub(val) __preempt_count_sub(val)
#define preempt_count_dec_and_test() __preempt_count_dec_and_test()
#else
#define preempt_count_dec_and_test()                                           \
	({                                                                     \
		preempt_count_sub(1);                                          \
		should_resched(0);                                             \
	})
#endif

#define preempt_count_inc() preempt_count_add(1)
#define preempt_count_dec() preempt_count_sub(1)

/**
 * preempt_schedule() - reschedule from preempt_enable(), if the model says so
 *
 * Called only with a reschedule owed and the count at zero.  Under none and
 * voluntary preempt_enable() is not a preemption point and this returns
 * with need-resched still set.
 */
void preempt_schedule(void);

/**
 * preempt_schedule_notrace() - preempt_schedule() for tracer-internal code
 */
void preempt_schedule_notrace(void);

/**
 * preempt_disable() - make the current task non-preemptible
 *
 * Any context; nests up to 255 deep.  One incl with debug checks off.
 */
static __always_inline void preempt_disable(void)
{
#if CONFIG_PREEMPT_COUNT
	preempt_count_inc();
#endif
	barrier();
}

/**
 * preempt_enable() - undo preempt_disable(), rescheduling if owed
 *
 * Any context that called preempt_disable().  One decl and one branch on
 * the fast path with debug checks off; the decl alone, built with
 * CONFIG_PREEMPTION=0 (no reschedule here: see CONFIG_PREEMPTION above).
 */
static __always_inline void preempt_enable(void)
{
	barrier();
#if CONFIG_PREEMPT_COUNT && CONFIG_PREEMPTION
	if (unlikely(preempt_count_dec_and_test()))
		preempt_schedule();
#elif CONFIG_PREEMPT_COUNT
	preempt_count_dec();
#endif
	pk_sim_hook(PK_SIM_PREEMPT_ON);
}

/**
 * preempt_enable_no_resched() - undo preempt_disable() without a
 * reschedule check
 *
 * Only where a reschedule follows anyway (e.g. before schedule()).
 */
static __always_inline void preempt_enable_no_resched(void)
{
	barrier();
#if CONFIG_PREEMPT_COUNT
	preempt_count_dec();
#endif
}

/**
 * preempt_check_resched() - reschedule now if owed and allowed
 *
 * Any context.
 */
static __always_inline void preempt_check_resched(void)
{
	if (should_resched(0))
		preempt_schedule();
}

/**
 * preempt_disable_notrace() - preempt_disable() without checks or tracing
 *
 * For the tracing and debug machinery itself.
 */
static __always_inline void preempt_disable_notrace(void)
{
	__preempt_count_add(1);
	barrier();
}

/**
 * preempt_enable_notrace() - preempt_enable() without checks or tracing
 */
static __always_inline void preempt_enable_notrace(void)
{
	barrier();
#if CONFIG_PREEMPTION
	if (unlikely(__preempt_count_dec_and_test()))
		preempt_schedule_notrace();
#else
	__preempt_count_sub(1);
#endif
}

/**
 * preempt_enable_no_resched_notrace() - the quietest preempt_enable()
 */
static __always_inline void preempt_enable_no_resched_notrace(void)
{
	barrier();
	__preempt_count_sub(1);
}

/*
 * ---- the predicates (as include/linux/preempt.h defines them) ----
 * As in the kernel, the in_*() tests yield the masked field (non-zero for
 * true), so in_nmi() == NMI_MASK asks "nested to the limit?".
 */

/*
 * Where interrupts and preemption were last disabled (debug builds), for
 * reports, which print them only while that section is open.  They go
 * with the word, per vCPU, not with the task: every switch happens with
 * the task's own sections closed (schedule_debug() sees to it) and the
 * scheduler's open, and that section spans the switch into the next task.
 */
extern __thread unsigned long pk_irqs_disabled_ip
	__attribute__((tls_model("initial-exec")));
extern __thread unsigned long pk_preempt_disable_ip
	__attribute__((tls_model("initial-exec")));

#define hardirq_count() (preempt_count() & HARDIRQ_MASK)
#define softirq_count()                                                        \
	(((unsigned int)preempt_count() |                                      \
	  pk_task_tls(pk_softirq_disable_cnt)) &                               \
	 SOFTIRQ_MASK)
#define nmi_count() (preempt_count() & NMI_MASK)
#define irq_count()                                                            \
	((preempt_count() & (NMI_MASK | HARDIRQ_MASK)) | softirq_count())
/* Not a kernel name: the interrupt-disable depth kept in bits 24-30. */
#define pk_irq_disable_depth()                                                 \
	((preempt_count() & HARDIRQ_DISABLE_MASK) >> HARDIRQ_DISABLE_SHIFT)

/*
 * Dynamic audit (`preempt audit --run`, docs/audit.md): code built with
 * -DCONFIG_PREEMPT_AUDIT=1 hands each predicate's answer to
 * pk_audit_pred(), which notes the call site, the model, the answer and
 * the answer a PREEMPT_COUNT=n kernel would give there, and returns the
 * answer unchanged.  Off (the default), a predicate is its expression.
 */
#ifndef CONFIG_PREEMPT_AUDIT
#define CONFIG_PREEMPT_AUDIT 0
#endif
enum pk_pred {
	PK_PRED_IN_NMI,
	PK_PRED_IN_HARDIRQ,
	PK_PRED_IN_IRQ,
	PK_PRED_IN_SERVING_SOFTIRQ,
	PK_PRED_IN_SOFTIRQ,
	PK_PRED_IN_INTERRUPT,
	PK_PRED_IN_TASK,
	PK_PRED_IN_ATOMIC,
	PK_PRED_IRQS_DISABLED,
	PK_PRED_PREEMPTIBLE,
	PK_NR_PREDS
};
int pk_audit_pred(enum pk_pred pred, int answer);
#if CONFIG_PREEMPT_AUDIT
#define __pk_pred(id, answer) pk_audit_pred(PK_PRED_##id, (int)(answer))
#else
#define __pk_pred(id, answer) (answer)
#endif

#define __pk_in_serving_softirq() (softirq_count() & SOFTIRQ_OFFSET)
#define __pk_irqs_disabled() ((preempt_count() & HARDIRQ_DISABLE_MASK) != 0)

/** in_nmi() - running an NMI handler.  Any context. */
#define in_nmi() __pk_pred(IN_NMI, nmi_count())
/** in_hardirq() - running a hard interrupt handler (or NMI).  Any context. */
#define in_hardirq() __pk_pred(IN_HARDIRQ, hardirq_count())
/** in_irq() - the old name of in_hardirq().  Any context. */
#define in_irq() __pk_pred(IN_IRQ, hardirq_count())
/** in_serving_softirq() - running a softirq handler.  Any context. */
#define in_serving_softirq()                                                   \
	__pk_pred(IN_SERVING_SOFTIRQ, __pk_in_serving_softirq())
/** in_softirq() - serving a softirq *or* bh disabled (ambiguous). */
#define in_softirq() __pk_pred(IN_SOFTIRQ, softirq_count())
/** in_interrupt() - NMI, hardirq, softirq or bh disabled (deprecated). */
#define in_interrupt() __pk_pred(IN_INTERRUPT, irq_count())
/** in_task() - task context: no NMI, hardirq or softirq being served. */
#define in_task()                                                              \
	__pk_pred(IN_TASK, !((preempt_count() & (NMI_MASK | HARDIRQ_MASK)) |   \
			     __pk_in_serving_softirq()))
/** in_atomic() - anything at all holds the CPU (do not use in drivers). */
#define in_atomic() __pk_pred(IN_ATOMIC, preempt_count() != 0)
/** in_atomic_preempt_off() - atomic beyond one preempt_disable(). */
#define in_atomic_preempt_off() (preempt_count() != PREEMPT_DISABLE_OFFSET)

/**
 * irqs_disabled() - are interrupts disabled on this CPU?
 *
 * Any context.  Read from the word: no syscall, no signal mask.
 */
#define irqs_disabled() __pk_pred(IRQS_DISABLED, __pk_irqs_disabled())

/** preemptible() - could the scheduler switch this task out right here? */
#if CONFIG_PREEMPT_COUNT
#define preemptible()                                                          \
	__pk_pred(PREEMPTIBLE, preempt_count() == 0 && !__pk_irqs_disabled())
#else
#define preemptible() 0 /* the seed's bug, kept for the comparison */
#endif

/**
 * interrupt_context_level() - 0 task, 1 softirq, 2 hardirq, 3 NMI
 *
 * Any context.
 */
static __always_inline unsigned char interrupt_context_level(void)
{
	unsigned int pc = (unsigned int)preempt_count();
	unsigned char level = 0;

	level += !!(pc & NMI_MASK);
	level += !!(pc & (NMI_MASK | HARDIRQ_MASK));
	level += !!(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET));
	return level;
}

/* ---- the preemption model (PREEMPT_DYNAMIC), a run-time value ---- */

enum preempt_model {
	PREEMPT_MODEL_NONE,
	PREEMPT_MODEL_VOLUNTARY,
	PREEMPT_MODEL_FULL,
	PREEMPT_MODEL_LAZY,
	PREEMPT_MODEL_RT,
	PREEMPT_MODEL_NR,
};

/**
 * preempt_model() - the current model
 *
 * Any context.  Starts as $PREEMPT_MODEL (none, voluntary, full, lazy,
 * rt), else full.
 */
enum preempt_model preempt_model(void);

/**
 * preempt_model_set() - switch the preemption model
 * @model: the new model
 *
 * Task context.  Returns 0, -EINVAL for an unknown model, or -EBUSY for
 * a switch into or out of rt while a machine runs (rt is chosen at boot).
 */
int preempt_model_set(enum preempt_model model);

/**
 * preempt_model_parse() - model from its name ("none", "full", ...)
 * @name: the name, as for the kernel's preempt= parameter
 *
 * Returns the model, or -1 when @name is not one.
 */
int preempt_model_parse(const char *name);

/** preempt_model_str() - the model's name ("none", "voluntary", ...). */
const char *preempt_model_str(enum preempt_model model);

/** preempt_model_none() - is the model none?  Any context. */
static inline bool preempt_model_none(void)
{
	return preempt_model() == PREEMPT_MODEL_NONE;
}

/** preempt_model_voluntary() - is the model voluntary?  Any context. */
static inline bool preempt_model_voluntary(void)
{
	return preempt_model() == PREEMPT_MODEL_VOLUNTARY;
}

/** preempt_model_full() - is the model full?  Any context. */
static inline bool preempt_model_full(void)
{
	return preempt_model() == PREEMPT_MODEL_FULL;
}

/** preempt_model_lazy() - is the model lazy?  Any context. */
static inline bool preempt_model_lazy(void)
{
	return preempt_model() == PREEMPT_MODEL_LAZY;
}

/** preempt_model_rt() - is the model rt?  Any context. */
static inline bool preempt_model_rt(void)
{
	return preempt_model() == PREEMPT_MODEL_RT;
}

/**
 * preempt_model_preemptible() - do preempt_enable() and interrupt return
 * preempt under this model (full, lazy, rt)?
 */
static inline bool preempt_model_preemptible(void)
{
	return preempt_model_full() || preempt_model_lazy() ||
	       preempt_model_rt();
}

#endif /* PREEMPT_PREEMPT_H */
