// SPDX-License-Identifier: MIT
/*
 * Blocking host calls in atomic context (docs/blocking.md): the check the
 * wrappers make, its report, the once-per-call-site table, suppression,
 * and the __wrap_* functions a static program gets with -Wl,--wrap=.
 *
 * The wrappers are library code: a task is never preempted in them
 * (src/sched/safepoint.c), and the library's own calls of the wrapped
 * functions (the report's write(), a vCPU's mutex) pass straight through,
 * told apart by the caller's address, plus pk_host_calls for the report
 * machinery's calls made through other host libraries (libdw's fopen(),
 * libgcc's unwinder).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

#include <preempt/irqflags.h>

#include "blocking.h"
#include "blocking_sigs.h"
#include "report.h"
#include "../port/sim.h"

#define __report __attribute__((noinline, cold))

#define PK_BLK_NAME(name) [PK_BLK_##name] = #name,
static const char *const blk_names[PK_BLK_NR] = {
	PK_BLOCKING_FUNCS(PK_BLK_NAME, PK_BLK_NAME, PK_BLK_NAME)};
#undef PK_BLK_NAME

static int enabled = CONFIG_DEBUG_ATOMIC_SLEEP;
static unsigned long long suppressed; /* bit per enum pk_blocking_fn */

__thread unsigned char pk_host_calls[PK_HOST_CALL_LEVELS];

/* ---- where a call comes from ---- */

struct code_range {
	uintptr_t lo, hi;
};

#define MAX_RANGES 8
static struct code_range lib_ranges[MAX_RANGES], san_ranges[MAX_RANGES];
static int nr_lib_ranges, nr_san_ranges;

/* libpreempt.a's brackets (src/port/bracket), when it is in the program. */
extern const char pk_text_begin[] __attribute__((weak));
extern const char pk_text_end[] __attribute__((weak));
extern const char pk_text_cold_begin[] __attribute__((weak));
extern const char pk_text_cold_end[] __attribute__((weak));

static bool in_ranges(const struct code_range *r, int n, uintptr_t ip)
{
	for (int i = 0; i < n; i++)
		if (ip >= r[i].lo && ip < r[i].hi)
			return true;
	return false;
}

static void add_range(struct code_range *r, int *n, uintptr_t lo, uintptr_t hi)
{
	if (*n < MAX_RANGES && lo < hi)
		r[(*n)++] = (struct code_range){lo, hi};
}

static bool is_sanitizer(const char *path)
{
	static const char *const runtimes[] = {"libasan", "libubsan", "libtsan",
					       "liblsan", "libhwasan"};
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	for (size_t i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++)
		if (!strncmp(base, runtimes[i], strlen(runtimes[i])))
			return true;
	return false;
}

static int note_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t self = (uintptr_t)&note_object;
	bool shared = info->dlpi_name && info->dlpi_name[0];

	(void)size;
	(void)arg;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		uintptr_t hi = lo + ph->p_memsz;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (shared && is_sanitizer(info->dlpi_name))
			add_range(san_ranges, &nr_san_ranges, lo, hi);
		/* libpreempt.so: all its code.  Inside the program (the
		 * archive), only the brackets are the library's. */
		if (shared && self >= lo && self < hi)
			add_range(lib_ranges, &nr_lib_ranges, lo, hi);
	}
	return 0;
}

static void find_code(void)
{
	dl_iterate_phdr(note_object, NULL);
	if (nr_lib_ranges || !pk_text_begin)
		return;
	add_range(lib_ranges, &nr_lib_ranges, (uintptr_t)pk_text_begin,
		  (uintptr_t)pk_text_end);
	if (pk_text_cold_begin)
		add_range(lib_ranges, &nr_lib_ranges,
			  (uintptr_t)pk_text_cold_begin,
			  (uintptr_t)pk_text_cold_end);
}

/*
 * A sanitizer's interceptor may stand between the program and the
 * wrapper (ASan's read() calls the next read(), ours): the caller is the
 * frame below the interceptor's.  0 if that is the library's own call.
 */
static unsigned long caller_past_sanitizer(unsigned long ip)
{
	unsigned long frames[32];
	int n, i = 0;

	if (!in_ranges(san_ranges, nr_san_ranges, ip))
		return ip;
	/* From the interceptor's frame the wrapper returns to, not the
	 * first sanitizer frame: backtrace() itself is intercepted. */
	n = pk_stack_capture(frames, 32, ip);
	if (n && frames[0] != ip)
		return 0; /* not found: do not guess */
	while (i < n &&
	       in_ranges(san_ranges, nr_san_ranges, (uintptr_t)frames[i]))
		i++;
	if (i >= n ||
	    in_ranges(lib_ranges, nr_lib_ranges, (uintptr_t)frames[i]))
		return 0;
	return frames[i];
}

/* ---- once per call site ---- */

#define NR_SITES 1024
static unsigned long sites[NR_SITES];
static unsigned int sites_generation;

/* Lock-free, no allocation: called in interrupt handlers. */
static bool first_at_site(unsigned long ip)
{
	unsigned int gen =
		__atomic_load_n(&pk_debug_generation, __ATOMIC_RELAXED);
	unsigned int seen =
		__atomic_load_n(&sites_generation, __ATOMIC_RELAXED);
	unsigned long h = (ip >> 2) * 0x9e3779b97f4a7c15UL;

	if (seen != gen &&
	    __atomic_compare_exchange_n(&sites_generation, &seen, gen, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		for (int i = 0; i < NR_SITES; i++)
			__atomic_store_n(&sites[i], 0, __ATOMIC_RELAXED);
	for (unsigned long p = 0; p < NR_SITES; p++) {
		unsigned long *slot = &sites[(h + p) % NR_SITES];
		unsigned long old = __atomic_load_n(slot, __ATOMIC_RELAXED);

		if (old == ip)
			return false;
		if (old)
			continue;
		if (__atomic_compare_exchange_n(slot, &old, ip, false,
						__ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			return true;
		if (old == ip)
			return false;
	}
	/* Full: as might_sleep(), at most once a second. */
	return pk_ratelimit_ok(PK_REPORT_BLOCKING);
}

/* ---- the report ---- */

static __report void pk_splat_blocking(enum pk_blocking_fn fn, unsigned long ip)
{
	struct pk_rbuf buf = {0};
	const char *name = blk_names[fn];
	char comm[16];

	pk_rbuf_printf(&buf,
		       "BUG: sleeping function called from invalid context "
		       "at %s()\n",
		       name);
	pk_rbuf_printf(&buf,
		       "in_atomic(): %d, irqs_disabled(): %d, non_block: %d, "
		       "pid: %d, name: %s\n",
		       in_atomic(), irqs_disabled(),
		       pk_task_tls(pk_non_block_count), pk_current_pid(),
		       pk_current_comm(comm));
	pk_rbuf_printf(&buf, "preempt_count: %x, expected: 0\n",
		       preempt_count());
	if (__atomic_load_n(&pk_rcu_preempt_flavour, __ATOMIC_RELAXED))
		pk_rbuf_printf(&buf, "RCU nest depth: %d, expected: 0\n",
			       pk_rcu_preempt_depth());
	if (fn >= PK_BLK_malloc)
		pk_rbuf_printf(&buf,
			       "%s() in interrupt context: the host allocator "
			       "is not async-signal-safe (use GFP_ATOMIC)\n",
			       name);
	else if (fn >= PK_BLK_INTERRUPT_RULE)
		pk_rbuf_printf(&buf,
			       "%s() in interrupt context: the interrupted "
			       "code may hold the lock\n",
			       name);
	pk_rbuf_printf(&buf, "%s() called from:\n", name);
	pk_rbuf_ip_sym(&buf, ip);
	pk_splat_irqs_disabled_ip(&buf);
	/* The recorded ip is preempt_disable()'s: stale in an interrupt. */
	if (preempt_count() & PREEMPT_MASK)
		pk_splat_preempt_disable_ip(&buf, 0);
	pk_rbuf_printf(&buf, "CPU: %d PID: %d Comm: %s %s (model: %s)\n",
		       pk_current_cpu(), pk_current_pid(), comm, pk_taint_str(),
		       preempt_model_str(preempt_model()));
	pk_rbuf_backtrace(&buf);
	pk_report_emit(PK_REPORT_BLOCKING, name, 0, &buf);
}

void pk_blocking_sim_note(enum pk_blocking_fn fn, unsigned long ip)
{
	char what[96];

	if (*pk_host_calls_here() || in_ranges(lib_ranges, nr_lib_ranges, ip))
		return;
	snprintf(what, sizeof(what), "%s() waits on the host's clock",
		 blk_names[fn]);
	pk_sim_note_nondeterminism(what);
}

void pk_blocking_slow(enum pk_blocking_fn fn, unsigned long ip)
{
	if (!__atomic_load_n(&enabled, __ATOMIC_RELAXED) ||
	    *pk_host_calls_here() ||
	    (__atomic_load_n(&suppressed, __ATOMIC_RELAXED) & (1ULL << fn)) ||
	    in_ranges(lib_ranges, nr_lib_ranges, ip))
		return;
	ip = caller_past_sanitizer(ip);
	if (!ip || !first_at_site(ip))
		return;
	pk_host_calls_enter();
	pk_splat_blocking(fn, ip);
	pk_host_calls_exit();
}

/* ---- switches ---- */

bool pk_blocking_set_enabled(bool on)
{
	return __atomic_exchange_n(&enabled, on, __ATOMIC_RELAXED);
}

static int blk_lookup(const char *name, size_t len)
{
	for (int i = 0; i < PK_BLK_NR; i++)
		if (strlen(blk_names[i]) == len &&
		    !strncmp(blk_names[i], name, len))
			return i;
	return -1;
}

/* Names separated by commas or white space; '#' comments to the line end. */
static int suppress_list(const char *s)
{
	static const char seps[] = ", \t\r\n";
	int ret = 0;

	while (*s) {
		size_t len;
		int fn;

		if (*s == '#') {
			s += strcspn(s, "\n");
			continue;
		}
		s += strspn(s, seps);
		len = strcspn(s, ", \t\r\n#");
		if (!len)
			continue;
		fn = blk_lookup(s, len);
		if (fn < 0)
			ret = -EINVAL;
		else
			__atomic_or_fetch(&suppressed, 1ULL << fn,
					  __ATOMIC_RELAXED);
		s += len;
	}
	return ret;
}

int pk_blocking_suppress(const char *names)
{
	if (!names) {
		__atomic_store_n(&suppressed, 0, __ATOMIC_RELAXED);
		return 0;
	}
	return suppress_list(names);
}

static void suppress_file(const char *path)
{
	char text[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return;
	text[n] = '\0';
	suppress_list(text);
}

/* ---- the real functions ---- */

void *pk_blocking_real_fn[PK_BLK_NR];
static __thread int resolving;

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

/* dlsym() itself may allocate: until malloc's is known, glibc's own. */
static void *libc_allocator(enum pk_blocking_fn fn)
{
	switch (fn) {
	case PK_BLK_malloc:
		return (void *)&__libc_malloc;
	case PK_BLK_calloc:
		return (void *)&__libc_calloc;
	case PK_BLK_realloc:
		return (void *)&__libc_realloc;
	default:
		return (void *)&__libc_free;
	}
}

/* The next definition after the wrapper's object, or NULL. */
static void *resolve(enum pk_blocking_fn fn)
{
	void *p = __atomic_load_n(&pk_blocking_real_fn[fn], __ATOMIC_ACQUIRE);

	if (__builtin_expect(p != NULL, 1))
		return p;
	if (fn >= PK_BLK_malloc && resolving)
		return libc_allocator(fn);
	resolving++;
	p = dlsym(RTLD_NEXT, blk_names[fn]);
	resolving--;
	if (!p && fn >= PK_BLK_malloc)
		p = libc_allocator(fn);
	if (p)
		__atomic_store_n(&pk_blocking_real_fn[fn], p, __ATOMIC_RELEASE);
	return p;
}

/*
 * libc's definition, or another interposer's.  Resolved by the
 * constructor, before a machine can boot, so an interrupt handler only
 * ever reads the table.
 */
void *pk_blocking_resolve(enum pk_blocking_fn fn)
{
	static const char msg[] = "libpreempt: a wrapped host function has "
				  "no definition (-static without the "
				  "--wrap recipe?)\n";
	void *p = resolve(fn);

	if (__builtin_expect(p != NULL, 1))
		return p;
	pk_host_calls_enter();
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
	abort();
}

__attribute__((constructor(101))) static void blocking_init(void)
{
	const char *env = getenv("PREEMPT_BLOCKING");

	find_code();
	for (int fn = 0; fn < PK_BLK_NR; fn++)
		if (fn < PK_BLK_malloc || PK_BLOCKING_ALLOC)
			resolve(fn);
	if (env && *env)
		enabled = strcmp(env, "0") != 0;
	env = getenv("PREEMPT_BLOCKING_SUPPRESS");
	if (env)
		suppress_list(env);
	env = getenv("PREEMPT_BLOCKING_SUPPRESS_FILE");
	if (env)
		suppress_file(env);
}

/* ---- -Wl,--wrap=NAME: __wrap_NAME, calling __real_NAME ---- */

/*
 * __real_NAME is weak: a program that links libpreempt.a without the
 * recipe never calls __wrap_NAME, and must still link.  One linked with
 * the recipe against libpreempt.so has no __real_NAME: the next
 * definition is the real one then.
 */
#define PK_BLK_REAL(name)                                                      \
	(__real_##name ? __real_##name                                         \
		       : (__typeof__(&__real_##name))pk_blocking_real(         \
				 PK_BLK_##name))

#define PK_BLK_WRAP(ret, name, params, args)                                   \
	extern ret __real_##name params __attribute__((weak));                 \
	ret __wrap_##name params;                                              \
	ret __wrap_##name params                                               \
	{                                                                      \
		pk_blocking_check(PK_BLK_##name, PK_RET_IP);                   \
		return PK_BLK_REAL(name) args;                                 \
	}

PK_BLOCKING_SLEEPER_SIGS(PK_BLK_WRAP)
PK_BLOCKING_MORE_SIGS(PK_BLK_WRAP)

extern int __real_open(const char *path, int flags, ...) __attribute__((weak));
int __wrap_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	pk_blocking_check(PK_BLK_open, PK_RET_IP);
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return PK_BLK_REAL(open)(path, flags, mode);
}

int __wrap___printf_chk(int flag, const char *fmt, ...);
int __wrap___printf_chk(int flag, const char *fmt, ...)
{
	va_list ap;
	int n;

	pk_blocking_check(PK_BLK___printf_chk, PK_RET_IP);
	va_start(ap, fmt);
	n = PK_BLK_REAL(__vfprintf_chk)(stdout, flag, fmt, ap);
	va_end(ap);
	return n;
}

int __wrap___fprintf_chk(FILE *f, int flag, const char *fmt, ...);
int __wrap___fprintf_chk(FILE *f, int flag, const char *fmt, ...)
{
	va_list ap;
	int n;

	pk_blocking_check(PK_BLK___fprintf_chk, PK_RET_IP);
	va_start(ap, fmt);
	n = PK_BLK_REAL(__vfprintf_chk)(f, flag, fmt, ap);
	va_end(ap);
	return n;
}

int __wrap_printf(const char *fmt, ...);
int __wrap_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	pk_blocking_check(PK_BLK_printf, PK_RET_IP);
	va_start(ap, fmt);
	n = vfprintf(stdout, fmt, ap);
	va_end(ap);
	return n;
}

int __wrap_fprintf(FILE *f, const char *fmt, ...);
int __wrap_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	pk_blocking_check(PK_BLK_fprintf, PK_RET_IP);
	va_start(ap, fmt);
	n = vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

#if PK_BLOCKING_ALLOC
PK_BLOCKING_ALLOC_SIGS(PK_BLK_WRAP)

extern void __real_free(void *p) __attribute__((weak));
void __wrap_free(void *p);
void __wrap_free(void *p)
{
	pk_blocking_check(PK_BLK_free, PK_RET_IP);
	PK_BLK_REAL(free)(p);
}
#endif
