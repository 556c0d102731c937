// SPDX-License-Identifier: GPL-2.0-only
/* t_agree: the agreement table of `ttypot mutants` (report_agree.h): which
 * of ttypot's cases, the real programs (apps rows) and CPython's tests
 * (peers rows) noticed each mutant, the holes in ttypot, and a group that
 * could not notice anything reported as not run with its reason. */
#include <atf-c.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rbuf.h"
#include "report_agree.h"
#include "run_one_kernel.h"

#define PEERS_SKIP "CPython skips peers/t_test_pty:test_fork: the guest had no Debian root"

/* The baseline: ttypot's rows and the real programs pass, CPython's tests
 * skip (as on a guest without the Debian root). */
static struct column *baseline(void)
{
	struct column *b = col_new("baseline");
	col_put(b, "close/t_close_race:data_before_eio", ST_PASS, 1, "");
	col_put(b, "pty/t_overread:read_stops_at_eof", ST_PASS, 1, "");
	col_put(b, "canon/t_line_edit:erase", ST_PASS, 1, "");
	col_put(b, "apps/t_emacs:compile_lines", ST_PASS, 5, "");
	col_put(b, "apps/t_script:typescript", ST_PASS, 2, "");
	col_put(b, "apps/t_tmux:attach", ST_PASS, 3, "");
	col_put(b, "peers/t_test_pty:test_fork", ST_SKIP, 0, PEERS_SKIP);
	col_put(b, "peers/t_test_ioctl:test_ioctl", ST_SKIP, 0, PEERS_SKIP);
	return b;
}

/* A mutant's column: the baseline with these rows bad. */
static struct column *mutant_col(const struct column *base, const char *const *bad)
{
	struct column *c = col_new("mutant");
	for (size_t i = 0; i < base->ncases; i++)
		col_put(c, base->cases[i].id, base->cases[i].st, 1, base->cases[i].reason);
	for (; *bad; bad++)
		col_put(c, *bad, ST_FAIL, 1, "mutant");
	return c;
}

/* Killers as `ttypot mutants` takes them: kr_kills over the mutant's column. */
static void killers_of(const struct column *base, const char *const *bad, struct idlist *k)
{
	struct column *c = mutant_col(base, bad);
	for (size_t i = 0; i < c->ncases; i++)
		if (kr_kills(base, c, c->cases[i].id))
			idlist_add(k, c->cases[i].id);
	col_free(c);
}

struct fixture {
	struct column *base;
	struct idlist k[4];
	struct agree_mutant mv[4];
};

/* 01 noticed by ttypot and apps (its peers rows fail too, but they skip on
 * the baseline), 02 by apps only (a hole), 03 by nobody, 04 never built. */
static void fixture(struct fixture *f)
{
	memset(f, 0, sizeof *f);
	f->base = baseline();
	static const char *const bad1[] = {
		"close/t_close_race:data_before_eio", "apps/t_emacs:compile_lines",
		"pty/t_overread:read_stops_at_eof", "canon/t_line_edit:erase",
		"peers/t_test_pty:test_fork", NULL,
	};
	static const char *const bad2[] = { "apps/t_script:typescript", "apps/t_tmux:attach", NULL };
	static const char *const none[] = { NULL };
	killers_of(f->base, bad1, &f->k[0]);
	killers_of(f->base, bad2, &f->k[1]);
	killers_of(f->base, none, &f->k[2]);
	f->mv[0] = (struct agree_mutant){ "01-close-race", "killed", &f->k[0] };
	f->mv[1] = (struct agree_mutant){ "02-apps-only", "killed", &f->k[1] };
	f->mv[2] = (struct agree_mutant){ "03-nobody", "survived", &f->k[2] };
	f->mv[3] = (struct agree_mutant){ "04-no-build", "build-failed", &f->k[3] };
}

static void fixture_free(struct fixture *f)
{
	for (int i = 0; i < 4; i++)
		idlist_free(&f->k[i]);
	col_free(f->base);
}

/* md holds line as a whole line, else fail naming it (ATF's reason is one
 * line: the Markdown goes to stderr). */
static void want_line(const char *md, const char *line)
{
	char *l;
	if (asprintf(&l, "\n%s\n", line) < 0)
		atf_tc_fail("asprintf");
	bool found = strstr(md, l) != NULL;
	free(l);
	if (!found) {
		fprintf(stderr, "the Markdown:\n%s", md);
		atf_tc_fail("no line \"%s\" in the Markdown (on stderr)", line);
	}
}

#define PEERS_NOT_RUN "not run: no peers row passes on the baseline: CPython skips " \
	"peers/t\\_test\\_pty:test\\_fork: the guest had no Debian root"

ATF_TC_WITHOUT_HEAD(table_cells);
ATF_TC_BODY(table_cells, tc)
{
	(void)tc;
	struct fixture f;
	fixture(&f);
	ATF_REQUIRE_EQ(f.k[0].n, 4); /* the skipped peers row is no kill */
	struct rbuf md = {0};
	struct idlist holes = {0};
	size_t nh = report_agree_md(f.base, f.mv, 4, false, &md, &holes);
	const char *s = rbuf_str(&md);
	printf("%s", s);
	want_line(s, "| mutant | status | ttypot's cases | real programs (apps) | "
		     "CPython's tests (peers) |");
	want_line(s, "| 01-close-race | killed | yes, 3 rows: close/t\\_close\\_race:data\\_before"
		     "\\_eio, pty/t\\_overread:read\\_stops\\_at\\_eof and 1 more | yes, 1 row: "
		     "apps/t\\_emacs:compile\\_lines | " PEERS_NOT_RUN " |");
	want_line(s, "| 02-apps-only | killed | **no: hole** | yes, 2 rows: apps/t\\_script:"
		     "typescript, apps/t\\_tmux:attach | " PEERS_NOT_RUN " |");
	want_line(s, "| 03-nobody | survived | no | no | " PEERS_NOT_RUN " |");
	want_line(s, "| 04-no-build | build-failed | - | - | - |");
	want_line(s, "Baseline rows passing: ttypot 3 of 3, apps 3 of 3, peers 0 of 2.  "
		     "Noticed, of 3 evaluated mutants: ttypot 1, apps 2, peers not run.");
	want_line(s, "### Holes in ttypot");
	want_line(s, "- **02-apps-only**: noticed by the real programs (apps/t\\_script:"
		     "typescript, apps/t\\_tmux:attach), by no ttypot case: add one for the rule "
		     "it breaks.");
	ATF_CHECK_EQ(nh, 1);
	ATF_REQUIRE_EQ(holes.n, 1);
	ATF_CHECK_STREQ(holes.v[0], "02-apps-only");
	/* one hole line, no other mutant named under Holes */
	const char *h = strstr(s, "### Holes");
	ATF_REQUIRE(h);
	ATF_CHECK(!strstr(h, "01-close-race") && !strstr(h, "03-nobody"));
	idlist_free(&holes);
	rbuf_free(&md);
	fixture_free(&f);
}

ATF_TC_WITHOUT_HEAD(not_run_reasons);
ATF_TC_BODY(not_run_reasons, tc)
{
	(void)tc;
	struct fixture f;
	fixture(&f);
	struct agree_base b;
	agree_baseline(f.base, &b);
	ATF_CHECK_EQ(b.rows[AGREE_TTYPOT], 3);
	ATF_CHECK_EQ(b.pass[AGREE_APPS], 3);
	ATF_CHECK_EQ(b.skip[AGREE_PEERS], 2);
	ATF_CHECK_STREQ(b.reason[AGREE_TTYPOT], "");
	ATF_CHECK_STREQ(b.reason[AGREE_APPS], "");
	ATF_CHECK_STREQ(b.reason[AGREE_PEERS], "no peers row passes on the baseline: " PEERS_SKIP);
	/* A group that is not run is never a "no": the survivor's peers cell. */
	struct agree_verdict v;
	agree_judge(&b, &f.mv[2], false, &v);
	ATF_CHECK_EQ(v.st[AGREE_PEERS], AGREE_NOT_RUN);
	ATF_CHECK_EQ(v.st[AGREE_APPS], AGREE_NO);

	/* Rows that fail or are absent on the baseline say so. */
	struct column *c = col_new("baseline");
	col_put(c, "pty/t_x:a", ST_PASS, 1, "");
	col_put(c, "apps/t_ssh:login", ST_FAIL, 1, "sshd did not start");
	col_put(c, "apps/t_expect:spawn", ST_BROKEN, 1, "timed out");
	agree_baseline(c, &b);
	ATF_CHECK_STREQ(b.reason[AGREE_APPS],
			"no apps row passes on the baseline (1 fail, 1 broken)");
	ATF_CHECK_STREQ(b.reason[AGREE_PEERS], "the baseline ran no peers row");
	/* skipped and failed rows: the skip reason, then the counts */
	col_put(c, "apps/t_tmux:attach", ST_SKIP, 0, "tmux is not installed here");
	agree_baseline(c, &b);
	ATF_CHECK_STREQ(b.reason[AGREE_APPS], "no apps row passes on the baseline: tmux is not "
			"installed here (1 fail, 1 skip, 1 broken)");
	col_free(c);
	fixture_free(&f);
}

ATF_TC_WITHOUT_HEAD(stop_on_kill_unseen);
ATF_TC_BODY(stop_on_kill_unseen, tc)
{
	(void)tc;
	struct fixture f;
	fixture(&f);
	struct rbuf md = {0};
	struct idlist holes = {0};
	/* Runs stopped at their first kill: 02's ttypot rows may never have
	 * run, so it is no hole; 03 survived a whole run: its "no" stands. */
	size_t nh = report_agree_md(f.base, f.mv, 4, true, &md, &holes);
	const char *s = rbuf_str(&md);
	want_line(s, "| 02-apps-only | killed | not seen (the run stopped at its first kill) | "
		     "yes, 2 rows: apps/t\\_script:typescript, apps/t\\_tmux:attach | "
		     PEERS_NOT_RUN " |");
	want_line(s, "| 03-nobody | survived | no | no | " PEERS_NOT_RUN " |");
	want_line(s, "None.");
	ATF_CHECK_EQ(nh, 0);
	ATF_CHECK_EQ(holes.n, 0);
	idlist_free(&holes);
	rbuf_free(&md);
	fixture_free(&f);
}

ATF_TC_WITHOUT_HEAD(json_objects);
ATF_TC_BODY(json_objects, tc)
{
	(void)tc;
	struct fixture f;
	fixture(&f);
	json_t *run = report_agree_json_run(f.base, f.mv, 4, false);
	char *text = json_dumps(run, JSON_SORT_KEYS | JSON_COMPACT);
	printf("%s\n", text);
	ATF_CHECK_STREQ(text,
		"{\"baseline\":{\"apps\":{\"pass\":3,\"reason\":null,\"rows\":3,\"skip\":0},"
		"\"peers\":{\"pass\":0,\"reason\":\"no peers row passes on the baseline: "
		PEERS_SKIP "\",\"rows\":2,\"skip\":2},"
		"\"ttypot\":{\"pass\":3,\"reason\":null,\"rows\":3,\"skip\":0}},"
		"\"holes\":[\"02-apps-only\"],\"stop_on_kill\":false}");
	free(text);
	json_decref(run);

	struct agree_base b;
	agree_baseline(f.base, &b);
	json_t *m = report_agree_json_mutant(&b, &f.mv[1], false);
	text = json_dumps(m, JSON_SORT_KEYS | JSON_COMPACT);
	printf("%s\n", text);
	ATF_CHECK_STREQ(text,
		"{\"apps\":{\"count\":2,\"noticed\":\"yes\",\"rows\":[\"apps/t_script:typescript\","
		"\"apps/t_tmux:attach\"]},\"hole\":true,"
		"\"peers\":{\"count\":0,\"noticed\":\"not-run\",\"reason\":\"no peers row passes on "
		"the baseline: " PEERS_SKIP "\",\"rows\":[]},"
		"\"ttypot\":{\"count\":0,\"noticed\":\"no\",\"rows\":[]}}");
	free(text);
	json_decref(m);

	m = report_agree_json_mutant(&b, &f.mv[3], false);
	ATF_CHECK_STREQ(json_string_value(json_object_get(json_object_get(m, "ttypot"),
							  "noticed")), "not-evaluated");
	ATF_CHECK(json_is_false(json_object_get(m, "hole")));
	json_decref(m);
	fixture_free(&f);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, table_cells);
	ATF_TP_ADD_TC(tp, not_run_reasons);
	ATF_TP_ADD_TC(tp, stop_on_kill_unseen);
	ATF_TP_ADD_TC(tp, json_objects);
	return atf_no_error();
}
