// SPDX-License-Identifier: MIT
/*
 * Blocking host calls in atomic context (docs/blocking.md): every wrapped
 * function called from every context in every model, on a machine's task
 * and in its interrupt handlers, reported exactly where the rule says and
 * nowhere else; once per call site; the switches.
 *
 * Built twice: test_blocking links libpreempt.so (symbol interposition),
 * test_blocking_a links libpreempt.a with the --wrap recipe.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>

#include <preempt/delay.h>
#include <preempt/interrupt.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "pk_machine.h"

#if defined(__SANITIZE_ADDRESS__)
#define ALLOC_WRAPPED 0 /* ASan owns malloc: the family is not wrapped */
#else
#define ALLOC_WRAPPED 1
#endif

enum fn {
	F_read,
	F_write,
	F_nanosleep,
	F_clock_nanosleep,
	F_usleep,
	F_sleep,
	F_poll,
	F_select,
	F_epoll_wait,
	F_pthread_mutex_lock,
	F_pthread_cond_timedwait,
	F_sem_wait,
	F_sem_timedwait,
	F_fopen,
	F_fclose,
	F_fflush,
	F_fwrite,
	F_fputs,
	F_puts,
	F_printf,
	F_fprintf,
	F_vprintf,
	F_vfprintf,
	F_putchar,
	F_putc,
	F_fputc,
	F_recv,
	F_accept,
	F_open,
	F___open_2,
	F___read_chk,
	F___printf_chk,
	F___fprintf_chk,
	F___vprintf_chk,
	F___vfprintf_chk,
	F_malloc,
	F_calloc,
	F_realloc,
	F_free,
	NR_FN,
};

static const char *const fn_names[NR_FN] = {
	"read",
	"write",
	"nanosleep",
	"clock_nanosleep",
	"usleep",
	"sleep",
	"poll",
	"select",
	"epoll_wait",
	"pthread_mutex_lock",
	"pthread_cond_timedwait",
	"sem_wait",
	"sem_timedwait",
	"fopen",
	"fclose",
	"fflush",
	"fwrite",
	"fputs",
	"puts",
	"printf",
	"fprintf",
	"vprintf",
	"vfprintf",
	"putchar",
	"putc",
	"fputc",
	"recv",
	"accept",
	"open",
	"__open_2",
	"__read_chk",
	"__printf_chk",
	"__fprintf_chk",
	"__vprintf_chk",
	"__vfprintf_chk",
	"malloc",
	"calloc",
	"realloc",
	"free",
};

static bool allocator(int fn)
{
	return fn >= F_malloc;
}

enum ctx {
	C_TASK,
	C_PREEMPT,
	C_SPIN,
	C_RAW_SPIN,
	C_IRQS_OFF,
	C_HARDIRQ,
	C_SOFTIRQ,
	NR_CTX,
};

static const char *const ctx_names[NR_CTX] = {
	"task",		 "preempt_disable",   "spin_lock",
	"raw_spin_lock", "local_irq_disable", "hardirq",
	"softirq",
};

static const enum preempt_model models[] = {
	PREEMPT_MODEL_NONE, PREEMPT_MODEL_VOLUNTARY, PREEMPT_MODEL_FULL,
	PREEMPT_MODEL_LAZY, PREEMPT_MODEL_RT,
};
#define NR_MODELS ((int)(sizeof(models) / sizeof(models[0])))

/* ---- reports, counted per wrapped function ---- */

static int nr_reports[NR_FN];
static char last_text[NR_FN][8192];

static bool blocking_hook(const struct pk_report *report, void *arg)
{
	(void)arg;
	if (report->kind != PK_REPORT_BLOCKING)
		return capture_hook(report, arg);
	for (int i = 0; i < NR_FN; i++) {
		char title[96];

		snprintf(title, sizeof(title), "invalid context at %s()\n",
			 fn_names[i]);
		if (strstr(report->text, title)) {
			nr_reports[i]++;
			snprintf(last_text[i], sizeof(last_text[i]), "%s",
				 report->text);
		}
	}
	return true;
}

static void counts_reset(void)
{
	memset(nr_reports, 0, sizeof(nr_reports));
	memset(last_text, 0, sizeof(last_text));
	pk_debug_ratelimit_reset(); /* re-arms the call sites */
}

/* ---- the calls: harmless, never blocking this time ---- */

static int pipefd[2], epfd;
static FILE *null_file;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static sem_t sem;
static const char *volatile empty = ""; /* printf(""): not optimized out */
static void *volatile nothing;

static int call_vfprintf(int fn, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fn == F_vprintf ? vprintf(fmt, ap) : vfprintf(null_file, fmt, ap);
	va_end(ap);
	return n;
}

/* glibc's fortified entry points, called as _FORTIFY_SOURCE would. */
extern int __open_2(const char *path, int flags);
extern ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
extern int __printf_chk(int flag, const char *fmt, ...);
extern int __fprintf_chk(FILE *f, int flag, const char *fmt, ...);
extern int __vprintf_chk(int flag, const char *fmt, va_list ap);
extern int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap);

static int sockfd[2] = {-1, -1};
static volatile int nul_char;
static int (*volatile put_char)(int c) = putchar;

static int call_vfprintf_chk(int fn, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fn == F___vprintf_chk ? __vprintf_chk(1, fmt, ap)
				  : __vfprintf_chk(null_file, 1, fmt, ap);
	va_end(ap);
	return n;
}

/* The call site every report must name. */
static __attribute__((noinline)) void call_one(int fn)
{
	struct timespec zero = {0, 0}, tiny = {0, 1000}, past = {1, 0};
	struct timeval tv = {0, 0};
	struct epoll_event ev;
	char c;
	void *p;
	FILE *f;

	switch (fn) {
	case F_read: /* a ready pipe: would not block, still a bug */
		(void)!read(pipefd[0], &c, 1);
		break;
	case F_write:
		(void)!write(fileno(null_file), "x", 1);
		break;
	case F_nanosleep:
		nanosleep(&tiny, NULL);
		break;
	case F_clock_nanosleep:
		clock_nanosleep(CLOCK_MONOTONIC, 0, &tiny, NULL);
		break;
	case F_usleep:
		usleep(1);
		break;
	case F_sleep:
		sleep(0);
		break;
	case F_poll:
		poll(NULL, 0, 0);
		break;
	case F_select:
		select(0, NULL, NULL, NULL, &tv);
		break;
	case F_epoll_wait:
		epoll_wait(epfd, &ev, 1, 0);
		break;
	case F_pthread_mutex_lock:
		pthread_mutex_lock(&mutex);
		pthread_mutex_unlock(&mutex);
		break;
	case F_pthread_cond_timedwait: /* a deadline long past: returns */
		if (pthread_mutex_trylock(&mutex) == 0) {
			pthread_cond_timedwait(&cond, &mutex, &past);
			pthread_mutex_unlock(&mutex);
		}
		break;
	case F_sem_wait:
		sem_post(&sem);
		sem_wait(&sem);
		break;
	case F_sem_timedwait:
		sem_post(&sem);
		sem_timedwait(&sem, &past);
		break;
	case F_fopen:
		f = fopen("/dev/null", "r");
		if (f)
			fclose(f);
		break;
	case F_fclose:
		f = fdopen(open("/dev/null", O_RDONLY), "r");
		if (f)
			fclose(f);
		break;
	case F_fflush:
		fflush(null_file);
		break;
	case F_fwrite:
		fwrite("x", 1, 1, null_file);
		break;
	case F_fputs:
		fputs(empty, null_file);
		break;
	case F_puts:
		puts(empty);
		break;
	case F_printf:
		printf(empty);
		break;
	case F_fprintf:
		fprintf(null_file, empty);
		break;
	case F_vprintf:
	case F_vfprintf:
		call_vfprintf(fn, empty);
		break;
	case F_putchar: /* by address: <stdio.h> inlines it as putc() */
		put_char(nul_char);
		break;
	case F_putc:
		putc(nul_char, null_file);
		break;
	case F_fputc:
		fputc(nul_char, null_file);
		break;
	case F_recv: /* nothing to read, and told not to wait: still a bug */
		(void)!recv(sockfd[0], &c, 1, MSG_DONTWAIT);
		break;
	case F_accept: /* not listening: fails at once, still a bug */
		(void)!accept(sockfd[0], NULL, NULL);
		break;
	case F_open:
		close(open("/dev/null", O_RDONLY));
		break;
	case F___open_2:
		close(__open_2("/dev/null", O_RDONLY));
		break;
	case F___read_chk:
		(void)!__read_chk(pipefd[0], &c, 1, 1);
		break;
	case F___printf_chk:
		__printf_chk(1, empty);
		break;
	case F___fprintf_chk:
		__fprintf_chk(null_file, 1, empty);
		break;
	case F___vprintf_chk:
	case F___vfprintf_chk:
		call_vfprintf_chk(fn, empty);
		break;
	case F_malloc: /* kept: a malloc()/free() pair would vanish */
		p = malloc(16);
		__asm__ __volatile__("" : : "r"(p) : "memory");
		free(p);
		break;
	case F_calloc:
		p = calloc(1, 16);
		__asm__ __volatile__("" : : "r"(p) : "memory");
		free(p);
		break;
	case F_realloc: /* not NULL: realloc(NULL, n) becomes malloc(n) */
		p = malloc(16);
		free(realloc(p, 32));
		break;
	case F_free: /* a volatile NULL: free(NULL) would vanish */
		free(nothing);
		break;
	}
	(void)zero;
}

/* ---- contexts ---- */

#define HARD_LINE 7
#define SOFT_LINE 8
#define TEST_SOFTIRQ NET_RX_SOFTIRQ

static DEFINE_SPINLOCK(spin);
static DEFINE_RAW_SPINLOCK(raw_spin);
static int irq_fn, irq_done;

static irqreturn_t hard_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	call_one(irq_fn);
	__atomic_store_n(&irq_done, 1, __ATOMIC_RELEASE);
	return IRQ_HANDLED;
}

static void soft_action(void)
{
	call_one(irq_fn);
	__atomic_store_n(&irq_done, 1, __ATOMIC_RELEASE);
}

static irqreturn_t soft_raiser(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	raise_softirq(TEST_SOFTIRQ);
	return IRQ_HANDLED;
}

/* The handler runs in a signal handler, or (rt softirq) in a thread. */
static void raise_and_wait(unsigned int line, int fn)
{
	long deadline = now_ms() + 10000;

	irq_fn = fn;
	__atomic_store_n(&irq_done, 0, __ATOMIC_RELEASE);
	irq_raise(line, raw_smp_processor_id());
	while (!__atomic_load_n(&irq_done, __ATOMIC_ACQUIRE) &&
	       now_ms() < deadline)
		msleep(1);
}

static void in_context(int ctx, int fn)
{
	switch (ctx) {
	case C_TASK:
		call_one(fn);
		break;
	case C_PREEMPT:
		preempt_disable();
		call_one(fn);
		preempt_enable();
		break;
	case C_SPIN:
		spin_lock(&spin);
		call_one(fn);
		spin_unlock(&spin);
		break;
	case C_RAW_SPIN:
		raw_spin_lock(&raw_spin);
		call_one(fn);
		raw_spin_unlock(&raw_spin);
		break;
	case C_IRQS_OFF:
		local_irq_disable();
		call_one(fn);
		local_irq_enable();
		break;
	case C_HARDIRQ:
		raise_and_wait(HARD_LINE, fn);
		break;
	case C_SOFTIRQ:
		raise_and_wait(SOFT_LINE, fn);
		break;
	}
	pk_report_flush(); /* the deferred ones, from the handlers */
}

/* The rule (docs/blocking.md), per model. */
static int expected(enum preempt_model model, int ctx, int fn)
{
	bool rt = model == PREEMPT_MODEL_RT;

	/* A host lock is held with preemption off (docs/guide.md). */
	if (allocator(fn) || fn == F_pthread_mutex_lock)
		return ctx == C_HARDIRQ || (ctx == C_SOFTIRQ && !rt);
	if (ctx == C_TASK)
		return 0;
	/* rt: spinlock_t sleeps, its holder stays preemptible. */
	return !(ctx == C_SPIN && rt);
}

/* ---- the matrix, run by a task of the booted machine ---- */

static int got[NR_CTX][NR_FN];
static bool named_caller[NR_CTX][NR_FN];

/* printf(), fprintf(), vprintf(): may reach the library as v*printf();
 * the fortified ones too (ASan intercepts __fprintf_chk()). */
static bool printf_family(int fn)
{
	return fn == F_printf || fn == F_fprintf || fn == F_vprintf ||
	       fn == F___printf_chk || fn == F___fprintf_chk ||
	       fn == F___vprintf_chk;
}

/* The v*printf() a printf_family() call may reach instead. */
static int vprintf_reports(int fn)
{
	int n = 0;

	for (int v = F_vprintf; v <= F_vfprintf; v++)
		n += v != fn ? nr_reports[v] : 0;
	for (int v = F___vprintf_chk; v <= F___vfprintf_chk; v++)
		n += v != fn ? nr_reports[v] : 0;
	return n;
}

static bool named(int fn)
{
	return strstr(last_text[fn], "called from:\n") &&
	       (strstr(last_text[fn], "call_one") ||
		strstr(last_text[fn], "call_vfprintf"));
}

static int run_matrix(void *arg)
{
	(void)arg;
	for (int ctx = 0; ctx < NR_CTX; ctx++)
		for (int fn = 0; fn < NR_FN; fn++) {
			if (allocator(fn) && !ALLOC_WRAPPED)
				continue;
			counts_reset();
			in_context(ctx, fn);
			got[ctx][fn] = nr_reports[fn];
			/* <stdio.h> inlines vprintf() as vfprintf(stdout);
			 * ASan's printf() calls the next vprintf(). */
			if (printf_family(fn))
				got[ctx][fn] += vprintf_reports(fn);
			named_caller[ctx][fn] =
				named(fn) ||
				(printf_family(fn) &&
				 (named(F_vprintf) || named(F_vfprintf) ||
				  named(F___vprintf_chk) ||
				  named(F___vfprintf_chk)));
		}
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static int stdout_saved = -1;

static void quiet_stdout(bool on)
{
	fflush(stdout);
	if (on) {
		stdout_saved = dup(STDOUT_FILENO);
		dup2(fileno(null_file), STDOUT_FILENO);
	} else {
		dup2(stdout_saved, STDOUT_FILENO);
		close(stdout_saved);
	}
}

static void every_context_every_model(void **state)
{
	(void)state;
	for (int m = 0; m < NR_MODELS; m++) {
		struct task_struct *t;
		int bad = 0, stopped;

		pk_boot(2, models[m]);
		assert_int_equal(request_irq(HARD_LINE, hard_handler,
					     IRQF_NO_THREAD, "hard", NULL),
				 0);
		assert_int_equal(request_irq(SOFT_LINE, soft_raiser,
					     IRQF_NO_THREAD, "soft", NULL),
				 0);
		memset(got, 0xff, sizeof(got));
		quiet_stdout(true); /* puts() and printf() print */
		t = kthread_run(run_matrix, NULL, "matrix");
		stopped = t ? kthread_stop(t) : -1;
		quiet_stdout(false); /* before any assertion prints */
		assert_int_equal(stopped, 0);
		free_irq(HARD_LINE, NULL);
		free_irq(SOFT_LINE, NULL);
		machine_shutdown();
		for (int ctx = 0; ctx < NR_CTX; ctx++)
			for (int fn = 0; fn < NR_FN; fn++) {
				int want = expected(models[m], ctx, fn);

				if (allocator(fn) && !ALLOC_WRAPPED)
					continue;
				if (got[ctx][fn] == want &&
				    (!want || named_caller[ctx][fn]))
					continue;
				print_error("%s, %s(): %d reports, %d "
					    "expected%s\n",
					    ctx_names[ctx], fn_names[fn],
					    got[ctx][fn], want,
					    want && got[ctx][fn] == want
						    ? ", caller not named"
						    : "");
				bad++;
			}
		if (bad)
			fail_msg("model %s: %d wrong",
				 preempt_model_str(models[m]), bad);
	}
}

/* ---- on the host thread (no machine) ---- */

static void once_per_call_site(void **state)
{
	(void)state;
	counts_reset();
	preempt_disable();
	for (int i = 0; i < 3; i++)
		call_one(F_write);		 /* one site, three calls */
	(void)!write(fileno(null_file), "x", 1); /* a second site */
	preempt_enable();
	assert_int_equal(nr_reports[F_write], 2);
	/* The site is remembered until the once-only state is reset. */
	preempt_disable();
	call_one(F_write);
	preempt_enable();
	assert_int_equal(nr_reports[F_write], 2);
}

static void report_format(void **state)
{
	(void)state;
	counts_reset();
	preempt_disable();
	call_one(F_usleep);
	preempt_enable();
	assert_int_equal(nr_reports[F_usleep], 1);
	snprintf(captured.text, sizeof(captured.text), "%s",
		 last_text[F_usleep]);
	assert_report_contains("BUG: sleeping function called from invalid "
			       "context at usleep()\n");
	assert_report_contains("in_atomic(): 1, irqs_disabled(): 0, "
			       "non_block: 0, pid: ");
	assert_report_contains("preempt_count: 1, expected: 0\n");
	assert_report_contains("usleep() called from:\n");
	/* Recorded by the checked preempt_disable() only. */
	if (CONFIG_DEBUG_PREEMPT)
		assert_report_contains("Preemption disabled at:\n");
	assert_report_contains("Call Trace:\n");
	assert_report_contains("call_one");
}

/* A plain host thread: silent unless in a section the library knows. */
static void *host_thread(void *arg)
{
	int *out = arg;

	counts_reset();
	call_one(F_write);
	call_one(F_usleep);
	out[0] = nr_reports[F_write] + nr_reports[F_usleep];
	local_irq_disable();
	call_one(F_write);
	local_irq_enable();
	out[1] = nr_reports[F_write];
	return NULL;
}

static void host_threads(void **state)
{
	int out[2] = {-1, -1};
	pthread_t t;

	(void)state;
	assert_int_equal(pthread_create(&t, NULL, host_thread, out), 0);
	pthread_join(t, NULL);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 1);
}

/* The library's own write() (printk's console) is not the caller's. */
static void library_calls_are_silent(void **state)
{
	(void)state;
	counts_reset();
	preempt_disable();
	pk_console_write("test_blocking: console in atomic context\n", 42);
	dump_stack();
	preempt_enable();
	for (int fn = 0; fn < NR_FN; fn++)
		assert_int_equal(nr_reports[fn], 0);
}

static void suppression(void **state)
{
	(void)state;
	counts_reset();
	assert_int_equal(pk_blocking_suppress("write, usleep"), 0);
	preempt_disable();
	call_one(F_write);
	call_one(F_usleep);
	call_one(F_read);
	preempt_enable();
	assert_int_equal(nr_reports[F_write], 0);
	assert_int_equal(nr_reports[F_usleep], 0);
	assert_int_equal(nr_reports[F_read], 1);
	assert_int_equal(pk_blocking_suppress("write,no_such_function"),
			 -EINVAL);
	assert_int_equal(pk_blocking_suppress(NULL), 0);
	counts_reset();
	preempt_disable();
	call_one(F_write);
	preempt_enable();
	assert_int_equal(nr_reports[F_write], 1);
}

static void switched_off(void **state)
{
	(void)state;
	counts_reset();
	assert_true(pk_blocking_set_enabled(false));
	preempt_disable();
	call_one(F_write);
	preempt_enable();
	assert_false(pk_blocking_set_enabled(true));
	assert_int_equal(nr_reports[F_write], 0);
	preempt_disable();
	call_one(F_write);
	preempt_enable();
	assert_int_equal(nr_reports[F_write], 1);
}

static void config_switch(void **state)
{
	struct machine_config off = {.nr_cpus = 1, .model = -1, .blocking = -1};
	struct machine_config on = {.nr_cpus = 1, .model = -1, .blocking = 1};

	(void)state;
	counts_reset();
	assert_int_equal(machine_boot(&off), 0);
	preempt_disable();
	call_one(F_write);
	preempt_enable();
	machine_shutdown();
	assert_int_equal(nr_reports[F_write], 0);
	pk_blocking_set_enabled(false);
	assert_int_equal(machine_boot(&on), 0);
	preempt_disable();
	call_one(F_write);
	preempt_enable();
	machine_shutdown();
	assert_int_equal(nr_reports[F_write], 1);
}

/* ---- the environment, read at load time: in a fresh process ---- */

static char self[4096];

/* The child: write(), usleep(), read() in atomic context; a bit each. */
static int env_child(void)
{
	null_file = fopen("/dev/null", "w");
	if (!null_file || pipe(pipefd) || write(pipefd[1], "x", 1) != 1)
		return 100;
	pk_set_report_hook(blocking_hook, NULL);
	counts_reset();
	preempt_disable();
	call_one(F_write);
	call_one(F_usleep);
	call_one(F_read);
	preempt_enable();
	return (nr_reports[F_write] ? 1 : 0) | (nr_reports[F_usleep] ? 2 : 0) |
	       (nr_reports[F_read] ? 4 : 0);
}

static int run_env_child(const char *blocking, const char *suppress,
			 const char *file)
{
	char *argv[] = {self, "env-child", NULL};
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		setenv("PREEMPT_BLOCKING", blocking, 1);
		unsetenv("PREEMPT_BLOCKING_SUPPRESS");
		unsetenv("PREEMPT_BLOCKING_SUPPRESS_FILE");
		if (suppress)
			setenv("PREEMPT_BLOCKING_SUPPRESS", suppress, 1);
		if (file)
			setenv("PREEMPT_BLOCKING_SUPPRESS_FILE", file, 1);
		pk_execv(self, argv);
		_exit(101);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void environment(void **state)
{
	char file[] = "/tmp/test_blocking_suppress.XXXXXX";
	static const char list[] = "# the file's list\nusleep   # a comment\n";
	int fd = mkstemp(file);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, list, sizeof(list) - 1),
			 (ssize_t)sizeof(list) - 1);
	close(fd);
	assert_int_equal(run_env_child("1", NULL, NULL), 7);
	assert_int_equal(run_env_child("0", NULL, NULL), 0);
	assert_int_equal(run_env_child("1", "write", NULL), 6);
	assert_int_equal(run_env_child("1", "write", file), 4);
	unlink(file);
}

static int group_setup(void **state)
{
	static const char fill[4096];

	(void)state;
	null_file = fopen("/dev/null", "w");
	if (!null_file || pipe(pipefd) || sem_init(&sem, 0, 0) ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, sockfd))
		return -1;
	/* Enough for every read() of the matrix, never blocking. */
	fcntl(pipefd[1], F_SETPIPE_SZ, 1 << 16);
	for (int i = 0; i < 8; i++)
		(void)!write(pipefd[1], fill, sizeof(fill));
	epfd = epoll_create1(0);
	open_softirq(TEST_SOFTIRQ, soft_action);
	/* Off by default when the library's checks are compiled out. */
	pk_blocking_set_enabled(true);
	pk_set_report_hook(blocking_hook, NULL);
	return epfd < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(report_format),
		cmocka_unit_test(once_per_call_site),
		cmocka_unit_test(host_threads),
		cmocka_unit_test(library_calls_are_silent),
		cmocka_unit_test(suppression),
		cmocka_unit_test(switched_off),
		cmocka_unit_test(config_switch),
		cmocka_unit_test(environment),
		cmocka_unit_test(every_context_every_model),
	};
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return 1;
	self[n] = '\0';
	if (argc > 1 && !strcmp(argv[1], "env-child"))
		return env_child();

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
