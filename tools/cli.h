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
int cmd_sim(int argc, char **argv);

/* One-line error, "preempt: <cmd>: <message>", and CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A long run's one-line status on stderr, redrawn in place when stderr is
 * a terminal; nothing at all when it is not (a log, a pipe, CI).
 * cli_progress() draws at most twice a second; cli_progress_clear()
 * erases the line before anything else is printed.
 */
void cli_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_progress_clear(void);

#endif /* PREEMPT_TOOLS_CLI_H */
