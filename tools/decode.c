// SPDX-License-Identifier: MIT
/*
 * `preempt decode`: explain preempt_count values, given on the command line
 * or found in kernel log text, in three layouts of the word.
 */
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <preempt/preempt.h>

#include "cli.h"
#include "decode.h"
#include "splat.h"

/* ---- layouts ---- */

struct span {
	unsigned int shift, bits;
};

struct layout_desc {
	const char *name;
	const char *title;
	unsigned int width;
	struct span preempt, softirq, irq_disable, hardirq, nmi, reserved;
	unsigned int nr_bit;
};

/* 2020 and pk share every classic position: the header's macros. */
#define PK_NR_BIT 31
_Static_assert(PREEMPT_NEED_RESCHED == 1U << PK_NR_BIT, "NR is bit 31");

#define SPAN_PREEMPT                                                           \
	{                                                                      \
		PREEMPT_SHIFT, PREEMPT_BITS                                    \
	}
#define SPAN_SOFTIRQ                                                           \
	{                                                                      \
		SOFTIRQ_SHIFT, SOFTIRQ_BITS                                    \
	}
#define SPAN_HARDIRQ                                                           \
	{                                                                      \
		HARDIRQ_SHIFT, HARDIRQ_BITS                                    \
	}
#define SPAN_NMI                                                               \
	{                                                                      \
		NMI_SHIFT, NMI_BITS                                            \
	}
#define SPAN_HIGH                                                              \
	{                                                                      \
		HARDIRQ_DISABLE_SHIFT, HARDIRQ_DISABLE_BITS                    \
	}
#define SPAN_NONE                                                              \
	{                                                                      \
		0, 0                                                           \
	}

/* The 2026 kernel's word; its 64-bit x86 form only moves need-resched. */
#define SPAN_2026_IRQ_DISABLE                                                  \
	{                                                                      \
		16, 8                                                          \
	}
#define SPAN_2026_HARDIRQ                                                      \
	{                                                                      \
		24, 4                                                          \
	}
#define SPAN_2026_NMI                                                          \
	{                                                                      \
		28, 1                                                          \
	}

enum { DESC_2020, DESC_PK, DESC_2026, DESC_2026_64 };

static const struct layout_desc layouts[] = {
	[DESC_2020] = {"2020", "Linux 2020", 32, SPAN_PREEMPT, SPAN_SOFTIRQ,
		       SPAN_NONE, SPAN_HARDIRQ, SPAN_NMI, SPAN_HIGH, PK_NR_BIT},
	[DESC_PK] = {"pk", "libpreempt", 32, SPAN_PREEMPT, SPAN_SOFTIRQ,
		     SPAN_HIGH, SPAN_HARDIRQ, SPAN_NMI, SPAN_NONE, PK_NR_BIT},
	[DESC_2026] = {"2026",
		       "Linux 2026",
		       32,
		       SPAN_PREEMPT,
		       SPAN_SOFTIRQ,
		       SPAN_2026_IRQ_DISABLE,
		       SPAN_2026_HARDIRQ,
		       SPAN_2026_NMI,
		       {29, 2},
		       31},
	/* Bit 31 is reserved too once need-resched has moved to 63. */
	[DESC_2026_64] = {"2026",
			  "Linux 2026, x86-64",
			  64,
			  SPAN_PREEMPT,
			  SPAN_SOFTIRQ,
			  SPAN_2026_IRQ_DISABLE,
			  SPAN_2026_HARDIRQ,
			  SPAN_2026_NMI,
			  {29, 34},
			  63},
};

static const struct layout_desc *layout_of(enum decode_layout id, bool wide)
{
	switch (id) {
	case DECODE_LAYOUT_2020:
		return wide ? NULL : &layouts[DESC_2020];
	case DECODE_LAYOUT_PK:
		return wide ? NULL : &layouts[DESC_PK];
	case DECODE_LAYOUT_2026:
		return &layouts[wide ? DESC_2026_64 : DESC_2026];
	}
	return NULL;
}

static const struct layout_desc *desc_of(const struct decoded *d)
{
	return layout_of(d->id, d->width == 64);
}

static uint64_t span_mask(struct span s)
{
	return s.bits ? ((UINT64_C(1) << s.bits) - 1) << s.shift : 0;
}

static unsigned int span_get(uint64_t v, struct span s)
{
	return (unsigned int)((v & span_mask(s)) >> s.shift);
}

static void span_str(struct span s, char *buf, size_t len)
{
	if (s.bits == 1)
		snprintf(buf, len, "%u", s.shift);
	else
		snprintf(buf, len, "%u-%u", s.shift, s.shift + s.bits - 1);
}

/* ---- parsing ---- */

static int digit_value(char c, unsigned int base)
{
	int d = -1;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	return d >= 0 && (unsigned int)d < base ? d : -1;
}

enum decode_parse decode_parse_number(const char *s, bool dec,
				      struct decode_number *out)
{
	unsigned int base = dec ? 10 : 16, digits = 0;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return DECODE_PARSE_BAD;
	for (; *s; s++, digits++) {
		int d = digit_value(*s, base);

		if (d < 0)
			return DECODE_PARSE_BAD;
		if (v > (UINT64_MAX - (unsigned int)d) / base)
			return DECODE_PARSE_OVERFLOW;
		v = v * base + (unsigned int)d;
	}
	out->value = v;
	/* 16 hex digits is how a 64-bit word is printed, leading zeros and
	 * all; decimal has no such convention. */
	out->wide = v > UINT32_MAX || (base == 16 && digits > 8);
	return DECODE_PARSE_OK;
}

/* ---- decoding ---- */

int decode_word(struct decode_number num, enum decode_layout layout,
		bool raw_x86, struct decoded *d)
{
	const struct layout_desc *l = layout_of(layout, num.wide);
	uint64_t nr;

	if (!l)
		return -1;
	nr = UINT64_C(1) << l->nr_bit;
	memset(d, 0, sizeof(*d));
	d->id = layout;
	d->layout = l->name;
	d->width = l->width;
	d->raw_x86 = raw_x86;
	d->value = num.value;
	d->count = num.value & ~nr;
	d->preempt = span_get(num.value, l->preempt);
	d->softirq = span_get(num.value, l->softirq);
	d->hardirq = span_get(num.value, l->hardirq);
	d->nmi = span_get(num.value, l->nmi);
	d->irq_disable = l->irq_disable.bits
				 ? (int)span_get(num.value, l->irq_disable)
				 : -1;
	d->reserved = num.value & span_mask(l->reserved);
	d->need_resched = !!(num.value & nr) != raw_x86;
	return 0;
}

const char *const decode_pred_names[DP_NR] = {
	[DP_HARDIRQ_COUNT] = "hardirq_count",
	[DP_SOFTIRQ_COUNT] = "softirq_count",
	[DP_NMI_COUNT] = "nmi_count",
	[DP_IRQ_COUNT] = "irq_count",
	[DP_IN_NMI] = "in_nmi",
	[DP_IN_HARDIRQ] = "in_hardirq",
	[DP_IN_SERVING_SOFTIRQ] = "in_serving_softirq",
	[DP_IN_SOFTIRQ] = "in_softirq",
	[DP_IN_INTERRUPT] = "in_interrupt",
	[DP_IN_TASK] = "in_task",
	[DP_IN_ATOMIC] = "in_atomic",
	[DP_IN_ATOMIC_PREEMPT_OFF] = "in_atomic_preempt_off",
	[DP_PREEMPTIBLE] = "preemptible",
	[DP_IRQS_DISABLED] = "irqs_disabled",
	[DP_INTERRUPT_CONTEXT_LEVEL] = "interrupt_context_level",
	[DP_NEED_RESCHED] = "need_resched",
};

static bool serving(const struct decoded *d)
{
	return d->softirq & 1;
}

static void set_pred(struct decode_pred_value *p, uint64_t v)
{
	p->known = true;
	p->value = v;
}

/* The *_count() ones return the masked field, as the kernel's do. */
static void count_predicates(const struct decoded *d,
			     struct decode_pred_value out[DP_NR])
{
	const struct layout_desc *l = desc_of(d);
	uint64_t irq = span_mask(l->nmi) | span_mask(l->hardirq) |
		       span_mask(l->softirq);

	set_pred(&out[DP_HARDIRQ_COUNT], d->count & span_mask(l->hardirq));
	set_pred(&out[DP_SOFTIRQ_COUNT], d->count & span_mask(l->softirq));
	set_pred(&out[DP_NMI_COUNT], d->count & span_mask(l->nmi));
	set_pred(&out[DP_IRQ_COUNT], d->count & irq);
}

static unsigned int context_level(const struct decoded *d)
{
	if (d->nmi)
		return 3;
	if (d->hardirq)
		return 2;
	return serving(d) ? 1 : 0;
}

void decode_predicates(const struct decoded *d,
		       struct decode_pred_value out[DP_NR])
{
	bool irqs_known = d->irq_disable >= 0;

	memset(out, 0, sizeof(*out) * DP_NR);
	count_predicates(d, out);
	set_pred(&out[DP_IN_NMI], d->nmi != 0);
	set_pred(&out[DP_IN_HARDIRQ], d->hardirq != 0);
	set_pred(&out[DP_IN_SERVING_SOFTIRQ], serving(d));
	set_pred(&out[DP_IN_SOFTIRQ], d->softirq != 0);
	set_pred(&out[DP_IN_INTERRUPT], out[DP_IRQ_COUNT].value != 0);
	set_pred(&out[DP_IN_TASK], !d->nmi && !d->hardirq && !serving(d));
	set_pred(&out[DP_IN_ATOMIC], d->count != 0);
	set_pred(&out[DP_IN_ATOMIC_PREEMPT_OFF], d->count != PREEMPT_OFFSET);
	if (irqs_known)
		set_pred(&out[DP_IRQS_DISABLED], d->irq_disable != 0);
	/* A held count settles it; a zero one needs the irq state. */
	if (d->count || irqs_known)
		set_pred(&out[DP_PREEMPTIBLE],
			 !d->count && d->irq_disable <= 0);
	set_pred(&out[DP_INTERRUPT_CONTEXT_LEVEL], context_level(d));
	set_pred(&out[DP_NEED_RESCHED], d->need_resched);
}

/* ---- the context in words ---- */

struct sbuf {
	char *buf;
	size_t len, used;
};

static void __attribute__((format(printf, 2, 3)))
sb_add(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->used >= sb->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->used, sb->len - sb->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		sb->used += (size_t)n;
}

/* nmi_enter() adds a hardirq offset per NMI: those are not hardirqs. */
static unsigned int own_hardirqs(const struct decoded *d)
{
	return d->hardirq >= d->nmi ? d->hardirq - d->nmi : d->hardirq;
}

static const char *plural(unsigned int n)
{
	return n == 1 ? "" : "s";
}

static void interrupt_chain(const struct decoded *d, struct sbuf *sb)
{
	const char *sep = "";

	if (d->nmi) {
		sb_add(sb, "NMI (nesting %u)", d->nmi);
		sep = " that interrupted a ";
	}
	if (own_hardirqs(d)) {
		sb_add(sb, "%shardirq (nesting %u)", sep, own_hardirqs(d));
		sep = " that interrupted a ";
	}
	if (serving(d)) {
		sb_add(sb, "%ssoftirq being served", sep);
		sep = " ";
	}
	if (!*sep)
		sb_add(sb, "task");
}

void decode_context(const struct decoded *d, char *buf, size_t len)
{
	struct sbuf sb = {buf, len, 0};
	unsigned int bh = d->softirq >> 1;

	buf[0] = '\0';
	interrupt_chain(d, &sb);
	if (bh)
		sb_add(&sb, ", bh disabled %u level%s", bh, plural(bh));
	if (d->irq_disable > 0)
		sb_add(&sb, ", irqs disabled (depth %d)", d->irq_disable);
	if (d->preempt)
		sb_add(&sb, ", preempt depth %u", d->preempt);
	if (!d->count)
		sb_add(&sb, d->irq_disable < 0
				    ? ", preemptible if irqs are enabled"
				    : ", preemptible");
	if (d->need_resched)
		sb_add(&sb, ", reschedule owed");
}

/* ---- oddities ---- */

static void __attribute__((format(printf, 2, 3)))
note(struct decode_notes *n, const char *fmt, ...)
{
	va_list ap;

	if (n->nr >= DECODE_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(n->text[n->nr++], sizeof(n->text[0]), fmt, ap);
	va_end(ap);
}

static void check_reserved(const struct decoded *d, struct decode_notes *n)
{
	char bits[24];

	if (!d->reserved)
		return;
	span_str(desc_of(d)->reserved, bits, sizeof(bits));
	n->impossible = true;
	note(n, "impossible: reserved bits %s set (0x%" PRIx64 ")", bits,
	     d->reserved);
}

/* Plausible but rare: decoded as given, with a word on why it is odd. */
static void check_nesting(const struct decoded *d, struct decode_notes *n)
{
	if (d->nmi > 1)
		note(n,
		     "NMI nesting %u: NMIs do not nest on most architectures",
		     d->nmi);
	if (d->nmi > d->hardirq)
		note(n, "NMI without its hardirq offset (nmi_enter() adds "
			"both)");
	if (own_hardirqs(d) > 1)
		note(n,
		     "hardirq nesting %u: handlers run with irqs off, so "
		     "they rarely nest",
		     own_hardirqs(d));
	if (d->id == DECODE_LAYOUT_PK && own_hardirqs(d) && !d->irq_disable)
		note(n, "hardirq with irqs enabled: libpreempt's irq entry "
			"disables them");
	if (d->preempt >= PREEMPT_MASK - 10)
		note(n, "preempt depth %u is near the limit of 255",
		     d->preempt);
}

void decode_check(const struct decoded *d, struct decode_notes *notes)
{
	memset(notes, 0, sizeof(*notes));
	check_reserved(d, notes);
	check_nesting(d, notes);
}

/* ---- options ---- */

struct opts {
	enum decode_layout layout;
	bool dec, json, raw_x86;
	bool spaced; /* text output so far: blank line before the next block */
};

static const char usage_text[] =
	"usage: preempt decode [options] VALUE...\n"
	"       preempt decode [options] - | FILE...\n"
	"\n"
	"Explain preempt_count values: each field, the context in words and\n"
	"every predicate.  VALUE is hex, with or without 0x, as the kernel\n"
	"prints counts.  `-` (stdin) or FILE is kernel log text: every line\n"
	"is echoed and each preempt_count in it annotated.\n"
	"\n"
	"options:\n"
	"  --layout=NAME  2020: Linux 2020 (default)\n"
	"                 pk:   libpreempt's word, irq-disable depth in 24-30\n"
	"                 2026: hardirq-disable depth in 16-23; a value of\n"
	"                       more than 8 hex digits is the x86-64 64-bit "
	"word\n"
	"  --dec          bare values are decimal (0x... stays hex)\n"
	"  --raw-x86      values are raw x86 words: need-resched inverted\n"
	"  --json         one JSON object per value, one per line\n"
	"  -h, --help     this text\n"
	"\n"
	"exit status: 0 decoded, 1 a value is impossible (reserved bits set),\n"
	"2 bad input.\n";

static int parse_layout(const char *name, struct opts *o)
{
	if (!strcmp(name, "2020"))
		o->layout = DECODE_LAYOUT_2020;
	else if (!strcmp(name, "pk"))
		o->layout = DECODE_LAYOUT_PK;
	else if (!strcmp(name, "2026"))
		o->layout = DECODE_LAYOUT_2026;
	else
		return cli_usage_error(
			"decode", "unknown layout '%s' (2020, pk, 2026)", name);
	return -1;
}

static int parse_flag(const char *arg, struct opts *o)
{
	if (!strcmp(arg, "--dec"))
		o->dec = true;
	else if (!strcmp(arg, "--json"))
		o->json = true;
	else if (!strcmp(arg, "--raw-x86"))
		o->raw_x86 = true;
	else if (!strncmp(arg, "--layout=", 9))
		return parse_layout(arg + 9, o);
	else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
		fputs(usage_text, stdout);
		return 0;
	} else
		return cli_usage_error("decode", "unknown option '%s'", arg);
	return -1;
}

/*
 * Options may come anywhere; the rest are kept in order in @vals.  Returns
 * -1 to go on, else the exit status.
 */
static int parse_args(int argc, char **argv, struct opts *o, char **vals,
		      int *nvals)
{
	bool options = true;
	int rc = -1;

	for (int i = 1; i < argc && rc < 0; i++) {
		const char *a = argv[i];

		if (options && !strcmp(a, "--"))
			options = false;
		else if (options && !strcmp(a, "--layout")) {
			if (++i == argc)
				return cli_usage_error(
					"decode", "--layout needs a value");
			rc = parse_layout(argv[i], o);
		} else if (options && a[0] == '-' && a[1])
			rc = parse_flag(a, o);
		else
			vals[(*nvals)++] = argv[i];
	}
	if (rc < 0 && !*nvals)
		return cli_usage_error("decode", "no value to decode (try "
						 "`preempt decode --help`)");
	return rc;
}

/* ---- checking the arguments before anything is printed ---- */

static int check_file(const char *path)
{
	struct stat st;
	FILE *f = fopen(path, "r");
	int err = errno;

	if (!f)
		return cli_usage_error("decode",
				       "'%s' is not a number, and not a "
				       "readable file (%s)",
				       path, strerror(err));
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return cli_usage_error("decode", "'%s' is a directory", path);
	}
	fclose(f);
	return 0;
}

static int check_value(const char *arg, const struct opts *o)
{
	struct decode_number num;
	struct decoded d;

	if (!strcmp(arg, "-"))
		return 0;
	switch (decode_parse_number(arg, o->dec, &num)) {
	case DECODE_PARSE_OVERFLOW:
		return cli_usage_error("decode", "'%s' does not fit in 64 bits",
				       arg);
	case DECODE_PARSE_BAD:
		return check_file(arg);
	case DECODE_PARSE_OK:
		break;
	}
	if (decode_word(num, o->layout, o->raw_x86, &d))
		return cli_usage_error("decode",
				       "'%s' is wider than the 32-bit word of "
				       "layout %s",
				       arg, layout_of(o->layout, false)->name);
	return 0;
}

/* ---- text output ---- */

struct row {
	unsigned int shift;
	const char *name;
	char bits[24];
	char value[24];
	char meaning[64];
};

static void softirq_meaning(const struct decoded *d, char *buf, size_t len)
{
	unsigned int bh = d->softirq >> 1;

	if (serving(d) && bh)
		snprintf(buf, len, "serving a softirq, bh disabled %u level%s",
			 bh, plural(bh));
	else if (serving(d))
		snprintf(buf, len, "serving a softirq");
	else if (bh)
		snprintf(buf, len, "bh disabled %u level%s", bh, plural(bh));
	else
		snprintf(buf, len, "-");
}

static struct row *add_row(struct row *r, struct span s, const char *name,
			   const char *meaning)
{
	r->shift = s.shift;
	r->name = name;
	span_str(s, r->bits, sizeof(r->bits));
	snprintf(r->meaning, sizeof(r->meaning), "%s", meaning);
	return r;
}

static int field_rows(const struct decoded *d, struct row *rows)
{
	const struct layout_desc *l = desc_of(d);
	struct span nr = {l->nr_bit, 1};
	struct row *r = rows;

	snprintf(add_row(r, l->preempt, "preempt", "preempt_disable() depth")
			 ->value,
		 sizeof(r->value), "%u", d->preempt);
	r++;
	add_row(r, l->softirq, "softirq", "");
	snprintf(r->value, sizeof(r->value), "0x%02x", d->softirq);
	softirq_meaning(d, r->meaning, sizeof(r->meaning));
	r++;
	if (d->irq_disable >= 0) {
		add_row(r, l->irq_disable, "irq_disable",
			"interrupt-disable depth");
		snprintf(r->value, sizeof(r->value), "%d", d->irq_disable);
		r++;
	}
	snprintf(add_row(r, l->hardirq, "hardirq", "hardirq nesting")->value,
		 sizeof(r->value), "%u", d->hardirq);
	r++;
	snprintf(add_row(r, l->nmi, "nmi", "NMI nesting")->value,
		 sizeof(r->value), "%u", d->nmi);
	r++;
	if (l->reserved.bits) {
		add_row(r, l->reserved, "reserved",
			d->reserved ? "SET: impossible" : "must be 0");
		snprintf(r->value, sizeof(r->value), "0x%" PRIx64,
			 d->reserved >> l->reserved.shift);
		r++;
	}
	add_row(r, nr, "need_resched",
		d->need_resched ? "reschedule owed" : "no reschedule owed");
	snprintf(r->value, sizeof(r->value), "%d", d->need_resched);
	return (int)(r - rows) + 1;
}

/* Low bits first, as the fields are usually read. */
static void sort_rows(struct row *rows, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && rows[j].shift < rows[j - 1].shift;
		     j--) {
			struct row t = rows[j];

			rows[j] = rows[j - 1];
			rows[j - 1] = t;
		}
}

static void print_fields(const struct decoded *d)
{
	struct row rows[8];
	int n = field_rows(d, rows);

	sort_rows(rows, n);
	printf("  %-13s %-6s %-6s %s\n", "field", "bits", "value", "meaning");
	for (int i = 0; i < n; i++)
		printf("  %-13s %-6s %-6s %s\n", rows[i].name, rows[i].bits,
		       rows[i].value, rows[i].meaning);
}

static bool is_count_pred(int i)
{
	return i <= DP_IRQ_COUNT;
}

static void pred_str(const struct decode_pred_value *p, int i, char *buf,
		     size_t len)
{
	if (p->known && is_count_pred(i))
		snprintf(buf, len, "0x%" PRIx64, p->value);
	else if (p->known)
		snprintf(buf, len, "%" PRIu64, p->value);
	else if (i == DP_PREEMPTIBLE)
		snprintf(buf, len, "1 if irqs on");
	else
		snprintf(buf, len, "? (not in word)");
}

static void print_predicates(const struct decoded *d)
{
	struct decode_pred_value p[DP_NR];
	const int half = DP_NR / 2;

	decode_predicates(d, p);
	printf("  predicates:\n");
	for (int i = 0; i < half; i++) {
		char left[24], right[24];

		pred_str(&p[i], i, left, sizeof(left));
		pred_str(&p[i + half], i + half, right, sizeof(right));
		printf("    %-19s %-11s %-24s %s\n", decode_pred_names[i], left,
		       decode_pred_names[i + half], right);
	}
}

static void print_header(const struct decoded *d)
{
	const struct layout_desc *l = desc_of(d);

	printf("preempt_count 0x%0*" PRIx64 "  layout %s (%s, %u-bit)\n",
	       (int)d->width / 4, d->value, l->name, l->title, d->width);
	if (d->raw_x86)
		printf("  raw x86 word: need-resched (bit %u) is stored "
		       "inverted, set = none owed\n",
		       l->nr_bit);
}

static void print_text(const struct decoded *d, const struct decode_notes *n)
{
	char ctx[256];

	decode_context(d, ctx, sizeof(ctx));
	print_header(d);
	print_fields(d);
	printf("  context: %s\n", ctx);
	for (int i = 0; i < n->nr; i++)
		printf("  %s: %s\n", n->impossible && !i ? "FLAG" : "note",
		       n->text[i]);
	print_predicates(d);
}

/* ---- JSON output ---- */

static void json_str(const char *s, size_t len)
{
	putchar('"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_fields(const struct decoded *d)
{
	printf("\"fields\":{\"preempt\":%u,\"softirq\":%u,"
	       "\"softirq_serving\":%d,\"bh_disable\":%u,\"hardirq\":%u,"
	       "\"nmi\":%u,\"irq_disable\":",
	       d->preempt, d->softirq, serving(d), d->softirq >> 1, d->hardirq,
	       d->nmi);
	if (d->irq_disable < 0)
		printf("null");
	else
		printf("%d", d->irq_disable);
	printf(",\"reserved\":\"0x%" PRIx64 "\",\"need_resched\":%d}",
	       d->reserved, d->need_resched);
}

static void json_predicates(const struct decoded *d)
{
	struct decode_pred_value p[DP_NR];

	decode_predicates(d, p);
	printf("\"predicates\":{");
	for (int i = 0; i < DP_NR; i++) {
		printf("%s\"%s\":", i ? "," : "", decode_pred_names[i]);
		if (p[i].known)
			printf("%" PRIu64, p[i].value);
		else
			printf("null");
	}
	putchar('}');
}

static void json_notes(const struct decode_notes *n)
{
	printf("\"impossible\":%s,\"flags\":[",
	       n->impossible ? "true" : "false");
	for (int i = 0; i < n->nr; i++) {
		if (i)
			putchar(',');
		json_str(n->text[i], strlen(n->text[i]));
	}
	putchar(']');
}

/* The members after what the caller already opened the object with. */
static void json_body(const struct decoded *d, const struct decode_notes *n)
{
	char ctx[256];

	decode_context(d, ctx, sizeof(ctx));
	printf("\"value\":\"0x%0*" PRIx64 "\",\"layout\":\"%s\",\"width\":%u,"
	       "\"raw_x86\":%s,\"preempt_count\":\"0x%" PRIx64 "\",",
	       (int)d->width / 4, d->value, d->layout, d->width,
	       d->raw_x86 ? "true" : "false", d->count);
	json_fields(d);
	printf(",\"context\":");
	json_str(ctx, strlen(ctx));
	putchar(',');
	json_predicates(d);
	putchar(',');
	json_notes(n);
	printf("}\n");
}

/* ---- one value from the command line ---- */

static int decode_arg(const char *arg, struct opts *o)
{
	struct decode_number num;
	struct decode_notes notes;
	struct decoded d;

	/* check_value() has accepted it already. */
	decode_parse_number(arg, o->dec, &num);
	decode_word(num, o->layout, o->raw_x86, &d);
	decode_check(&d, &notes);
	if (o->json) {
		putchar('{');
		json_body(&d, &notes);
	} else {
		if (o->spaced)
			putchar('\n');
		print_text(&d, &notes);
		o->spaced = true;
	}
	return notes.impossible;
}

/* ---- kernel log text ---- */

enum role { ROLE_NONE, ROLE_COUNT, ROLE_ENTERED, ROLE_EXITED };

struct pattern {
	const char *re;
	int group[2]; /* subexpressions holding counts */
	enum role role[2];
	int expected; /* subexpression of might_sleep's expected */
};

static const struct pattern patterns[] = {
	/* might_sleep(), and our own reports' bare line */
	{"preempt_count: (0x)?([[:xdigit:]]+)(, expected: "
	 "(0x)?([[:xdigit:]]+))?[[:space:]]*$",
	 {2, 0},
	 {ROLE_COUNT, ROLE_NONE},
	 5},
	/* COMM may hold '/': the count is after the last two. */
	{"scheduling while atomic: .*/[0-9]+/0x([[:xdigit:]]+)",
	 {1, 0},
	 {ROLE_COUNT, ROLE_NONE},
	 0},
	{"in preemptible \\[([[:xdigit:]]+)\\] code", {1, 0}, {ROLE_COUNT}, 0},
	{"with preempt_count ([[:xdigit:]]+), exited with ([[:xdigit:]]+)",
	 {1, 2},
	 {ROLE_ENTERED, ROLE_EXITED},
	 0},
};

#define NR_PATTERNS (sizeof(patterns) / sizeof(patterns[0]))
#define MAX_GROUPS 6

static const char *const role_names[] = {
	[ROLE_COUNT] = "count",
	[ROLE_ENTERED] = "entered",
	[ROLE_EXITED] = "exited",
};

static const char *const role_labels[] = {
	[ROLE_COUNT] = "preempt_count",
	[ROLE_ENTERED] = "entered with preempt_count",
	[ROLE_EXITED] = "exited with preempt_count",
};

struct log {
	const char *name;
	regex_t re[NR_PATTERNS];
	unsigned long lineno;
	const char *line;
	regmatch_t m[MAX_GROUPS];
	const struct pattern *pat;
	uint64_t entered; /* the huh line's first count, for the second */
	enum splat_wait_numbering wait_num; /* of the whole input */
};

struct hit {
	enum role role;
	char text[40]; /* the count as logged */
	struct decoded d;
	struct decode_notes notes;
	const char *error; /* not decodable in this layout */
};

static void group_text(const struct log *lg, int g, char *buf, size_t len)
{
	regoff_t so = lg->m[g].rm_so, eo = lg->m[g].rm_eo;
	size_t n = so < 0 ? 0 : (size_t)(eo - so);

	if (n >= len)
		n = len - 1;
	memcpy(buf, lg->line + (so < 0 ? 0 : so), n);
	buf[n] = '\0';
}

/* Log counts are always hex: the kernel prints them with %x. */
static void decode_hit(struct hit *h, const struct opts *o)
{
	struct decode_number num;

	h->error = NULL;
	memset(&h->notes, 0, sizeof(h->notes));
	if (decode_parse_number(h->text, false, &num) != DECODE_PARSE_OK)
		h->error = "does not fit in 64 bits";
	else if (decode_word(num, o->layout, o->raw_x86, &h->d))
		h->error = "wider than this layout's 32-bit word";
	if (h->error) {
		h->notes.impossible = true;
		return;
	}
	decode_check(&h->d, &h->notes);
}

static void annotate_extra(const struct log *lg, const struct hit *h)
{
	char exp[40];

	if (h->role == ROLE_COUNT && lg->pat->expected &&
	    lg->m[lg->pat->expected].rm_so >= 0) {
		group_text(lg, lg->pat->expected, exp, sizeof(exp));
		printf(" (expected 0x%s)", exp);
	}
	if (h->role == ROLE_EXITED && h->d.value != lg->entered) {
		bool up = h->d.value > lg->entered;

		printf(" (%c0x%" PRIx64 " from entry)", up ? '+' : '-',
		       up ? h->d.value - lg->entered
			  : lg->entered - h->d.value);
	}
}

static void annotate_text(const struct log *lg, const struct hit *h,
			  const struct opts *o)
{
	struct decode_pred_value p[DP_NR];
	char ctx[256];

	printf("    => %s 0x%s", role_labels[h->role], h->text);
	if (h->error) {
		printf(": cannot decode: %s (layout %s) [impossible]\n",
		       h->error, layout_of(o->layout, false)->name);
		return;
	}
	annotate_extra(lg, h);
	decode_context(&h->d, ctx, sizeof(ctx));
	decode_predicates(&h->d, p);
	printf(": %s; in_task=%" PRIu64 " in_atomic=%" PRIu64, ctx,
	       p[DP_IN_TASK].value, p[DP_IN_ATOMIC].value);
	printf(p[DP_PREEMPTIBLE].known ? " preemptible=%" PRIu64
				       : " preemptible=?",
	       p[DP_PREEMPTIBLE].value);
	printf(p[DP_IRQS_DISABLED].known ? " irqs_disabled=%" PRIu64
					 : " irqs_disabled=?",
	       p[DP_IRQS_DISABLED].value);
	printf(" level=%" PRIu64, p[DP_INTERRUPT_CONTEXT_LEVEL].value);
	for (int i = 0; i < h->notes.nr; i++)
		printf(" [%s]", h->notes.text[i]);
	putchar('\n');
}

static void annotate_json(const struct log *lg, const struct hit *h,
			  const struct opts *o)
{
	char exp[40];

	printf("{\"source\":");
	json_str(lg->name, strlen(lg->name));
	printf(",\"line\":%lu,\"match\":", lg->lineno);
	json_str(lg->line + lg->m[0].rm_so,
		 (size_t)(lg->m[0].rm_eo - lg->m[0].rm_so));
	printf(",\"role\":\"%s\",", role_names[h->role]);
	if (h->role == ROLE_COUNT && lg->pat->expected &&
	    lg->m[lg->pat->expected].rm_so >= 0) {
		group_text(lg, lg->pat->expected, exp, sizeof(exp));
		printf("\"expected\":\"0x%s\",", exp);
	}
	if (!h->error) {
		json_body(&h->d, &h->notes);
		return;
	}
	printf("\"value\":\"0x%s\",\"layout\":\"%s\",\"error\":", h->text,
	       layout_of(o->layout, false)->name);
	json_str(h->error, strlen(h->error));
	printf(",\"impossible\":true,\"flags\":[]}\n");
}

/* Inside a splat whose count is below zero or corrupt: not decoded. */
static void annotate_withheld(const struct log *lg, const struct hit *h,
			      const struct splat *sp, const struct opts *o)
{
	if (o->json) {
		printf("{\"source\":");
		json_str(lg->name, strlen(lg->name));
		printf(",\"line\":%lu,\"match\":", lg->lineno);
		json_str(lg->line + lg->m[0].rm_so,
			 (size_t)(lg->m[0].rm_eo - lg->m[0].rm_so));
		printf(",\"role\":\"%s\",\"value\":\"0x%s\","
		       "\"not_decoded\":",
		       role_names[h->role], h->text);
		json_str(sp->context, strlen(sp->context));
		printf("}\n");
		return;
	}
	printf("    => %s 0x%s: not decoded field by field: %s\n",
	       role_labels[h->role], h->text, sp->context);
}

static bool withheld(const struct log *lg, const struct splat *sp)
{
	return sp && lg->lineno >= sp->line && lg->lineno < sp->line + 64 &&
	       (sp->verdict == SV_IMBALANCE || sp->verdict == SV_CORRUPT);
}

static int annotate_line(struct log *lg, const struct opts *o,
			 const struct splat *sp)
{
	int impossible = 0;

	for (int i = 0; i < 2 && lg->pat->group[i]; i++) {
		struct hit h = {.role = lg->pat->role[i]};

		group_text(lg, lg->pat->group[i], h.text, sizeof(h.text));
		if (withheld(lg, sp)) {
			annotate_withheld(lg, &h, sp, o);
			continue;
		}
		decode_hit(&h, o);
		if (o->json)
			annotate_json(lg, &h, o);
		else
			annotate_text(lg, &h, o);
		if (h.role == ROLE_ENTERED && !h.error)
			lg->entered = h.d.value;
		impossible |= h.notes.impossible;
	}
	return impossible;
}

static bool match_line(struct log *lg)
{
	for (size_t i = 0; i < NR_PATTERNS; i++)
		if (!regexec(&lg->re[i], lg->line, MAX_GROUPS, lg->m, 0)) {
			lg->pat = &patterns[i];
			return true;
		}
	return false;
}

static void chomp(char *line)
{
	size_t n = strlen(line);

	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
}

/*
 * might_sleep()'s RCU line under PREEMPT_RCU (__might_resched()): the
 * reader depth lives in the task, not in the word, so it is explained
 * rather than decoded.
 */
#define RCU_DEPTH_RE "RCU nest depth: (-?[0-9]+), expected: ([0-9]+)"

static void annotate_rcu_depth(const struct log *lg, const regmatch_t *m,
			       const struct opts *o)
{
	long depth = strtol(lg->line + m[1].rm_so, NULL, 10);
	long expected = strtol(lg->line + m[2].rm_so, NULL, 10);

	if (o->json) {
		printf("{\"source\":");
		json_str(lg->name, strlen(lg->name));
		printf(",\"line\":%lu,\"match\":", lg->lineno);
		json_str(lg->line + m[0].rm_so,
			 (size_t)(m[0].rm_eo - m[0].rm_so));
		printf(",\"role\":\"rcu_nest_depth\",\"depth\":%ld,"
		       "\"expected\":%ld}\n",
		       depth, expected);
		return;
	}
	printf("    => RCU nest depth %ld (expected %ld): ", depth, expected);
	if (depth > expected)
		printf("%ld rcu_read_lock() section%s more than the caller "
		       "allows; PREEMPT_RCU counts readers in the task, not in "
		       "preempt_count, so only this line shows it\n",
		       depth - expected, depth - expected > 1 ? "s" : "");
	else if (depth < expected)
		printf("%ld rcu_read_unlock()%s too many: the task left more "
		       "RCU read sections than it entered\n",
		       expected - depth, expected - depth > 1 ? "s" : "");
	else
		printf("the RCU depth is as expected; the count or irqs are "
		       "the problem\n");
}

/* ---- whole splats ---- */

static const char *const printer_titles[] = {
	[SPLAT_NONE] = "",
	[SPLAT_SLEEP] = "sleeping function called from invalid context",
	[SPLAT_SCHED] = "scheduling while atomic",
	[SPLAT_SMP_ID] = "smp_processor_id()/this_cpu in preemptible code "
			 "(check_preemption_disabled)",
	[SPLAT_SOFTIRQ] = "softirq handler changed the count (handle_softirqs)",
	[SPLAT_WORKQUEUE] = "work function leaked (process_one_work)",
	[SPLAT_EXIT] = "task exited holding a count (do_exit)",
	[SPLAT_CANT_SLEEP] = "atomic context assumed but not held "
			     "(cant_sleep)",
	[SPLAT_LOCKDEP_IRQ] = "lockdep's irq state of the task",
	[SPLAT_OOPS_REGS] = "oops register dump with the count",
};

static void splat_text(const struct splat *sp)
{
	printf("    => splat: %s", printer_titles[sp->printer]);
	if (sp->fn)
		printf(" (%s)", sp->fn);
	if (sp->kernel[0])
		printf("; kernel %s", sp->kernel);
	if (sp->rt)
		printf(", PREEMPT_RT");
	printf("\n    =>   verdict: %s", splat_verdict_name(sp->verdict));
	if (sp->have_count)
		printf("; printed 0x%08" PRIx64, sp->printed);
	if (sp->own >= 0)
		printf("; printer's own level %d", sp->own);
	if (sp->caller_known)
		printf("; caller held 0x%" PRIx64, (uint64_t)sp->caller);
	printf("\n    =>   context: %s\n", sp->context);
	if (sp->leak[0])
		printf("    =>   leak: %s\n", sp->leak);
	if (sp->layout[0])
		printf("    =>   layout: %s\n", sp->layout);
	if (sp->why[0])
		printf("    =>   how we know: %s\n", sp->why);
	if (sp->notes[0])
		printf("    =>   notes: %s\n", sp->notes);
}

static void json_opt_str(const char *key, const char *v)
{
	printf(",\"%s\":", key);
	if (v && *v)
		json_str(v, strlen(v));
	else
		printf("null");
}

static void json_opt_int(const char *key, bool known, long long v)
{
	printf(",\"%s\":", key);
	if (known)
		printf("%lld", v);
	else
		printf("null");
}

static void json_opt_hex(const char *key, bool known, uint64_t v)
{
	printf(",\"%s\":", key);
	if (known)
		printf("\"0x%" PRIx64 "\"", v);
	else
		printf("null");
}

static void splat_json(const struct log *lg, const struct splat *sp)
{
	printf("{\"source\":");
	json_str(lg->name, strlen(lg->name));
	printf(",\"line\":%lu,\"role\":\"splat\",\"printer\":\"%s\","
	       "\"verdict\":\"%s\"",
	       sp->line, splat_printer_name(sp->printer),
	       splat_verdict_name(sp->verdict));
	json_opt_str("comm", sp->comm);
	json_opt_str("kernel", sp->kernel);
	printf(",\"rt\":%s,\"idle\":%s,\"threaded_irq\":%s",
	       sp->rt ? "true" : "false", sp->idle ? "true" : "false",
	       sp->threaded_irq ? "true" : "false");
	json_opt_str("stack", sp->stack);
	json_opt_hex("printed", sp->have_count, sp->printed);
	json_opt_int("own", sp->own >= 0, sp->own);
	json_opt_hex("caller_count", sp->caller_known, (uint64_t)sp->caller);
	json_opt_int("imbalance", sp->verdict == SV_IMBALANCE, sp->imbalance);
	printf(",\"x86_masked\":%s", sp->x86_masked ? "true" : "false");
	json_opt_hex("preempt_active", sp->preempt_active != 0,
		     sp->preempt_active);
	json_opt_int("in_atomic", sp->in_atomic >= 0, sp->in_atomic);
	json_opt_int("irqs_disabled", sp->irqs_disabled >= 0,
		     sp->irqs_disabled);
	json_opt_hex("trace_count", sp->have_trace, sp->trace_count);
	json_opt_str("layout", sp->layout);
	json_opt_str("context", sp->context);
	json_opt_str("leak", sp->leak);
	json_opt_str("how", sp->why);
	json_opt_str("notes", sp->notes);
	printf("}\n");
}

static void held_lock(const struct log *lg, const struct opts *o)
{
	char name[128], text[768];
	const char *role;

	if (!splat_held_lock(lg->line, lg->wait_num, &role, name, sizeof(name),
			     text, sizeof(text)))
		return;
	if (!o->json) {
		printf("    => %s\n", text);
		return;
	}
	printf("{\"source\":");
	json_str(lg->name, strlen(lg->name));
	printf(",\"line\":%lu,\"role\":\"%s\",\"lock\":", lg->lineno, role);
	json_str(name, strlen(name));
	printf(",\"explain\":");
	json_str(text, strlen(text));
	printf("}\n");
}

/* Control bytes become '?': binary input prints nothing raw. */
static void sanitize(char *line)
{
	for (unsigned char *p = (unsigned char *)line; *p; p++)
		if ((*p < 0x20 && *p != '\t') || *p == 0x7f)
			*p = '?';
}

struct lines {
	char **raw;
	const char **stripped;
	size_t n, cap;
};

static int slurp_lines(FILE *f, struct lines *ls)
{
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, f) >= 0) {
		if (ls->n == ls->cap) {
			size_t nc = ls->cap ? 2 * ls->cap : 256;
			char **r = realloc(ls->raw, nc * sizeof(*r));

			if (!r)
				break;
			ls->raw = r;
			ls->cap = nc;
		}
		chomp(line);
		sanitize(line);
		ls->raw[ls->n] = strdup(line);
		if (!ls->raw[ls->n])
			break;
		ls->n++;
	}
	free(line);
	ls->stripped = calloc(ls->n + 1, sizeof(*ls->stripped));
	if (!ls->stripped)
		return -1;
	for (size_t i = 0; i < ls->n; i++)
		ls->stripped[i] = splat_strip(ls->raw[i]);
	return 0;
}

static void free_lines(struct lines *ls)
{
	for (size_t i = 0; i < ls->n; i++)
		free(ls->raw[i]);
	free(ls->raw);
	free(ls->stripped);
}

static int one_line(struct log *lg, const struct lines *ls, size_t i,
		    struct splat *sp, bool *have_sp, const struct opts *o,
		    regex_t *rcu_re)
{
	regmatch_t rcu_m[3];
	int impossible = 0;

	lg->lineno = i + 1;
	lg->line = ls->stripped[i];
	if (!o->json)
		printf("%s\n", ls->raw[i]);
	if (splat_header(lg->line) != SPLAT_NONE) {
		splat_read(ls->stripped, ls->n, i, sp);
		*have_sp = true;
		if (sp->verdict == SV_IMBALANCE || sp->verdict == SV_CORRUPT)
			impossible = 1;
	}
	if (*have_sp && sp->line == i + 1 && sp->have_count &&
	    sp->printer != SPLAT_SLEEP)
		; /* the splat's reading below replaces the raw one */
	else if (match_line(lg))
		impossible |= annotate_line(lg, o, *have_sp ? sp : NULL);
	else if (rcu_re && !regexec(rcu_re, lg->line, 3, rcu_m, 0))
		annotate_rcu_depth(lg, rcu_m, o);
	else
		held_lock(lg, o);
	if (*have_sp && sp->line == i + 1) {
		if (o->json)
			splat_json(lg, sp);
		else
			splat_text(sp);
	}
	return impossible;
}

static int read_log(FILE *f, struct log *lg, const struct opts *o)
{
	regex_t rcu_re;
	bool have_rcu = !regcomp(&rcu_re, RCU_DEPTH_RE, REG_EXTENDED);
	struct lines ls = {0};
	struct splat *sp = malloc(sizeof(*sp));
	bool have_sp = false;
	int impossible = 0;

	if (!sp || slurp_lines(f, &ls)) {
		free(sp);
		free_lines(&ls);
		return cli_usage_error("decode", "out of memory");
	}
	lg->wait_num = splat_wait_numbering(ls.stripped, ls.n);
	for (size_t i = 0; i < ls.n; i++)
		impossible |= one_line(lg, &ls, i, sp, &have_sp, o,
				       have_rcu ? &rcu_re : NULL);
	if (have_rcu)
		regfree(&rcu_re);
	free_lines(&ls);
	free(sp);
	if (ferror(f))
		return cli_usage_error("decode", "reading '%s': %s", lg->name,
				       strerror(errno));
	return impossible;
}

static int compile_patterns(struct log *lg)
{
	for (size_t i = 0; i < NR_PATTERNS; i++)
		if (regcomp(&lg->re[i], patterns[i].re, REG_EXTENDED)) {
			while (i--)
				regfree(&lg->re[i]);
			return cli_usage_error("decode", "bad log pattern");
		}
	return 0;
}

static int decode_log(const char *arg, struct opts *o)
{
	bool is_stdin = !strcmp(arg, "-");
	struct log lg = {.name = is_stdin ? "<stdin>" : arg};
	FILE *f = is_stdin ? stdin : fopen(arg, "r");
	int rc;

	if (!f)
		return cli_usage_error("decode", "cannot read '%s': %s", arg,
				       strerror(errno));
	rc = compile_patterns(&lg);
	if (!rc) {
		if (o->spaced && !o->json)
			putchar('\n');
		rc = read_log(f, &lg, o);
		o->spaced = true;
		for (size_t i = 0; i < NR_PATTERNS; i++)
			regfree(&lg.re[i]);
	}
	if (!is_stdin)
		fclose(f);
	return rc;
}

/* ---- the command ---- */

static int run_all(char **vals, int nvals, struct opts *o)
{
	struct decode_number num;
	int worst = 0;

	for (int i = 0; i < nvals && worst < CLI_EXIT_USAGE; i++) {
		int rc;

		if (!strcmp(vals[i], "-") ||
		    decode_parse_number(vals[i], o->dec, &num) !=
			    DECODE_PARSE_OK)
			rc = decode_log(vals[i], o);
		else
			rc = decode_arg(vals[i], o);
		if (rc > worst)
			worst = rc;
	}
	return worst;
}

int cmd_decode(int argc, char **argv)
{
	struct opts o = {.layout = DECODE_LAYOUT_2020};
	char **vals = calloc((size_t)argc + 1, sizeof(*vals));
	int nvals = 0, rc;

	if (!vals)
		return cli_usage_error("decode", "out of memory");
	rc = parse_args(argc, argv, &o, vals, &nvals);
	for (int i = 0; rc < 0 && i < nvals; i++)
		if (check_value(vals[i], &o))
			rc = CLI_EXIT_USAGE;
	if (rc < 0)
		rc = run_all(vals, nvals, &o);
	free(vals);
	fflush(stdout);
	return rc;
}
