// SPDX-License-Identifier: MIT
/*
 * kfifo's functions (linux/kfifo.h), one object of their own so a program
 * that compiles the kernel's lib/kfifo.c links that one instead.  Sizes
 * are in elements of esize bytes; record fifos count bytes (esize 1).
 */

#include <linux/kfifo.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

static unsigned int fifo_unused(struct __kfifo *fifo)
{
	return (fifo->mask + 1) - (fifo->in - fifo->out);
}

int __kfifo_alloc(struct __kfifo *fifo, unsigned int size, size_t esize,
		  gfp_t gfp)
{
	size = (unsigned int)roundup_pow_of_two(size);
	fifo->in = fifo->out = 0;
	fifo->esize = (unsigned int)esize;
	if (size < 2) {
		fifo->data = NULL;
		fifo->mask = 0;
		return -EINVAL;
	}
	fifo->data = kmalloc_array(esize, size, gfp);
	if (!fifo->data) {
		fifo->mask = 0;
		return -ENOMEM;
	}
	fifo->mask = size - 1;
	return 0;
}

void __kfifo_free(struct __kfifo *fifo)
{
	kfree(fifo->data);
	fifo->in = fifo->out = fifo->esize = fifo->mask = 0;
	fifo->data = NULL;
}

int __kfifo_init(struct __kfifo *fifo, void *buffer, unsigned int size,
		 size_t esize)
{
	size /= (unsigned int)esize;
	if (!is_power_of_2(size))
		size = (unsigned int)rounddown_pow_of_two(size);
	fifo->in = fifo->out = 0;
	fifo->esize = (unsigned int)esize;
	fifo->data = buffer;
	if (size < 2) {
		fifo->mask = 0;
		return -EINVAL;
	}
	fifo->mask = size - 1;
	return 0;
}

/* Copy @len elements at position @off of the ring, wrapping. */
static void ring_copy(struct __kfifo *fifo, void *buf, unsigned int len,
		      unsigned int off, bool in)
{
	unsigned int size = fifo->mask + 1, esize = fifo->esize, l;
	char *data = fifo->data;

	off &= fifo->mask;
	if (esize != 1) {
		off *= esize;
		size *= esize;
		len *= esize;
	}
	l = min(len, size - off);
	if (in) {
		memcpy(data + off, buf, l);
		memcpy(data, (char *)buf + l, len - l);
		smp_wmb(); /* the data before the index that publishes it */
	} else {
		memcpy(buf, data + off, l);
		memcpy((char *)buf + l, data, len - l);
		smp_wmb(); /* the data read before the slot is given back */
	}
}

unsigned int __kfifo_in(struct __kfifo *fifo, const void *buf, unsigned int len)
{
	len = min(len, fifo_unused(fifo));
	ring_copy(fifo, (void *)buf, len, fifo->in, true);
	fifo->in += len;
	return len;
}

unsigned int __kfifo_out_peek(struct __kfifo *fifo, void *buf, unsigned int len)
{
	len = min(len, fifo->in - fifo->out);
	ring_copy(fifo, buf, len, fifo->out, false);
	return len;
}

unsigned int __kfifo_out(struct __kfifo *fifo, void *buf, unsigned int len)
{
	len = __kfifo_out_peek(fifo, buf, len);
	fifo->out += len;
	return len;
}

/* User copies go through a bounce buffer: copy_*_user() may fault. */
int __kfifo_from_user(struct __kfifo *fifo, const void __user *from,
		      unsigned long len, unsigned int *copied)
{
	unsigned int n = min((unsigned int)len, fifo_unused(fifo));
	size_t bytes = (size_t)n * fifo->esize;
	void *tmp = kmalloc(bytes ? bytes : 1, GFP_KERNEL);
	unsigned long left;

	if (!tmp)
		return -ENOMEM;
	left = copy_from_user(tmp, from, bytes);
	n -= (unsigned int)DIV_ROUND_UP(left, fifo->esize);
	__kfifo_in(fifo, tmp, n);
	kfree(tmp);
	*copied = n * fifo->esize;
	return left ? -EFAULT : 0;
}

int __kfifo_to_user(struct __kfifo *fifo, void __user *to, unsigned long len,
		    unsigned int *copied)
{
	unsigned int n = min((unsigned int)len, fifo->in - fifo->out);
	size_t bytes = (size_t)n * fifo->esize;
	void *tmp = kmalloc(bytes ? bytes : 1, GFP_KERNEL);
	unsigned long left;

	if (!tmp)
		return -ENOMEM;
	__kfifo_out_peek(fifo, tmp, n);
	left = copy_to_user(to, tmp, bytes);
	n -= (unsigned int)DIV_ROUND_UP(left, fifo->esize);
	fifo->out += n;
	kfree(tmp);
	*copied = n * fifo->esize;
	return left ? -EFAULT : 0;
}

/* One or two scatterlist entries covering @len elements from @off. */
static unsigned int ring_sgl(struct __kfifo *fifo, struct scatterlist *sgl,
			     int nents, unsigned int len, unsigned int off)
{
	unsigned int size = (fifo->mask + 1) * fifo->esize, l, n = 0;
	char *data = fifo->data;

	off = (off & fifo->mask) * fifo->esize;
	len *= fifo->esize;
	l = min(len, size - off);
	if (nents < 1 || !len)
		return 0;
	sg_set_buf(&sgl[n++], data + off, l);
	if (len > l && nents > 1)
		sg_set_buf(&sgl[n++], data, len - l);
	sg_mark_end(&sgl[n - 1]);
	return n;
}

unsigned int __kfifo_dma_in_prepare(struct __kfifo *fifo,
				    struct scatterlist *sgl, int nents,
				    unsigned int len)
{
	return ring_sgl(fifo, sgl, nents, min(len, fifo_unused(fifo)),
			fifo->in);
}

unsigned int __kfifo_dma_out_prepare(struct __kfifo *fifo,
				     struct scatterlist *sgl, int nents,
				     unsigned int len)
{
	return ring_sgl(fifo, sgl, nents, min(len, fifo->in - fifo->out),
			fifo->out);
}

/* ---- record fifos: each record after a 1- or 2-byte length ---- */

unsigned int __kfifo_max_r(unsigned int len, size_t recsize)
{
	unsigned int max = (1U << (recsize << 3)) - 1;

	return len > max ? max : len;
}

static unsigned int rec_len_at(struct __kfifo *fifo, unsigned int pos,
			       size_t recsize)
{
	const unsigned char *data = fifo->data;
	unsigned int l = data[pos & fifo->mask];

	if (recsize > 1)
		l |= (unsigned int)data[(pos + 1) & fifo->mask] << 8;
	return l;
}

static void rec_len_put(struct __kfifo *fifo, unsigned int n, size_t recsize)
{
	unsigned char *data = fifo->data;

	data[fifo->in & fifo->mask] = (unsigned char)n;
	if (recsize > 1)
		data[(fifo->in + 1) & fifo->mask] = (unsigned char)(n >> 8);
}

unsigned int __kfifo_len_r(struct __kfifo *fifo, size_t recsize)
{
	return rec_len_at(fifo, fifo->out, recsize);
}

unsigned int __kfifo_in_r(struct __kfifo *fifo, const void *buf,
			  unsigned int len, size_t recsize)
{
	if (len + recsize > fifo_unused(fifo))
		return 0;
	rec_len_put(fifo, len, recsize);
	ring_copy(fifo, (void *)buf, len, fifo->in + (unsigned int)recsize,
		  true);
	fifo->in += len + (unsigned int)recsize;
	return len;
}

unsigned int __kfifo_out_peek_r(struct __kfifo *fifo, void *buf,
				unsigned int len, size_t recsize)
{
	unsigned int n;

	if (fifo->in == fifo->out)
		return 0;
	n = rec_len_at(fifo, fifo->out, recsize);
	len = min(len, n);
	ring_copy(fifo, buf, len, fifo->out + (unsigned int)recsize, false);
	return len;
}

unsigned int __kfifo_out_r(struct __kfifo *fifo, void *buf, unsigned int len,
			   size_t recsize)
{
	unsigned int n;

	if (fifo->in == fifo->out)
		return 0;
	n = rec_len_at(fifo, fifo->out, recsize);
	len = __kfifo_out_peek_r(fifo, buf, len, recsize);
	fifo->out += n +
		     (unsigned int)
			     recsize; /* the rest of a long record is dropped */
	return len;
}

void __kfifo_skip_r(struct __kfifo *fifo, size_t recsize)
{
	fifo->out +=
		rec_len_at(fifo, fifo->out, recsize) + (unsigned int)recsize;
}

int __kfifo_from_user_r(struct __kfifo *fifo, const void __user *from,
			unsigned long len, unsigned int *copied, size_t recsize)
{
	void *tmp;
	unsigned long left;

	len = __kfifo_max_r((unsigned int)len, recsize);
	if (len + recsize > fifo_unused(fifo)) {
		*copied = 0;
		return 0;
	}
	tmp = kmalloc(len ? len : 1, GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	left = copy_from_user(tmp, from, len);
	if (!left)
		__kfifo_in_r(fifo, tmp, (unsigned int)len, recsize);
	kfree(tmp);
	*copied = left ? 0 : (unsigned int)len;
	return left ? -EFAULT : 0;
}

int __kfifo_to_user_r(struct __kfifo *fifo, void __user *to, unsigned long len,
		      unsigned int *copied, size_t recsize)
{
	unsigned int n;
	void *tmp;
	unsigned long left;

	if (fifo->in == fifo->out) {
		*copied = 0;
		return 0;
	}
	n = rec_len_at(fifo, fifo->out, recsize);
	if (len > n)
		len = n;
	tmp = kmalloc(len ? len : 1, GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	__kfifo_out_peek_r(fifo, tmp, (unsigned int)len, recsize);
	left = copy_to_user(to, tmp, len);
	kfree(tmp);
	if (left) {
		*copied = 0;
		return -EFAULT;
	}
	fifo->out += n + (unsigned int)recsize;
	*copied = (unsigned int)len;
	return 0;
}

unsigned int __kfifo_dma_in_prepare_r(struct __kfifo *fifo,
				      struct scatterlist *sgl, int nents,
				      unsigned int len, size_t recsize)
{
	len = __kfifo_max_r(len, recsize);
	if (len + recsize > fifo_unused(fifo))
		return 0;
	return ring_sgl(fifo, sgl, nents, len,
			fifo->in + (unsigned int)recsize);
}

void __kfifo_dma_in_finish_r(struct __kfifo *fifo, unsigned int len,
			     size_t recsize)
{
	len = __kfifo_max_r(len, recsize);
	rec_len_put(fifo, len, recsize);
	fifo->in += len + (unsigned int)recsize;
}

unsigned int __kfifo_dma_out_prepare_r(struct __kfifo *fifo,
				       struct scatterlist *sgl, int nents,
				       unsigned int len, size_t recsize)
{
	len = __kfifo_max_r(len, recsize);
	if (len + recsize > fifo->in - fifo->out)
		return 0;
	return ring_sgl(fifo, sgl, nents, len,
			fifo->out + (unsigned int)recsize);
}

void __kfifo_dma_out_finish_r(struct __kfifo *fifo, size_t recsize)
{
	__kfifo_skip_r(fifo, recsize);
}
