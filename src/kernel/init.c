// SPDX-License-Identifier: MIT
/*
 * Boot and shutdown of the kernel side: the CPU masks narrowed to the
 * machine, the configuration checked against it, module parameters from
 * $PREEMPT_CMDLINE, then the initcalls; at shutdown, the exit calls.
 * machine_boot() and machine_shutdown() call in through their hooks.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

const char pk_kernel_initcalls[] = "initcalls";
const char pk_kernel_params[] = "params";

/* Every CPU possible until a machine says how many it has. */
/*
 * Here, beside the boot hook that moves it on: code that reads only
 * system_state (kernel/notifier.c) links this object and so the hook.
 */
enum system_states system_state = SYSTEM_BOOTING;
unsigned int nr_cpu_ids = NR_CPUS;
struct cpumask __cpu_possible_mask = {CPU_BITS_ALL};
struct cpumask __cpu_online_mask, __cpu_present_mask, __cpu_active_mask;
const struct cpumask __pk_cpu_none_mask;

/* Empty when the program has none: weak. */
extern const struct pk_initcall *const __start_pk_initcalls[]
	__attribute__((weak));
extern const struct pk_initcall *const __stop_pk_initcalls[]
	__attribute__((weak));
extern const struct pk_exitcall *const __start_pk_exitcalls[]
	__attribute__((weak));
extern const struct pk_exitcall *const __stop_pk_exitcalls[]
	__attribute__((weak));
extern const struct obs_kernel_param *const __start_pk_setups[]
	__attribute__((weak));
extern const struct obs_kernel_param *const __stop_pk_setups[]
	__attribute__((weak));
extern const struct kernel_param *const __start_pk_params[]
	__attribute__((weak));
extern const struct kernel_param *const __stop_pk_params[]
	__attribute__((weak));

/* Entries of a linker-made section (the bounds are distinct symbols). */
#define SECTION_LEN(start, stop)                                               \
	(((unsigned long)(stop) - (unsigned long)(start)) / sizeof((start)[0]))

static void cpumasks_for_machine(unsigned int n)
{
	nr_cpu_ids = n;
	cpumask_clear(&__cpu_possible_mask);
	for (unsigned int c = 0; c < n; c++)
		__set_bit(c, __cpu_possible_mask.bits);
	cpumask_copy(&__cpu_present_mask, &__cpu_possible_mask);
	cpumask_copy(&__cpu_online_mask, &__cpu_possible_mask);
	cpumask_copy(&__cpu_active_mask, &__cpu_possible_mask);
}

/* Kernel code compiled for one configuration, a machine booted another. */
static void check_config(void)
{
	bool built_rt = IS_ENABLED(CONFIG_PREEMPT_RT);

	if (pk_machine_hz() != HZ)
		pr_warn("kernel: code compiled for HZ=%d runs on a machine "
			"ticking at %d Hz: jiffies conversions are off\n",
			HZ, pk_machine_hz());
	if (built_rt != pk_machine_rt())
		pr_warn("kernel: code compiled %s CONFIG_PREEMPT_RT runs in "
			"the %s model (use libpreempt-kernel%s)\n",
			built_rt ? "with" : "without",
			preempt_model_str(preempt_model()),
			pk_machine_rt() ? "-rt" : "");
}

/* ---- parameters ---- */

/* Names compare with '-' and '_' as the same character: the first @n
 * characters of @a and @b, or the whole names if shorter. */
static bool param_eqn(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char ca = a[i] == '-' ? '_' : a[i],
		     cb = b[i] == '-' ? '_' : b[i];

		if (ca != cb)
			return false;
		if (!ca)
			return true;
	}
	return true;
}

static bool param_eq(const char *a, const char *b)
{
	return param_eqn(a, b, SIZE_MAX);
}

static int apply_param(const struct kernel_param *const *params,
		       unsigned int num, char *name, char *val,
		       const char *doing)
{
	for (unsigned int i = 0; i < num; i++) {
		int err;

		if (!param_eq(params[i]->name, name))
			continue;
		/* Only a bool may go without a value. */
		if (!val && params[i]->ops != &param_ops_bool &&
		    params[i]->ops != &param_ops_invbool)
			return -EINVAL;
		err = params[i]->ops->set(val, params[i]);
		return err;
	}
	return -ENOENT;
}

/* The next "name[=value]" of @args, quotes removed; NULL at the end. */
static char *pk_next_arg(char *args, char **name, char **val)
{
	bool quoted = false;
	char *next, *eq = NULL;
	size_t i;

	while (*args == ' ')
		args++;
	if (!*args)
		return NULL;
	if (*args == '"') {
		args++;
		quoted = true;
	}
	for (i = 0; args[i]; i++) {
		if (args[i] == ' ' && !quoted)
			break;
		if (!eq && args[i] == '=')
			eq = args + i;
		if (args[i] == '"')
			quoted = !quoted;
	}
	next = args[i] ? args + i + 1 : args + i;
	args[i] = '\0';
	*name = args;
	*val = NULL;
	if (eq) {
		*eq = '\0';
		*val = eq + 1;
		if (**val == '"') {
			(*val)++;
			if (i && args[i - 1] == '"')
				args[i - 1] = '\0';
		}
	}
	return next;
}

int pk_parse_args(const char *doing, char *args,
		  const struct kernel_param *const *params, unsigned int num,
		  int (*unknown)(char *param, char *val, const char *doing,
				 void *arg),
		  void *arg)
{
	char *name, *val;
	int first = 0;

	while ((args = pk_next_arg(args, &name, &val))) {
		int err = apply_param(params, num, name, val, doing);

		if (err == -ENOENT)
			err = unknown ? unknown(name, val, doing, arg)
				      : -ENOENT;
		if (err == -EINVAL)
			pr_err("%s: `%s' invalid for parameter `%s'\n", doing,
			       val ? val : "", name);
		else if (err && err != -ENOENT)
			pr_err("%s: error %d setting parameter `%s'\n", doing,
			       err, name);
		if (err && !first && err != -ENOENT)
			first = err;
	}
	return first;
}

static unsigned long nr_setups(void)
{
	return SECTION_LEN(__start_pk_setups, __stop_pk_setups);
}

/* early_param(): the option's exact name; its handler says 0 if well formed. */
static int do_early_param(char *param, char *val, const char *doing, void *arg)
{
	(void)doing;
	(void)arg;
	for (unsigned long i = 0; i < nr_setups(); i++) {
		const struct obs_kernel_param *p = __start_pk_setups[i];

		if (p->early && param_eq(param, p->str) && p->setup_func(val))
			pr_warn("Malformed early option '%s'\n", param);
	}
	return 0;
}

/*
 * __setup(): @line ("name" or "name=value") to the handlers whose string
 * it starts with, until one takes it (the kernel's obsolete_checksetup()).
 * An early_param() of that name has had it already.
 */
static bool checksetup(char *line)
{
	bool had_early = false;

	for (unsigned long i = 0; i < nr_setups(); i++) {
		const struct obs_kernel_param *p = __start_pk_setups[i];
		size_t n = strlen(p->str);

		if (!param_eqn(line, p->str, n))
			continue;
		if (p->early) {
			if (line[n] == '\0' || line[n] == '=')
				had_early = true;
		} else if (p->setup_func(line + n)) {
			return true;
		}
	}
	return had_early;
}

/* Command-line options that are not module parameters. */
static int unknown_param(char *param, char *val, const char *doing, void *arg)
{
	char line[1024];
	int level;

	(void)doing;
	(void)arg;
	if (!strcmp(param, "loglevel") && val && !kstrtoint(val, 0, &level)) {
		console_loglevel = level;
		return 0;
	}
	if (snprintf(line, sizeof(line), "%s%s%s", param, val ? "=" : "",
		     val ? val : "") < (int)sizeof(line))
		checksetup(line);
	return 0; /* the kernel hands the rest to init: ignored here */
}

static void parse_cmdline(void)
{
	const char *env = getenv("PREEMPT_CMDLINE");
	char *args;

	if (!env || !*env)
		return;
	args = strdup(env);
	if (args && nr_setups())
		pk_parse_args("early options", args, NULL, 0, do_early_param,
			      NULL);
	free(args);
	args = strdup(env);
	if (!args)
		return;
	pk_parse_args(
		"Booting kernel", args, __start_pk_params,
		(unsigned int)SECTION_LEN(__start_pk_params, __stop_pk_params),
		unknown_param, NULL);
	free(args);
}

/* ---- initcalls ---- */

static int run_initcalls(void *unused)
{
	unsigned long n =
		SECTION_LEN(__start_pk_initcalls, __stop_pk_initcalls);

	(void)unused;
	for (int level = 0; level < PK_NR_INITCALL_LEVELS; level++)
		for (unsigned long i = 0; i < n; i++) {
			const struct pk_initcall *c = __start_pk_initcalls[i];
			int ret;

			if (c->level != level)
				continue;
			ret = c->fn();
			if (ret && ret != -ENODEV)
				pr_warn("initcall %s returned %d\n", c->name,
					ret);
		}
	return 0;
}

static int run_exitcalls(void *unused)
{
	unsigned long n =
		SECTION_LEN(__start_pk_exitcalls, __stop_pk_exitcalls);

	(void)unused;
	while (n--)
		__start_pk_exitcalls[n]->fn();
	return 0;
}

/* In a kthread, as the kernel's kernel_init: task context, may sleep. */
static void run_in_task(int (*fn)(void *), const char *name)
{
	struct task_struct *k = kthread_run(fn, NULL, "%s", name);

	if (IS_ERR_OR_NULL(k)) {
		pr_err("kernel: cannot start %s\n", name);
		return;
	}
	kthread_stop(k);
}

/*
 * A program's kernel/async.c (6.9 on): start_kernel() calls its
 * async_init() before the initcalls, which may already use it.
 */
extern void async_init(void) __attribute__((weak));

static int run_async_init(void *unused)
{
	(void)unused;
	async_init();
	return 0;
}

/*
 * start_kernel()'s workqueue steps: the kernel side's workqueue.c (which
 * copies the library's system queues) or a program's kernel/workqueue.c
 * (which makes its pools and workers).  Early, then the rest once the
 * CPUs are up, as kernel_init_freeable() does; all before async_init().
 */
extern void workqueue_init_early(void) __attribute__((weak));
extern void workqueue_init(void) __attribute__((weak));
extern void workqueue_init_topology(void) __attribute__((weak));

static int run_workqueue_init(void *unused)
{
	(void)unused;
	workqueue_init_early();
	if (workqueue_init)
		workqueue_init();
	if (workqueue_init_topology)
		workqueue_init_topology();
	return 0;
}

static void kernel_boot(void)
{
	system_state = SYSTEM_BOOTING;
	cpumasks_for_machine((unsigned int)num_online_cpus());
	check_config();
	parse_cmdline();
	system_state = SYSTEM_SCHEDULING;
	if (workqueue_init_early)
		run_in_task(run_workqueue_init, "kernel_init");
	if (async_init)
		run_in_task(run_async_init, "kernel_init");
	if (SECTION_LEN(__start_pk_initcalls, __stop_pk_initcalls))
		run_in_task(run_initcalls, "kernel_init");
	system_state = SYSTEM_RUNNING;
}

/* smpboot.c's, when kernel code registered per-CPU threads. */
extern void pk_smpboot_shutdown(void) __attribute__((weak));

static void kernel_shutdown(void)
{
	system_state = SYSTEM_HALT;
	if (SECTION_LEN(__start_pk_exitcalls, __stop_pk_exitcalls))
		run_in_task(run_exitcalls, "kernel_exit");
	/* After the exits, which may still need the threads' work done. */
	if (pk_smpboot_shutdown)
		pk_smpboot_shutdown();
}

__attribute__((constructor)) static void kernel_hooks(void)
{
	pk_machine_boot_hook = kernel_boot;
	pk_machine_shutdown_hook = kernel_shutdown;
}

/* ---- parameter types ---- */

#define PK_PARAM_INT(name, type, conv)                                         \
	static int param_set_##name(const char *val,                           \
				    const struct kernel_param *kp)             \
	{                                                                      \
		return conv(val, 0, (type *)kp->arg);                          \
	}                                                                      \
	const struct kernel_param_ops param_ops_##name = {                     \
		.set = param_set_##name}
PK_PARAM_INT(byte, u8, kstrtou8);
PK_PARAM_INT(ushort, u16, kstrtou16);
PK_PARAM_INT(long, long, kstrtol);
PK_PARAM_INT(ulong, unsigned long, kstrtoul);
PK_PARAM_INT(ullong, unsigned long long, kstrtoull);
PK_PARAM_INT(hexint, unsigned int, kstrtouint);

static int param_set_short(const char *val, const struct kernel_param *kp)
{
	int v, err = kstrtoint(val, 0, &v);

	if (err)
		return err;
	if (v < SHRT_MIN || v > SHRT_MAX)
		return -EINVAL;
	*(short *)kp->arg = (short)v;
	return 0;
}
const struct kernel_param_ops param_ops_short = {.set = param_set_short};

int param_set_int(const char *val, const struct kernel_param *kp)
{
	return kstrtoint(val, 0, (int *)kp->arg);
}
const struct kernel_param_ops param_ops_int = {.set = param_set_int};

int param_set_uint(const char *val, const struct kernel_param *kp)
{
	return kstrtouint(val, 0, (unsigned int *)kp->arg);
}
const struct kernel_param_ops param_ops_uint = {.set = param_set_uint};

int param_set_bool(const char *val, const struct kernel_param *kp)
{
	if (!val) /* a bare name sets it */
		val = "1";
	return kstrtobool(val, (bool *)kp->arg);
}
const struct kernel_param_ops param_ops_bool = {.set = param_set_bool};

static int param_set_invbool(const char *val, const struct kernel_param *kp)
{
	bool v;
	int err = kstrtobool(val ? val : "1", &v);

	if (!err)
		*(bool *)kp->arg = !v;
	return err;
}
const struct kernel_param_ops param_ops_invbool = {.set = param_set_invbool};

static int param_set_charp(const char *val, const struct kernel_param *kp)
{
	char *copy = kstrdup(val, GFP_KERNEL);

	if (!copy)
		return -ENOMEM;
	*(char **)kp->arg = copy; /* kept for the program's life */
	return 0;
}
const struct kernel_param_ops param_ops_charp = {.set = param_set_charp};

int param_set_copystring(const char *val, const struct kernel_param *kp)
{
	const struct kparam_string *kps = kp->str;

	if (strlen(val) + 1 > kps->maxlen) {
		pr_err("%s: string doesn't fit in %u chars.\n", kp->name,
		       kps->maxlen - 1);
		return -ENOSPC;
	}
	strcpy(kps->string, val);
	return 0;
}
const struct kernel_param_ops param_ops_string = {.set = param_set_copystring};

int param_get_int(char *buffer, const struct kernel_param *kp)
{
	return sprintf(buffer, "%i\n", *(int *)kp->arg);
}

/* "a,b,c" into the array, each by the element type's set(). */
static int param_array_set(const char *val, const struct kernel_param *kp)
{
	const struct kparam_array *arr = kp->arr;
	char *copy = kstrdup(val, GFP_KERNEL), *p, *tok;
	unsigned int n = 0;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	p = copy;
	while ((tok = strsep(&p, ","))) {
		struct kernel_param elem = *kp;

		if (n == arr->max) {
			pr_err("%s: can only take %u arguments\n", kp->name,
			       arr->max);
			err = -EINVAL;
			break;
		}
		elem.arg = (char *)arr->elem + (size_t)n * arr->elemsize;
		err = arr->ops->set(tok, &elem);
		if (err)
			break;
		n++;
	}
	if (!err && arr->num)
		*arr->num = n;
	kfree(copy);
	return err;
}
const struct kernel_param_ops param_array_ops = {.set = param_array_set};
