/* SPDX-License-Identifier: MIT */
/* Declarations the audit test tree's files pretend to include.  Coccinelle
 * reads them without includes, so this is for human readers only. */
#ifndef FAKE_KERNEL_H
#define FAKE_KERNEL_H
#endif
