// SPDX-License-Identifier: MIT
/*
 * The tracepoint table lives with the count layer, the lowest one whose
 * hooks use it, so no layer below trace links against the trace layer.
 */
#include <preempt/tracepoint.h>

const struct pk_tracepoint_ops *pk_tracepoint_ops;
