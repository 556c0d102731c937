// SPDX-License-Identifier: GPL-2.0-only
/* mutants.c: `ttypot mutants`: kernel mutation testing (mutants.h). */
#include "mutants.h"
#include "mutants_gen.h"
#include "cli.h"
#include "report.h"
#include "report_agree.h"
#include "run_one_kernel.h"
#include "kutil.h"
#include "proc.h"
#include "rbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MUT_SOURCE "linux-source-6.12"
#define MUT_PATCH_DEADLINE_MS (120 * 1000)
#define MUT_COPY_DEADLINE_MS (30 * 60 * 1000)

int mutant_parse_header(const char *text, const char *fallback, struct mutant_header *h)
{
	memset(h, 0, sizeof *h);
	snprintf(h->name, sizeof h->name, "%s", fallback);
	bool diff = false;
	for (const char *l = text; l && *l;) {
		size_t n = strcspn(l, "\n");
		if (!strncmp(l, "diff ", 5) || !strncmp(l, "--- ", 4)) {
			diff = true;
			break;
		}
		struct { const char *key; char *dst; size_t len; } f[] = {
			{ "ttypot mutant ", h->name, sizeof h->name },
			{ "Bug:", h->bug, sizeof h->bug },
			{ "Commits:", h->commits, sizeof h->commits },
			{ "Killed by (expected):", h->expected, sizeof h->expected },
		};
		for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
			size_t kl = strlen(f[i].key);
			if (n >= kl && !strncmp(l, f[i].key, kl)) {
				const char *v = l + kl;
				size_t vl = n - kl;
				while (vl && (*v == ' ' || *v == '\t'))
					v++, vl--;
				while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\r'))
					vl--;
				snprintf(f[i].dst, f[i].len, "%.*s", (int)vl, v);
			}
		}
		l += n + (l[n] == '\n');
	}
	h->race = strstr(h->name, "race") != NULL;
	return diff ? 0 : -1;
}

void mutant_expected_programs(const char *expected, char *out, size_t outlen)
{
	char buf[512];
	size_t used = 0;
	out[0] = '\0';
	snprintf(buf, sizeof buf, "%s", expected);
	for (char *t = strtok(buf, ", "); t; t = strtok(NULL, ", ")) {
		t[strcspn(t, ":*")] = '\0';
		size_t tl = strlen(t);
		if (!tl || t[tl - 1] == '/')
			continue;
		/* once each */
		bool dup = false;
		for (const char *p = out; (p = strstr(p, t)); p += tl)
			if ((p == out || p[-1] == ' ') && (p[tl] == ' ' || !p[tl]))
				dup = true;
		if (dup)
			continue;
		int w = snprintf(out + used, outlen - used, "%s%s", used ? " " : "", t);
		if (w < 0 || (size_t)w >= outlen - used) {
			out[used] = '\0';
			break;
		}
		used += (size_t)w;
	}
}

bool mutant_expected_match(const char *expected, const char *id)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", expected);
	for (char *t = strtok(buf, ", "); t; t = strtok(NULL, ", "))
		if (fnmatch(t, id, 0) == 0)
			return true;
	return false;
}

struct mutant {
	char path[PATH_MAX];
	struct mutant_header h;
	const char *status; /* killed survived apply-failed build-failed boot-failed not-run */
	char err[600];
	double build_s, boot_s, suite_s, first_kill_s;
	struct idlist killers;
	bool expected_hit;
	int runs, killed_runs;
	int race_runs, race_killed;
	double race_first_min, race_first_max, race_first_sum;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_tool(const char *const argv[], int deadline_ms, char *err, size_t errlen)
{
	struct proc_opts o = { .deadline_ms = deadline_ms };
	return proc_check(argv, &o, err, errlen);
}

/* patch -p1 [-R] [--dry-run] in tree.  GNU patch writes a new file and
 * renames it over the old one, but we work on a real copy anyway. */
static int do_patch(const char *tree, const char *patch, bool reverse, bool dry,
		    char *err, size_t errlen)
{
	const char *argv[12];
	int n = 0;
	argv[n++] = "patch";
	argv[n++] = "-p1";
	argv[n++] = "-s";
	argv[n++] = "-f";
	argv[n++] = "--no-backup-if-mismatch";
	argv[n++] = reverse ? "-R" : "-N";
	if (dry)
		argv[n++] = "--dry-run";
	argv[n++] = "-d";
	argv[n++] = tree;
	argv[n++] = "-i";
	argv[n++] = patch;
	argv[n] = NULL;
	return run_tool(argv, MUT_PATCH_DEADLINE_MS, err, errlen);
}

/* The mutant tree: a real copy of the pristine unpacked source. */
static int mutant_tree(const struct kr_env *e, const char *mroot, char *tree,
		       size_t treelen, char *err, size_t errlen)
{
	char pristine[PATH_MAX + 64], pmark[PATH_MAX + 100], mmark[PATH_MAX + 100];
	snprintf(pristine, sizeof pristine, "%s/src/%s", e->cache, MUT_SOURCE);
	snprintf(pmark, sizeof pmark, "%s/.ttypot-unpacked", pristine);
	if (!ku_is_file(pmark)) {
		ku_progress("mutants: unpacking src:%s first", MUT_SOURCE);
		struct kernel_info ki;
		char spec[64];
		snprintf(spec, sizeof spec, "src:%s", MUT_SOURCE);
		if (kr_resolve(e, spec, &ki, NULL, err, errlen) < 0)
			return -1;
	}
	char *want = ku_read_file(pmark, NULL);
	if (!want) {
		snprintf(err, errlen, "%s: cannot read", pmark);
		return -1;
	}
	ku_fmt(tree, treelen, "%s/src/%s", mroot, MUT_SOURCE);
	snprintf(mmark, sizeof mmark, "%s/.ttypot-mutant-base", tree);
	char *have = ku_read_file(mmark, NULL);
	bool fresh = have && !strcmp(have, want);
	free(have);
	if (!fresh) {
		char tmp[PATH_MAX + 8], parent[PATH_MAX + 8];
		snprintf(parent, sizeof parent, "%s/src", mroot);
		snprintf(tmp, sizeof tmp, "%s.tmp", tree);
		ku_rm_rf(tmp);
		ku_rm_rf(tree);
		if (ku_mkdir_p(parent, 0755) < 0) {
			snprintf(err, errlen, "cannot create %s: %s", parent, strerror(errno));
			free(want);
			return -1;
		}
		ku_progress("mutants: copying %s to %s", pristine, tree);
		const char *argv[] = { "cp", "-a", pristine, tmp, NULL };
		if (run_tool(argv, MUT_COPY_DEADLINE_MS, err, errlen) < 0 ||
		    rename(tmp, tree) < 0) {
			ku_rm_rf(tmp);
			free(want);
			return -1;
		}
	}
	/* (also marks a copy made by hand) */
	ku_write_file(mmark, want, strlen(want));
	free(want);
	return 0;
}

/* Seconds, or null when not measured (v < 0). */
static json_t *secs_or_null(double v)
{
	return v < 0 ? json_null() : report_jnum(v);
}

/* The mutants as the agreement table reads them (report_agree.h); free()
 * the array. */
static struct agree_mutant *agree_inputs(const struct mutant *mv, size_t n)
{
	struct agree_mutant *am = calloc(n ? n : 1, sizeof *am);
	if (!am)
		abort();
	for (size_t i = 0; i < n; i++)
		am[i] = (struct agree_mutant){ mv[i].h.name, mv[i].status, &mv[i].killers };
	return am;
}

/* mutants.json, schema ttypot-mutants/1. */
static void mutants_json(const struct kr_result *base, double base_build_s,
			 struct mutant *mv, size_t n, int runs, int race_runs,
			 double wall_s, long killed, long evaluated, bool stop_on_kill,
			 const char *vars, struct rbuf *js)
{
	json_t *list = json_array();
	struct agree_mutant *am = agree_inputs(mv, n);
	struct agree_base ab;
	agree_baseline(base->col, &ab);
	for (size_t i = 0; i < n; i++) {
		struct mutant *m = &mv[i];
		json_t *killers = json_array();
		for (size_t k = 0; k < m->killers.n; k++)
			json_array_append_new(killers, report_jstr(m->killers.v[k]));
		json_t *o = json_pack("{s:o, s:s, s:o, s:o, s:o, s:b, s:o, s:o, s:o, s:o, s:o,"
				      " s:i, s:i, s:o}",
				      "name", report_jstr(m->h.name),
				      "status", m->status ? m->status : "not-run",
				      "bug", report_jstr(m->h.bug), "commits", report_jstr(m->h.commits),
				      "expected", report_jstr(m->h.expected),
				      "expected_hit", m->expected_hit, "error", report_jstr(m->err),
				      "build_s", report_jnum(m->build_s),
				      "boot_s", report_jnum(m->boot_s),
				      "suite_s", report_jnum(m->suite_s),
				      "first_kill_s", secs_or_null(m->first_kill_s),
				      "runs", m->runs, "killed_runs", m->killed_runs,
				      "killers", killers);
		if (m->race_runs)
			json_object_set_new(o, "race", json_pack("{s:i, s:i, s:o, s:o, s:o, s:o}",
				"runs", m->race_runs, "killed", m->race_killed,
				"rate", report_jnum((double)m->race_killed / m->race_runs),
				"first_kill_min_s", secs_or_null(m->race_killed ? m->race_first_min : -1),
				"first_kill_mean_s", secs_or_null(m->race_killed ?
							m->race_first_sum / m->race_killed : -1),
				"first_kill_max_s", secs_or_null(m->race_killed ? m->race_first_max : -1)));
		json_object_set_new(o, "agreement", report_agree_json_mutant(&ab, &am[i], stop_on_kill));
		json_array_append_new(list, o);
	}
	json_t *doc = json_pack("{s:s, s:s, s:{s:I, s:I, s:I}, s:i, s:i, s:o,"
			        " s:{s:s, s:o, s:o, s:o, s:I}, s:o}",
			        "schema", "ttypot-mutants/1", "source", MUT_SOURCE,
			        "score", "killed", (json_int_t)killed, "total", (json_int_t)n,
			        "evaluated", (json_int_t)evaluated,
			        "runs_per_mutant", runs, "race_runs", race_runs,
			        "wall_s", report_jnum(wall_s),
			        "baseline", "end", end_name(base->col->end),
			        "build_s", report_jnum(base_build_s),
			        "boot_s", report_jnum(base->boot_s),
			        "suite_s", report_jnum(base->suite_s),
			        "cases", (json_int_t)base->col->ncases,
			        "mutants", list);
	json_object_set_new(doc, "agreement",
			    report_agree_json_run(base->col, am, n, stop_on_kill));
	/* --vars as given: the cases ran with these Kyua variables */
	json_object_set_new(doc, "kyua_vars", vars ? report_jstr(vars) : json_null());
	free(am);
	report_jdump(doc, js);
}

static void write_reports(const char *outdir, const struct kr_result *base,
			  double base_build_s, struct mutant *mv, size_t n, int runs,
			  int race_runs, bool stop_on_kill, double wall_s, const char *vars)
{
	long killed = 0, evaluated = 0;
	for (size_t i = 0; i < n; i++) {
		killed += mv[i].status && !strcmp(mv[i].status, "killed");
		evaluated += mv[i].status && strcmp(mv[i].status, "not-run");
	}
	struct rbuf md = {0}, js = {0};
	rbuf_add(&md, "# ttypot kernel mutants\n\n");
	rbuf_addf(&md, "Mutation score: **%ld/%zu** killed", killed, n);
	if ((size_t)evaluated < n)
		rbuf_addf(&md, " (%ld evaluated so far)", evaluated);
	rbuf_addf(&md, ".  Source: %s (tinyconfig + fixtures/kernel/ttypot.config), "
		  "%d suite run%s per mutant, wall time %.0f s", MUT_SOURCE, runs,
		  runs == 1 ? "" : "s", wall_s);
	if (vars)
		rbuf_addf(&md, ", every run with the Kyua variables `%s`", vars);
	rbuf_add(&md, ".\n\n");
	rbuf_addf(&md, "Baseline (the pristine tree built the same way): %s, build %.0f s, "
		  "boot %.1f s, suite %.1f s, %zu cases.\n\n",
		  end_name(base->col->end), base_build_s, base->boot_s, base->suite_s,
		  base->col->ncases);
	rbuf_add(&md, "A mutant is killed by a case that passes on the baseline and fails "
		 "(fail, broken, timeout, panic, missing) on the mutant.\n\n");
	rbuf_add(&md, "| mutant | status | build s | boot s | suite s | first kill s | "
		 "killing cases | expected killer hit |\n|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		struct mutant *m = &mv[i];
		rbuf_add(&md, "| ");
		rbuf_md(&md, m->h.name);
		rbuf_addf(&md, " | %s | %.0f | %.1f | %.1f | ", m->status ? m->status : "not-run",
			  m->build_s, m->boot_s, m->suite_s);
		if (m->first_kill_s >= 0)
			rbuf_addf(&md, "%.1f", m->first_kill_s);
		else
			rbuf_add(&md, "-");
		rbuf_add(&md, " | ");
		/* Only a mutant that ran and survived is a hole in the suite. */
		bool survived = m->status && strcmp(m->status, "survived") == 0;
		if (m->killers.n == 0)
			rbuf_add(&md, survived ? "**none (hole)**" : m->err[0] ? "" : "-");
		for (size_t k = 0; k < m->killers.n; k++) {
			rbuf_add(&md, k ? "<br>" : "");
			rbuf_md(&md, m->killers.v[k]);
		}
		if (m->err[0]) {
			rbuf_add(&md, m->killers.n ? "<br>" : "");
			rbuf_md(&md, m->err);
		}
		rbuf_addf(&md, " | %s |\n", m->killers.n ? (m->expected_hit ? "yes" : "no") : "-");
	}
	bool any_race = false;
	for (size_t i = 0; i < n; i++)
		any_race |= mv[i].race_runs > 0;
	if (any_race) {
		rbuf_addf(&md, "\n## Race mutants: %d independent runs of the expected programs\n\n"
			  "| mutant | runs | killed | kill rate | first kill s (min / mean / max) |\n"
			  "|---|---|---|---|---|\n", race_runs);
		for (size_t i = 0; i < n; i++) {
			struct mutant *m = &mv[i];
			if (!m->race_runs)
				continue;
			rbuf_add(&md, "| ");
			rbuf_md(&md, m->h.name);
			rbuf_addf(&md, " | %d | %d | %.2f | ", m->race_runs, m->race_killed,
				  (double)m->race_killed / m->race_runs);
			if (m->race_killed)
				rbuf_addf(&md, "%.1f / %.1f / %.1f |\n", m->race_first_min,
					  m->race_first_sum / m->race_killed, m->race_first_max);
			else
				rbuf_add(&md, "- |\n");
		}
	}
	/* Whether the real programs and CPython's tests agree with ttypot's cases. */
	rbuf_add(&md, "\n");
	struct agree_mutant *am = agree_inputs(mv, n);
	report_agree_md(base->col, am, n, stop_on_kill, &md, NULL);
	free(am);
	rbuf_add(&md, "\n## Mutants\n\n");
	for (size_t i = 0; i < n; i++) {
		struct mutant *m = &mv[i];
		rbuf_add(&md, "- **");
		rbuf_md(&md, m->h.name);
		rbuf_add(&md, "**: ");
		rbuf_md(&md, m->h.bug);
		rbuf_add(&md, " (");
		rbuf_md(&md, m->h.commits);
		rbuf_add(&md, "); expected killers: ");
		rbuf_md(&md, m->h.expected);
		rbuf_add(&md, "\n");
	}

	mutants_json(base, base_build_s, mv, n, runs, race_runs, wall_s, killed, evaluated,
		     stop_on_kill, vars, &js);
	char err[512];
	if (write_file(outdir, "mutants.md", &md, err, sizeof err) < 0 ||
	    write_file(outdir, "mutants.json", &js, err, sizeof err) < 0)
		fprintf(stderr, "ttypot: mutants: writing reports: %s\n", err);
	rbuf_free(&md);
	rbuf_free(&js);
}

struct mopts {
	const char *outdir, *cache, *suite, *cases, *vars, *flavour;
	int runs, race_runs, deadline_s;
	bool stop_on_kill;
	char **patches;
	int npatches;
};

static const char *const mutants_more =
	"PATCH... (default fixtures/mutants/*.patch): applies each patch to\n"
	"linux-source-6.12, rebuilds, runs the suite and writes DIR/mutants.md and\n"
	"mutants.json (the kill matrix, and whether ttypot's cases, the real programs\n"
	"of the apps rows and CPython's tests of the peers rows each noticed every\n"
	"mutant; one the programs or CPython notice and no ttypot case does is a\n"
	"hole, named at the end).  Exit: 0 every mutant killed, 1 a mutant survived\n"
	"or could not be evaluated, 2 usage/input errors or no usable baseline.\n";

#define MUTANTS_SYNOPSIS "[OPTIONS] [PATCH...]"
#define MUTANTS_NOPTS 12

/* The patch mode's options, into t (MUTANTS_NOPTS entries, the last the end). */
static void mutants_opts(struct mopts *o, struct cli_opt *t)
{
	const struct cli_opt opts[MUTANTS_NOPTS] = {
		cli_opt_output(&o->outdir, "where mutants.md/json go (default reports)"),
		{ "runs", 0, OPT_INT, &o->runs, 1, "N", "suite runs per mutant (default 1)" },
		{ "race-runs", 0, OPT_INT, &o->race_runs, 0, "N", "extra runs of a race mutant's killers" },
		{ "stop-on-kill", 0, OPT_FLAG, &o->stop_on_kill, 0, NULL, "stop a mutant's run at its first kill" },
		cli_opt_cases(&o->cases),
		cli_opt_cache(&o->cache),
		cli_opt_suite(&o->suite),
		cli_opt_deadline(&o->deadline_s),
		{ "vars", 0, OPT_STR, &o->vars, 0, "NAME=VALUE,...",
		  "Kyua variables for the cases in every run (e.g. apps_rounds=20)" },
		cli_opt_flavour(&o->flavour),
		{ "generate", 0, OPT_FLAG, NULL, 0, NULL,
		  "generated mutants instead of patches: the options below" },
		CLI_OPT_END,
	};
	memcpy(t, opts, sizeof opts);
}

/* One help for both modes (ttypot mutants --help, --generate --help, help
 * mutants), as the man page has them. */
static void mutants_help(FILE *f)
{
	struct mopts o = {0};
	struct cli_opt t[MUTANTS_NOPTS];
	mutants_opts(&o, t);
	fprintf(f, "usage: ttypot mutants " MUTANTS_SYNOPSIS "\n"
		"       ttypot mutants --generate [OPTIONS]\n"
		"Kernel mutation testing, in two modes: patches that re-inject known bugs,\n"
		"or first-order mutants generated from the whole tty layer (--generate).\n\n");
	fputs(mutants_more, f);
	fprintf(f, "options of the patch mode:\n");
	cli_help_options(f, t);
	fputc('\n', f);
	mutants_gen_help(f);
	fprintf(f, "\nin both modes:\n  %-24s %s\n  %-24s %s\n", "-h, --help", "this help",
		"-V, --version", "the version of ttypot");
}

/* 0 parsed, 1 answered (--help, --version), -1 usage error (printed). */
static int mutants_parse(int argc, char **argv, struct mopts *o)
{
	*o = (struct mopts){ .outdir = "reports", .runs = 1, .deadline_s = KR_DEFAULT_DEADLINE_S };
	struct cli_opt opts[MUTANTS_NOPTS];
	mutants_opts(o, opts);
	opts[MUTANTS_NOPTS - 2] = (struct cli_opt)CLI_OPT_END; /* --generate: dispatched */
	enum cli_verdict v = cli_command(argc, argv, opts, MUTANTS_SYNOPSIS, mutants_more,
					 &o->patches, &o->npatches);
	return v == CLI_OK ? 0 : v == CLI_ERROR ? -1 : 1;
}

/* One suite run of the applied mutant; merges its kills into m. */
static void mutant_run(struct kr_env *e, const struct kernel_info *ki, struct mutant *m,
		       const struct kr_result *base, const char *filter, int run, bool stop)
{
	char tag[200];
	snprintf(tag, sizeof tag, "%s-run%d", m->h.name, run);
	struct kr_result r;
	kr_run(e, ki, tag, filter, base->col, stop, &r);
	/* A run that could not start (no outcome, QEMU error) says nothing
	 * about the mutant: try once more before recording it. */
	if (!r.begun && r.end == RUN_ERROR && !kr_interrupted) {
		ku_progress("mutants: %s run %d did not start (%s): retrying once", m->h.name,
			    run, r.err);
		col_free(r.col);
		kr_run(e, ki, tag, filter, base->col, stop, &r);
	}
	m->runs++;
	if (run == 1) {
		m->boot_s = r.boot_s;
		m->suite_s = r.suite_s;
		m->first_kill_s = r.first_kill_s;
	}
	bool killed = false;
	/* Cells of a kernel that never reached the suite are not kills (a
	 * mutant that cannot boot is reported as boot-failed). */
	for (size_t i = 0; r.begun && i < r.col->ncases; i++) {
		const char *id = r.col->cases[i].id;
		if (!kr_kills(base->col, r.col, id))
			continue;
		killed = true;
		bool have = false;
		for (size_t k = 0; k < m->killers.n; k++)
			have |= !strcmp(m->killers.v[k], id);
		if (!have)
			idlist_add(&m->killers, id);
		m->expected_hit |= mutant_expected_match(m->h.expected, id);
	}
	m->killed_runs += killed;
	if (!r.begun && !m->err[0])
		snprintf(m->err, sizeof m->err, "run %d: no suite (%s%s%.400s)", run,
			 end_name(r.col->end), r.err[0] ? ": " : "", r.err);
	else if (r.col->end == END_PANIC && !m->err[0])
		snprintf(m->err, sizeof m->err, "run %d: kernel panic during the suite", run);
	else if (r.case_silent && !m->err[0])
		snprintf(m->err, sizeof m->err, "run %d: %.500s", run, r.err);
	ku_progress("mutants: %s run %d: %s, %zu killing case%s (%.0f s)", m->h.name, run,
		    end_name(r.col->end), m->killers.n, m->killers.n == 1 ? "" : "s", r.wall_s);
	col_free(r.col);
}

static void mutant_race_runs(struct kr_env *e, const struct kernel_info *ki,
			     struct mutant *m, const struct kr_result *base, int n, bool stop)
{
	char progs[512];
	mutant_expected_programs(m->h.expected, progs, sizeof progs);
	if (!progs[0])
		return;
	ku_progress("mutants: %s: %d independent runs of %s", m->h.name, n, progs);
	bool q = e->quiet;
	e->quiet = true;
	for (int i = 1; i <= n && !kr_interrupted; i++) {
		char tag[200];
		snprintf(tag, sizeof tag, "%s-race%d", m->h.name, i);
		struct kr_result r;
		kr_run(e, ki, tag, progs, base->col, stop, &r);
		m->race_runs++;
		if (r.first_kill_s >= 0) {
			double fk = r.first_kill_s;
			if (!m->race_killed || fk < m->race_first_min)
				m->race_first_min = fk;
			if (!m->race_killed || fk > m->race_first_max)
				m->race_first_max = fk;
			m->race_first_sum += fk;
			m->race_killed++;
		}
		ku_progress("mutants: %s race run %d/%d: %s (%d/%d killed so far)", m->h.name, i,
			    n, r.first_kill_s >= 0 ? "killed" : "survived", m->race_killed,
			    m->race_runs);
		col_free(r.col);
	}
	e->quiet = q;
}

/* The default patches: the .patch files of SUITE/fixtures/mutants, sorted. */
static void default_patches(const char *suite, struct idlist *out)
{
	char dir[PATH_MAX + 32];
	snprintf(dir, sizeof dir, "%s/fixtures/mutants", suite);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l > 6 && !strcmp(de->d_name + l - 6, ".patch")) {
			char p[PATH_MAX + 300];
			snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
			idlist_add(out, p);
		}
	}
	closedir(d);
	if (out->n)
		qsort(out->v, out->n, sizeof *out->v, cmp_str);
}

int cmd_mutants(int argc, char **argv)
{
	struct mopts o;
	char err[1024];
	double t0 = proc_now();
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			mutants_help(stdout);
			return 0;
		}
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--generate"))
			return cmd_mutants_generate(argc, argv);
	int pr = mutants_parse(argc, argv, &o);
	if (pr != 0) {
		free(o.patches);
		return pr > 0 ? 0 : 2;
	}
	char suffix[32];
	if (cli_flavour_suffix(o.flavour, suffix, sizeof suffix, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: mutants: %s\n", err);
		free(o.patches);
		return 2;
	}
	kr_install_signals();
	struct kr_env e;
	char workdir[PATH_MAX];
	snprintf(workdir, sizeof workdir, "%s/mutants-raw", o.outdir);
	if (kr_env_init(&e, o.suite, argv[0], o.cache, workdir, o.deadline_s, err,
			sizeof err) < 0) {
		fprintf(stderr, "ttypot: mutants: %s\n", err);
		kr_env_free(&e);
		free(o.patches);
		return 2;
	}
	char *vars = NULL;
	if (o.vars && cli_kyua_vars(o.vars, &vars, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: mutants: %s\n", err);
		kr_env_free(&e);
		free(o.patches);
		return 2;
	}
	e.kyua_vars = vars;
	if (vars)
		ku_progress("mutants: every run with the Kyua variables %s", o.vars);
	struct idlist paths = {0};
	if (o.npatches)
		for (int i = 0; i < o.npatches; i++)
			idlist_add(&paths, o.patches[i]);
	else
		default_patches(e.suite, &paths);
	free(o.patches);
	int rc = 2;
	struct mutant *mv = calloc(paths.n ? paths.n : 1, sizeof *mv);
	size_t n = paths.n;
	if (!n) {
		fprintf(stderr, "ttypot: mutants: no patches (%s/fixtures/mutants/*.patch)\n",
			e.suite);
		goto out;
	}
	/* Every patch must be readable and have a header before any work. */
	for (size_t i = 0; i < n; i++) {
		struct mutant *m = &mv[i];
		m->first_kill_s = -1;
		if (!realpath(paths.v[i], m->path)) {
			fprintf(stderr, "ttypot: mutants: %s: %s\n", paths.v[i], strerror(errno));
			goto out;
		}
		char *text = ku_read_file(m->path, NULL);
		const char *base = strrchr(m->path, '/') + 1;
		char fallback[128];
		snprintf(fallback, sizeof fallback, "%.*s", (int)strcspn(base, "."), base);
		if (!text || mutant_parse_header(text, fallback, &m->h) < 0) {
			fprintf(stderr, "ttypot: mutants: %s: %s\n", paths.v[i],
				text ? "not a patch (no diff)" : strerror(errno));
			free(text);
			goto out;
		}
		free(text);
	}
	char mroot[PATH_MAX + 16], tree[PATH_MAX], applied[PATH_MAX + 32];
	snprintf(mroot, sizeof mroot, "%s/mutant", e.cache);
	snprintf(applied, sizeof applied, "%s/applied.patch", mroot);
	if (ku_mkdir_p(mroot, 0755) < 0 ||
	    mutant_tree(&e, mroot, tree, sizeof tree, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: mutants: the mutant tree: %s\n", err);
		goto out;
	}
	/* A previous run that died with a mutant applied. */
	if (ku_is_file(applied)) {
		ku_progress("mutants: reverting a mutant left applied by an earlier run");
		if (do_patch(tree, applied, true, false, err, sizeof err) < 0) {
			fprintf(stderr, "ttypot: mutants: cannot revert %s in %s: %s (delete %s "
				"and %s to start over)\n", applied, tree, err, tree, applied);
			goto out;
		}
		unlink(applied);
	}
	kr_ccache_basedir(tree, e.cache);
	char spec[PATH_MAX + 8];
	snprintf(spec, sizeof spec, "tree:%s%s", tree, suffix);
	/* The tree builds into MROOT/build (same relative layout as the
	 * src: build, so CCACHE_BASEDIR can share objects). */
	struct kr_env me = e;
	snprintf(me.cache, sizeof me.cache, "%s", mroot);
	struct kernel_info ki;
	double base_build_s = 0;
	ku_progress("mutants: building the baseline (pristine %s)", tree);
	if (kr_resolve(&me, spec, &ki, &base_build_s, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: mutants: baseline: %s\n", err);
		goto out;
	}
	char filter[2048] = "";
	if (o.cases) {
		snprintf(filter, sizeof filter, "%s", o.cases);
		for (char *p = filter; *p; p++)
			if (*p == ',')
				*p = ' ';
	}
	const char *flt = filter[0] ? filter : NULL;
	struct kr_result base;
	kr_run(&me, &ki, "baseline", flt, NULL, false, &base);
	e.have_initramfs = me.have_initramfs;
	if (!base.begun || base.col->end != END_DONE) {
		fprintf(stderr, "ttypot: mutants: the baseline did not complete the suite "
			"(%s%s%s): nothing to compare against\n", end_name(base.col->end),
			base.err[0] ? ": " : "", base.err);
		write_reports(o.outdir, &base, base_build_s, mv, n, o.runs, o.race_runs,
			      o.stop_on_kill, proc_now() - t0, o.vars);
		col_free(base.col);
		goto out;
	}
	long bpass = 0;
	for (size_t i = 0; i < base.col->ncases; i++)
		bpass += base.col->cases[i].st == ST_PASS;
	ku_progress("mutants: baseline: %zu cases, %ld pass (build %.0f s, boot %.1f s, "
		    "suite %.1f s)", base.col->ncases, bpass, base_build_s, base.boot_s,
		    base.suite_s);
	rc = 0;
	me.oops_silence_s = KR_OOPS_SILENCE_S; /* a mutant's dead kernel ends its boot */
	me.case_silence_s = kr_case_silence_s(base.col); /* and so does a silent hang */
	me.ref_boot_s = base.boot_s; /* both stretch on a host slower than the baseline's */
	for (size_t i = 0; i < n && !kr_interrupted; i++) {
		struct mutant *m = &mv[i];
		ku_progress("mutants: [%zu/%zu] %s", i + 1, n, m->h.name);
		if (do_patch(tree, m->path, false, true, m->err, sizeof m->err) < 0) {
			m->status = "apply-failed";
			rc = rc ? rc : 1;
			write_reports(o.outdir, &base, base_build_s, mv, n, o.runs, o.race_runs,
				      o.stop_on_kill, proc_now() - t0, o.vars);
			continue;
		}
		if (ku_copy_file(m->path, applied) < 0 ||
		    do_patch(tree, applied, false, false, m->err, sizeof m->err) < 0) {
			fprintf(stderr, "ttypot: mutants: applying %s: %s\n", m->path, m->err);
			rc = 2;
			break;
		}
		if (kr_resolve(&me, spec, &ki, &m->build_s, err, sizeof err) < 0) {
			m->status = "build-failed";
			snprintf(m->err, sizeof m->err, "%.590s", err);
		} else {
			ku_progress("mutants: %s built in %.0f s", m->h.name, m->build_s);
			for (int k = 1; k <= o.runs && !kr_interrupted; k++)
				mutant_run(&me, &ki, m, &base, flt, k, o.stop_on_kill);
			if (m->h.race && o.race_runs > 0)
				mutant_race_runs(&me, &ki, m, &base, o.race_runs, o.stop_on_kill);
			m->status = m->killers.n ? "killed" : m->runs ? "survived" : "not-run";
			if (!m->killers.n && m->err[0] && strstr(m->err, "no suite"))
				m->status = "boot-failed";
		}
		char rerr[600];
		if (do_patch(tree, applied, true, false, rerr, sizeof rerr) < 0) {
			fprintf(stderr, "ttypot: mutants: cannot revert %s: %s (the tree %s is "
				"left patched; %s says with what)\n", m->h.name, rerr, tree, applied);
			rc = 2;
			write_reports(o.outdir, &base, base_build_s, mv, n, o.runs, o.race_runs,
				      o.stop_on_kill, proc_now() - t0, o.vars);
			break;
		}
		unlink(applied);
		if (strcmp(m->status, "killed") && rc == 0)
			rc = 1;
		ku_progress("mutants: %s: %s (%zu killing case%s)", m->h.name, m->status,
			    m->killers.n, m->killers.n == 1 ? "" : "s");
		write_reports(o.outdir, &base, base_build_s, mv, n, o.runs, o.race_runs,
			      o.stop_on_kill, proc_now() - t0, o.vars);
	}
	if (kr_interrupted) {
		fprintf(stderr, "ttypot: mutants: interrupted; reports hold what was measured\n");
		rc = 2;
	}
	long killed = 0;
	for (size_t i = 0; i < n; i++)
		killed += mv[i].status && !strcmp(mv[i].status, "killed");
	/* Holes: mutants the real programs or CPython's tests notice and no
	 * ttypot case does (report_agree.h). */
	struct idlist holes = {0};
	struct agree_mutant *am = agree_inputs(mv, n);
	report_agree_md(base.col, am, n, o.stop_on_kill, NULL, &holes);
	free(am);
	struct rbuf hl = {0};
	for (size_t i = 0; i < holes.n; i++)
		rbuf_addf(&hl, "%s%s", i ? ", " : "", holes.v[i]);
	printf("ttypot: mutants: %ld/%zu killed (score %.2f) in %.0f s; holes in ttypot "
	       "(noticed by apps or peers, by no ttypot case): %s; reports in %s/"
	       "mutants.md and mutants.json\n", killed, n, (double)killed / (double)n,
	       proc_now() - t0, holes.n ? rbuf_str(&hl) : "none", o.outdir);
	rbuf_free(&hl);
	idlist_free(&holes);
	for (size_t i = 0; i < n; i++)
		printf("  %-28s %-13s %zu killing case%s\n", mv[i].h.name,
		       mv[i].status ? mv[i].status : "not-run", mv[i].killers.n,
		       mv[i].killers.n == 1 ? "" : "s");
	fflush(stdout);
	col_free(base.col);
out:
	for (size_t i = 0; i < n; i++)
		idlist_free(&mv[i].killers);
	free(mv);
	idlist_free(&paths);
	kr_env_free(&e);
	free(vars);
	return rc;
}
