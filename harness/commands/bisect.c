// SPDX-License-Identifier: GPL-2.0-only
/* bisect.c: `ttypot bisect-run`, one step of `git bisect run` (bisect.h). */
#include "bisect.h"
#include "cli.h"
#include "diffmap.h"
#include "ingest.h"
#include "kutil.h"
#include "patch_order.h"
#include "proc.h"
#include "rbuf.h"
#include "run_one_kernel.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"


/* ---- bisect-run ---- */

int bisect_exit_code(const struct bisect_obs *o)
{
	if (o->usage_error || o->build_failed || o->run_error || !o->begun)
		return BISECT_SKIP;
	if (o->first_bad <= 0)
		return BISECT_GOOD;
	if (o->reruns_done <= 0)
		return BISECT_SKIP; /* failures nobody could confirm or refute */
	return o->confirmed > 0 ? BISECT_BAD : BISECT_GOOD;
}

struct bopts {
	const char *cases, *tree, *baseline, *cache, *suite, *workdir, *base, *map, *flavour;
	int reruns, deadline_s;
	bool all;
};

static const char *const bisect_more =
	"Builds the kernel tree (default .), boots it with the selected cases and\n"
	"answers git bisect run: exit 0 good, 1 bad, 125 skip (the tree does not\n"
	"build, the kernel does not reach the suite, usage errors).  A commit is bad\n"
	"when a case fails and fails again in one of the --reruns re-runs.\n"
	"The first run stops at the first failing case (with --baseline, the first\n"
	"that does not fail there); --all runs every selected case.  When no re-run\n"
	"confirms that failure, every selected case runs before a good verdict.\n"
	"Without --cases, when a coverage map exists (--map, default\n"
	"SUITE/" PATCH_ORDER_MAP "), only the cases that execute the lines changed since\n"
	"--base (default: the nearest good commit of the bisection, else HEAD^) run;\n"
	"a change the map cannot narrow (a header, a build file) runs every case, and\n"
	"one no case reaches is good without a build.\n"
	"FILTER: comma-separated program[:case] or area ids, e.g. close/t_close_race\n";

/* 0 parsed, 1 answered (--help, --version), -1 usage error (printed). */
static int bisect_parse(int argc, char **argv, struct bopts *b)
{
	*b = (struct bopts){ .tree = ".", .reruns = BISECT_DEFAULT_RERUNS,
			     .deadline_s = KR_DEFAULT_DEADLINE_S };
	const struct cli_opt opts[] = {
		cli_opt_cases(&b->cases),
		{ "tree", 0, OPT_STR, &b->tree, 0, "DIR", "the kernel tree (default .)" },
		{ "baseline", 0, OPT_STR, &b->baseline, 0, "KERNEL", "cases bad here too do not count" },
		{ "reruns", 0, OPT_INT, &b->reruns, 0, "N", "re-runs of failing cases (default 2)" },
		cli_opt_cache(&b->cache),
		cli_opt_suite(&b->suite),
		cli_opt_deadline(&b->deadline_s),
		cli_opt_output(&b->workdir, "raw files (default CACHE/bisect-run)"),
		{ "base", 0, OPT_STR, &b->base, 0, "REV", "the change is since REV (no --cases)" },
		{ "map", 0, OPT_STR, &b->map, 0, "FILE", "the coverage map (no --cases)" },
		{ "all", 0, OPT_FLAG, &b->all, 0, NULL,
		  "run every selected case (no stop at the first failure)" },
		cli_opt_flavour(&b->flavour),
		CLI_OPT_END,
	};
	enum cli_verdict v = cli_command(argc, argv, opts, "[OPTIONS]", bisect_more, NULL, NULL);
	return v == CLI_OK ? 0 : v == CLI_ERROR ? -1 : 1;
}

/* Commas and spaces separate filters; the guest splits on spaces only. */
static void filter_words(const char *in, char *out, size_t outlen)
{
	snprintf(out, outlen, "%s", in ? in : "");
	for (char *p = out; *p; p++)
		if (*p == ',')
			*p = ' ';
}

/* The baseline's results for this filter, run once and kept in the cache
 * (keyed on the kernel, its config and the filter). */
static struct column *bisect_baseline(struct kr_env *e, const char *spec,
				      const char *filter)
{
	struct kernel_info ki;
	char err[1024];
	double secs;
	if (kr_resolve(e, spec, &ki, &secs, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: bisect-run: baseline %s: %s\n", spec, err);
		return NULL;
	}
	char key[4096], hex[65], tag[64];
	snprintf(key, sizeof key, "%s|%s|%s|%s", spec, ki.image, ki.config_hash,
		 filter ? filter : "");
	ku_sha256_hex(key, strlen(key), hex);
	snprintf(tag, sizeof tag, "baseline-%.16s", hex);
	char saved[PATH_MAX + 100];
	snprintf(saved, sizeof saved, "%s/%s.results", e->workdir, tag);
	struct column *c = col_new(ki.label);
	char *text = ku_read_file(saved, NULL);
	if (text && strstr(text, "@TTYPOT1 end ")) {
		ku_progress("bisect-run: baseline %s: reusing %s", spec, saved);
		free(text);
		if (ingest_file(c, saved, err, sizeof err) == 0) {
			ingest_finish(c, &e->expected, filter);
			expect_apply(&e->ex, c);
			return c;
		}
	}
	free(text);
	col_free(c);
	struct kr_result r;
	kr_run(e, &ki, tag, filter, NULL, false, &r);
	if (!r.begun) {
		fprintf(stderr, "ttypot: bisect-run: baseline %s did not run the suite: %s\n",
			spec, r.err);
		col_free(r.col);
		return NULL;
	}
	return r.col;
}

/* Without --cases: the programs reaching the changes since the base, as a
 * filter into out ("" every case).  1 when no case reaches them (good
 * without a build), else 0; what it found is said on stderr. */
static int patch_filter(const struct bopts *b, const struct kr_env *e, const char *tree,
			char *out, size_t outlen)
{
	char base[128], err[1024];
	struct patch_order po;
	out[0] = '\0';
	if (b->base)
		snprintf(base, sizeof base, "%s", b->base);
	else if (dm_bisect_base(tree, base, sizeof base, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: bisect-run: every case runs (no base: %s)\n", err);
		return 0;
	}
	if (patch_order_plan(e->suite, b->map, tree, base, &e->expected, &po, err,
			     sizeof err) < 0) {
		fprintf(stderr, "ttypot: bisect-run: every case runs (%s)\n", err);
		return 0;
	}
	int rc = 0;
	if (po.note[0])
		fprintf(stderr, "ttypot: bisect-run: %s\n", po.note);
	if (po.all)
		fprintf(stderr, "ttypot: bisect-run: every case runs: the change since %.12s "
			"reaches beyond the coverage map (%s)\n", base, po.why);
	else if (po.first_cases == 0)
		rc = 1;
	else if (!po.rest_cases || strlen(po.first) + 1 > outlen)
		fprintf(stderr, "ttypot: bisect-run: %ld cases reach the changed lines since %.12s: "
			"every case runs\n", po.first_cases, base);
	else {
		snprintf(out, outlen, "%s", po.first);
		fprintf(stderr, "ttypot: bisect-run: %ld case%s (%zu program%s) reach the changed "
			"lines since %.12s: only they run\n", po.first_cases,
			po.first_cases == 1 ? "" : "s", po.nprogs, po.nprogs == 1 ? "" : "s", base);
	}
	if (rc)
		fprintf(stderr, "ttypot: bisect-run: no case reaches the changes since %.12s "
			"(%zu changed line%s the map answers for)\n", base, po.nlines,
			po.nlines == 1 ? "" : "s");
	patch_order_free(&po);
	return rc;
}

void bisect_found_free(struct bisect_found *f)
{
	for (long i = 0; i < f->n; i++)
		free(f->ids[i]);
	free(f->ids);
	free(f->again);
	f->ids = NULL;
	f->again = NULL;
	f->n = 0;
}

/* One run of filter on ki (tag names its files); the failures that count
 * (bad here, and not already bad on base) go into f. */
static void judge_run(struct kr_env *e, const struct kernel_info *ki, const char *tag,
		      const char *filter, const struct column *base, bool stop,
		      struct bisect_obs *obs, struct bisect_found *f)
{
	struct kr_result r;
	kr_run(e, ki, tag, filter, base, stop, &r);
	obs->run_error = r.end == RUN_ERROR && !r.begun;
	obs->begun = r.begun;
	f->stopped = r.stopped_at_kill;
	if (!r.begun)
		fprintf(stderr, "ttypot: bisect-run: the kernel did not reach the suite "
			"(%s%s%s): skip\n", end_name(r.col->end), r.err[0] ? ": " : "", r.err);
	for (size_t i = 0; r.begun && i < r.col->ncases; i++) {
		const struct case_result *c = &r.col->cases[i];
		if (!status_bad(c->st) || (base && kr_bad(base, c->id)))
			continue;
		f->ids = xrealloc(f->ids, (size_t)(f->n + 1) * sizeof *f->ids);
		f->ids[f->n++] = xstrdup(c->id);
		fprintf(stderr, "ttypot: bisect-run: %s: %s%s%s\n", c->id, status_name(c->st),
			c->reason[0] ? ": " : "", c->reason);
	}
	if (f->n) {
		f->again = xrealloc(NULL, (size_t)f->n * sizeof *f->again);
		memset(f->again, 0, (size_t)f->n * sizeof *f->again);
	}
	obs->first_bad = f->n;
	if (f->stopped)
		ku_progress("bisect-run: %s: stopped at the first failure, %.1f s after the start "
			    "(boot %.1f s; %zu case%s reported)", tag, r.first_kill_s, r.boot_s,
			    r.col->ncases, r.col->ncases == 1 ? "" : "s");
	col_free(r.col);
}

/* Re-run only the failing cases of f, until one fails again. */
static void judge_confirm(struct kr_env *e, const struct kernel_info *ki, int reruns,
			  struct bisect_obs *obs, struct bisect_found *f)
{
	for (int k = 0; f->n && k < reruns && obs->confirmed == 0 && !kr_interrupted; k++) {
		struct rbuf flt = {0};
		for (long i = 0; i < f->n; i++) {
			rbuf_add(&flt, i ? " " : "");
			rbuf_add(&flt, f->ids[i]);
		}
		char tag[32];
		snprintf(tag, sizeof tag, "rerun-%d", k + 1);
		ku_progress("bisect-run: re-run %d/%d of %ld failing case%s", k + 1, reruns,
			    f->n, f->n == 1 ? "" : "s");
		struct kr_result rr;
		kr_run(e, ki, tag, rbuf_str(&flt), NULL, false, &rr);
		if (rr.begun) {
			obs->reruns_done++;
			for (long i = 0; i < f->n; i++)
				if (!f->again[i] && kr_bad(rr.col, f->ids[i])) {
					f->again[i] = true;
					obs->confirmed++;
				}
		}
		col_free(rr.col);
		rbuf_free(&flt);
	}
}

void bisect_judge(struct kr_env *e, const struct kernel_info *ki, const char *filter,
		  const struct column *base, int reruns, bool all, struct bisect_obs *obs,
		  struct bisect_found *f)
{
	*f = (struct bisect_found){0};
	/* A bad verdict needs one confirmed failure: stop at the first. */
	judge_run(e, ki, "first", filter, base, !all, obs, f);
	judge_confirm(e, ki, reruns, obs, f);
	if (!f->stopped || obs->confirmed > 0 || obs->reruns_done == 0 || kr_interrupted)
		return;
	/* A good verdict needs every case: the rest may hold a real failure. */
	ku_progress("bisect-run: the first failure was not confirmed: every selected case runs");
	bisect_found_free(f);
	obs->first_bad = 0;
	obs->reruns_done = 0;
	obs->confirmed = 0;
	judge_run(e, ki, "all", filter, base, false, obs, f);
	f->widened = true;
	judge_confirm(e, ki, reruns, obs, f);
}

int cmd_bisect_run(int argc, char **argv)
{
	struct bopts b;
	char err[1024];
	struct bisect_obs obs = {0};
	double t0 = proc_now();
	int pr = bisect_parse(argc, argv, &b);
	if (pr > 0)
		return BISECT_GOOD;
	if (pr < 0) {
		obs.usage_error = true;
		return bisect_exit_code(&obs);
	}
	kr_install_signals();
	char cache[PATH_MAX], workdir[PATH_MAX + 32], filter[2048];
	if (b.cache)
		snprintf(cache, sizeof cache, "%s", b.cache);
	else
		ku_default_cache(cache, sizeof cache);
	if (b.workdir)
		snprintf(workdir, sizeof workdir, "%s", b.workdir);
	else
		snprintf(workdir, sizeof workdir, "%s/bisect-run", cache);
	filter_words(b.cases, filter, sizeof filter);
	const char *flt = filter[0] ? filter : NULL;
	struct kr_env e;
	if (kr_env_init(&e, b.suite, argv[0], b.cache, workdir, b.deadline_s, err,
			sizeof err) < 0) {
		fprintf(stderr, "ttypot: bisect-run: %s\n", err);
		obs.usage_error = true;
		kr_env_free(&e);
		return bisect_exit_code(&obs);
	}
	char spec[PATH_MAX + 40], tree[PATH_MAX];
	if (!realpath(b.tree, tree))
		snprintf(tree, sizeof tree, "%s", b.tree);
	if (!b.cases) {
		/* The cases that reach the change, when the map can say. */
		int pr2 = patch_filter(&b, &e, tree, filter, sizeof filter);
		if (pr2 > 0) {
			printf("ttypot: bisect-run %s: good (exit 0): no case reaches the changes; "
			       "total %.0f s\n", tree, proc_now() - t0);
			kr_env_free(&e);
			return BISECT_GOOD;
		}
		flt = filter[0] ? filter : NULL;
	}
	long nsel = 0;
	for (size_t i = 0; i < e.expected.n; i++)
		nsel += case_selected(flt, e.expected.v[i]);
	if (nsel == 0) {
		fprintf(stderr, "ttypot: bisect-run: --cases '%s' selects no case of %s/cases\n",
			b.cases ? b.cases : "", e.suite);
		obs.usage_error = true;
		kr_env_free(&e);
		return bisect_exit_code(&obs);
	}
	char suffix[32], ferr[128];
	if (cli_flavour_suffix(b.flavour, suffix, sizeof suffix, ferr, sizeof ferr) < 0) {
		fprintf(stderr, "ttypot: bisect-run: %s\n", ferr);
		obs.usage_error = true;
		kr_env_free(&e);
		return bisect_exit_code(&obs);
	}
	snprintf(spec, sizeof spec, "tree:%s%s", tree, suffix);
	kr_ccache_basedir(tree, cache);
	struct column *base = NULL;
	if (b.baseline) {
		base = bisect_baseline(&e, b.baseline, flt);
		if (!base) {
			obs.usage_error = true;
			kr_env_free(&e);
			return bisect_exit_code(&obs);
		}
	}
	struct kernel_info ki;
	double build_s = 0;
	ku_progress("bisect-run: building %s", spec);
	if (kr_resolve(&e, spec, &ki, &build_s, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: bisect-run: %s\n", err);
		obs.build_failed = true;
	}
	struct bisect_found found = {0};
	if (!obs.build_failed)
		bisect_judge(&e, &ki, flt, base, b.reruns, b.all, &obs, &found);
	int rc = bisect_exit_code(&obs);
	if (kr_interrupted && rc != BISECT_BAD)
		rc = BISECT_SKIP;
	printf("ttypot: bisect-run %s: %s (exit %d): %ld failing%s, %ld confirmed in %d "
	       "re-run%s; build %.0f s, total %.0f s\n",
	       ki.version[0] ? ki.version : tree,
	       rc == BISECT_GOOD ? "good" : rc == BISECT_BAD ? "bad" : "skip", rc,
	       obs.first_bad,
	       found.stopped ? " (the run stopped at the first failure)"
	       : found.widened ? " (every case ran: the first failure was not confirmed)" : "",
	       obs.confirmed, obs.reruns_done,
	       obs.reruns_done == 1 ? "" : "s", build_s, proc_now() - t0);
	for (long i = 0; i < found.n; i++) {
		if (found.again[i])
			printf("  bad: %s\n", found.ids[i]);
		else if (obs.reruns_done)
			printf("  flaky (not confirmed): %s\n", found.ids[i]);
	}
	fflush(stdout);
	bisect_found_free(&found);
	if (base)
		col_free(base);
	kr_env_free(&e);
	return rc;
}
