/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_TOOLS_CLI_H
#define PREEMPT_TOOLS_CLI_H

/*
 * Subcommands of the `preempt` tool.  Each takes the arguments after its
 * name (argv[0] is the subcommand) and returns the exit status: 0 success,
 * 1 the command ran and found a problem, 2 bad input (after one line on
 * stderr).
 */

#include <stdio.h>

#define CLI_EXIT_USAGE 2

int cmd_audit(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_latency(int argc, char **argv);
int cmd_lockdep(int argc, char **argv);
int cmd_tour(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_torture(int argc, char **argv);

/* One-line error, "preempt: <cmd>: <message>", and CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* PREEMPT_TOOLS_CLI_H */
