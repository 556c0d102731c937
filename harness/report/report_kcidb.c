/* report_kcidb.c: kcidb.json in the KCIDB I/O schema v5 style: one checkout
 * and one build per kernel column, one test per cell plus a "ttypot" test
 * node for the boot/run itself.  ids are "ttypot:...", origin "ttypot".
 * Status: pass PASS, fail FAIL, skip and xfail SKIP (xfail: misc.expect),
 * broken/timeout/panic ERROR, missing MISS. */
#include "report.h"

#include <string.h>

#define KCIDB_EXCERPT_MAX 16000 /* the schema's log_excerpt limit is 16384 */

static const char *kstatus(enum status s)
{
	switch (s) {
	case ST_PASS: return "PASS";
	case ST_FAIL: return "FAIL";
	case ST_SKIP: case ST_XFAIL: return "SKIP";
	case ST_MISSING: return "MISS";
	default: return "ERROR";
	}
}

/* Test paths must match [a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)* */
static void test_path(const char *id, struct rbuf *b)
{
	struct rbuf t = {0};
	rbuf_add(&t, "ttypot.");
	for (const char *p = id; *p; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_' || c == '-';
		rbuf_addc(&t, ok ? c : (c == '/' || c == ':') ? '.' : '_');
	}
	rbuf_json(b, t.s);
	rbuf_free(&t);
}

static bool is_sha1(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");
	return n == 40 && (s[40] == '\0' || s[40] == '+' || s[40] == '-');
}

static void obj_id(struct rbuf *b, const char *key, const char *label)
{
	struct rbuf t = {0};
	rbuf_addf(&t, "ttypot:%s", label);
	rbuf_json(b, key);
	rbuf_add(b, ": ");
	rbuf_json(b, t.s);
	rbuf_free(&t);
}

static void excerpt(struct rbuf *b, const char *s)
{
	size_t n = strlen(s);
	if (n > KCIDB_EXCERPT_MAX) {
		s += n - KCIDB_EXCERPT_MAX;
		while ((*s & 0xc0) == 0x80) /* keep UTF-8 whole */
			s++;
	}
	rbuf_json(b, s);
}

void report_kcidb(const struct matrix *m, struct rbuf *b)
{
	rbuf_add(b, "{\n  \"version\": {\"major\": 5, \"minor\": 0},\n  \"checkouts\": [\n");
	for (size_t c = 0; c < m->ncols; c++) {
		const struct column *k = m->cols[c];
		rbuf_add(b, "    {");
		obj_id(b, "id", k->label);
		rbuf_add(b, ", \"origin\": \"ttypot\", \"comment\": ");
		rbuf_json(b, k->spec[0] ? k->spec : k->label);
		if (is_sha1(k->version)) {
			char sha[41];
			memcpy(sha, k->version, 40);
			sha[40] = '\0';
			rbuf_addf(b, ", \"git_commit_hash\": \"%s\"", sha);
		}
		rbuf_add(b, ", \"misc\": {\"version\": ");
		rbuf_json(b, k->version);
		rbuf_add(b, "}}");
		rbuf_add(b, c + 1 < m->ncols ? ",\n" : "\n");
	}
	rbuf_add(b, "  ],\n  \"builds\": [\n");
	for (size_t c = 0; c < m->ncols; c++) {
		const struct column *k = m->cols[c];
		rbuf_add(b, "    {");
		obj_id(b, "id", k->label);
		rbuf_add(b, ", ");
		obj_id(b, "checkout_id", k->label);
		rbuf_add(b, ", \"origin\": \"ttypot\", \"architecture\": ");
		rbuf_json(b, k->arch[0] ? k->arch : "x86_64");
		if (k->config_hash[0]) {
			rbuf_add(b, ", \"config_name\": ");
			rbuf_json(b, k->config_hash);
		}
		rbuf_addf(b, ", \"status\": \"%s\", \"misc\": {\"uname\": ",
			  k->end == END_ERROR ? "ERROR" : "PASS");
		rbuf_json(b, k->uname);
		rbuf_add(b, ", \"accel\": ");
		rbuf_json(b, k->accel);
		rbuf_add(b, ", \"error\": ");
		rbuf_json(b, k->error);
		rbuf_add(b, "}}");
		rbuf_add(b, c + 1 < m->ncols ? ",\n" : "\n");
	}
	rbuf_add(b, "  ],\n  \"tests\": [\n");
	bool first = true;
	for (size_t c = 0; c < m->ncols; c++) {
		const struct column *k = m->cols[c];
		/* the run itself: did the kernel boot and finish the suite? */
		rbuf_add(b, first ? "    {" : ",\n    {");
		first = false;
		struct rbuf id = {0};
		rbuf_addf(&id, "%s:run", k->label);
		obj_id(b, "id", id.s);
		rbuf_free(&id);
		rbuf_add(b, ", ");
		obj_id(b, "build_id", k->label);
		rbuf_addf(b, ", \"origin\": \"ttypot\", \"path\": \"ttypot\", \"status\": \"%s\", "
			  "\"duration\": ",
			  k->end == END_DONE ? "PASS" : k->end == END_PANIC ? "FAIL"
			  : k->end == END_ERROR ? "MISS" : "ERROR");
		rbuf_json_num(b, k->boot_s + k->suite_s);
		rbuf_add(b, ", \"environment\": {\"comment\": ");
		rbuf_json(b, k->accel[0] ? k->accel : "?");
		rbuf_add(b, "}, \"comment\": ");
		rbuf_json(b, end_name(k->end));
		if (column_failed(k) && (k->console_tail[0] || k->error[0])) {
			rbuf_add(b, ", \"log_excerpt\": ");
			excerpt(b, k->console_tail[0] ? k->console_tail : k->error);
		}
		rbuf_add(b, "}");
		for (size_t r = 0; r < m->rows.n; r++) {
			const struct case_result *x = matrix_cell(m, r, c);
			if (!x)
				continue;
			struct rbuf tid = {0};
			rbuf_addf(&tid, "%s:%s", k->label, x->id);
			rbuf_add(b, ",\n    {");
			obj_id(b, "id", tid.s);
			rbuf_free(&tid);
			rbuf_add(b, ", ");
			obj_id(b, "build_id", k->label);
			rbuf_add(b, ", \"origin\": \"ttypot\", \"path\": ");
			test_path(x->id, b);
			rbuf_addf(b, ", \"status\": \"%s\", \"duration\": ", kstatus(x->st));
			rbuf_json_num(b, x->secs);
			if (x->reason[0]) {
				rbuf_add(b, ", \"comment\": ");
				rbuf_json(b, x->reason);
			}
			rbuf_add(b, ", \"misc\": {\"ttypot_status\": ");
			rbuf_json(b, status_name(x->st));
			rbuf_add(b, ", \"case\": ");
			rbuf_json(b, x->id);
			if (x->expect[0]) {
				rbuf_add(b, ", \"expect\": ");
				rbuf_json(b, x->expect);
			}
			const char *mk = mark_name(matrix_mark(m, r, c));
			if (*mk)
				rbuf_addf(b, ", \"mark\": \"%s\"", mk);
			rbuf_add(b, "}}");
		}
	}
	rbuf_add(b, "\n  ]\n}\n");
}
