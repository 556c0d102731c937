// SPDX-License-Identifier: GPL-2.0-only
/* ingest.c: results-channel lines -> a column. */
#include "ingest.h"
#include "proc.h"
#include "proto.h"
#include "rbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 16

struct fields {
	const char *p[MAX_FIELDS];
	size_t n[MAX_FIELDS];
	int count;
	const char *rest; /* start of field MAX_FIELDS-1 onwards */
};

static void split(const char *s, size_t len, struct fields *f)
{
	f->count = 0;
	size_t i = 0;
	while (i < len && f->count < MAX_FIELDS) {
		while (i < len && s[i] == ' ')
			i++;
		if (i >= len)
			break;
		size_t j = i;
		while (j < len && s[j] != ' ')
			j++;
		f->p[f->count] = s + i;
		f->n[f->count] = j - i;
		f->count++;
		i = j;
	}
}

/* Decoded, UTF-8-clean copy of a field. */
static char *field(const struct fields *f, int i)
{
	size_t n;
	char *raw = proto_pct_decode(f->p[i], f->n[i], &n);
	char *clean = utf8_clean(raw, n);
	free(raw);
	return clean;
}

static bool parse_double(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end)
		return false;
	*out = v;
	return true;
}

static int do_begin(struct column *c, const struct fields *f)
{
	for (int i = 1; i < f->count; i++) {
		char *kv = field(f, i);
		char *eq = strchr(kv, '=');
		if (!eq) {
			free(kv);
			return -1;
		}
		*eq = '\0';
		const char *v = eq + 1;
		if (strcmp(kv, "uname") == 0)
			snprintf(c->uname, sizeof c->uname, "%s", v);
		else if (strcmp(kv, "arch") == 0)
			col_set_arch(c, v, NULL); /* uname -m: aarch64 is arm64 */
		else if (strcmp(kv, "abi") == 0)
			col_set_arch(c, NULL, v);
		else if (strcmp(kv, "cases") == 0)
			c->begin_cases = strtol(v, NULL, 10);
		else
			col_set_feature(c, kv, v); /* probe results, kept */
		free(kv);
	}
	c->begin_seen++;
	return 0;
}

static int do_end(struct column *c, const struct fields *f)
{
	for (int i = 1; i < f->count; i++) {
		char *kv = field(f, i);
		char *eq = strchr(kv, '=');
		double d;
		if (eq) {
			*eq = '\0';
			if (strcmp(kv, "rc") == 0)
				c->kyua_rc = strtol(eq + 1, NULL, 10);
			else if (strcmp(kv, "suite_s") == 0 &&
				 parse_double(eq + 1, &d) && c->suite_s <= 0)
				c->suite_s = d;
		}
		free(kv);
	}
	c->end_seen++;
	return 0;
}

/* A time field: seconds, or "boot" (-1). */
static bool parse_when(const char *s, double *out)
{
	if (strcmp(s, "boot") == 0) {
		*out = -1;
		return true;
	}
	return parse_double(s, out) && *out >= 0 && isfinite(*out);
}

static bool parse_flags(const char *s, unsigned long *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	*out = strtoul(s, &end, 10);
	return *end == '\0';
}

static int do_case(struct column *c, const struct fields *f)
{
	if (f->count < 4)
		return -1;
	char *id = field(f, 1);
	char *st = field(f, 2);
	char *secs = field(f, 3);
	int status = status_parse(st);
	double d = 0;
	int rc = -1;
	const char *idp = id;
	if (strncmp(idp, "cases/", 6) == 0)
		idp += 6;
	if (status >= 0 && parse_double(secs, &d) && strchr(idp, ':') && *idp != ':') {
		/* reason: field 4 (percent-encoded); extra words are kept, but
		 * for a last "mono=T" after it: when the case was seen to end */
		int nf = f->count;
		double t_end = -1;
		if (nf >= 6 && f->n[nf - 1] > 5 && memcmp(f->p[nf - 1], "mono=", 5) == 0) {
			char *m = field(f, nf - 1);
			if (parse_when(m + 5, &t_end) && t_end >= 0)
				nf--;
			else
				t_end = -1;
			free(m);
		}
		struct rbuf r = {0};
		rbuf_add(&r, "");
		for (int i = 4; i < nf; i++) {
			char *w = field(f, i);
			if (r.len)
				rbuf_addc(&r, ' ');
			rbuf_add(&r, w);
			free(w);
		}
		const char *reason = strcmp(r.s, "-") == 0 ? "" : r.s;
		if (col_find(c, idp))
			c->duplicates++;
		struct case_result *x = col_put(c, idp, (enum status)status, d, reason);
		x->t_end = t_end; /* a span line that came first is lost: rare, harmless */
		if (t_end >= 0)
			col_kwarn_case_seen(c, x);
		rbuf_free(&r);
		rc = 0;
	}
	free(id);
	free(st);
	free(secs);
	return rc;
}

/* "span <program:case> <start> <end>": Kyua's own times of a case */
static int do_span(struct column *c, const struct fields *f)
{
	if (f->count < 4)
		return -1;
	char *id = field(f, 1), *a = field(f, 2), *b = field(f, 3);
	double s, e;
	int rc = -1;
	const char *idp = strncmp(id, "cases/", 6) == 0 ? id + 6 : id;
	if (parse_when(a, &s) && s >= 0 && parse_when(b, &e) && e >= s) {
		struct case_result *r = col_find(c, idp);
		if (r) { /* a span for a case never reported is of no use */
			r->t_start = s;
			r->t_end = e;
			col_kwarn_case_seen(c, r);
		}
		rc = 0;
	}
	free(id);
	free(a);
	free(b);
	return rc;
}

/* "watch <mode> <mono> <taint> <note>" */
static int do_watch(struct column *c, const struct fields *f)
{
	if (f->count < 4)
		return -1;
	char *mode = field(f, 1), *mono = field(f, 2), *taint = field(f, 3);
	char *note = f->count > 4 ? field(f, 4) : xstrdup("-");
	double t;
	unsigned long fl;
	int rc = -1;
	if ((!strcmp(mode, "boot") || !strcmp(mode, "window") || !strcmp(mode, "off")) &&
	    parse_when(mono, &t) && t >= 0 && parse_flags(taint, &fl)) {
		snprintf(c->kmsg_mode, sizeof c->kmsg_mode, "%s", mode);
		/* a guest's kernel boots untainted: its flags at the watch are
		 * the boot's findings (a taint line), not a starting point */
		c->taint_start = strcmp(mode, "boot") == 0 ? 0 : (long long)fl;
		free(c->kmsg_note);
		c->kmsg_note = xstrdup(strcmp(note, "-") == 0 ? "" : note);
		rc = 0;
	}
	free(mode);
	free(mono);
	free(taint);
	free(note);
	return rc;
}

/* "kmsg <ktime> <mono|boot> <taint> <running> <text>" */
static int do_kmsg(struct column *c, const struct fields *f)
{
	if (f->count < 6)
		return -1;
	char *kt = field(f, 1), *mono = field(f, 2), *taint = field(f, 3),
	     *run = field(f, 4);
	double k, t;
	unsigned long fl;
	int rc = -1;
	if (parse_when(kt, &k) && k >= 0 && parse_when(mono, &t) && parse_flags(taint, &fl)) {
		struct rbuf text = {0};
		rbuf_add(&text, "");
		for (int i = 5; i < f->count; i++) {
			char *w = field(f, i);
			if (text.len)
				rbuf_addc(&text, ' ');
			rbuf_add(&text, w);
			free(w);
		}
		col_add_kwarn(c, KW_KMSG, text.s, k, t, t, fl, fl,
			      strcmp(run, "-") == 0 ? "" : run);
		rbuf_free(&text);
		rc = 0;
	}
	free(kt);
	free(mono);
	free(taint);
	free(run);
	return rc;
}

/* "taint <from|boot> <to> <old> <new> <running>" */
static int do_taint(struct column *c, const struct fields *f)
{
	if (f->count < 6)
		return -1;
	char *from = field(f, 1), *to = field(f, 2), *old = field(f, 3),
	     *now = field(f, 4), *run = field(f, 5);
	double a, b;
	unsigned long o, n;
	int rc = -1;
	if (parse_when(from, &a) && parse_when(to, &b) && b >= 0 && parse_flags(old, &o) &&
	    parse_flags(now, &n)) {
		char what[400], text[480];
		taint_describe(n & ~o, what, sizeof what);
		snprintf(text, sizeof text, "taint flags appeared: %s", what[0] ? what : "none");
		if (a < 0)
			b = -1; /* found set at the watch's start in a guest: boot */
		col_add_kwarn(c, KW_TAINT, text, -1, a, b, n, o,
			      strcmp(run, "-") == 0 ? "" : run);
		rc = 0;
	}
	free(from);
	free(to);
	free(old);
	free(now);
	free(run);
	return rc;
}

int ingest_line(struct column *c, const char *line, size_t n)
{
	while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	size_t skip = 0;
	while (skip < n && (line[skip] == '\r' || line[skip] == ' ' || line[skip] == '\t'))
		skip++;
	if (skip == n)
		return 0; /* blank lines are neither data nor garbage */
	/* the last marker: anything before it (noise, or the fragment of a
	 * line whose writer died) is garbage */
	const size_t ml = strlen(PROTO_MAGIC);
	const char *m = NULL;
	for (const char *q = line; (q = memmem(q, n - (size_t)(q - line), PROTO_MAGIC, ml)); q++)
		m = q;
	if (!m) {
		c->garbage++;
		return -1;
	}
	if (m != line + skip)
		c->garbage++; /* noise before the marker; the line may still be good */
	n -= (size_t)(m - line);
	line = m;
	long plen = proto_check(line, n);
	if (plen < 0) {
		c->garbage++;
		return -1;
	}
	struct fields f;
	size_t off = strlen(PROTO_MAGIC);
	split(line + off, (size_t)plen - off, &f);
	int rc = -1;
	if (f.count >= 1) {
		if (f.n[0] == 5 && memcmp(f.p[0], "begin", 5) == 0)
			rc = do_begin(c, &f);
		else if (f.n[0] == 3 && memcmp(f.p[0], "end", 3) == 0)
			rc = do_end(c, &f);
		else if (f.n[0] == 4 && memcmp(f.p[0], "case", 4) == 0)
			rc = do_case(c, &f);
		else if (f.n[0] == 4 && memcmp(f.p[0], "kmsg", 4) == 0)
			rc = do_kmsg(c, &f);
		else if (f.n[0] == 5 && memcmp(f.p[0], "taint", 5) == 0)
			rc = do_taint(c, &f);
		else if (f.n[0] == 5 && memcmp(f.p[0], "watch", 5) == 0)
			rc = do_watch(c, &f);
		else if (f.n[0] == 4 && memcmp(f.p[0], "span", 4) == 0)
			rc = do_span(c, &f);
	}
	if (rc < 0)
		c->garbage++;
	return rc;
}

size_t ingest_buf(struct column *c, const char *buf, size_t n, bool final)
{
	size_t start = 0;
	for (size_t i = 0; i < n; i++) {
		if (buf[i] != '\n')
			continue;
		ingest_line(c, buf + start, i - start);
		start = i + 1;
	}
	if (final && start < n) {
		/* a partial line: the writer died mid-line; ignore it, but
		 * note it unless it is only whitespace */
		size_t k = start;
		while (k < n && (buf[k] == ' ' || buf[k] == '\r' || buf[k] == '\t'))
			k++;
		if (k < n)
			c->truncated++;
	}
	return start;
}

int ingest_file(struct column *c, const char *path, char *err, size_t errlen)
{
	size_t len;
	char *buf = read_file(path, &len, err, errlen);
	if (!buf)
		return -1;
	ingest_buf(c, buf, len, true);
	free(buf);
	return 0;
}

void ingest_finish(struct column *c, const struct idlist *expected,
		   const char *filter)
{
	if (c->end == END_DONE && !c->end_seen)
		c->end = END_SILENT;
	enum status fill = c->end == END_PANIC ? ST_PANIC
			 : c->end == END_TIMEOUT ? ST_TIMEOUT : ST_MISSING;
	const char *why = c->end == END_PANIC ? "not reported: the kernel panicked"
			: c->end == END_TIMEOUT ? "not reported: the run passed its deadline"
			: c->end == END_ERROR ? "not run: the kernel column failed"
			: c->end == END_SILENT ? "not reported: the guest stopped without an end line"
			: "not reported";
	for (size_t i = 0; expected && i < expected->n; i++) {
		const char *id = expected->v[i];
		if (!case_selected(filter, id) || col_find(c, id))
			continue;
		col_put(c, id, fill, 0, why);
	}
}


bool ingest_filled(const struct case_result *r)
{
	return r->raw == ST_PANIC || r->raw == ST_TIMEOUT || r->raw == ST_MISSING;
}

enum col_end ingest_end(enum run_end e)
{
	switch (e) {
	case RUN_DONE: return END_DONE;
	case RUN_PANIC: return END_PANIC;
	case RUN_TIMEOUT: return END_TIMEOUT;
	case RUN_SILENT: return END_SILENT;
	default: return END_ERROR;
	}
}

/* One line of kyua list output as a case id ("cases/" dropped, a
 * " (suite)" suffix cut), or false when it is not a case line. */
static bool case_line(const char *p, size_t n, char *id, size_t idlen)
{
	size_t a = 0, b = n;
	while (a < b && (p[a] == ' ' || p[a] == '\t' || p[a] == '\r'))
		a++;
	while (b > a && (p[b - 1] == ' ' || p[b - 1] == '\t' || p[b - 1] == '\r'))
		b--;
	if (b <= a || b - a >= idlen)
		return false;
	memcpy(id, p + a, b - a);
	id[b - a] = '\0';
	if (strncmp(id, "cases/", 6) == 0)
		memmove(id, id + 6, strlen(id + 6) + 1);
	/* "program:case" with no spaces; anything else is not a case line
	 * (kyua prints nothing else here) */
	const char *colon = strchr(id, ':');
	return colon && colon != id && colon[1] && !strpbrk(id, " \t");
}

void caselist_parse(const char *text, struct idlist *out)
{
	char id[1024];
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		if (case_line(p, n, id, sizeof id))
			idlist_add(out, id);
		p += n;
		if (*p)
			p++;
	}
}

void caselist_parse_verbose(const char *text, struct idlist *out,
			    struct metalist *meta)
{
	char id[1024] = "";
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		if (n && (*p == ' ' || *p == '\t')) {
			/* a property of the case above */
			char line[4096];
			snprintf(line, sizeof line, "%.*s", (int)n, p);
			char *eq = strstr(line, " = ");
			if (eq && id[0] && meta) {
				*eq = '\0';
				const char *key = line + strspn(line, " \t"), *val = eq + 3;
				char *clean = utf8_clean(val, strlen(val));
				if (!strcmp(key, "description"))
					metalist_put(meta, id, clean, NULL);
				else if (!strcmp(key, "custom.ttypot.commits"))
					metalist_put(meta, id, NULL, clean);
				free(clean);
			}
		} else {
			size_t k = strcspn(p, " \n");
			/* "program:case (suite)" */
			if (case_line(p, k, id, sizeof id))
				idlist_add(out, id);
			else
				id[0] = '\0';
		}
		p += n;
		if (*p)
			p++;
	}
}

int caselist_kyua(const char *kyuafile, int deadline_s, struct idlist *out,
		  char *err, size_t errlen)
{
	return caselist_kyua_meta(kyuafile, deadline_s, out, NULL, err, errlen);
}

int caselist_kyua_meta(const char *kyuafile, int deadline_s, struct idlist *out,
		       struct metalist *meta, char *err, size_t errlen)
{
	char *argv[] = { "kyua", "list", "-v", "-k", (char *)kyuafile, NULL };
	struct rbuf o = {0}, e = {0};
	int rc = capture_run(argv, NULL, deadline_s, &o, &e, err, errlen);
	if (rc != 0) {
		if (rc > 0)
			snprintf(err, errlen, "kyua list -k %s: exit %d: %.200s",
				 kyuafile, rc, rbuf_str(&e));
		rbuf_free(&o);
		rbuf_free(&e);
		return -1;
	}
	caselist_parse_verbose(rbuf_str(&o), out, meta);
	rbuf_free(&o);
	rbuf_free(&e);
	if (out->n == 0) {
		snprintf(err, errlen, "kyua list -k %s: no test cases", kyuafile);
		return -1;
	}
	return 0;
}
