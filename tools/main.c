// SPDX-License-Identifier: MIT
/* `preempt`: the command-line face of libpreempt. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <preempt/version.h>

#include "cli.h"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{"audit", cmd_audit, "find context-predicate misuse in C code"},
	{"demo", cmd_demo, "every model under one workload, one table"},
	{"decode", cmd_decode, "explain preempt_count values or kernel logs"},
	{"latency", cmd_latency, "cyclictest inside the machine"},
	{"lockdep", cmd_lockdep, "the lock validator's statistics and reports"},
	{"cyclictest", cmd_latency,
	 "the same as latency, by cyclictest's name"},
	{"tour", cmd_tour, "walk the context transitions, word by word"},
	{"trace", cmd_trace, "latency tracers (irqsoff, preemptoff, ...)"},
	{"torture", cmd_torture, "a long randomized run, every count checked"},
	{"sim", cmd_sim, "many simulation seeds: find, replay, reduce a race"},
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fprintf(out, "usage: preempt <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].help);
	fprintf(out, "\n`preempt <command> --help` describes one; "
		     "`preempt --version` names the version.\n");
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');

	/* Installed or linked as `cyclictest`, the tool is that command. */
	if (!strcmp(base ? base + 1 : argv[0], "cyclictest"))
		return cmd_latency(argc, argv);
	if (argc < 2)
		return cli_usage_error(NULL, "no command (try `preempt help`)");
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("preempt %s\n", pk_version());
		return 0;
	}
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	return cli_usage_error(
		NULL, "unknown command '%s' (try `preempt help`)", argv[1]);
}
