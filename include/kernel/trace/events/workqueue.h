/* SPDX-License-Identifier: MIT */
#ifndef _TRACE_EVENTS_WORKQUEUE_H
#define _TRACE_EVENTS_WORKQUEUE_H

/*
 * The workqueue tracepoints, for a program's own kernel/workqueue.c:
 * never enabled here (kernel code's tracepoints are not traced), so each
 * is a statement that only evaluates nothing.  A file that defines
 * CREATE_TRACE_POINTS before including this gets no definitions either.
 */

#define trace_workqueue_queue_work(req_cpu, pwq, work)                         \
	do {                                                                   \
		(void)(req_cpu);                                               \
		(void)(pwq);                                                   \
		(void)(work);                                                  \
	} while (0)
#define trace_workqueue_activate_work(work) ((void)(work))
#define trace_workqueue_execute_start(work) ((void)(work))
#define trace_workqueue_execute_end(work, function)                            \
	do {                                                                   \
		(void)(work);                                                  \
		(void)(function);                                              \
	} while (0)

#endif
