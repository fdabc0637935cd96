// SPDX-License-Identifier: MIT
/*
 * Backtraces: glibc's backtrace() walks the stack, libdw (elfutils) turns
 * addresses into symbol+offset and file:line.  The Dwfl session is built on
 * first use and rebuilt when an address falls outside every known module
 * (a library dlopen()ed since).
 *
 * In a signal handler nothing here may allocate or lock (libdw does both):
 * the functions leave markers instead, and only raw addresses are
 * collected, by libgcc's unwinder (_Unwind_Backtrace(), what backtrace()
 * uses), whose one-time set-up a constructor runs in task context.  It
 * finds unwind tables through glibc's _dl_find_object() (glibc 2.35,
 * GCC 12), lock-free and async-signal-safe.  From a handler it stops at
 * the signal frame: the interrupted context's own frames are not walked
 * (under qemu-user, a step out of an interrupted lazy-binding frame read a
 * task's name as a return address and faulted).  Frame pointers were the
 * alternative; the library is not built with them.
 */
#define _GNU_SOURCE
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdbool.h>
#include <unwind.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"

#define MAX_FRAMES 48

static pthread_mutex_t dwfl_lock = PTHREAD_MUTEX_INITIALIZER;
static Dwfl *dwfl;
static char *debuginfo_path;

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

static Dwfl *dwfl_fresh(void)
{
	Dwfl *d = dwfl_begin(&dwfl_callbacks);

	if (!d)
		return NULL;
	dwfl_report_begin(d);
	if (dwfl_linux_proc_report(d, getpid()) != 0 ||
	    dwfl_report_end(d, NULL, NULL) != 0) {
		dwfl_end(d);
		return NULL;
	}
	return d;
}

static Dwfl_Module *module_of(unsigned long ip)
{
	Dwfl_Module *mod;

	if (!dwfl)
		dwfl = dwfl_fresh();
	if (!dwfl)
		return NULL;
	mod = dwfl_addrmodule(dwfl, ip);
	if (!mod) {
		dwfl_end(dwfl);
		dwfl = dwfl_fresh();
		mod = dwfl ? dwfl_addrmodule(dwfl, ip) : NULL;
	}
	return mod;
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static bool symbolize_locked(unsigned long ip, char *name, size_t size,
			     unsigned long *off, unsigned long *symsize,
			     const char **file, int *line)
{
	Dwfl_Module *mod = module_of(ip);
	GElf_Off sym_off = 0;
	GElf_Sym sym;
	const char *sym_name;
	Dwfl_Line *dline;

	if (!mod)
		return false;
	sym_name =
		dwfl_module_addrinfo(mod, ip, &sym_off, &sym, NULL, NULL, NULL);
	if (!sym_name)
		return false;
	snprintf(name, size, "%s", sym_name);
	*off = sym_off;
	*symsize = sym.st_size;
	*file = NULL;
	dline = dwfl_module_getsrc(mod, ip);
	if (dline) {
		const char *src =
			dwfl_lineinfo(dline, NULL, line, NULL, NULL, NULL);
		/* Only the last component: the path of a build tree is noise.
		 */
		if (src)
			*file = basename_of(src);
	}
	return true;
}

bool pk_symbolize(unsigned long ip, char *name, size_t size, unsigned long *off,
		  unsigned long *symsize, const char **file, int *line)
{
	bool found;

	if (pk_report_deferred())
		return false;
	/* Two task-context reports on one thread (one in a switch hook's
	 * report, say) must not deadlock: bare addresses instead. */
	if (pthread_mutex_trylock(&dwfl_lock) != 0)
		return false;
	pk_host_calls_enter();
	found = symbolize_locked(ip, name, size, off, symsize, file, line);
	pk_host_calls_exit();
	pthread_mutex_unlock(&dwfl_lock);
	return found;
}

/* Where an inlined call was made: the line in the function around it. */
static void inline_call_site(Dwarf_Die *cu, Dwarf_Die *inlined,
			     const char **file, int *line)
{
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Word value;
	size_t nfiles;

	if (!dwarf_formudata(dwarf_attr(inlined, DW_AT_call_line, &attr),
			     &value))
		*line = (int)value;
	if (!dwarf_formudata(dwarf_attr(inlined, DW_AT_call_file, &attr),
			     &value) &&
	    !dwarf_getsrcfiles(cu, &files, &nfiles) && value < nfiles) {
		const char *src = dwarf_filesrc(files, value, NULL, NULL);

		if (src)
			*file = basename_of(src);
	}
}

/*
 * One line per inlined function the address sits in, innermost first, as
 * the kernel's decode_stacktrace shows them; returns the file:line of the
 * call in the real function, for its own line.
 */
static void rbuf_inlines(struct pk_rbuf *buf, Dwfl_Module *mod,
			 unsigned long lookup, unsigned long ip,
			 const char **file, int *line)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, lookup, &bias);
	Dwarf_Die *scopes = NULL;
	int n = cu ? dwarf_getscopes(cu, lookup - bias, &scopes) : 0;

	for (int i = 0; i < n; i++) {
		const char *name;

		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		name = dwarf_diename(&scopes[i]);
		pk_rbuf_printf(buf, " [<%016lx>] %s (%s:%d) [inlined]\n", ip,
			       name ? name : "??", *file ? *file : "??", *line);
		inline_call_site(cu, &scopes[i], file, line);
	}
	free(scopes);
}

/*
 * A return address points after its call; @is_return looks up the call
 * instruction itself, so file:line names the calling line.
 */
static void rbuf_frame_locked(struct pk_rbuf *buf, unsigned long ip,
			      bool is_return, bool with_address)
{
	unsigned long lookup = is_return ? ip - 1 : ip;
	unsigned long off = 0, size = 0;
	const char *file = NULL;
	char name[256];
	int line = 0;

	if (!symbolize_locked(lookup, name, sizeof(name), &off, &size, &file,
			      &line)) {
		pk_rbuf_printf(buf, " [<%016lx>] ??\n", ip);
		return;
	}
	if (with_address)
		rbuf_inlines(buf, module_of(lookup), lookup, ip, &file, &line);
	if (with_address)
		pk_rbuf_printf(buf, " [<%016lx>]", ip);
	pk_rbuf_printf(buf, " %s+0x%lx/0x%lx", name, off + (ip - lookup), size);
	if (file)
		pk_rbuf_printf(buf, " (%s:%d)", file, line);
	pk_rbuf_printf(buf, "\n");
}

static void rbuf_frame(struct pk_rbuf *buf, unsigned long ip, bool is_return,
		       bool with_address)
{
	if (pthread_mutex_trylock(&dwfl_lock) != 0) {
		pk_rbuf_printf(buf, " [<%016lx>] ??\n", ip);
		return;
	}
	pk_host_calls_enter();
	rbuf_frame_locked(buf, ip, is_return, with_address);
	pk_host_calls_exit();
	pthread_mutex_unlock(&dwfl_lock);
}

void pk_rbuf_mark(struct pk_rbuf *buf, char type, unsigned long ip)
{
	pk_rbuf_printf(buf, "%c%c%016lx", PK_MARK, type, ip);
}

void pk_rbuf_ip_sym(struct pk_rbuf *buf, unsigned long ip)
{
	if (pk_report_deferred())
		pk_rbuf_mark(buf, PK_MARK_FRAME, ip);
	else
		rbuf_frame(buf, ip, true, true);
}

void pk_rbuf_sym(struct pk_rbuf *buf, unsigned long ip)
{
	if (pk_report_deferred())
		pk_rbuf_mark(buf, PK_MARK_SYM, ip);
	else
		rbuf_frame(buf, ip, true, false);
}

const char *pk_sym_str_how(unsigned long ip, char how, bool markers, char *buf,
			   size_t size)
{
	/* A return address may be a call's last byte: look up the call. */
	unsigned long at = how == PK_MARK_RET && ip ? ip - 1 : ip;
	unsigned long off = 0, symsize = 0;
	const char *file;
	char name[200];
	int line;

	if (pk_report_deferred() && markers)
		snprintf(buf, size, "%c%c%016lx", PK_MARK, how, ip);
	else if (!pk_symbolize(at, name, sizeof(name), &off, &symsize, &file,
			       &line))
		snprintf(buf, size, "0x%lx", ip);
	else if (how == PK_MARK_NAME)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "%s+0x%lx/0x%lx", name, off + (ip - at),
			 symsize);
	return buf;
}

const char *pk_sym_str(unsigned long ip, char *buf, size_t size)
{
	return pk_sym_str_how(ip, PK_MARK_STR, true, buf, size);
}

/* Frames of the report machinery itself are noise in a trace. */
static bool is_report_frame(unsigned long ip)
{
	static const char *const prefixes[] = {
		"pk_rbuf_", "pk_report_", "pk_warn_",
		"pk_bug",   "pk_splat_",  "pk_blocking_",
	};
	char name[128];
	unsigned long off, size;
	const char *file;
	int line;

	if (!pk_symbolize(ip, name, sizeof(name), &off, &size, &file, &line))
		return false;
	if (!strcmp(name, "dump_stack"))
		return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* The trace proper, from frame @i on, after "Call Trace:". */
static void rbuf_trace(struct pk_rbuf *buf, const unsigned long *frames, int n)
{
	int i = 0;

	/* Start after the last machinery frame near the top; sanitizers put
	 * an interceptor frame above backtrace()'s caller. */
	for (int j = 0; j < n && j < 8; j++)
		if (is_report_frame(frames[j]))
			i = j + 1;
	for (; i < n; i++)
		rbuf_frame(buf, frames[i], true, true);
}

/*
 * The library's signal handlers' entries.  A signal that comes while
 * another is being delivered interrupts that one at its first
 * instruction, where the unwind tables are exact: the walk steps out of
 * it to the code the first signal interrupted.
 */
static unsigned long handler_entries[8];
static int nr_handler_entries;

void pk_unwind_note_handler(void *entry)
{
	if (nr_handler_entries <
	    (int)(sizeof(handler_entries) / sizeof(handler_entries[0])))
		handler_entries[nr_handler_entries++] = (unsigned long)entry;
}

static bool is_handler_entry(unsigned long ip)
{
	for (int i = 0; i < nr_handler_entries; i++)
		if (handler_entries[i] == ip)
			return true;
	return false;
}

struct unwind_walk {
	unsigned long *frames;
	int max, n;
	bool stop_at_signal;
};

static _Unwind_Reason_Code unwind_one(struct _Unwind_Context *ctx, void *arg)
{
	struct unwind_walk *w = arg;
	int interrupted = 0;
	unsigned long ip = _Unwind_GetIPInfo(ctx, &interrupted);

	if (!ip || w->n == w->max)
		return _URC_END_OF_STACK;
	w->frames[w->n++] = ip;
	/*
	 * The interrupted context of a signal frame: its pc is exact, but
	 * its caller is not to be computed from a handler.  The code there
	 * may be anywhere (a PLT stub, the lazy binder, a prologue), and an
	 * unwind step through it has read a string as a return address.
	 */
	return interrupted && w->stop_at_signal && !is_handler_entry(ip)
		       ? _URC_END_OF_STACK
		       : _URC_NO_REASON;
}

/*
 * libgcc's unwinder, as backtrace() uses it, but stopping at the first
 * signal frame when called from one of the library's signal handlers.
 */
static __attribute__((always_inline)) inline int
unwind(unsigned long *frames, int max, bool stop_at_signal)
{
	struct unwind_walk w = {frames, max, 0,
				stop_at_signal || pk_in_signal > 0};

	pk_host_calls_enter();
	_Unwind_Backtrace(unwind_one, &w);
	pk_host_calls_exit();
	return w.n;
}

__attribute__((noinline)) int pk_stack_capture(unsigned long *out, int max,
					       unsigned long from)
{
	unsigned long frames[MAX_FRAMES + 16];
	/* Each step costs: no deeper than asked unless @from is searched. */
	int want = from || max >= MAX_FRAMES + 16 ? MAX_FRAMES + 16 : max + 1;
	int n = unwind(frames, want, false), i = 0, len;

	if (from) {
		while (i < n && frames[i] != from)
			i++;
		if (i == n) /* not on this stack: keep everything */
			i = 0;
	} else {
		i = 1; /* our own frame */
	}
	len = n - i < max ? n - i : max;
	for (int j = 0; j < len; j++)
		out[j] = frames[i + j];
	return len > 0 ? len : 0;
}

__attribute__((noinline)) int pk_stack_capture_to_signal(unsigned long *out,
							 int max)
{
	unsigned long frames[MAX_FRAMES + 1];
	int n = unwind(frames, max < MAX_FRAMES ? max + 1 : MAX_FRAMES + 1,
		       true);

	for (int i = 1; i < n; i++) /* past our own frame */
		out[i - 1] = frames[i];
	return n > 1 ? n - 1 : 0;
}

void pk_rbuf_trace(struct pk_rbuf *buf, const unsigned long *frames, int n)
{
	pk_rbuf_printf(buf, "Call Trace:\n");
	if (!pk_report_deferred()) {
		for (int i = 0; i < n; i++)
			rbuf_frame(buf, frames[i], true, true);
		return;
	}
	for (int i = 0; i < n; i++)
		pk_rbuf_mark(buf, PK_MARK_TRACE, frames[i]);
}

void pk_rbuf_backtrace(struct pk_rbuf *buf)
{
	unsigned long frames[MAX_FRAMES];
	int n = pk_stack_capture(frames, MAX_FRAMES, 0);

	pk_rbuf_printf(buf, "Call Trace:\n");
	if (!pk_report_deferred()) {
		rbuf_trace(buf, frames, n);
		return;
	}
	for (int i = 0; i < n; i++)
		pk_rbuf_mark(buf, PK_MARK_TRACE, frames[i]);
}

/* A marker at @p?  Its address into @ip. */
static bool parse_mark(const char *p, const char *end, char *type,
		       unsigned long *ip)
{
	unsigned long v = 0;

	if (end - p < PK_MARK_LEN || p[0] != PK_MARK)
		return false;
	for (int i = 2; i < PK_MARK_LEN; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
					       : -1;

		if (d < 0)
			return false;
		v = v << 4 | (unsigned long)d;
	}
	*type = p[1];
	*ip = v;
	return true;
}

static void expand_one(struct pk_rbuf *out, char type, unsigned long ip,
		       bool symbolize)
{
	char sym[200];

	if (!symbolize) {
		if (type == PK_MARK_STR || type == PK_MARK_NAME ||
		    type == PK_MARK_RET)
			pk_rbuf_printf(out, "0x%lx", ip);
		else if (type == PK_MARK_SYM)
			pk_rbuf_printf(out, " 0x%lx\n", ip);
		else
			pk_rbuf_printf(out, " [<%016lx>] ?\n", ip);
		return;
	}
	if (type == PK_MARK_FRAME)
		rbuf_frame(out, ip, true, true);
	else if (type == PK_MARK_SYM)
		rbuf_frame(out, ip, true, false);
	else
		pk_rbuf_printf(
			out, "%s",
			pk_sym_str_how(ip, type, true, sym, sizeof(sym)));
}

void pk_rbuf_expand(struct pk_rbuf *out, const char *in, size_t len,
		    bool symbolize)
{
	const char *p = in, *end = in + len;
	unsigned long frames[MAX_FRAMES];
	unsigned long ip;
	char type;

	while (p < end) {
		int n = 0;

		if (!parse_mark(p, end, &type, &ip)) {
			const char *next =
				memchr(p + 1, PK_MARK, (size_t)(end - p - 1));
			size_t chunk =
				next ? (size_t)(next - p) : (size_t)(end - p);

			pk_rbuf_printf(out, "%.*s", (int)chunk, p);
			p += chunk;
			continue;
		}
		if (type != PK_MARK_TRACE) {
			expand_one(out, type, ip, symbolize);
			p += PK_MARK_LEN;
			continue;
		}
		/* A trace: its frames together, for the machinery skip. */
		while (parse_mark(p, end, &type, &ip) &&
		       type == PK_MARK_TRACE && n < MAX_FRAMES) {
			frames[n++] = ip;
			p += PK_MARK_LEN;
		}
		if (symbolize)
			rbuf_trace(out, frames, n);
		else
			for (int i = 0; i < n; i++)
				expand_one(out, PK_MARK_TRACE, frames[i],
					   false);
	}
}

void dump_stack(void)
{
	struct pk_rbuf buf = {0};
	char comm[16];

	pk_rbuf_printf(&buf, "CPU: %d PID: %d Comm: %s %s\n", pk_current_cpu(),
		       pk_current_pid(), pk_current_comm(comm), pk_taint_str());
	pk_rbuf_backtrace(&buf);
	/* Not a report: no hook, printed as it is, or when flushed. */
	pk_report_emit(PK_REPORT_NR, NULL, 0, &buf);
}

/* The unwinder's one-time set-up (pthread_once): here, never in a handler. */
__attribute__((constructor)) static void prime_unwinder(void)
{
	unsigned long warm[2];

	unwind(warm, 2, false);
}
