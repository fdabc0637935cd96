/* SPDX-License-Identifier: MIT */
#ifndef _TRACE_EVENTS_NOTIFIER_H
#define _TRACE_EVENTS_NOTIFIER_H
/* Notifier chain tracepoints (6.12's kernel/notifier.c): accepted, not
 * recorded. */
#define trace_notifier_register(cb) ((void)(cb))
#define trace_notifier_unregister(cb) ((void)(cb))
#define trace_notifier_run(cb) ((void)(cb))
#endif
