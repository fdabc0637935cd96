/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_VERSION_H
#define PREEMPT_VERSION_H

/*
 * The library's version, semantic versioning: the major number changes
 * when the ABI of libpreempt.so (its soname, libpreempt.so.MAJOR) does.
 * One source: the VERSION file at the top of the tree.
 */

/**
 * pk_version() - the version of the libpreempt that is linked, "X.Y.Z"
 *
 * Any context; the string is static.
 */
const char *pk_version(void);

#endif /* PREEMPT_VERSION_H */
