/* SPDX-License-Identifier: MIT */
#ifndef _TRACE_EVENTS_LOCK_H
#define _TRACE_EVENTS_LOCK_H
/* Lock contention tracepoints: accepted, not recorded. */
#define trace_contention_begin(lock, flags) ((void)(lock))
#define trace_contention_end(lock, ret) ((void)(lock))
#endif
