/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_COMPILER_TYPES_H
#define _LINUX_COMPILER_TYPES_H

/*
 * Force-included second into every kernel file: the attributes and
 * annotations kernel code is written with.  The sparse annotations
 * (__rcu, __percpu, __iomem, __user, __force, ...) mean nothing to the
 * compiler and vanish; the section annotations (__init, __exit) too, as
 * nothing is discarded after boot here.
 */

#ifndef __ASSEMBLY__

#define __user
#define __kernel
#define __iomem
#define __percpu
#define __rcu
#define __force
#define __nocast
#define __safe
#define __private
#define __bitwise
#define __must_hold(x)
#define __acquires(x)
#define __releases(x)
#define __acquire(x) (void)0
#define __release(x) (void)0
#define __cond_lock(x, c) (c)
#define ACCESS_PRIVATE(p, member) ((p)->member)

/* The C library's <sys/cdefs.h> may have defined it first, the same way. */
#undef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#define noinline __attribute__((__noinline__))
#define __noinline __attribute__((__noinline__))
#define __noreturn __attribute__((__noreturn__))
#define __cold __attribute__((__cold__))
#define __hot __attribute__((__hot__))
#define __pure __attribute__((__pure__))
#define __const __attribute__((__const__))
#define __weak __attribute__((__weak__))
#define __used __attribute__((__used__))
#define __maybe_unused __attribute__((__unused__))
#define __always_unused __attribute__((__unused__))
#define __packed __attribute__((__packed__))
#define __aligned(x) __attribute__((__aligned__(x)))
#define __aligned_largest __attribute__((__aligned__))
#define __section(s) __attribute__((__section__(s)))
#define __must_check __attribute__((__warn_unused_result__))
#define __malloc __attribute__((__malloc__))
/* glibc's <sys/cdefs.h> has the same one */
#ifndef __attribute_const__
#define __attribute_const__ __attribute__((__const__))
#endif
#define __printf(a, b) __attribute__((__format__(printf, a, b)))
#define __scanf(a, b) __attribute__((__format__(scanf, a, b)))
#define __alias(s) __attribute__((__alias__(#s)))
#define __visible __attribute__((__externally_visible__))
#define __noclone __attribute__((__noclone__))
#define __assume_aligned(a, ...)                                               \
	__attribute__((__assume_aligned__(a, ##__VA_ARGS__)))
#define __deprecated
#define __gnu_inline __attribute__((__gnu_inline__))
#define __inline_maybe_unused __attribute__((__unused__))
#define __no_sanitize_address __attribute__((__no_sanitize_address__))
#define __counted_by(m)
#define __nonstring __attribute__((__nonstring__))
#define __randomize_layout
#define __no_randomize_layout
#define randomized_struct_fields_start
#define randomized_struct_fields_end
#define __designated_init
#define notrace __attribute__((__no_instrument_function__))
#define __notrace_funcgraph
#define __noinstr_section(s)
#define noinstr
#define __cpuidle
#define __sched
#define __lockfunc
#define __kprobes
#define nokprobe_inline __always_inline
#define __flatten __attribute__((__flatten__))
#define __latent_entropy
#define __ro_after_init
#define __read_mostly
#define __cacheline_aligned __aligned(64)
#define __cacheline_aligned_in_smp __aligned(64)
#define ____cacheline_aligned __aligned(64)
#define ____cacheline_aligned_in_smp __aligned(64)
#define ____cacheline_internodealigned_in_smp __aligned(64)
#define __page_aligned_data __aligned(4096)
#define __page_aligned_bss __aligned(4096)
#define fallthrough __attribute__((__fallthrough__))
#define __fallthrough fallthrough
#define __same_type(a, b)                                                      \
	__builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#define __native_word(t)                                                       \
	(sizeof(t) == sizeof(char) || sizeof(t) == sizeof(short) ||            \
	 sizeof(t) == sizeof(int) || sizeof(t) == sizeof(long))
#define __compiletime_error(msg) __attribute__((__error__(msg)))
#define __compiletime_warning(msg) __attribute__((__warning__(msg)))
#define __must_be_array(a) 0
/* The type of @x without qualifiers, for scalars (READ_ONCE()'s result). */
#define __unqual_scalar_typeof(x)                                              \
	__typeof__(_Generic((x), char                                          \
			    : (char)0, signed char                             \
			    : (signed char)0, unsigned char                    \
			    : (unsigned char)0, short                          \
			    : (short)0, unsigned short                         \
			    : (unsigned short)0, int                           \
			    : (int)0, unsigned int                             \
			    : (unsigned int)0, long                            \
			    : (long)0, unsigned long                           \
			    : (unsigned long)0, long long                      \
			    : (long long)0, unsigned long long                 \
			    : (unsigned long long)0, _Bool                     \
			    : (_Bool)0, default                                \
			    : (x)))

/* Nothing is discarded after boot: __init code may be called any time. */
#define __init
#define __exit
#define __initdata
#define __initconst
#define __exitdata
#define __init_memblock
#define __meminit
#define __meminitdata
#define __devinit
#define __devexit
#define __ref
#define __refdata

#endif /* __ASSEMBLY__ */
#endif /* _LINUX_COMPILER_TYPES_H */
