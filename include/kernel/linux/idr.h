/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_IDR_H
#define _LINUX_IDR_H

/*
 * IDR: integer IDs mapped to pointers, on the xarray; IDA: IDs alone.
 * As the kernel's, an IDR is not locked against concurrent modification
 * (the caller serializes; idr_find() may run alongside under the caller's
 * rules); an IDA locks itself.  IDs are allocated lowest first.
 */

#include <linux/gfp_types.h>
#include <linux/xarray.h>

struct idr {
	struct xarray idr_rt;
	unsigned int idr_base;
	unsigned int idr_next;
};

#define IDR_INIT_BASE(name, base)                                              \
	{                                                                      \
		.idr_rt = XARRAY_INIT(name.idr_rt, XA_FLAGS_ALLOC),            \
		.idr_base = (base), .idr_next = 0,                             \
	}
#define IDR_INIT(name) IDR_INIT_BASE(name, 0)
#define DEFINE_IDR(name) struct idr name = IDR_INIT(name)

static inline void idr_init_base(struct idr *idr, int base)
{
	xa_init_flags(&idr->idr_rt, XA_FLAGS_ALLOC);
	idr->idr_base = (unsigned int)base;
	idr->idr_next = 0;
}
static inline void idr_init(struct idr *idr)
{
	idr_init_base(idr, 0);
}
static inline bool idr_is_empty(const struct idr *idr)
{
	return xa_empty(&idr->idr_rt);
}
/** idr_alloc() - an ID in [@start, @end) (@end <= 0: no limit) for @ptr, or
 * -ENOSPC/-ENOMEM. */
int idr_alloc(struct idr *idr, void *ptr, int start, int end, gfp_t gfp);
/** idr_alloc_cyclic() - idr_alloc() continuing after the last ID given. */
int idr_alloc_cyclic(struct idr *idr, void *ptr, int start, int end, gfp_t gfp);
int idr_alloc_u32(struct idr *idr, void *ptr, u32 *nextid, unsigned long max,
		  gfp_t gfp);
void *idr_find(const struct idr *idr, unsigned long id);
void *idr_remove(struct idr *idr, unsigned long id);
void *idr_replace(struct idr *idr, void *ptr, unsigned long id);
void *idr_get_next(struct idr *idr, int *nextid);
void *idr_get_next_ul(struct idr *idr, unsigned long *nextid);
int idr_for_each(const struct idr *idr, int (*fn)(int id, void *p, void *data),
		 void *data);
void idr_destroy(struct idr *idr);
#define idr_preload(gfp) ((void)(gfp))
#define idr_preload_end() ((void)0)
#define idr_lock(idr) xa_lock(&(idr)->idr_rt)
#define idr_unlock(idr) xa_unlock(&(idr)->idr_rt)
#define idr_for_each_entry(idr, entry, id)                                     \
	for (id = 0; ((entry) = idr_get_next(idr, &(id))) != NULL; id += 1U)
#define idr_for_each_entry_ul(idr, entry, tmp, id)                             \
	for (tmp = 0, id = 0; ((entry) = idr_get_next_ul(idr, &(id))) != NULL; \
	     id += 1)

struct ida {
	struct xarray xa;
};
#define IDA_INIT(name)                                                         \
	{                                                                      \
		.xa = XARRAY_INIT(name.xa, XA_FLAGS_ALLOC)                     \
	}
#define DEFINE_IDA(name) struct ida name = IDA_INIT(name)
static inline void ida_init(struct ida *ida)
{
	xa_init_flags(&ida->xa, XA_FLAGS_ALLOC);
}
/** ida_alloc_range() - the lowest free ID in [@min, @max], or -ENOSPC/-ENOMEM.
 */
int ida_alloc_range(struct ida *ida, unsigned int min, unsigned int max,
		    gfp_t gfp);
static inline int ida_alloc(struct ida *ida, gfp_t gfp)
{
	return ida_alloc_range(ida, 0, ~0U, gfp);
}
static inline int ida_alloc_min(struct ida *ida, unsigned int min, gfp_t gfp)
{
	return ida_alloc_range(ida, min, ~0U, gfp);
}
static inline int ida_alloc_max(struct ida *ida, unsigned int max, gfp_t gfp)
{
	return ida_alloc_range(ida, 0, max, gfp);
}
/** ida_free() - give back @id (reported if not allocated). */
void ida_free(struct ida *ida, unsigned int id);
void ida_destroy(struct ida *ida);
static inline bool ida_is_empty(const struct ida *ida)
{
	return xa_empty(&ida->xa);
}
#define ida_simple_get(ida, start, end, gfp)                                   \
	ida_alloc_range(ida, start, (end) ? (end)-1 : INT_MAX, gfp)
#define ida_simple_remove(ida, id) ida_free(ida, id)

#endif /* _LINUX_IDR_H */
