// SPDX-License-Identifier: MIT
#include "cli.h"

int cmd_tour(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_usage_error("tour", "not built yet");
}
