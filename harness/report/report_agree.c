// SPDX-License-Identifier: GPL-2.0-only
/* report_agree.c: the agreement table of `ttypot mutants` (report_agree.h). */
#include "report_agree.h"
#include "report.h"

#include <stdio.h>
#include <string.h>

/* How the table names a group. */
static const char *const group_title[AGREE__N] = {
	"ttypot's cases", "real programs (apps)", "CPython's tests (peers)",
};

/* How the Holes list names the group that noticed a hole. */
static const char *const group_noun[AGREE__N] = {
	"ttypot's cases", "the real programs", "CPython's tests",
};

/* Rows a cell names before "and N more". */
#define AGREE_NAMED 2

const char *agree_group_name(enum agree_group g)
{
	static const char *const names[AGREE__N] = { "ttypot", "apps", "peers" };
	return (unsigned)g < AGREE__N ? names[g] : "?";
}

enum agree_group agree_group_of(const char *id)
{
	char area[64];
	case_area(id, area, sizeof area);
	if (!strcmp(area, "apps"))
		return AGREE_APPS;
	if (!strcmp(area, "peers"))
		return AGREE_PEERS;
	return AGREE_TTYPOT;
}

void agree_baseline(const struct column *base, struct agree_base *b)
{
	memset(b, 0, sizeof *b);
	size_t per[AGREE__N][ST__N] = {{0}};
	const char *skip_reason[AGREE__N] = { NULL };
	for (size_t i = 0; base && i < base->ncases; i++) {
		const struct case_result *r = &base->cases[i];
		enum agree_group g = agree_group_of(r->id);
		b->rows[g]++;
		per[g][r->st]++;
		if (r->st == ST_SKIP && !skip_reason[g] && r->reason && r->reason[0])
			skip_reason[g] = r->reason;
	}
	for (int g = 0; g < AGREE__N; g++) {
		b->pass[g] = per[g][ST_PASS];
		b->skip[g] = per[g][ST_SKIP];
		if (b->pass[g])
			continue;
		const char *name = agree_group_name(g);
		if (!b->rows[g]) {
			snprintf(b->reason[g], sizeof b->reason[g], "the baseline ran no %s row",
				 name);
			continue;
		}
		/* What the rows did instead: "3 skip, 1 fail". */
		char counts[200] = "";
		size_t used = 0, kinds = 0;
		for (int s = 0; s < ST__N; s++) {
			if (!per[g][s])
				continue;
			kinds++;
			int w = snprintf(counts + used, sizeof counts - used, "%s%zu %s",
					 used ? ", " : "", per[g][s], status_name(s));
			if (w > 0 && (size_t)w < sizeof counts - used)
				used += (size_t)w;
		}
		if (skip_reason[g])
			snprintf(b->reason[g], sizeof b->reason[g],
				 "no %s row passes on the baseline: %s%s%s%s", name,
				 skip_reason[g], kinds > 1 ? " (" : "", kinds > 1 ? counts : "",
				 kinds > 1 ? ")" : "");
		else
			snprintf(b->reason[g], sizeof b->reason[g],
				 "no %s row passes on the baseline (%s)", name, counts);
	}
}

static bool evaluated(const struct agree_mutant *m)
{
	return m->status && (!strcmp(m->status, "killed") || !strcmp(m->status, "survived"));
}

void agree_judge(const struct agree_base *b, const struct agree_mutant *m,
		 bool stop_on_kill, struct agree_verdict *v)
{
	memset(v, 0, sizeof *v);
	for (size_t k = 0; m->killers && k < m->killers->n; k++)
		v->count[agree_group_of(m->killers->v[k])]++;
	size_t all = v->count[AGREE_TTYPOT] + v->count[AGREE_APPS] + v->count[AGREE_PEERS];
	for (int g = 0; g < AGREE__N; g++) {
		if (!evaluated(m))
			v->st[g] = AGREE_NOT_EVALUATED;
		else if (!b->pass[g])
			v->st[g] = AGREE_NOT_RUN;
		else if (v->count[g])
			v->st[g] = AGREE_YES;
		/* A run stopped at its first kill never ran the rest. */
		else if (stop_on_kill && all)
			v->st[g] = AGREE_UNSEEN;
		else
			v->st[g] = AGREE_NO;
	}
	v->hole = v->st[AGREE_TTYPOT] == AGREE_NO &&
		  (v->st[AGREE_APPS] == AGREE_YES || v->st[AGREE_PEERS] == AGREE_YES);
}

/* The first AGREE_NAMED killers of group g: "a, b and 3 more". */
static void name_rows(struct rbuf *md, const struct agree_mutant *m, enum agree_group g,
		      size_t count)
{
	size_t named = 0;
	for (size_t k = 0; k < m->killers->n && named < AGREE_NAMED; k++) {
		if (agree_group_of(m->killers->v[k]) != g)
			continue;
		rbuf_add(md, named ? ", " : "");
		rbuf_md(md, m->killers->v[k]);
		named++;
	}
	if (count > named)
		rbuf_addf(md, " and %zu more", count - named);
}

static void cell(struct rbuf *md, const struct agree_base *b, const struct agree_mutant *m,
		 const struct agree_verdict *v, enum agree_group g)
{
	switch (v->st[g]) {
	case AGREE_YES:
		rbuf_addf(md, "yes, %zu row%s: ", v->count[g], v->count[g] == 1 ? "" : "s");
		name_rows(md, m, g, v->count[g]);
		break;
	case AGREE_NO:
		rbuf_add(md, g == AGREE_TTYPOT && v->hole ? "**no: hole**" : "no");
		break;
	case AGREE_NOT_RUN:
		rbuf_add(md, "not run: ");
		rbuf_md(md, b->reason[g]);
		break;
	case AGREE_NOT_EVALUATED:
		rbuf_add(md, "-");
		break;
	case AGREE_UNSEEN:
		rbuf_add(md, "not seen (the run stopped at its first kill)");
		break;
	}
}

size_t report_agree_md(const struct column *base, const struct agree_mutant *mv,
		       size_t n, bool stop_on_kill, struct rbuf *md,
		       struct idlist *holes)
{
	struct agree_base b;
	agree_baseline(base, &b);
	size_t nholes = 0, noticed[AGREE__N] = {0}, nevaluated = 0;
	struct rbuf rows = {0};
	for (size_t i = 0; i < n; i++) {
		struct agree_verdict v;
		agree_judge(&b, &mv[i], stop_on_kill, &v);
		nevaluated += v.st[AGREE_TTYPOT] != AGREE_NOT_EVALUATED;
		for (int g = 0; g < AGREE__N; g++)
			noticed[g] += v.st[g] == AGREE_YES;
		if (v.hole) {
			nholes++;
			if (holes)
				idlist_add(holes, mv[i].name);
		}
		rbuf_add(&rows, "| ");
		rbuf_md(&rows, mv[i].name);
		rbuf_addf(&rows, " | %s", mv[i].status ? mv[i].status : "not-run");
		for (int g = 0; g < AGREE__N; g++) {
			rbuf_add(&rows, " | ");
			cell(&rows, &b, &mv[i], &v, g);
		}
		rbuf_add(&rows, " |\n");
	}
	if (!md) {
		rbuf_free(&rows);
		return nholes;
	}
	rbuf_add(md, "## Agreement: ttypot's cases, real programs and CPython's tests\n\n"
		 "Whether ttypot's own cases (every area but apps and peers), the real programs "
		 "(apps rows) and CPython's own pty/tty tests (peers rows) noticed each mutant: a "
		 "row of the group passes on the baseline and fails on the mutant.  A group with "
		 "no row passing on the baseline is not run.  A mutant the real programs or "
		 "CPython's tests notice and no ttypot case does is a hole in ttypot.\n\n");
	rbuf_add(md, "Baseline rows passing:");
	for (int g = 0; g < AGREE__N; g++)
		rbuf_addf(md, "%s %s %zu of %zu", g ? "," : "", agree_group_name(g), b.pass[g],
			  b.rows[g]);
	rbuf_addf(md, ".  Noticed, of %zu evaluated mutant%s:", nevaluated,
		  nevaluated == 1 ? "" : "s");
	for (int g = 0; g < AGREE__N; g++) {
		rbuf_addf(md, "%s %s ", g ? "," : "", agree_group_name(g));
		if (b.pass[g])
			rbuf_addf(md, "%zu", noticed[g]);
		else
			rbuf_add(md, "not run");
	}
	rbuf_add(md, ".\n\n");
	if (stop_on_kill)
		rbuf_add(md, "The runs stopped at their first kill (--stop-on-kill): a group "
			 "that had not noticed a killed mutant by then is \"not seen\", and no "
			 "such mutant is called a hole.\n\n");
	rbuf_add(md, "| mutant | status");
	for (int g = 0; g < AGREE__N; g++)
		rbuf_addf(md, " | %s", group_title[g]);
	rbuf_add(md, " |\n|---|---|---|---|---|\n");
	rbuf_add(md, rbuf_str(&rows));
	rbuf_free(&rows);
	rbuf_add(md, "\n### Holes in ttypot\n\n");
	if (!nholes)
		rbuf_add(md, "None.\n");
	for (size_t i = 0; i < n; i++) {
		struct agree_verdict v;
		agree_judge(&b, &mv[i], stop_on_kill, &v);
		if (!v.hole)
			continue;
		rbuf_add(md, "- **");
		rbuf_md(md, mv[i].name);
		rbuf_add(md, "**: noticed by");
		const char *sep = " ";
		for (int g = AGREE_APPS; g < AGREE__N; g++) {
			if (v.st[g] != AGREE_YES)
				continue;
			rbuf_addf(md, "%s%s (", sep, group_noun[g]);
			for (size_t k = 0, w = 0; k < mv[i].killers->n; k++)
				if (agree_group_of(mv[i].killers->v[k]) == (enum agree_group)g) {
					rbuf_add(md, w++ ? ", " : "");
					rbuf_md(md, mv[i].killers->v[k]);
				}
			rbuf_add(md, ")");
			sep = " and ";
		}
		rbuf_add(md, ", by no ttypot case: add one for the rule it breaks.\n");
	}
	return nholes;
}

static const char *state_name(enum agree_state s)
{
	switch (s) {
	case AGREE_YES: return "yes";
	case AGREE_NO: return "no";
	case AGREE_NOT_RUN: return "not-run";
	case AGREE_NOT_EVALUATED: return "not-evaluated";
	case AGREE_UNSEEN: return "not-seen";
	}
	return "?";
}

json_t *report_agree_json_mutant(const struct agree_base *b, const struct agree_mutant *m,
				 bool stop_on_kill)
{
	struct agree_verdict v;
	agree_judge(b, m, stop_on_kill, &v);
	json_t *o = json_object();
	for (int g = 0; g < AGREE__N; g++) {
		json_t *rows = json_array();
		for (size_t k = 0; m->killers && k < m->killers->n; k++)
			if (agree_group_of(m->killers->v[k]) == (enum agree_group)g)
				json_array_append_new(rows, report_jstr(m->killers->v[k]));
		json_t *go = json_pack("{s:s, s:I, s:o}", "noticed", state_name(v.st[g]),
				       "count", (json_int_t)v.count[g], "rows", rows);
		if (v.st[g] == AGREE_NOT_RUN)
			json_object_set_new(go, "reason", report_jstr(b->reason[g]));
		json_object_set_new(o, agree_group_name(g), go);
	}
	json_object_set_new(o, "hole", json_boolean(v.hole));
	return o;
}

json_t *report_agree_json_run(const struct column *base, const struct agree_mutant *mv,
			      size_t n, bool stop_on_kill)
{
	struct agree_base b;
	agree_baseline(base, &b);
	json_t *groups = json_object();
	for (int g = 0; g < AGREE__N; g++)
		json_object_set_new(groups, agree_group_name(g),
				    json_pack("{s:I, s:I, s:I, s:o}",
					      "rows", (json_int_t)b.rows[g],
					      "pass", (json_int_t)b.pass[g],
					      "skip", (json_int_t)b.skip[g],
					      "reason", b.pass[g] ? json_null()
								  : report_jstr(b.reason[g])));
	struct idlist holes = {0};
	report_agree_md(base, mv, n, stop_on_kill, NULL, &holes);
	json_t *hl = json_array();
	for (size_t i = 0; i < holes.n; i++)
		json_array_append_new(hl, report_jstr(holes.v[i]));
	idlist_free(&holes);
	return json_pack("{s:o, s:b, s:o}", "baseline", groups, "stop_on_kill", stop_on_kill,
			 "holes", hl);
}
