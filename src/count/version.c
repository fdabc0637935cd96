// SPDX-License-Identifier: MIT
/* The version string, from the VERSION file through the build. */
#include <preempt/version.h>

#ifndef PK_VERSION
#error "the build defines PK_VERSION from the VERSION file"
#endif

const char *pk_version(void)
{
	return PK_VERSION;
}
