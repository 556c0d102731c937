// SPDX-License-Identifier: GPL-2.0-only
/* report_ktap.c: ktap-<label>.ktap, one per kernel, in the kernel's KTAP
 * version 1 (Documentation/dev-tools/ktap.rst), so that kselftest's,
 * KUnit's and KernelCI's parsers read ttypot columns:
 *
 *   KTAP version 1
 *   # ttypot column LABEL: uname, version, arch, accel, times, end
 *   1..AREAS
 *     KTAP version 1
 *     # Subtest: pty
 *     1..CASES
 *     ok 1 t_echo.echo_on_returns_input
 *     # t_echo.x: REASON        (diagnostic lines before a failure)
 *     not ok 2 t_echo.x
 *     ok 3 t_echo.y # SKIP REASON
 *     ok 4 t_echo.z # XFAIL REASON
 *     not ok 5 t_echo.w # ERROR|TIMEOUT REASON   (broken, panic, missing; timeout)
 *   not ok 1 pty
 *
 * An xfail is "ok" with ktap.rst's XFAIL directive (kselftest's
 * ksft_test_result_xfail writes the same): TODO, the TAP spelling, is "not
 * recognized" by KTAP and the kernel's parser would count it as a failure.
 * So a KTAP parser counts pass+xfail as passed, skip as skipped and fail,
 * broken, timeout, panic and missing as failed. */
#include "report.h"

#include <stdio.h>
#include <string.h>

/* A KTAP name: [A-Za-z0-9_.-]; '/' and ':' (the id's separators) become
 * '.', anything else '_' ('#' would start a directive). */
static void ktap_name(struct rbuf *b, const char *s)
{
	if (!*s)
		rbuf_add(b, "_");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-')
			rbuf_addc(b, (char)c);
		else
			rbuf_addc(b, c == '/' || c == ':' ? '.' : '_');
	}
}

/* Phrases the kernel's parser (kunit_parser.py KTAP_END) takes for the end
 * of a log wherever they appear: defused in any text we copy. */
static const char *const end_markers[] = {
	"List of all partitions:", "Kernel panic - not syncing: VFS:",
	"reboot: System halted",
};

/* One line of free text: controls become spaces, stops at a newline;
 * returns where the next line starts (NULL at the end). */
static const char *ktap_text_line(struct rbuf *b, const char *s)
{
	for (; *s && *s != '\n'; s++) {
		bool defuse = false;
		for (size_t i = 0; i < sizeof end_markers / sizeof *end_markers; i++)
			if (!strncmp(s, end_markers[i], strlen(end_markers[i])))
				defuse = true;
		unsigned char c = (unsigned char)*s;
		rbuf_addc(b, c < 0x20 || c == 0x7f ? ' ' : (char)c);
		if (defuse)
			rbuf_addc(b, '~');
	}
	return *s ? s + 1 : NULL;
}

static void indent(struct rbuf *b, int depth)
{
	for (int i = 0; i < depth; i++)
		rbuf_add(b, "  ");
}

/* "# PREFIX: TEXT" diagnostic lines, one per line of text. */
static void diag(struct rbuf *b, int depth, const char *prefix, const char *text)
{
	for (const char *p = text; p && *p;) {
		indent(b, depth);
		rbuf_addf(b, "# %s: ", prefix);
		p = ktap_text_line(b, p);
		rbuf_addc(b, '\n');
	}
}

/* The directive and its data for a status; "" for a plain ok / not ok. */
static const char *directive(enum status st)
{
	switch (st) {
	case ST_SKIP: return "SKIP";
	case ST_XFAIL: return "XFAIL";
	case ST_TIMEOUT: return "TIMEOUT";
	case ST_BROKEN: case ST_PANIC: case ST_MISSING: return "ERROR";
	default: return "";
	}
}

static void case_line(struct rbuf *b, int depth, long n, const char *id,
		      const struct case_result *x)
{
	/* The name within its area: "pty/t_echo:x" -> "t_echo.x". */
	char area[64];
	case_area(id, area, sizeof area);
	const char *rest = id + strlen(area);
	if (*rest == '/' || *rest == ':')
		rest++;
	struct rbuf name = {0};
	ktap_name(&name, *rest ? rest : id);
	const char *why = x->st == ST_XFAIL && x->expect[0] ? x->expect : x->reason;
	/* What the case said, whole, before its result line (an xfail's
	 * directive carries the expectation's reason instead). */
	if (x->st != ST_SKIP && x->st != ST_PASS && x->reason[0])
		diag(b, depth, rbuf_str(&name), x->reason);
	indent(b, depth);
	rbuf_addf(b, "%s %ld %s", status_bad(x->st) ? "not ok" : "ok", n, rbuf_str(&name));
	const char *d = directive(x->st);
	if (*d) {
		rbuf_addf(b, " # %s ", d);
		if (x->st == ST_PANIC || x->st == ST_MISSING)
			rbuf_addf(b, "%s: ", status_name(x->st));
		ktap_text_line(b, why[0] ? why : status_name(x->st));
	}
	rbuf_addc(b, '\n');
	rbuf_free(&name);
}

/* The rows [from, to) are one area; write it as a subtest numbered n. */
static void area_block(const struct matrix *m, size_t ci, size_t from, size_t to,
		       const char *area, int depth, long n, struct rbuf *b)
{
	long cases = 0, bad = 0, skips = 0;
	for (size_t r = from; r < to; r++) {
		const struct case_result *x = matrix_cell(m, r, ci);
		if (!x)
			continue;
		cases++;
		bad += status_bad(x->st);
		skips += x->st == ST_SKIP;
	}
	struct rbuf name = {0};
	ktap_name(&name, area);
	indent(b, depth + 1);
	rbuf_add(b, "KTAP version 1\n");
	indent(b, depth + 1);
	rbuf_addf(b, "# Subtest: %s\n", rbuf_str(&name));
	indent(b, depth + 1);
	rbuf_addf(b, "1..%ld\n", cases);
	long k = 0;
	for (size_t r = from; r < to; r++) {
		const struct case_result *x = matrix_cell(m, r, ci);
		if (x)
			case_line(b, depth + 1, ++k, m->rows.v[r], x);
	}
	indent(b, depth);
	if (bad)
		rbuf_addf(b, "not ok %ld %s\n", n, rbuf_str(&name));
	else if (skips == cases)
		rbuf_addf(b, "ok %ld %s # SKIP every case skipped\n", n, rbuf_str(&name));
	else
		rbuf_addf(b, "ok %ld %s\n", n, rbuf_str(&name));
	rbuf_free(&name);
}

/* A column's document at depth (0: the file; 1: a subtest of the
 * several-column stream, named by its label). */
static void column_doc(const struct matrix *m, size_t ci, int depth, struct rbuf *b)
{
	const struct column *c = m->cols[ci];
	struct rbuf t = {0};
	indent(b, depth);
	rbuf_add(b, "KTAP version 1\n");
	if (depth) {
		indent(b, depth);
		rbuf_add(b, "# Subtest: ");
		ktap_name(b, c->label);
		rbuf_addc(b, '\n');
	}
	report_col_title(c, &t);
	rbuf_add(&t, ": ");
	report_col_meta(c, &t);
	diag(b, depth, "ttypot column", rbuf_str(&t));
	rbuf_free(&t);
	const struct col_summary *s = &m->sum[ci];
	indent(b, depth);
	rbuf_add(b, "# totals:");
	for (int st = 0; st < ST__N; st++)
		rbuf_addf(b, " %s %ld", status_name((enum status)st), s->count[st]);
	rbuf_addc(b, '\n');
	if (c->error[0])
		diag(b, depth, "error", c->error);
	/* Rows are sorted so that each area is contiguous. */
	long areas = 0;
	char prev[64] = "";
	for (size_t r = 0; r < m->rows.n; r++) {
		char a[64];
		case_area(m->rows.v[r], a, sizeof a);
		if (matrix_cell(m, r, ci) && (areas == 0 || strcmp(a, prev))) {
			areas++;
			snprintf(prev, sizeof prev, "%s", a);
		}
	}
	indent(b, depth);
	rbuf_addf(b, "1..%ld\n", areas);
	long n = 0;
	for (size_t r = 0; r < m->rows.n;) {
		char a[64], o[64];
		case_area(m->rows.v[r], a, sizeof a);
		size_t end = r + 1, cells = 0;
		while (end < m->rows.n) {
			case_area(m->rows.v[end], o, sizeof o);
			if (strcmp(a, o))
				break;
			end++;
		}
		for (size_t i = r; i < end; i++)
			cells += matrix_cell(m, i, ci) != NULL;
		if (cells)
			area_block(m, ci, r, end, a, depth, ++n, b);
		r = end;
	}
}

void report_ktap_name(const struct column *c, char *out, size_t outlen)
{
	char safe[128];
	safe_name(c->label, safe, sizeof safe);
	snprintf(out, outlen, "ktap-%s.ktap", safe);
}

void report_ktap(const struct matrix *m, size_t ci, struct rbuf *b)
{
	column_doc(m, ci, 0, b);
}

void report_ktap_all(const struct matrix *m, struct rbuf *b)
{
	if (m->ncols == 1) {
		column_doc(m, 0, 0, b);
		return;
	}
	rbuf_add(b, "KTAP version 1\n");
	rbuf_addf(b, "1..%zu\n", m->ncols);
	for (size_t ci = 0; ci < m->ncols; ci++) {
		column_doc(m, ci, 1, b);
		const struct col_summary *s = &m->sum[ci];
		long bad = 0;
		for (int st = 0; st < ST__N; st++)
			if (status_bad((enum status)st))
				bad += s->count[st];
		rbuf_addf(b, "%s %zu ", bad || m->cols[ci]->error[0] ? "not ok" : "ok", ci + 1);
		ktap_name(b, m->cols[ci]->label);
		rbuf_addc(b, '\n');
	}
}
