/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_ERRSEQ_H
#define _LINUX_ERRSEQ_H

/*
 * errseq_t (Documentation/core-api/errseq.rst): the latest error and a
 * counter in one 32-bit word, so that each of many watchers, holding its
 * own sample, learns of an error once.  Lock-free (cmpxchg): errseq_set()
 * from any context.  lib/errseq.c, which a program brings.
 */

#include <linux/types.h>

typedef u32 errseq_t;

errseq_t errseq_set(errseq_t *eseq, int err);
/* A sample to check against later; 0 when an error nobody saw is pending. */
errseq_t errseq_sample(errseq_t *eseq);
/* The error recorded since @since, or 0. */
int errseq_check(errseq_t *eseq, errseq_t since);
/* The same, and move *@since on (marking the error seen). */
int errseq_check_and_advance(errseq_t *eseq, errseq_t *since);

#endif /* _LINUX_ERRSEQ_H */
