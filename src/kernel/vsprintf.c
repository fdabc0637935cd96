// SPDX-License-Identifier: MIT
/*
 * The kernel's vsnprintf(): the C conversions, done one at a time by the C
 * library's snprintf() (async-signal-safe in practice, and what printk()
 * always used), plus the %p extensions Documentation/core-api/
 * printk-formats.rst describes.  Everything is formatted into the
 * caller's buffer or the stack: no allocation, no lock, so printk() stays
 * callable from any context.  Symbols (%pS, %ps, %pB) need the library's
 * symbolizer, which takes a lock and allocates: in interrupt or NMI
 * context printk() leaves a marker that the deferred console expands in
 * task context, and snprintf() prints the bare address.
 */

/* Our definitions under their own names; snprintf() here is the C library's. */
#define PK_KERNEL_SPRINTF_IMPL
#include <stdio.h>
#include <string.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/sprintf.h>

/*
 * From src/debug/report.h (which kernel headers cannot sit beside: its
 * attributes spell noinline): a symbol in the form @how names.
 */
enum { PK_MARK_STR = 'P', PK_MARK_NAME = 'N', PK_MARK_RET = 'R' };
const char *pk_sym_str_how(unsigned long ip, char how, bool markers, char *buf,
			   size_t size);

struct out {
	char *buf;
	size_t size;
	size_t len; /* what the whole output would take */
	bool markers;
};

static void put_char(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_str(struct out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_char(o, s[i]);
}

/* The field a spec gives a string: @width wide, left-aligned with '-'. */
struct spec {
	int width; /* -1: none */
	int prec;  /* -1: none */
	bool left;
};

static void put_field(struct out *o, const char *s, const struct spec *sp)
{
	/* With a precision @s need not be terminated ("%.*s"). */
	size_t n = sp->prec >= 0 ? strnlen(s, (size_t)sp->prec) : strlen(s);
	int pad = sp->width > (int)n ? sp->width - (int)n : 0;

	while (!sp->left && pad-- > 0)
		put_char(o, ' ');
	put_str(o, s, n);
	while (sp->left && pad-- > 0)
		put_char(o, ' ');
}

static void put_hex(struct out *o, unsigned long long v, int digits)
{
	for (int i = digits - 1; i >= 0; i--)
		put_char(o, hex_asc[(v >> (4 * i)) & 0xf]);
}

/* ---- error names (%pe) ---- */

#define N(e) [e] = #e
static const char *const errnames[] = {
	N(EPERM),
	N(ENOENT),
	N(ESRCH),
	N(EINTR),
	N(EIO),
	N(ENXIO),
	N(E2BIG),
	N(ENOEXEC),
	N(EBADF),
	N(ECHILD),
	N(EAGAIN),
	N(ENOMEM),
	N(EACCES),
	N(EFAULT),
	N(ENOTBLK),
	N(EBUSY),
	N(EEXIST),
	N(EXDEV),
	N(ENODEV),
	N(ENOTDIR),
	N(EISDIR),
	N(EINVAL),
	N(ENFILE),
	N(EMFILE),
	N(ENOTTY),
	N(ETXTBSY),
	N(EFBIG),
	N(ENOSPC),
	N(ESPIPE),
	N(EROFS),
	N(EMLINK),
	N(EPIPE),
	N(EDOM),
	N(ERANGE),
	N(EDEADLK),
	N(ENAMETOOLONG),
	N(ENOLCK),
	N(ENOSYS),
	N(ENOTEMPTY),
	N(ELOOP),
	N(ENOMSG),
	N(EIDRM),
	N(ECHRNG),
	N(EL2NSYNC),
	N(EL3HLT),
	N(EL3RST),
	N(ELNRNG),
	N(EUNATCH),
	N(ENOCSI),
	N(EL2HLT),
	N(EBADE),
	N(EBADR),
	N(EXFULL),
	N(ENOANO),
	N(EBADRQC),
	N(EBADSLT),
	N(EBFONT),
	N(ENOSTR),
	N(ENODATA),
	N(ETIME),
	N(ENOSR),
	N(ENONET),
	N(ENOPKG),
	N(EREMOTE),
	N(ENOLINK),
	N(EADV),
	N(ESRMNT),
	N(ECOMM),
	N(EPROTO),
	N(EMULTIHOP),
	N(EDOTDOT),
	N(EBADMSG),
	N(EOVERFLOW),
	N(ENOTUNIQ),
	N(EBADFD),
	N(EREMCHG),
	N(ELIBACC),
	N(ELIBBAD),
	N(ELIBSCN),
	N(ELIBMAX),
	N(ELIBEXEC),
	N(EILSEQ),
	N(ERESTART),
	N(ESTRPIPE),
	N(EUSERS),
	N(ENOTSOCK),
	N(EDESTADDRREQ),
	N(EMSGSIZE),
	N(EPROTOTYPE),
	N(ENOPROTOOPT),
	N(EPROTONOSUPPORT),
	N(ESOCKTNOSUPPORT),
	N(EOPNOTSUPP),
	N(EPFNOSUPPORT),
	N(EAFNOSUPPORT),
	N(EADDRINUSE),
	N(EADDRNOTAVAIL),
	N(ENETDOWN),
	N(ENETUNREACH),
	N(ENETRESET),
	N(ECONNABORTED),
	N(ECONNRESET),
	N(ENOBUFS),
	N(EISCONN),
	N(ENOTCONN),
	N(ESHUTDOWN),
	N(ETOOMANYREFS),
	N(ETIMEDOUT),
	N(ECONNREFUSED),
	N(EHOSTDOWN),
	N(EHOSTUNREACH),
	N(EALREADY),
	N(EINPROGRESS),
	N(ESTALE),
	N(EUCLEAN),
	N(ENOTNAM),
	N(ENAVAIL),
	N(EISNAM),
	N(EREMOTEIO),
	N(EDQUOT),
	N(ENOMEDIUM),
	N(EMEDIUMTYPE),
	N(ECANCELED),
	N(ENOKEY),
	N(EKEYEXPIRED),
	N(EKEYREVOKED),
	N(EKEYREJECTED),
	N(EOWNERDEAD),
	N(ENOTRECOVERABLE),
	N(ERFKILL),
	N(EHWPOISON),
};
#undef N

/* The kernel-internal numbers, from ERESTARTSYS (512) on. */
#define N(e) [e - ERESTARTSYS] = #e
static const char *const errnames_internal[] = {
	N(ERESTARTSYS),
	N(ERESTARTNOINTR),
	N(ERESTARTNOHAND),
	N(ENOIOCTLCMD),
	N(ERESTART_RESTARTBLOCK),
	N(EPROBE_DEFER),
	N(EOPENSTALE),
	N(ENOPARAM),
	N(EBADHANDLE),
	N(ENOTSYNC),
	N(EBADCOOKIE),
	N(ENOTSUPP),
	N(ETOOSMALL),
	N(ESERVERFAULT),
	N(EBADTYPE),
	N(EJUKEBOX),
	N(EIOCBQUEUED),
	N(ERECALLCONFLICT),
};
#undef N

/* "EINVAL" for 22 or -22; NULL for a number without a name. */
static const char *errname(long err)
{
	unsigned long e = err < 0 ? (unsigned long)-err : (unsigned long)err;

	if (e < ARRAY_SIZE(errnames))
		return errnames[e];
	if (e >= ERESTARTSYS && e - ERESTARTSYS < ARRAY_SIZE(errnames_internal))
		return errnames_internal[e - ERESTARTSYS];
	return NULL;
}

/* ---- the %p extensions ---- */

/* A plain %p: the address itself (not hashed here), zero-padded. */
static void put_pointer(struct out *o, const void *p, const struct spec *sp)
{
	char s[2 * sizeof(void *) + 1];
	struct out t = {.buf = s, .size = sizeof(s)};

	put_hex(&t, (unsigned long)p, 2 * sizeof(void *));
	s[t.len] = '\0';
	put_field(o, s, sp);
}

/* A pointer an extension dereferences: "(null)" or "(efault)" if bad. */
static bool bad_pointer(struct out *o, const void *p, const struct spec *sp)
{
	if (!p)
		put_field(o, "(null)", sp);
	else if ((unsigned long)p < 4096 || IS_ERR(p))
		put_field(o, "(efault)", sp);
	else
		return false;
	return true;
}

/* %ph and friends: the field width is the count (1 if none, most 64). */
static const char *put_hex_bytes(struct out *o, const char *f, const u8 *p,
				 const struct spec *sp)
{
	int n = sp->width < 0 ? 1 : min(sp->width, 64);
	char sep = ' ';

	switch (*f) {
	case 'C':
		sep = ':';
		f++;
		break;
	case 'D':
		sep = '-';
		f++;
		break;
	case 'N':
		sep = '\0';
		f++;
		break;
	}
	if (!bad_pointer(o, p, &(struct spec){-1, -1, false})) {
		for (int i = 0; i < n; i++) {
			if (i && sep)
				put_char(o, sep);
			put_hex(o, p[i], 2);
		}
	}
	return f;
}

/* %pM (colons), %pMF (dashes), %pMR (reversed), %pm (no separator). */
static const char *put_mac(struct out *o, const char *f, const u8 *p,
			   const struct spec *sp)
{
	char sep = f[-1] == 'm' ? '\0' : ':';
	bool reversed = false;
	char s[18];
	struct out t = {.buf = s, .size = sizeof(s)};

	if (*f == 'F' || *f == 'R') {
		sep = *f == 'F' ? '-' : sep;
		reversed = *f == 'R';
		f++;
	}
	if (bad_pointer(o, p, sp))
		return f;
	for (int i = 0; i < 6; i++) {
		if (i && sep)
			put_char(&t, sep);
		put_hex(&t, p[reversed ? 5 - i : i], 2);
	}
	s[t.len] = '\0';
	put_field(o, s, sp);
	return f;
}

static void ip4(struct out *t, const u8 *p, bool padded)
{
	char s[4];

	for (int i = 0; i < 4; i++) {
		if (i)
			put_char(t, '.');
		snprintf(s, sizeof(s), padded ? "%03u" : "%u", p[i]);
		put_str(t, s, strlen(s));
	}
}

/* The longest run (of at least 2) of zero 16-bit groups, for "::". */
static void zero_run(const u8 *p, int *at, int *len)
{
	*at = -1;
	*len = 1;
	for (int i = 0; i < 8;) {
		int j = i;

		while (j < 8 && !p[2 * j] && !p[2 * j + 1])
			j++;
		if (j - i > *len) {
			*at = i;
			*len = j - i;
		}
		i = j > i ? j : i + 1;
	}
}

/* RFC 5952: leading zeros dropped, the longest zero run as "::". */
static void ip6_compressed(struct out *t, const u8 *p)
{
	int at, len;
	char s[5];

	zero_run(p, &at, &len);
	for (int i = 0; i < 8; i++) {
		if (i == at) {
			put_str(t, "::", 2);
			i += len - 1;
			continue;
		}
		if (i && i != at + len)
			put_char(t, ':');
		snprintf(s, sizeof(s), "%x",
			 (unsigned)(p[2 * i] << 8 | p[2 * i + 1]));
		put_str(t, s, strlen(s));
	}
}

/* %pI4/%pi4 (dotted, %pi4 zero-padded); %pI6 (full), %pI6c, %pi6. */
static const char *put_ip(struct out *o, const char *f, const u8 *p,
			  const struct spec *sp)
{
	bool dotted = f[-1] == 'I';
	char s[48];
	struct out t = {.buf = s, .size = sizeof(s)};
	char ver = *f;

	if (ver != '4' && ver != '6') {
		put_pointer(o, p, sp);
		return f;
	}
	f++;
	if (ver == '6' && dotted && *f == 'c') {
		f++;
		if (bad_pointer(o, p, sp))
			return f;
		ip6_compressed(&t, p);
	} else if (bad_pointer(o, p, sp)) {
		return f;
	} else if (ver == '4') {
		ip4(&t, p, !dotted);
	} else {
		for (int i = 0; i < 16; i++) {
			if (dotted && i && !(i & 1))
				put_char(&t, ':');
			put_hex(&t, p[i], 2);
		}
	}
	s[t.len] = '\0';
	put_field(o, s, sp);
	return f;
}

/* %pUb/%pUB (bytes in order), %pUl/%pUL (first three fields LE). */
static const char *put_uuid(struct out *o, const char *f, const u8 *p,
			    const struct spec *sp)
{
	static const int be[16] = {0, 1, 2,  3,	 4,  5,	 6,  7,
				   8, 9, 10, 11, 12, 13, 14, 15};
	static const int le[16] = {3, 2, 1,  0,	 5,  4,	 7,  6,
				   8, 9, 10, 11, 12, 13, 14, 15};
	const int *index = be;
	bool upper = false;
	char s[37];
	struct out t = {.buf = s, .size = sizeof(s)};

	if (*f == 'b' || *f == 'B' || *f == 'l' || *f == 'L') {
		index = *f == 'l' || *f == 'L' ? le : be;
		upper = *f == 'B' || *f == 'L';
		f++;
	}
	if (bad_pointer(o, p, sp))
		return f;
	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			put_char(&t, '-');
		put_hex(&t, p[index[i]], 2);
	}
	s[t.len] = '\0';
	for (int i = 0; upper && s[i]; i++)
		if (s[i] >= 'a' && s[i] <= 'f')
			s[i] = (char)(s[i] - 'a' + 'A');
	put_field(o, s, sp);
	return f;
}

/* %pa/%pap (phys_addr_t *), %pad (dma_addr_t *): "0x" and every digit. */
static const char *put_addr(struct out *o, const char *f, const void *p,
			    const struct spec *sp)
{
	char s[2 + 2 * sizeof(u64) + 1];
	struct out t = {.buf = s, .size = sizeof(s)};
	unsigned long long v;
	int size = sizeof(phys_addr_t);

	if (*f == 'd') {
		size = sizeof(dma_addr_t);
		f++;
	} else if (*f == 'p') {
		f++;
	}
	if (bad_pointer(o, p, sp))
		return f;
	v = size == 8 ? *(const u64 *)p : *(const u32 *)p;
	put_str(&t, "0x", 2);
	put_hex(&t, v, 2 * size);
	s[t.len] = '\0';
	put_field(o, s, sp);
	return f;
}

static int format(struct out *o, const char *fmt, va_list args);

/* %pe: the error's name, its number if it has none, else a pointer. */
static void put_err(struct out *o, const void *p, const struct spec *sp)
{
	const char *name = errname(PTR_ERR(p));
	char s[24];

	if (!IS_ERR(p)) {
		put_pointer(o, p, sp);
		return;
	}
	if (name)
		snprintf(s, sizeof(s), "-%s", name);
	else
		snprintf(s, sizeof(s), "%ld", PTR_ERR(p));
	put_field(o, s, sp);
}

/* %pS/%pSR/%ps/%pB through the library's symbolizer. */
static const char *put_symbol(struct out *o, const char *f, const void *p,
			      const struct spec *sp)
{
	char how = f[-1] == 's'	  ? PK_MARK_NAME
		   : f[-1] == 'B' ? PK_MARK_RET
				  : PK_MARK_STR;
	char s[256];

	if (*f == 'R') /* no relocation to undo: the address is the symbol's */
		f++;
	pk_sym_str_how((unsigned long)p, how, o->markers, s, sizeof(s));
	put_field(o, s, sp);
	return f;
}

/* Bit @i of the bitmap at @map. */
static int map_bit(const unsigned long *map, int i)
{
	return (int)((map[i / BITS_PER_LONG] >> (i % BITS_PER_LONG)) & 1);
}

static void put_dec(struct out *o, int v)
{
	char s[12];
	int n = 0;

	do
		s[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n)
		put_char(o, s[--n]);
}

/*
 * %*pb: the field width bits as 32-bit hex chunks, most significant
 * first, comma-separated, each zero-padded (the first to its own bits);
 * %*pbl: the set bits as a list of ranges, "0-3,7".  No padding.
 */
static const char *put_bitmap(struct out *o, const char *f,
			      const unsigned long *map, const struct spec *sp)
{
	int nbits = max(sp->width, 0);
	bool list = *f == 'l';

	if (list)
		f++;
	if (bad_pointer(o, map, &(struct spec){-1, -1, false}))
		return f;
	if (list) {
		bool first = true;

		for (int i = 0; i < nbits; i++) {
			int end = i;

			if (!map_bit(map, i))
				continue;
			while (end + 1 < nbits && map_bit(map, end + 1))
				end++;
			if (!first)
				put_char(o, ',');
			put_dec(o, i);
			if (end > i) {
				put_char(o, '-');
				put_dec(o, end);
			}
			first = false;
			i = end;
		}
		return f;
	}
	for (int i = round_up(nbits, 32) - 32,
		 chunk = nbits % 32 ? nbits % 32 : 32;
	     i >= 0; i -= 32, chunk = 32) {
		unsigned long v = map[i / BITS_PER_LONG] >> (i % BITS_PER_LONG);

		v &= chunk == 32 ? 0xffffffffUL : (1UL << chunk) - 1;
		if (i + 32 < round_up(nbits, 32))
			put_char(o, ',');
		put_hex(o, v, DIV_ROUND_UP(chunk, 4));
	}
	return f;
}

/* After "%p": the extension at @f, its argument @p; returns what follows. */
static const char *put_extension(struct out *o, const char *f, const void *p,
				 const struct spec *sp)
{
	char c = *f;

	if (!c) { /* "%p" at the end of the format: never step past it */
		put_pointer(o, p, sp);
		return f;
	}
	f++;
	switch (c) {
	case 'S':
	case 's':
	case 'B':
		return put_symbol(o, f, p, sp);
	case 'h':
		return put_hex_bytes(o, f, p, sp);
	case 'M':
	case 'm':
		return put_mac(o, f, p, sp);
	case 'I':
	case 'i':
		return put_ip(o, f, p, sp);
	case 'U':
		return put_uuid(o, f, p, sp);
	case 'b':
		return put_bitmap(o, f, p, sp);
	case 'a':
		return put_addr(o, f, p, sp);
	case 'e':
		put_err(o, p, sp);
		return f;
	case 'V': {
		const struct va_format *vaf = p;
		va_list copy;

		if (bad_pointer(o, p, sp))
			return f;
		va_copy(copy, *vaf->va);
		format(o, vaf->fmt, copy);
		va_end(copy);
		return f;
	}
	case 'x': /* the raw address: never hashed anyway */
	case 'K': /* kptr_restrict is 0: as %p */
	default:
		put_pointer(o, p, sp);
		/* As the kernel: an unknown extension's letters are eaten. */
		while ((*f >= 'a' && *f <= 'z') || (*f >= 'A' && *f <= 'Z') ||
		       (*f >= '0' && *f <= '9'))
			f++;
		return f;
	}
}

/* ---- the C conversions, one snprintf() each ---- */

enum length {
	LEN_NONE,
	LEN_HH,
	LEN_H,
	LEN_L,
	LEN_LL,
	LEN_Z,
	LEN_T,
	LEN_J,
	LEN_BIG_L
};

static const char *parse_length(const char *f, enum length *len)
{
	*len = LEN_NONE;
	switch (*f) {
	case 'h':
		*len = f[1] == 'h' ? LEN_HH : LEN_H;
		return f + (f[1] == 'h' ? 2 : 1);
	case 'l':
		*len = f[1] == 'l' ? LEN_LL : LEN_L;
		return f + (f[1] == 'l' ? 2 : 1);
	case 'z':
		*len = LEN_Z;
		return f + 1;
	case 't':
		*len = LEN_T;
		return f + 1;
	case 'j':
		*len = LEN_J;
		return f + 1;
	case 'L':
		*len = LEN_BIG_L;
		return f + 1;
	}
	return f;
}

/* snprintf() of one conversion @spec (a complete "%...c" with '*' expanded). */
static void put_conversion(struct out *o, const char *spec, char conv,
			   enum length len, va_list *args)
{
	char s[512];
	int n;

	switch (conv) {
	case 'd':
	case 'i':
		if (len == LEN_LL || len == LEN_J)
			n = snprintf(s, sizeof(s), spec,
				     va_arg(*args, long long));
		else if (len == LEN_L || len == LEN_Z || len == LEN_T)
			n = snprintf(s, sizeof(s), spec, va_arg(*args, long));
		else
			n = snprintf(s, sizeof(s), spec, va_arg(*args, int));
		break;
	case 'u':
	case 'o':
	case 'x':
	case 'X':
		if (len == LEN_LL || len == LEN_J)
			n = snprintf(s, sizeof(s), spec,
				     va_arg(*args, unsigned long long));
		else if (len == LEN_L || len == LEN_Z || len == LEN_T)
			n = snprintf(s, sizeof(s), spec,
				     va_arg(*args, unsigned long));
		else
			n = snprintf(s, sizeof(s), spec,
				     va_arg(*args, unsigned int));
		break;
	case 'c':
		n = snprintf(s, sizeof(s), spec, va_arg(*args, int));
		break;
	case 'e':
	case 'E':
	case 'f':
	case 'F':
	case 'g':
	case 'G':
	case 'a':
	case 'A':
		if (len == LEN_BIG_L)
			n = snprintf(s, sizeof(s), spec,
				     va_arg(*args, long double));
		else
			n = snprintf(s, sizeof(s), spec, va_arg(*args, double));
		break;
	default:
		return;
	}
	if (n > 0)
		put_str(o, s, min((size_t)n, sizeof(s) - 1));
}

/* A string may be longer than any stack buffer: put it directly. */
static void put_string(struct out *o, const char *s, const struct spec *sp)
{
	put_field(o, s ? s : "(null)", sp);
}

/* A decimal number at *@f (strtol() is not async-signal-safe). */
static int parse_int(const char **f)
{
	int v = 0;

	while (**f >= '0' && **f <= '9' && v < 100000)
		v = v * 10 + (*(*f)++ - '0');
	return v;
}

static int format(struct out *o, const char *fmt, va_list args)
{
	va_list ap;

	va_copy(ap, args);
	while (*fmt) {
		struct spec sp = {-1, -1, false};
		char spec[64];
		size_t k = 0;
		enum length len;
		const char *f;

		if (*fmt != '%') {
			put_char(o, *fmt++);
			continue;
		}
		f = fmt + 1;
		if (*f == '%') {
			put_char(o, '%');
			fmt = f + 1;
			continue;
		}
		spec[k++] = '%';
		while (*f && strchr("-+ #0", *f)) {
			sp.left |= *f == '-';
			if (k < 8)
				spec[k++] = *f;
			f++;
		}
		if (*f == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				sp.left = true;
				sp.width = -sp.width;
				spec[k++] = '-';
			}
			f++;
		} else if (*f >= '0' && *f <= '9') {
			sp.width = parse_int(&f);
		}
		if (sp.width >= 0)
			k += (size_t)snprintf(spec + k, sizeof(spec) - k, "%d",
					      sp.width);
		if (*f == '.') {
			f++;
			if (*f == '*') {
				sp.prec = va_arg(ap, int);
				f++;
			} else {
				sp.prec = parse_int(&f);
			}
			if (sp.prec >= 0)
				k += (size_t)snprintf(spec + k,
						      sizeof(spec) - k, ".%d",
						      sp.prec);
		}
		f = parse_length(f, &len);
		for (const char *l = fmt + 1; l < f;
		     l++) /* the length letters */
			if (strchr("hlztjL", *l) && k < sizeof(spec) - 2)
				spec[k++] = *l;
		spec[k++] = *f;
		spec[k] = '\0';
		switch (*f) {
		case '\0':
			fmt = f;
			continue;
		case 's':
			put_string(o, va_arg(ap, const char *), &sp);
			break;
		case 'p':
			fmt = put_extension(o, f + 1, va_arg(ap, const void *),
					    &sp);
			continue;
		case 'n': /* never written, as the kernel */
			(void)va_arg(ap, void *);
			break;
		default:
			put_conversion(o, spec, *f, len, &ap);
		}
		fmt = f + 1;
	}
	va_end(ap);
	return (int)min(o->len, (size_t)INT_MAX);
}

/* The C conversions and the %p extensions; @markers: printk()'s line. */
int pk_kernel_vsnprintf_markers(char *buf, size_t size, bool markers,
				const char *fmt, va_list args)
{
	struct out o = {.buf = buf, .size = size, .markers = markers};
	int n = format(&o, fmt, args);

	if (size)
		buf[min(o.len, size - 1)] = '\0';
	return n;
}

int pk_kernel_vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	return pk_kernel_vsnprintf_markers(buf, size, false, fmt, args);
}

int pk_kernel_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = pk_kernel_vsnprintf(buf, size, fmt, args);
	va_end(args);
	return n;
}

const char *pk_kernel_warn_fmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;

	if (!fmt)
		return NULL;
	va_start(args, fmt);
	pk_kernel_vsnprintf(buf, size, fmt, args);
	va_end(args);
	return buf;
}

int pk_kernel_vsprintf(char *buf, const char *fmt, va_list args)
{
	return pk_kernel_vsnprintf(buf, INT_MAX, fmt, args);
}

int pk_kernel_sprintf(char *buf, const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = pk_kernel_vsnprintf(buf, INT_MAX, fmt, args);
	va_end(args);
	return n;
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	int n = pk_kernel_vsnprintf(buf, size, fmt, args);

	if (!size)
		return 0;
	return (size_t)n < size ? n : (int)size - 1;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vscnprintf(buf, size, fmt, args);
	va_end(args);
	return n;
}

char *kvasprintf(gfp_t gfp, const char *fmt, va_list args)
{
	va_list copy;
	char *p;
	int n;

	va_copy(copy, args);
	n = pk_kernel_vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	p = kmalloc((size_t)n + 1, gfp);
	if (p)
		pk_kernel_vsnprintf(p, (size_t)n + 1, fmt, args);
	return p;
}

char *kasprintf(gfp_t gfp, const char *fmt, ...)
{
	va_list args;
	char *p;

	va_start(args, fmt);
	p = kvasprintf(gfp, fmt, args);
	va_end(args);
	return p;
}
