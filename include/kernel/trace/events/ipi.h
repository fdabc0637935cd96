/* SPDX-License-Identifier: MIT */
#ifndef _TRACE_EVENTS_IPI_H
#define _TRACE_EVENTS_IPI_H

/* The IPI tracepoints: never enabled here (no tracing of kernel code). */
#define trace_ipi_send_cpu_enabled() false
#define trace_ipi_send_cpu(cpu, callsite, callback)                            \
	do {                                                                   \
		(void)(cpu);                                                   \
		(void)(callsite);                                              \
		(void)(callback);                                              \
	} while (0)
#define trace_ipi_send_cpumask_enabled() false
#define trace_ipi_send_cpumask(mask, callsite, callback)                       \
	do {                                                                   \
	} while (0)

#endif
