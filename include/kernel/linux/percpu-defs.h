/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_PERCPU_DEFS_H
#define _LINUX_PERCPU_DEFS_H

/*
 * Per-CPU variables in the kernel's offset model.  DEFINE_PER_CPU() puts
 * the variable in the section "pk_percpu"; before main() the kernel side
 * copies that section once per possible CPU, and __per_cpu_offset[cpu] is
 * the distance from a variable's own address to CPU cpu's copy.  So
 * &var is a per-CPU pointer like any from alloc_percpu(), and
 * per_cpu_ptr() adds the offset; the variable itself is only the initial
 * image and is never used as a CPU's instance.
 *
 * this_cpu_*() are atomic with respect to interrupts on the same CPU (they
 * disable them around the access) and may be used in preemptible code;
 * __this_cpu_*() are plain accesses that require preemption disabled and
 * report "using __this_cpu_op() in preemptible" otherwise
 * (CONFIG_DEBUG_PREEMPT); raw_cpu_*() check nothing.
 */

#include <linux/compiler.h>
#include <linux/threads.h>
#include <linux/types.h>
#include <preempt/irqflags.h>
#include <preempt/sched.h>

#define PER_CPU_BASE_SECTION "pk_percpu"
#define DECLARE_PER_CPU_SECTION(type, name, sec) extern __typeof__(type) name
#define DEFINE_PER_CPU_SECTION(type, name, sec)                                \
	__attribute__((__section__(PER_CPU_BASE_SECTION),                      \
		       __used__)) __typeof__(type) name
#define DECLARE_PER_CPU(type, name) DECLARE_PER_CPU_SECTION(type, name, "")
#define DEFINE_PER_CPU(type, name) DEFINE_PER_CPU_SECTION(type, name, "")
#define DECLARE_PER_CPU_ALIGNED(type, name) DECLARE_PER_CPU(type, name)
#define DEFINE_PER_CPU_ALIGNED(type, name)                                     \
	DEFINE_PER_CPU_SECTION(type, name, "") __aligned(64)
#define DECLARE_PER_CPU_SHARED_ALIGNED(type, name) DECLARE_PER_CPU(type, name)
#define DEFINE_PER_CPU_SHARED_ALIGNED(type, name)                              \
	DEFINE_PER_CPU_ALIGNED(type, name)
#define DECLARE_PER_CPU_READ_MOSTLY(type, name) DECLARE_PER_CPU(type, name)
#define DEFINE_PER_CPU_READ_MOSTLY(type, name) DEFINE_PER_CPU(type, name)
#define DECLARE_PER_CPU_PAGE_ALIGNED(type, name) DECLARE_PER_CPU(type, name)
#define DEFINE_PER_CPU_PAGE_ALIGNED(type, name)                                \
	DEFINE_PER_CPU_SECTION(type, name, "") __aligned(4096)
#define DEFINE_PER_CPU_FIRST(type, name) DEFINE_PER_CPU(type, name)
#define EXPORT_PER_CPU_SYMBOL(var)
#define EXPORT_PER_CPU_SYMBOL_GPL(var)

extern unsigned long __per_cpu_offset[NR_CPUS];
#define per_cpu_offset(x) (__per_cpu_offset[x])
#define SHIFT_PERCPU_PTR(ptr, offset) RELOC_HIDE(ptr, offset)

/** per_cpu_ptr() - CPU @cpu's instance of the per-CPU object *@ptr. */
#define per_cpu_ptr(ptr, cpu) SHIFT_PERCPU_PTR((ptr), per_cpu_offset(cpu))
/** per_cpu() - CPU @cpu's instance of @var (an lvalue).  Any context. */
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), (cpu)))
/** raw_cpu_ptr() - this CPU's instance, unchecked. */
#define raw_cpu_ptr(ptr) per_cpu_ptr((ptr), raw_smp_processor_id())
/** this_cpu_ptr() - this CPU's instance; reports if preemptible (debug). */
#define this_cpu_ptr(ptr) per_cpu_ptr((ptr), smp_processor_id())
#define get_cpu_ptr(var)                                                       \
	({                                                                     \
		preempt_disable();                                             \
		this_cpu_ptr(var);                                             \
	})
#define put_cpu_ptr(var)                                                       \
	do {                                                                   \
		(void)(var);                                                   \
		preempt_enable();                                              \
	} while (0)
#define get_cpu_var(var) (*get_cpu_ptr(&(var)))
#define put_cpu_var(var) put_cpu_ptr(&(var))

/* raw_cpu_*(): plain accesses to this CPU's instance, no checks. */
#define raw_cpu_read(pcp) (*raw_cpu_ptr(&(pcp)))
#define raw_cpu_write(pcp, val)                                                \
	do {                                                                   \
		*raw_cpu_ptr(&(pcp)) = (val);                                  \
	} while (0)
#define __pk_pcpu_op(pcp, op, val)                                             \
	do {                                                                   \
		*raw_cpu_ptr(&(pcp)) op(val);                                  \
	} while (0)
#define raw_cpu_add(pcp, val) __pk_pcpu_op(pcp, +=, val)
#define raw_cpu_sub(pcp, val) __pk_pcpu_op(pcp, -=, val)
#define raw_cpu_and(pcp, val) __pk_pcpu_op(pcp, &=, val)
#define raw_cpu_or(pcp, val) __pk_pcpu_op(pcp, |=, val)
#define raw_cpu_inc(pcp) raw_cpu_add(pcp, 1)
#define raw_cpu_dec(pcp) raw_cpu_sub(pcp, 1)
#define raw_cpu_add_return(pcp, val)                                           \
	({                                                                     \
		__typeof__(pcp) *__pk_p = raw_cpu_ptr(&(pcp));                 \
		*__pk_p += (val);                                              \
		*__pk_p;                                                       \
	})
#define raw_cpu_sub_return(pcp, val)                                           \
	raw_cpu_add_return(pcp, -(__typeof__(pcp))(val))
#define raw_cpu_inc_return(pcp) raw_cpu_add_return(pcp, 1)
#define raw_cpu_dec_return(pcp) raw_cpu_add_return(pcp, -1)
#define raw_cpu_xchg(pcp, nval)                                                \
	({                                                                     \
		__typeof__(pcp) *__pk_p = raw_cpu_ptr(&(pcp));                 \
		__typeof__(pcp) __pk_old = *__pk_p;                            \
		*__pk_p = (nval);                                              \
		__pk_old;                                                      \
	})
#define raw_cpu_cmpxchg(pcp, oval, nval)                                       \
	({                                                                     \
		__typeof__(pcp) *__pk_p = raw_cpu_ptr(&(pcp));                 \
		__typeof__(pcp) __pk_old = *__pk_p;                            \
		if (__pk_old == (oval))                                        \
			*__pk_p = (nval);                                      \
		__pk_old;                                                      \
	})
#define raw_cpu_try_cmpxchg(pcp, ovalp, nval)                                  \
	({                                                                     \
		__typeof__(pcp) *__pk_p = raw_cpu_ptr(&(pcp));                 \
		__typeof__(pcp) __pk_old = *__pk_p;                            \
		bool __pk_ok = __pk_old == *(ovalp);                           \
		if (__pk_ok)                                                   \
			*__pk_p = (nval);                                      \
		else                                                           \
			*(ovalp) = __pk_old;                                   \
		__pk_ok;                                                       \
	})

/* __this_cpu_*(): the raw ones, after DEBUG_PREEMPT's check. */
#if CONFIG_DEBUG_PREEMPT
#define __this_cpu_preempt_check(op)                                           \
	({                                                                     \
		pk_sim_hook(PK_SIM_ACCESS);                                    \
		pk_check_preemption_disabled("__this_cpu_" op);                \
	})
#else
#define __this_cpu_preempt_check(op) pk_sim_hook(PK_SIM_ACCESS)
#endif
#define __this_cpu_read(pcp)                                                   \
	({                                                                     \
		__this_cpu_preempt_check("read");                              \
		raw_cpu_read(pcp);                                             \
	})
#define __this_cpu_write(pcp, val)                                             \
	do {                                                                   \
		__this_cpu_preempt_check("write");                             \
		raw_cpu_write(pcp, val);                                       \
	} while (0)
#define __this_cpu_add(pcp, val)                                               \
	do {                                                                   \
		__this_cpu_preempt_check("add");                               \
		raw_cpu_add(pcp, val);                                         \
	} while (0)
#define __this_cpu_sub(pcp, val)                                               \
	do {                                                                   \
		__this_cpu_preempt_check("sub");                               \
		raw_cpu_sub(pcp, val);                                         \
	} while (0)
#define __this_cpu_and(pcp, val)                                               \
	do {                                                                   \
		__this_cpu_preempt_check("and");                               \
		raw_cpu_and(pcp, val);                                         \
	} while (0)
#define __this_cpu_or(pcp, val)                                                \
	do {                                                                   \
		__this_cpu_preempt_check("or");                                \
		raw_cpu_or(pcp, val);                                          \
	} while (0)
#define __this_cpu_inc(pcp) __this_cpu_add(pcp, 1)
#define __this_cpu_dec(pcp) __this_cpu_sub(pcp, 1)
#define __this_cpu_add_return(pcp, val)                                        \
	({                                                                     \
		__this_cpu_preempt_check("add_return");                        \
		raw_cpu_add_return(pcp, val);                                  \
	})
#define __this_cpu_sub_return(pcp, val)                                        \
	__this_cpu_add_return(pcp, -(__typeof__(pcp))(val))
#define __this_cpu_inc_return(pcp) __this_cpu_add_return(pcp, 1)
#define __this_cpu_dec_return(pcp) __this_cpu_add_return(pcp, -1)
#define __this_cpu_xchg(pcp, nval)                                             \
	({                                                                     \
		__this_cpu_preempt_check("xchg");                              \
		raw_cpu_xchg(pcp, nval);                                       \
	})
#define __this_cpu_cmpxchg(pcp, oval, nval)                                    \
	({                                                                     \
		__this_cpu_preempt_check("cmpxchg");                           \
		raw_cpu_cmpxchg(pcp, oval, nval);                              \
	})

/* this_cpu_*(): the raw ones with interrupts (and so preemption) off. */
#define __pk_this_cpu_irqsafe(expr)                                            \
	({                                                                     \
		unsigned long __pk_flags;                                      \
		pk_sim_hook(PK_SIM_ACCESS);                                    \
		raw_local_irq_save(__pk_flags);                                \
		__typeof__(expr) __pk_ret = (expr);                            \
		raw_local_irq_restore(__pk_flags);                             \
		__pk_ret;                                                      \
	})
#define __pk_this_cpu_irqsafe_void(stmt)                                       \
	do {                                                                   \
		unsigned long __pk_flags;                                      \
		pk_sim_hook(PK_SIM_ACCESS);                                    \
		raw_local_irq_save(__pk_flags);                                \
		stmt;                                                          \
		raw_local_irq_restore(__pk_flags);                             \
	} while (0)
#define this_cpu_read(pcp) __pk_this_cpu_irqsafe(raw_cpu_read(pcp))
#define this_cpu_write(pcp, val)                                               \
	__pk_this_cpu_irqsafe_void(raw_cpu_write(pcp, val))
#define this_cpu_add(pcp, val) __pk_this_cpu_irqsafe_void(raw_cpu_add(pcp, val))
#define this_cpu_sub(pcp, val) __pk_this_cpu_irqsafe_void(raw_cpu_sub(pcp, val))
#define this_cpu_and(pcp, val) __pk_this_cpu_irqsafe_void(raw_cpu_and(pcp, val))
#define this_cpu_or(pcp, val) __pk_this_cpu_irqsafe_void(raw_cpu_or(pcp, val))
#define this_cpu_inc(pcp) this_cpu_add(pcp, 1)
#define this_cpu_dec(pcp) this_cpu_sub(pcp, 1)
#define this_cpu_add_return(pcp, val)                                          \
	__pk_this_cpu_irqsafe(raw_cpu_add_return(pcp, val))
#define this_cpu_sub_return(pcp, val)                                          \
	this_cpu_add_return(pcp, -(__typeof__(pcp))(val))
#define this_cpu_inc_return(pcp) this_cpu_add_return(pcp, 1)
#define this_cpu_dec_return(pcp) this_cpu_add_return(pcp, -1)
#define this_cpu_xchg(pcp, nval) __pk_this_cpu_irqsafe(raw_cpu_xchg(pcp, nval))
#define this_cpu_cmpxchg(pcp, oval, nval)                                      \
	__pk_this_cpu_irqsafe(raw_cpu_cmpxchg(pcp, oval, nval))
#define this_cpu_try_cmpxchg(pcp, ovalp, nval)                                 \
	__pk_this_cpu_irqsafe(raw_cpu_try_cmpxchg(pcp, ovalp, nval))

#endif /* _LINUX_PERCPU_DEFS_H */
