/* SPDX-License-Identifier: MIT */
#ifndef RUN_TOOL_H
#define RUN_TOOL_H

/*
 * Run the built preempt tool (PREEMPT_TOOL_PATH) and keep its stdout,
 * stderr and exit status in res.  Define RUN_TOOL_OUT_MAX and
 * RUN_TOOL_ERR_MAX before including to size the buffers.
 */

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#ifndef RUN_TOOL_OUT_MAX
#define RUN_TOOL_OUT_MAX 65536
#endif
#ifndef RUN_TOOL_ERR_MAX
#define RUN_TOOL_ERR_MAX 65536
#endif

static struct {
	char out[RUN_TOOL_OUT_MAX], err[RUN_TOOL_ERR_MAX];
	int status;
} res;

/* Fail, showing @hay, unless it contains @needle. */
#define assert_contains(hay, needle)                                           \
	do {                                                                   \
		if (!strstr((hay), (needle)))                                  \
			fail_msg("missing \"%s\" in:\n%s", (needle), (hay));   \
	} while (0)

static inline void slurp(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	close(fd);
}

/* In the child: stdin from @in (NULL: /dev/null), @env set, then exec. */
static inline void run_tool_child(const char *in, const char *env, int out,
				  int err, const char *const *argv)
{
	int fd = open(in ? in : "/dev/null", O_RDONLY);

	if (env)
		putenv((char *)env);
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	pk_execv(PREEMPT_TOOL_PATH, (char *const *)argv);
	_exit(127);
}

/*
 * Run the tool with stdin from @in (NULL: /dev/null) and @env ("NAME=value"
 * or NULL) set in the child; its output lands in res.  Returns the status.
 */
static inline int run_tool_with(const char *in, const char *env,
				const char *const *argv)
{
	char out_path[] = "/tmp/test_tool_out.XXXXXX";
	char err_path[] = "/tmp/test_tool_err.XXXXXX";
	int out = mkstemp(out_path), err = mkstemp(err_path), wstatus;
	pid_t pid;

	assert_true(out >= 0 && err >= 0);
	unlink(out_path);
	unlink(err_path);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		run_tool_child(in, env, out, err, argv);
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus));
	slurp(out, res.out, sizeof(res.out));
	slurp(err, res.err, sizeof(res.err));
	res.status = WEXITSTATUS(wstatus);
	return res.status;
}

#endif /* RUN_TOOL_H */
