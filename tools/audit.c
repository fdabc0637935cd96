// SPDX-License-Identifier: MIT
/*
 * `preempt audit`: find the users of the context predicates in a C tree
 * and say, for each, what it does with the answer, why that answer is
 * wrong in which preemption models, and the fix the kernel community
 * applied to that pattern (the 2020-21 in_interrupt() cleanup).
 *
 * The C is read by Coccinelle (spatch) through our own semantic patch,
 * tools/audit/context.cocci; this file runs it and reports.
 */
#define _GNU_SOURCE /* nftw() */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <preempt/preempt.h>

#include "cli.h"

#ifndef PREEMPT_AUDIT_COCCI
#define PREEMPT_AUDIT_COCCI "tools/audit/context.cocci"
#endif
#ifndef PREEMPT_AUDIT_COCCI_INSTALLED
#define PREEMPT_AUDIT_COCCI_INSTALLED "/usr/share/preempt/context.cocci"
#endif

/* ---- what the kernel community knows about each pattern ---- */

enum kind {
	K_GFP,
	K_SLEEP,
	K_DECISION,
	K_PASSED,
	K_ASSERT,
	K_LEGACY, /* --run: a PREEMPT_COUNT=n kernel answers otherwise */
	K_MODEL,  /* --run: the answer depends on the model */
	NR_KINDS
};

static const struct kind_info {
	const char *id;	   /* the .cocci's kind, and the SARIF rule id */
	const char *level; /* SARIF: error, warning, note */
	const char *title;
	const char *fix;
} kinds[NR_KINDS] = {
	[K_GFP] = {"gfp-choice", "error",
		   "GFP flags chosen from the context predicate",
		   "Pass a gfp_t from the caller, which knows its context (the "
		   "2020-21 cleanup's usual fix); where a gfp_t is already at "
		   "hand, test it with gfpflags_allow_blocking()."},
	[K_SLEEP] =
		{"sleep-choice", "error",
		 "sleeping or non-sleeping path chosen from the context "
		 "predicate",
		 "Split the function into a sleeping and an atomic variant, "
		 "or pass a may-sleep flag from the caller: the caller "
		 "knows its context."},
	[K_DECISION] = {"decision", "warning",
			"behaviour decided from the context predicate",
			"Convey the context from the caller (an argument or "
			"separate entry points) instead of guessing it at run "
			"time."},
	[K_PASSED] = {"passed-on", "warning",
		      "context answer returned, stored or passed on",
		      "Let the caller, which knows its context, pass it down "
		      "instead of handing a model-dependent answer on."},
	[K_ASSERT] =
		{"assertion", "note", "context asserted with the predicate",
		 "Use lockdep_assert_in_irq(), lockdep_assert_in_softirq(), "
		 "lockdep_assert_irqs_disabled(), "
		 "lockdep_assert_preemption_disabled() or might_sleep(): "
		 "they check what the code needs, in every model."},
	[K_LEGACY] = {"legacy-count", "warning",
		      "answered otherwise than a PREEMPT_COUNT=n kernel "
		      "answers at the same place",
		      "Do not decide from the context: pass it from the "
		      "caller, or assert what the code needs with "
		      "lockdep_assert_*() or might_sleep(), which hold with "
		      "and without PREEMPT_COUNT."},
	[K_MODEL] = {"model-dependent", "warning",
		     "answered differently under different preemption models",
		     "Do not decide from the context: pass it from the "
		     "caller, or assert what the code needs with "
		     "lockdep_assert_*() or might_sleep(), which hold in "
		     "every model."},
};

static const struct pred_info {
	const char *name;
	const char *models;
} preds[] = {
	{"in_interrupt",
	 "in_interrupt() is false under spinlocks, preempt_disable(), "
	 "rcu_read_lock() and with irqs off, in every preemption model, so "
	 "'not in interrupt' never means 'may sleep'; it is true in task "
	 "context with bottom halves disabled."},
	{"in_softirq",
	 "in_softirq() is also true in task context with bottom halves "
	 "disabled (spin_lock_bh()), and blind to every other atomic section "
	 "in every model; on PREEMPT_RT softirqs run in task context."},
	{"in_irq",
	 "in_irq() (deprecated: in_hardirq()) is true only inside a hardirq "
	 "handler: threaded handlers are task context, and spinlocks and "
	 "irqs-off sections are invisible to it in every model."},
	{"in_hardirq",
	 "in_hardirq() is true only inside a hardirq handler: threaded "
	 "handlers are task context, and spinlocks and irqs-off sections are "
	 "invisible to it in every model."},
	{"in_serving_softirq",
	 "in_serving_softirq() is true only while a softirq handler runs: "
	 "bh-disabled sections, spinlocks and irqs-off sections are "
	 "invisible to it in every model."},
	{"in_atomic",
	 "in_atomic() reads 0 under spinlocks and preempt_disable() on "
	 "kernels without CONFIG_PREEMPT_COUNT (none/voluntary builds "
	 "without atomic-sleep debugging), never counts rcu_read_lock() "
	 "under PREEMPT_RCU or spinlock_t on PREEMPT_RT, and does not count "
	 "irqs-off sections."},
	{"preemptible",
	 "preemptible() is constant 0 without CONFIG_PREEMPT_COUNT, so its "
	 "sleeping branch is dead code there; under PREEMPT_RCU it is 1 "
	 "inside rcu_read_lock(), where sleeping is still a bug."},
	{"irqs_disabled",
	 "irqs_disabled() reports only the local irq flag: spinlocks, "
	 "preempt_disable(), bottom halves and RCU are invisible to it in "
	 "every model."},
	{"in_task",
	 "in_task() is 1 in task context even under spinlocks, "
	 "preempt_disable(), local_bh_disable() and with irqs off, in every "
	 "model: 'in a task' does not mean 'may sleep'."},
};

#define NR_PREDS (sizeof(preds) / sizeof(preds[0]))

static const char driver_note[] =
	"Driver code: the kernel's documentation of these predicates "
	"(include/linux/preempt.h) says drivers must not use them to choose "
	"behaviour.";

struct finding {
	enum kind kind;
	char *file, *pred, *func, *detail;
	long line, col;
	bool driver;
};

struct audit {
	struct finding *f;
	size_t n, cap;
	bool json, sarif;
	const char *cocci, *spatch;
	bool run;	     /* --run: run a program, not read C */
	unsigned int models; /* --run: the models to run it under, a mask */
};

static const char *pred_models(const char *name)
{
	for (size_t i = 0; i < NR_PREDS; i++)
		if (!strcmp(preds[i].name, name))
			return preds[i].models;
	return "";
}

static bool is_driver(const char *path)
{
	return !strncmp(path, "drivers/", 8) || strstr(path, "/drivers/");
}

/* ---- running spatch ---- */

static int kind_of(const char *id)
{
	for (int k = 0; k < NR_KINDS; k++)
		if (!strcmp(kinds[k].id, id))
			return k;
	return -1;
}

static char *field(char **s)
{
	char *start = *s, *tab;

	if (!start)
		return NULL;
	tab = strchr(start, '\t');
	if (tab) {
		*tab = '\0';
		*s = tab + 1;
	} else {
		*s = NULL;
	}
	return start;
}

static int push_finding(struct audit *a, enum kind k, const char *file,
			long line, long col, const char *pred, const char *func,
			const char *detail)
{
	struct finding *f;

	if (a->n == a->cap) {
		size_t nc = a->cap ? 2 * a->cap : 64;
		struct finding *nf = realloc(a->f, nc * sizeof(*nf));

		if (!nf)
			return -1;
		a->f = nf;
		a->cap = nc;
	}
	f = &a->f[a->n];
	f->kind = k;
	f->file = strdup(file);
	f->pred = strdup(pred);
	f->func = strdup(func);
	f->detail = strdup(detail);
	f->line = line;
	f->col = col;
	f->driver = is_driver(file);
	if (!f->file || !f->pred || !f->func || !f->detail)
		return -1;
	a->n++;
	return 0;
}

static int add_finding(struct audit *a, char *line)
{
	char *s = line, *tag = field(&s), *id = field(&s), *file = field(&s);
	char *ln = field(&s), *col = field(&s), *pred = field(&s);
	char *func = field(&s), *detail = s ? s : (char *)"";
	int k;

	if (!tag || strcmp(tag, "AUDIT") || !func)
		return 0;
	k = kind_of(id);
	if (k < 0)
		return 0;
	return push_finding(a, (enum kind)k, file, strtol(ln, NULL, 10),
			    strtol(col, NULL, 10), pred, func, detail);
}

/* spatch over up to SPATCH_BATCH files at once: one start-up for all. */
#define SPATCH_BATCH 64

static void run_child(const struct audit *a, char *const *files, size_t n,
		      int out)
{
	const char *argv[8 + SPATCH_BATCH] = {
		a->spatch, "--very-quiet", "--no-includes", "--timeout",
		"120",	   "--sp-file",	   a->cocci};
	int null = open("/dev/null", O_RDWR);

	for (size_t i = 0; i < n; i++)
		argv[7 + i] = files[i];
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(null, 2) < 0)
		_exit(126);
	execvp(a->spatch, (char *const *)argv);
	_exit(127);
}

static int run_spatch(struct audit *a, char *const *files, size_t n)
{
	int pipefd[2], status, rc = 0;
	char *line = NULL;
	size_t cap = 0;
	FILE *in;
	pid_t pid;

	if (pipe(pipefd))
		return cli_usage_error("audit", "pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return cli_usage_error("audit", "fork: %s", strerror(errno));
	if (!pid) {
		close(pipefd[0]);
		run_child(a, files, n, pipefd[1]);
	}
	close(pipefd[1]);
	in = fdopen(pipefd[0], "r");
	while (in && getline(&line, &cap, in) >= 0) {
		line[strcspn(line, "\n")] = '\0';
		if (add_finding(a, line))
			rc = -1;
	}
	free(line);
	if (in)
		fclose(in);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return cli_usage_error(
			"audit", "spatch failed on '%s'%s (exit %d)", files[0],
			n > 1 ? " and the files after it" : "",
			WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return rc ? cli_usage_error("audit", "out of memory") : 0;
}

/* ---- which files to hand to spatch ---- */

/*
 * Only files that name a predicate are worth parsing: a token scan picks
 * them, Coccinelle does the reading.  Parsing every file of a tree as big
 * as drivers/ would take spatch the better part of an hour.
 */
static bool names_a_predicate(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, len = 0, n;
	bool hit = false;

	if (!f)
		return false;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			size_t nc = cap ? 2 * cap : 65536;
			char *nb = realloc(buf, nc);

			if (!nb)
				break;
			buf = nb;
			cap = nc;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		if (!n)
			break;
		len += n;
	}
	fclose(f);
	if (!buf)
		return false;
	buf[len] = '\0';
	for (size_t i = 0; i < NR_PREDS && !hit; i++) {
		size_t k = strlen(preds[i].name);

		for (const char *p = strstr(buf, preds[i].name); p && !hit;
		     p = strstr(p + 1, preds[i].name)) {
			const char *q = p + k;

			if (p > buf &&
			    (p[-1] == '_' || isalnum((unsigned char)p[-1])))
				continue;
			while (*q == ' ' || *q == '\t')
				q++;
			hit = *q == '(';
		}
	}
	free(buf);
	return hit;
}

struct files {
	char **v;
	size_t n, cap;
};

static struct files *walk_files; /* nftw() has no user pointer */

static int add_file(struct files *fs, const char *path)
{
	if (fs->n == fs->cap) {
		size_t nc = fs->cap ? 2 * fs->cap : 64;
		char **nv = realloc(fs->v, nc * sizeof(*nv));

		if (!nv)
			return -1;
		fs->v = nv;
		fs->cap = nc;
	}
	fs->v[fs->n] = strdup(path);
	return fs->v[fs->n] ? (int)(fs->n++, 0) : -1;
}

static int walk_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	size_t n = strlen(path);

	(void)st;
	(void)ftw;
	if (type != FTW_F || n < 3 || path[n - 2] != '.' ||
	    (path[n - 1] != 'c' && path[n - 1] != 'h'))
		return 0;
	if (names_a_predicate(path) && add_file(walk_files, path))
		return -1;
	return 0;
}

static int by_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static int collect(const char *path, struct files *fs)
{
	struct stat st;

	if (stat(path, &st))
		return cli_usage_error("audit", "cannot read '%s'", path);
	if (!S_ISDIR(st.st_mode))
		return names_a_predicate(path) && add_file(fs, path)
			       ? cli_usage_error("audit", "out of memory")
			       : 0;
	walk_files = fs;
	if (nftw(path, walk_one, 32, FTW_PHYS))
		return cli_usage_error("audit", "walking '%s' failed", path);
	return 0;
}

static void free_files(struct files *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		free(fs->v[i]);
	free(fs->v);
}

/* ---- output ---- */

static int by_place(const void *x, const void *y)
{
	const struct finding *a = x, *b = y;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	return (a->kind > b->kind) - (a->kind < b->kind);
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* The message: the pattern, in one sentence. */
static void message(const struct finding *f, char *buf, size_t len)
{
	if (f->detail[0])
		snprintf(buf, len, "%s() in %s(): %s (%s).", f->pred, f->func,
			 kinds[f->kind].title, f->detail);
	else
		snprintf(buf, len, "%s() in %s(): %s.", f->pred, f->func,
			 kinds[f->kind].title);
}

static void why(const struct finding *f, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", pred_models(f->pred), f->driver ? " " : "",
		 f->driver ? driver_note : "");
}

static void print_text(const struct audit *a)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct finding *f = &a->f[i];
		char msg[512], w[1024];

		message(f, msg, sizeof(msg));
		why(f, w, sizeof(w));
		if (f->col > 0)
			printf("%s:%ld:%ld: ", f->file, f->line, f->col);
		else /* --run knows lines, not columns */
			printf("%s:%ld: ", f->file, f->line);
		printf("%s: [%s] %s\n", kinds[f->kind].level, kinds[f->kind].id,
		       msg);
		printf("    why: %s\n    fix: %s\n", w, kinds[f->kind].fix);
	}
	printf("%zu finding%s\n", a->n, a->n == 1 ? "" : "s");
}

static void print_json(const struct audit *a)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct finding *f = &a->f[i];
		char msg[512], w[1024];

		message(f, msg, sizeof(msg));
		why(f, w, sizeof(w));
		printf("{\"file\":");
		json_str(f->file);
		printf(",\"line\":%ld,\"column\":%ld,\"rule\":\"%s\","
		       "\"level\":\"%s\",\"predicate\":",
		       f->line, f->col, kinds[f->kind].id,
		       kinds[f->kind].level);
		json_str(f->pred);
		printf(",\"function\":");
		json_str(f->func);
		printf(",\"driver\":%s,\"detail\":",
		       f->driver ? "true" : "false");
		json_str(f->detail);
		printf(",\"message\":");
		json_str(msg);
		printf(",\"why\":");
		json_str(w);
		printf(",\"fix\":");
		json_str(kinds[f->kind].fix);
		printf("}\n");
	}
}

static void sarif_rules(void)
{
	for (int k = 0; k < NR_KINDS; k++) {
		printf("%s{\"id\":\"%s\",\"name\":\"%s\","
		       "\"shortDescription\":{\"text\":",
		       k ? "," : "", kinds[k].id, kinds[k].id);
		json_str(kinds[k].title);
		printf("},\"help\":{\"text\":");
		json_str(kinds[k].fix);
		printf("},\"defaultConfiguration\":{\"level\":\"%s\"}}",
		       kinds[k].level);
	}
}

static void sarif_result(const struct finding *f, bool first)
{
	char msg[512], w[1024], full[2048];

	message(f, msg, sizeof(msg));
	why(f, w, sizeof(w));
	snprintf(full, sizeof(full), "%s %s Fix: %s", msg, w,
		 kinds[f->kind].fix);
	printf("%s{\"ruleId\":\"%s\",\"ruleIndex\":%d,\"level\":\"%s\","
	       "\"message\":{\"text\":",
	       first ? "" : ",", kinds[f->kind].id, (int)f->kind,
	       kinds[f->kind].level);
	json_str(full);
	printf("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":"
	       "{\"uri\":");
	json_str(f->file);
	printf("},\"region\":{\"startLine\":%ld,\"startColumn\":%ld}}}]}",
	       f->line, f->col > 0 ? f->col : 1);
}

/* SARIF 2.1.0: one run, the rules, one result per finding. */
static void print_sarif(const struct audit *a)
{
	printf("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\","
	       "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{"
	       "\"name\":\"preempt audit\",\"rules\":[");
	sarif_rules();
	printf("]}},\"results\":[");
	for (size_t i = 0; i < a->n; i++)
		sarif_result(&a->f[i], !i);
	printf("]}]}\n");
}

/* ---- --run: the dynamic audit ---- */

/*
 * One call site as the runs saw it (src/debug/audit.c's log): @seen holds
 * 4 bits per model, bit (answer << 1 | the PREEMPT_COUNT=n answer).
 */
struct run_site {
	char *pred, *file, *func;
	long line;
	unsigned int seen;
	unsigned long calls;
};

struct run_sites {
	struct run_site *v;
	size_t n, cap;
};

static struct run_site *site_for(struct run_sites *rs, const char *pred,
				 const char *file, long line, const char *func)
{
	struct run_site *s;

	for (size_t i = 0; i < rs->n; i++) {
		s = &rs->v[i];
		if (s->line == line && !strcmp(s->pred, pred) &&
		    !strcmp(s->file, file) && !strcmp(s->func, func))
			return s;
	}
	if (rs->n == rs->cap) {
		size_t nc = rs->cap ? 2 * rs->cap : 64;
		struct run_site *nv = realloc(rs->v, nc * sizeof(*nv));

		if (!nv)
			return NULL;
		rs->v = nv;
		rs->cap = nc;
	}
	s = &rs->v[rs->n];
	*s = (struct run_site){.pred = strdup(pred),
			       .file = strdup(file),
			       .func = strdup(func),
			       .line = line};
	if (!s->pred || !s->file || !s->func)
		return NULL;
	rs->n++;
	return s;
}

/* One log line: predicate, file, line, function, seen (hex), calls. */
static int merge_line(struct run_sites *rs, char *line)
{
	char *p = line, *pred = field(&p), *file = field(&p);
	char *ln = field(&p), *func = field(&p), *seen = field(&p);
	struct run_site *s;

	line[strcspn(line, "\n")] = '\0';
	if (line[0] == '#') { /* the library's own note: pass it on */
		fprintf(stderr, "preempt: audit: %s\n", line + 1);
		return 0;
	}
	if (!p || !seen)
		return 0;
	s = site_for(rs, pred, file, strtol(ln, NULL, 10), func);
	if (!s)
		return -1;
	s->seen |= (unsigned int)strtoul(seen, NULL, 16);
	s->calls += strtoul(p, NULL, 10);
	return 0;
}

static void run_program(char **argv, int model, const char *log)
{
	int null = open("/dev/null", O_RDONLY);

	setenv("PREEMPT_MODEL", preempt_model_str(model), 1);
	setenv("PREEMPT_AUDIT_LOG", log, 1);
	/* The program's output is not ours: our stdout is the findings'. */
	if (null < 0 || dup2(null, 0) < 0 || dup2(2, 1) < 0)
		_exit(126);
	execvp(argv[0], argv);
	_exit(127);
}

/* @argv under @model once; its log merged into @rs. */
static int run_under(char **argv, int model, int logfd, const char *log,
		     struct run_sites *rs)
{
	char *line = NULL;
	size_t cap = 0;
	int status, rc = 0;
	FILE *in;
	pid_t pid;

	if (ftruncate(logfd, 0))
		return cli_usage_error("audit", "cannot reset %s", log);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return cli_usage_error("audit", "fork: %s", strerror(errno));
	if (!pid)
		run_program(argv, model, log);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return cli_usage_error("audit", "cannot run '%s'", argv[0]);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fprintf(stderr, "preempt: audit: note: %s %s under %s\n",
			argv[0],
			WIFEXITED(status) ? "failed" : "died (no log of it)",
			preempt_model_str(model));
	in = fopen(log, "r");
	if (!in)
		return cli_usage_error("audit", "cannot read %s", log);
	while (!rc && getline(&line, &cap, in) > 0)
		rc = merge_line(rs, line);
	free(line);
	fclose(in);
	return rc ? cli_usage_error("audit", "out of memory") : 0;
}

/* The models whose 4 bits of @seen meet @bits, as "none, full". */
static void models_where(unsigned int seen, unsigned int bits, char *buf,
			 size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int m = 0; m < PREEMPT_MODEL_NR && at < len; m++)
		if ((seen >> (m * 4)) & bits)
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? ", " : "",
					       preempt_model_str(m));
}

static int legacy_finding(struct audit *a, const struct run_site *s)
{
	char detail[512], m1[96], m0[96];

	models_where(s->seen, 0x4, m1, sizeof(m1));
	models_where(s->seen, 0x2, m0, sizeof(m0));
	if (!m1[0] && !m0[0])
		return 0;
	snprintf(detail, sizeof(detail), "%s%s%s%s%s",
		 m1[0] ? "1 where PREEMPT_COUNT=n answers 0, under " : "", m1,
		 m1[0] && m0[0] ? "; " : "",
		 m0[0] ? "0 where PREEMPT_COUNT=n answers 1, under " : "", m0);
	return push_finding(a, K_LEGACY, s->file, s->line, 0, s->pred, s->func,
			    detail);
}

/*
 * The answers each model gave, as a set (bit 0: answered 0, bit 1:
 * answered 1); a finding when two models that reached the site differ.
 */
static int model_finding(struct audit *a, const struct run_site *s)
{
	static const char *const answer[4] = {"", "0", "1", "0 and 1"};
	unsigned int first = 0, set[PREEMPT_MODEL_NR];
	bool differs = false;
	char detail[512] = "";

	for (int m = 0; m < PREEMPT_MODEL_NR; m++) {
		unsigned int n = (s->seen >> (m * 4)) & 0xf;

		set[m] = (n & 0x3 ? 1u : 0u) | (n & 0xc ? 2u : 0u);
		if (!first)
			first = set[m];
		differs |= set[m] && set[m] != first;
	}
	if (!differs)
		return 0;
	for (int i = 0; i < 3; i++) {
		const unsigned int v = (unsigned int[]){2, 1, 3}[i];
		char names[96] = "";

		for (int m = 0; m < PREEMPT_MODEL_NR; m++)
			if (set[m] == v)
				snprintf(names + strlen(names),
					 sizeof(names) - strlen(names), "%s%s",
					 names[0] ? ", " : "",
					 preempt_model_str(m));
		if (names[0])
			snprintf(detail + strlen(detail),
				 sizeof(detail) - strlen(detail),
				 "%s%s under %s", detail[0] ? "; " : "",
				 answer[v], names);
	}
	return push_finding(a, K_MODEL, s->file, s->line, 0, s->pred, s->func,
			    detail);
}

static void free_sites(struct run_sites *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free(rs->v[i].pred);
		free(rs->v[i].file);
		free(rs->v[i].func);
	}
	free(rs->v);
}

static void print_findings(const struct audit *a)
{
	if (a->sarif)
		print_sarif(a);
	else if (a->json)
		print_json(a);
	else
		print_text(a);
}

static int audit_run(struct audit *a, char **argv)
{
	char log[] = "/tmp/preempt-audit.XXXXXX";
	struct run_sites rs = {0};
	int fd = mkstemp(log), rc = 0;

	if (fd < 0)
		return cli_usage_error("audit", "mkstemp: %s", strerror(errno));
	for (int m = 0; m < PREEMPT_MODEL_NR && !rc; m++)
		if (a->models & (1u << m))
			rc = run_under(argv, m, fd, log, &rs);
	close(fd);
	unlink(log);
	for (size_t i = 0; i < rs.n && !rc; i++) {
		rc = legacy_finding(a, &rs.v[i]);
		if (!rc)
			rc = model_finding(a, &rs.v[i]);
	}
	free_sites(&rs);
	if (rc)
		return rc < 0 ? cli_usage_error("audit", "out of memory") : rc;
	if (a->n)
		qsort(a->f, a->n, sizeof(*a->f), by_place);
	print_findings(a);
	return a->n ? 1 : 0;
}

/* ---- the command ---- */

static const char usage_text[] =
	"usage: preempt audit [options] PATH...\n"
	"       preempt audit --run [--model=LIST] [options] PROGRAM [ARG...]\n"
	"\n"
	"Find the uses of in_interrupt(), in_atomic(), in_softirq(), "
	"in_irq(),\n"
	"in_serving_softirq(), preemptible(), irqs_disabled() and in_task() "
	"in\n"
	"C files or trees, and classify each: GFP flags or a sleeping path\n"
	"chosen from context, another decision, an answer passed on, or an\n"
	"assertion.  Each finding says why the answer is wrong in which\n"
	"preemption models and the kernel community's fix.  Needs Coccinelle\n"
	"(spatch).\n"
	"\n"
	"With --run, run PROGRAM (built with -DCONFIG_PREEMPT_AUDIT=1) once\n"
	"per model and report every predicate call site whose answer differs\n"
	"from a PREEMPT_COUNT=n kernel's or between models.\n"
	"\n"
	"options:\n"
	"  --run            run a program instead of reading C\n"
	"  --model=LIST     with --run: the models, comma-separated, or all\n"
	"                   (default)\n"
	"  --json           one JSON object per finding, one per line\n"
	"  --sarif          a SARIF 2.1.0 log\n"
	"  --cocci=FILE     the semantic patch (default: the installed one)\n"
	"  --spatch=PATH    the spatch binary (default: spatch on PATH)\n"
	"  -h, --help       this text\n"
	"\n"
	"exit status: 0 no findings, 1 findings, 2 bad input.\n";

static int parse_models(const char *list, struct audit *a)
{
	char buf[128], *save = NULL;

	if (!strcmp(list, "all")) {
		a->models = (1u << PREEMPT_MODEL_NR) - 1;
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	a->models = 0;
	for (char *m = strtok_r(buf, ",", &save); m;
	     m = strtok_r(NULL, ",", &save)) {
		int model = preempt_model_parse(m);

		if (model < 0)
			return cli_usage_error("audit", "unknown model '%s'",
					       m);
		a->models |= 1u << model;
	}
	if (!a->models)
		return cli_usage_error("audit", "--model= names no model");
	return -1;
}

static int parse_opt(const char *arg, struct audit *a)
{
	if (!strcmp(arg, "--json"))
		a->json = true;
	else if (!strcmp(arg, "--sarif"))
		a->sarif = true;
	else if (!strncmp(arg, "--cocci=", 8) && arg[8])
		a->cocci = arg + 8;
	else if (!strncmp(arg, "--spatch=", 9) && arg[9])
		a->spatch = arg + 9;
	else if (!strcmp(arg, "--run"))
		a->run = true;
	else if (!strncmp(arg, "--model=", 8))
		return parse_models(arg + 8, a);
	else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
		fputs(usage_text, stdout);
		return 0;
	} else
		return cli_usage_error("audit", "unknown option '%s'", arg);
	return -1;
}

static bool on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	while (path && *path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
		if (!access(buf, X_OK))
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

/* Every argument checked before anything runs. */
static int check_args(char **paths, int n, const struct audit *a)
{
	struct stat st;

	if (a->json && a->sarif)
		return cli_usage_error("audit", "--json and --sarif exclude "
						"each other");
	if (a->run)
		return !n ? cli_usage_error("audit", "--run: no program")
		       : !on_path(paths[0])
			       ? cli_usage_error("audit", "cannot run '%s'",
						 paths[0])
			       : -1;
	if (a->models)
		return cli_usage_error("audit", "--model= needs --run");

	if (!n)
		return cli_usage_error("audit",
				       "no path to audit (try `preempt "
				       "audit --help`)");
	for (int i = 0; i < n; i++)
		if (stat(paths[i], &st) ||
		    (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)))
			return cli_usage_error("audit", "cannot read '%s'",
					       paths[i]);
	if (access(a->cocci, R_OK))
		return cli_usage_error("audit", "no semantic patch at '%s'",
				       a->cocci);
	if (!on_path(a->spatch))
		return cli_usage_error("audit", "spatch not found (install "
						"Debian's coccinelle)");
	return -1;
}

static void free_audit(struct audit *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->f[i].file);
		free(a->f[i].pred);
		free(a->f[i].func);
		free(a->f[i].detail);
	}
	free(a->f);
}

static int audit_paths(struct audit *a, char **paths, int n)
{
	struct files fs = {0};
	int rc = 0;

	for (int i = 0; i < n && !rc; i++)
		rc = collect(paths[i], &fs);
	if (!rc && fs.n) /* qsort() wants a real array, even empty */
		qsort(fs.v, fs.n, sizeof(*fs.v), by_name);
	for (size_t i = 0; i < fs.n && !rc; i += SPATCH_BATCH)
		rc = run_spatch(a, fs.v + i,
				fs.n - i < SPATCH_BATCH ? fs.n - i
							: SPATCH_BATCH);
	free_files(&fs);
	if (rc)
		return rc;
	if (a->n)
		qsort(a->f, a->n, sizeof(*a->f), by_place);
	print_findings(a);
	return a->n ? 1 : 0;
}

int cmd_audit(int argc, char **argv)
{
	struct audit a = {.cocci = getenv("PREEMPT_AUDIT_COCCI"),
			  .spatch = "spatch"};
	char **paths = calloc((size_t)argc + 1, sizeof(*paths));
	bool options = true;
	int n = 0, rc = -1;

	if (!paths)
		return cli_usage_error("audit", "out of memory");
	if (!a.cocci) /* the build tree's while it exists, else installed */
		a.cocci = access(PREEMPT_AUDIT_COCCI, R_OK) == 0
				  ? PREEMPT_AUDIT_COCCI
				  : PREEMPT_AUDIT_COCCI_INSTALLED;
	for (int i = 1; i < argc && rc < 0; i++) {
		if (options && !strcmp(argv[i], "--"))
			options = false;
		else if (options && argv[i][0] == '-' && argv[i][1])
			rc = parse_opt(argv[i], &a);
		else {
			paths[n++] = argv[i];
			options = !a.run; /* the program's own options follow */
		}
	}
	if (rc < 0)
		rc = check_args(paths, n, &a);
	if (rc < 0 && a.run) {
		if (!a.models)
			a.models = (1u << PREEMPT_MODEL_NR) - 1;
		rc = audit_run(&a, paths);
	} else if (rc < 0)
		rc = audit_paths(&a, paths, n);
	free_audit(&a);
	free(paths);
	fflush(stdout);
	return rc;
}
