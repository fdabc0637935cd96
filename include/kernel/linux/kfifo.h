/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_KFIFO_H
#define _LINUX_KFIFO_H

/*
 * kfifo: a ring buffer of fixed-size elements whose size is a power of
 * two; in and out are free-running counters, masked on access.  One
 * producer and one consumer need no lock (each side publishes with a
 * barrier); more on either side need one (the _spinlocked forms).  A
 * record fifo (recsize 1 or 2) keeps variable-length records, each after
 * a 1- or 2-byte length.
 *
 * The functions (__kfifo_*) are the kernel's lib/kfifo.c; this library
 * ships its own implementation of them, and a program that compiles the
 * real lib/kfifo.c uses that one instead.  The layout of struct __kfifo
 * is the kernel's, so both agree.
 */

#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/stddef.h>
#include <asm/barrier.h>

struct __kfifo {
	unsigned int in;
	unsigned int out;
	unsigned int mask;
	unsigned int esize;
	void *data;
};

/* The union lets the macros recover the element type of any fifo. */
#define __STRUCT_KFIFO_COMMON(datatype, recsize, ptrtype)                      \
	union {                                                                \
		struct __kfifo kfifo;                                          \
		datatype *type;                                                \
		const datatype *const_type;                                    \
		char (*rectype)[recsize];                                      \
		ptrtype *ptr;                                                  \
		ptrtype const *ptr_const;                                      \
	}
#define __STRUCT_KFIFO(type, size, recsize, ptrtype)                           \
	{                                                                      \
		__STRUCT_KFIFO_COMMON(type, recsize, ptrtype);                 \
		type buf[((size < 2) || (size & (size - 1))) ? -1 : size];     \
	}
#define STRUCT_KFIFO(type, size) struct __STRUCT_KFIFO(type, size, 0, type)
#define __STRUCT_KFIFO_PTR(type, recsize, ptrtype)                             \
	{                                                                      \
		__STRUCT_KFIFO_COMMON(type, recsize, ptrtype);                 \
		type buf[0];                                                   \
	}
#define STRUCT_KFIFO_PTR(type) struct __STRUCT_KFIFO_PTR(type, 0, type)

struct kfifo __STRUCT_KFIFO_PTR(unsigned char, 0, void);
#define STRUCT_KFIFO_REC_1(size)                                               \
	struct __STRUCT_KFIFO(unsigned char, size, 1, void)
#define STRUCT_KFIFO_REC_2(size)                                               \
	struct __STRUCT_KFIFO(unsigned char, size, 2, void)
struct kfifo_rec_ptr_1 __STRUCT_KFIFO_PTR(unsigned char, 1, void);
struct kfifo_rec_ptr_2 __STRUCT_KFIFO_PTR(unsigned char, 2, void);

#define __is_kfifo_ptr(fifo)                                                   \
	(sizeof(*fifo) == sizeof(STRUCT_KFIFO_PTR(__typeof__(*(fifo)->type))))
#define DECLARE_KFIFO_PTR(fifo, type) STRUCT_KFIFO_PTR(type) fifo
#define DECLARE_KFIFO(fifo, type, size) STRUCT_KFIFO(type, size) fifo
/** INIT_KFIFO() - make a DECLARE_KFIFO() fifo empty and usable. */
#define INIT_KFIFO(fifo)                                                       \
	(void)({                                                               \
		__typeof__(&(fifo)) __tmp = &(fifo);                           \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		__kfifo->in = 0;                                               \
		__kfifo->out = 0;                                              \
		__kfifo->mask = __is_kfifo_ptr(__tmp)                          \
					? 0                                    \
					: ARRAY_SIZE(__tmp->buf) - 1;          \
		__kfifo->esize = sizeof(*__tmp->buf);                          \
		__kfifo->data = __is_kfifo_ptr(__tmp) ? NULL : __tmp->buf;     \
	})
/** DEFINE_KFIFO() - a fifo of @size @type elements, initialized. */
#define DEFINE_KFIFO(fifo, type, size)                                         \
	DECLARE_KFIFO(fifo, type, size) = (__typeof__(fifo))                   \
	{                                                                      \
		{                                                              \
			{                                                      \
				.in = 0, .out = 0,                             \
				.mask = __is_kfifo_ptr(&(fifo))                \
						? 0                            \
						: ARRAY_SIZE((fifo).buf) - 1,  \
				.esize = sizeof(*(fifo).buf),                  \
				.data = __is_kfifo_ptr(&(fifo)) ? NULL         \
								: (fifo).buf,  \
			}                                                      \
		}                                                              \
	}

static inline unsigned int __must_check
__kfifo_uint_must_check_helper(unsigned int val)
{
	return val;
}
static inline int __must_check __kfifo_int_must_check_helper(int val)
{
	return val;
}

#define kfifo_initialized(fifo) ((fifo)->kfifo.mask)
#define kfifo_esize(fifo) ((fifo)->kfifo.esize)
#define kfifo_recsize(fifo) (sizeof(*(fifo)->rectype))
#define kfifo_size(fifo) ((fifo)->kfifo.mask + 1)
#define kfifo_reset(fifo)                                                      \
	(void)({                                                               \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		__tmp->kfifo.in = __tmp->kfifo.out = 0;                        \
	})
#define kfifo_reset_out(fifo)                                                  \
	(void)({                                                               \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		__tmp->kfifo.out = __tmp->kfifo.in;                            \
	})
/** kfifo_len() - elements (bytes for record fifos) in use. */
#define kfifo_len(fifo)                                                        \
	({                                                                     \
		__typeof__((fifo) + 1) __tmpl = (fifo);                        \
		__tmpl->kfifo.in - __tmpl->kfifo.out;                          \
	})
#define kfifo_is_empty(fifo)                                                   \
	({                                                                     \
		__typeof__((fifo) + 1) __tmpq = (fifo);                        \
		__tmpq->kfifo.in == __tmpq->kfifo.out;                         \
	})
#define kfifo_is_empty_spinlocked(fifo, lock)                                  \
	({                                                                     \
		unsigned long __flags;                                         \
		bool __ret;                                                    \
		spin_lock_irqsave(lock, __flags);                              \
		__ret = kfifo_is_empty(fifo);                                  \
		spin_unlock_irqrestore(lock, __flags);                         \
		__ret;                                                         \
	})
#define kfifo_is_full(fifo)                                                    \
	({                                                                     \
		__typeof__((fifo) + 1) __tmpq = (fifo);                        \
		kfifo_len(__tmpq) > __tmpq->kfifo.mask;                        \
	})
/** kfifo_avail() - room left, in elements (bytes of payload for records). */
#define kfifo_avail(fifo)                                                      \
	__kfifo_uint_must_check_helper(({                                      \
		__typeof__((fifo) + 1) __tmpq = (fifo);                        \
		const size_t __recsize = sizeof(*__tmpq->rectype);             \
		unsigned int __avail = kfifo_size(__tmpq) - kfifo_len(__tmpq); \
		(__recsize) ? ((__avail <= __recsize)                          \
				       ? 0                                     \
				       : __kfifo_max_r(__avail - __recsize,    \
						       __recsize))             \
			    : __avail;                                         \
	}))
#define kfifo_skip(fifo)                                                       \
	(void)({                                                               \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		const size_t __recsize = sizeof(*__tmp->rectype);              \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		if (__recsize)                                                 \
			__kfifo_skip_r(__kfifo, __recsize);                    \
		else                                                           \
			__kfifo->out++;                                        \
	})
#define kfifo_peek_len(fifo)                                                   \
	__kfifo_uint_must_check_helper(({                                      \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		const size_t __recsize = sizeof(*__tmp->rectype);              \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		(!__recsize) ? kfifo_len(__tmp) * sizeof(*__tmp->type)         \
			     : __kfifo_len_r(__kfifo, __recsize);              \
	}))
/** kfifo_alloc() - allocate the buffer of a DECLARE_KFIFO_PTR() fifo. */
#define kfifo_alloc(fifo, size, gfp_mask)                                      \
	__kfifo_int_must_check_helper(({                                       \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		__is_kfifo_ptr(__tmp)                                          \
			? __kfifo_alloc(__kfifo, size, sizeof(*__tmp->type),   \
					gfp_mask)                              \
			: -EINVAL;                                             \
	}))
#define kfifo_free(fifo)                                                       \
	({                                                                     \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		if (__is_kfifo_ptr(__tmp))                                     \
			__kfifo_free(__kfifo);                                 \
	})
#define kfifo_init(fifo, buffer, size)                                         \
	({                                                                     \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		__is_kfifo_ptr(__tmp) ? __kfifo_init(__kfifo, buffer, size,    \
						     sizeof(*__tmp->type))     \
				      : -EINVAL;                               \
	})
/** kfifo_put() - add one element; 1, or 0 if full.  One producer. */
#define kfifo_put(fifo, val)                                                   \
	({                                                                     \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		__typeof__(*__tmp->const_type) __val = (val);                  \
		unsigned int __ret;                                            \
		size_t __recsize = sizeof(*__tmp->rectype);                    \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		if (__recsize)                                                 \
			__ret = __kfifo_in_r(__kfifo, &__val, sizeof(__val),   \
					     __recsize);                       \
		else {                                                         \
			__ret = !kfifo_is_full(__tmp);                         \
			if (__ret) {                                           \
				(__is_kfifo_ptr(__tmp)                         \
					 ? ((__typeof__(__tmp->type))          \
						    __kfifo->data)             \
					 : (__tmp->buf))[__kfifo->in &         \
							 __tmp->kfifo.mask] =  \
					*(__typeof__(__tmp->type))&__val;      \
				smp_wmb();                                     \
				__kfifo->in++;                                 \
			}                                                      \
		}                                                              \
		__ret;                                                         \
	})
/** kfifo_get() - take one element into *@val; 1, or 0 if empty. */
#define kfifo_get(fifo, val)                                                   \
	__kfifo_uint_must_check_helper(({                                      \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		__typeof__(__tmp->ptr) __val = (val);                          \
		unsigned int __ret;                                            \
		const size_t __recsize = sizeof(*__tmp->rectype);              \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		if (__recsize)                                                 \
			__ret = __kfifo_out_r(__kfifo, __val, sizeof(*__val),  \
					      __recsize);                      \
		else {                                                         \
			__ret = !kfifo_is_empty(__tmp);                        \
			if (__ret) {                                           \
				*(__typeof__(__tmp->type))__val =              \
					(__is_kfifo_ptr(__tmp)                 \
						 ? ((__typeof__(__tmp->type))  \
							    __kfifo->data)     \
						 : (__tmp->buf))               \
						[__kfifo->out &                \
						 __tmp->kfifo.mask];           \
				smp_wmb();                                     \
				__kfifo->out++;                                \
			}                                                      \
		}                                                              \
		__ret;                                                         \
	}))
/** kfifo_peek() - kfifo_get() without removing. */
#define kfifo_peek(fifo, val)                                                  \
	__kfifo_uint_must_check_helper(({                                      \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		__typeof__(__tmp->ptr) __val = (val);                          \
		unsigned int __ret;                                            \
		const size_t __recsize = sizeof(*__tmp->rectype);              \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		if (__recsize)                                                 \
			__ret = __kfifo_out_peek_r(__kfifo, __val,             \
						   sizeof(*__val), __recsize); \
		else {                                                         \
			__ret = !kfifo_is_empty(__tmp);                        \
			if (__ret) {                                           \
				*(__typeof__(__tmp->type))__val =              \
					(__is_kfifo_ptr(__tmp)                 \
						 ? ((__typeof__(__tmp->type))  \
							    __kfifo->data)     \
						 : (__tmp->buf))               \
						[__kfifo->out &                \
						 __tmp->kfifo.mask];           \
				smp_wmb();                                     \
			}                                                      \
		}                                                              \
		__ret;                                                         \
	}))
/** kfifo_in() - add up to @n elements (one record); how many went in. */
#define kfifo_in(fifo, buf, n)                                                 \
	({                                                                     \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		__typeof__(__tmp->ptr_const) __buf = (buf);                    \
		unsigned long __n = (n);                                       \
		const size_t __recsize = sizeof(*__tmp->rectype);              \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		(__recsize) ? __kfifo_in_r(__kfifo, __buf, __n, __recsize)     \
			    : __kfifo_in(__kfifo, __buf, __n);                 \
	})
#define kfifo_in_spinlocked(fifo, buf, n, lock)                                \
	({                                                                     \
		unsigned long __flags;                                         \
		unsigned int __ret;                                            \
		spin_lock_irqsave(lock, __flags);                              \
		__ret = kfifo_in(fifo, buf, n);                                \
		spin_unlock_irqrestore(lock, __flags);                         \
		__ret;                                                         \
	})
#define kfifo_in_spinlocked_noirqsave(fifo, buf, n, lock)                      \
	({                                                                     \
		unsigned int __ret;                                            \
		spin_lock(lock);                                               \
		__ret = kfifo_in(fifo, buf, n);                                \
		spin_unlock(lock);                                             \
		__ret;                                                         \
	})
/** kfifo_out() - take up to @n elements (one record); how many came. */
#define kfifo_out(fifo, buf, n)                                                \
	__kfifo_uint_must_check_helper(({                                      \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		__typeof__(__tmp->ptr) __buf = (buf);                          \
		unsigned long __n = (n);                                       \
		const size_t __recsize = sizeof(*__tmp->rectype);              \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		(__recsize) ? __kfifo_out_r(__kfifo, __buf, __n, __recsize)    \
			    : __kfifo_out(__kfifo, __buf, __n);                \
	}))
#define kfifo_out_spinlocked(fifo, buf, n, lock)                               \
	__kfifo_uint_must_check_helper(({                                      \
		unsigned long __flags;                                         \
		unsigned int __ret;                                            \
		spin_lock_irqsave(lock, __flags);                              \
		__ret = kfifo_out(fifo, buf, n);                               \
		spin_unlock_irqrestore(lock, __flags);                         \
		__ret;                                                         \
	}))
#define kfifo_out_spinlocked_noirqsave(fifo, buf, n, lock)                     \
	__kfifo_uint_must_check_helper(({                                      \
		unsigned int __ret;                                            \
		spin_lock(lock);                                               \
		__ret = kfifo_out(fifo, buf, n);                               \
		spin_unlock(lock);                                             \
		__ret;                                                         \
	}))
#define kfifo_out_peek(fifo, buf, n)                                           \
	__kfifo_uint_must_check_helper(({                                      \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		__typeof__(__tmp->ptr) __buf = (buf);                          \
		unsigned long __n = (n);                                       \
		const size_t __recsize = sizeof(*__tmp->rectype);              \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		(__recsize)                                                    \
			? __kfifo_out_peek_r(__kfifo, __buf, __n, __recsize)   \
			: __kfifo_out_peek(__kfifo, __buf, __n);               \
	}))
#define kfifo_from_user(fifo, from, len, copied)                               \
	__kfifo_uint_must_check_helper(({                                      \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		const void __user *__from = (from);                            \
		unsigned int __len = (len);                                    \
		unsigned int *__copied = (copied);                             \
		const size_t __recsize = sizeof(*__tmp->rectype);              \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		(__recsize)                                                    \
			? __kfifo_from_user_r(__kfifo, __from, __len,          \
					      __copied, __recsize)             \
			: __kfifo_from_user(__kfifo, __from, __len, __copied); \
	}))
#define kfifo_to_user(fifo, to, len, copied)                                   \
	__kfifo_int_must_check_helper(({                                       \
		__typeof__((fifo) + 1) __tmp = (fifo);                         \
		void __user *__to = (to);                                      \
		unsigned int __len = (len);                                    \
		unsigned int *__copied = (copied);                             \
		const size_t __recsize = sizeof(*__tmp->rectype);              \
		struct __kfifo *__kfifo = &__tmp->kfifo;                       \
		(__recsize) ? __kfifo_to_user_r(__kfifo, __to, __len,          \
						__copied, __recsize)           \
			    : __kfifo_to_user(__kfifo, __to, __len, __copied); \
	}))

int __kfifo_alloc(struct __kfifo *fifo, unsigned int size, size_t esize,
		  gfp_t gfp_mask);
void __kfifo_free(struct __kfifo *fifo);
int __kfifo_init(struct __kfifo *fifo, void *buffer, unsigned int size,
		 size_t esize);
unsigned int __kfifo_in(struct __kfifo *fifo, const void *buf,
			unsigned int len);
unsigned int __kfifo_out(struct __kfifo *fifo, void *buf, unsigned int len);
int __kfifo_from_user(struct __kfifo *fifo, const void __user *from,
		      unsigned long len, unsigned int *copied);
int __kfifo_to_user(struct __kfifo *fifo, void __user *to, unsigned long len,
		    unsigned int *copied);
/*
 * The DMA preparations gained a dma_addr_t parameter in Linux 6.12; the
 * tree declares them without a prototype so that lib/kfifo.c of either
 * version compiles against it.  No kfifo_dma_*() macro is provided: there
 * are no devices to map for.
 */
unsigned int __kfifo_dma_in_prepare();
unsigned int __kfifo_dma_out_prepare();
unsigned int __kfifo_out_peek(struct __kfifo *fifo, void *buf,
			      unsigned int len);
unsigned int __kfifo_in_r(struct __kfifo *fifo, const void *buf,
			  unsigned int len, size_t recsize);
unsigned int __kfifo_out_r(struct __kfifo *fifo, void *buf, unsigned int len,
			   size_t recsize);
int __kfifo_from_user_r(struct __kfifo *fifo, const void __user *from,
			unsigned long len, unsigned int *copied,
			size_t recsize);
int __kfifo_to_user_r(struct __kfifo *fifo, void __user *to, unsigned long len,
		      unsigned int *copied, size_t recsize);
unsigned int __kfifo_dma_in_prepare_r();
void __kfifo_dma_in_finish_r(struct __kfifo *fifo, unsigned int len,
			     size_t recsize);
unsigned int __kfifo_dma_out_prepare_r();
void __kfifo_dma_out_finish_r(struct __kfifo *fifo, size_t recsize);
unsigned int __kfifo_len_r(struct __kfifo *fifo, size_t recsize);
void __kfifo_skip_r(struct __kfifo *fifo, size_t recsize);
unsigned int __kfifo_out_peek_r(struct __kfifo *fifo, void *buf,
				unsigned int len, size_t recsize);
unsigned int __kfifo_max_r(unsigned int len, size_t recsize);

#endif /* _LINUX_KFIFO_H */
