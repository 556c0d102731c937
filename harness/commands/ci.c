// SPDX-License-Identifier: GPL-2.0-only
/* ci.c: `ttypot ci`: the two-column matrix (baseline, tree:DIR) of
 * orchestrate.c, with an exit status a CI system can act on (ci.h). */
#include "ci.h"
#include "run_one_kernel.h"
#include "cli.h"
#include "deflist.h"
#include "ingest.h"
#include "kutil.h"
#include "matrix.h"
#include "merge.h"
#include "mutants_gen.h"
#include "commands.h"
#include "patch_order.h"
#include "progress.h"
#include "rbuf.h"
#include "suite_dir.h"

#include <errno.h>
#include <limits.h>
#include <unistd.h>

/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ci_exit_code(const struct ci_obs *o)
{
	if (o->usage_error)
		return CI_USAGE;
	if (!o->tree_built)
		return CI_BUILD_FAILED;
	if (!o->baseline_ran)
		return CI_USAGE;
	if (o->regressions > 0)
		return CI_REGRESSIONS;
	if (o->matrix_rc != 0 && o->matrix_rc != 1)
		return CI_USAGE;
	if (o->mutants_error)
		return CI_USAGE;
	if (o->survivors)
		return CI_REGRESSIONS;
	return CI_OK;
}

/* Did a column report anything itself (not only filled-in cells)? */
static bool col_ran(const struct column *c)
{
	if (c->begin_cases >= 0)
		return true;
	for (size_t i = 0; i < c->ncases; i++) {
		enum status s = c->cases[i].raw;
		if (s != ST_MISSING && s != ST_PANIC && s != ST_TIMEOUT)
			return true;
	}
	return false;
}

static const char *const ci_more =
	"Builds the tree (out of tree, the config fragment, ccache), boots it and the\n"
	"baselines with the suite, and writes the matrix, JUnit and KCIDB JSON.\n"
	"--baseline takes kernels and presets, comma-separated (a preset brings no\n"
	"host column); the first is the one regressions are judged against.  A\n"
	"baseline whose result-cache key matches an earlier finished run is read,\n"
	"not run (its heading says from when and which run); --fresh runs them all.\n"
	"--base REV: the cases that execute the lines the tree changed since REV\n"
	"(the coverage map, --map, default SUITE/" PATCH_ORDER_MAP ") run first, in a\n"
	"boot of their own, then the rest; a change the map cannot narrow (a header,\n"
	"a build file, a new function) runs everything in one boot.\n"
	"--mutants (with --base REV): then `ttypot mutants --generate --diff REV\n"
	"--tree DIR` into the output directory's mutation/ (afresh each time): the lines\n"
	"the change adds or replaces, mutated; a survivor counts as a regression.\n"
	"Exit: 0 no regression, 1 regressions (or survivors), 2 usage/input errors or\n"
	"no baseline results, 3 the tree does not build.\n";

/* The baselines: comma-separated kernels and presets; a preset's host
 * column is left out (the host is no kernel a tree is compared with).
 * -1 with a message. */
static int baselines(const char *arg, struct idlist *out, char *err, size_t errlen)
{
	char *copy = xstrdup(arg), *save = NULL;
	char **words = NULL;
	int n = 0;
	bool host_asked = false;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		words = xrealloc(words, (size_t)(n + 1) * sizeof *words);
		words[n++] = w;
		host_asked |= !strcmp(w, "host");
	}
	struct idlist all = {0};
	int rc = n ? deflist_expand(&deflist_apt, words, n, &all, err, errlen) : -1;
	if (!n)
		snprintf(err, errlen, "--baseline '%s' names no kernel", arg);
	for (size_t i = 0; rc == 0 && i < all.n; i++)
		if (strcmp(all.v[i], "host") != 0 || host_asked)
			idlist_add(out, all.v[i]);
	idlist_free(&all);
	free(words);
	free(copy);
	return rc;
}

/* The patch-aware order of --base: the split filters into o, and what
 * ttypot says about it.  Plain order (nothing set) when the map cannot
 * narrow the change. */
static void plan_order(struct cli *o, const char *tree, const char *base, const char *map,
		       const char *argv0, struct patch_order *po)
{
	char suite[PATH_MAX], kyuafile[PATH_MAX + 32], err[1024];
	if (o->cases) {
		fprintf(stderr, "ttypot: ci: --cases given: the cases run in plain order\n");
		return;
	}
	find_suite_dir(o->suite_dir, argv0, suite, sizeof suite);
	snprintf(kyuafile, sizeof kyuafile, "%s/cases/Kyuafile", suite);
	struct idlist expected = {0};
	if (caselist_kyua(kyuafile, 120, &expected, err, sizeof err) < 0 ||
	    patch_order_plan(suite, map, tree, base, &expected, po, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: ci: no patch-aware order (%s): every case runs in "
			"plain order\n", err);
		idlist_free(&expected);
		return;
	}
	idlist_free(&expected);
	if (po->note[0])
		fprintf(stderr, "ttypot: ci: %s\n", po->note);
	if (po->all) {
		fprintf(stderr, "ttypot: ci: the change since %s reaches beyond the coverage "
			"map (%s): every case runs, in plain order\n", base, po->why);
		return;
	}
	fprintf(stderr, "ttypot: ci: %ld case%s (%zu program%s) reach the changed lines "
		"since %s (%zu line%s%s)%s\n", po->first_cases, po->first_cases == 1 ? "" : "s",
		po->nprogs, po->nprogs == 1 ? "" : "s", base, po->nlines,
		po->nlines == 1 ? "" : "s", po->by_function ? ", by function name" : "",
		po->first_cases && po->rest_cases ? ": they run first, then the rest" :
		": every case runs in plain order");
	if (po->first_cases && po->rest_cases) {
		o->split_first = po->first;
		o->split_rest = po->rest;
	}
}

/* --mutants: `ttypot mutants --generate --diff base --tree tree` into
 * OUTDIR/mutation, started afresh (a CI run's verdict is of this run).
 * Its exit status. */
static int run_mutants(const struct cli *o, const char *argv0, const char *tree,
		       const char *base, const char *map)
{
	char mdir[PATH_MAX + 16], state[PATH_MAX + 48], deadline[32];
	snprintf(mdir, sizeof mdir, "%s/mutation", o->outdir);
	snprintf(state, sizeof state, "%s/mutation-state.json", mdir);
	unlink(state);
	snprintf(deadline, sizeof deadline, "%d", o->deadline_s);
	const char *a[24];
	int n = 0;
	a[n++] = argv0;
	a[n++] = "mutants";
	a[n++] = "--generate";
	a[n++] = "--diff";
	a[n++] = base;
	a[n++] = "--tree";
	a[n++] = tree;
	a[n++] = "-o";
	a[n++] = mdir;
	a[n++] = "--deadline";
	a[n++] = deadline;
	if (map)
		a[n++] = "--map", a[n++] = map;
	if (o->cases)
		a[n++] = "--cases", a[n++] = o->cases;
	if (o->cache_dir)
		a[n++] = "--cache", a[n++] = o->cache_dir;
	if (o->suite_dir)
		a[n++] = "--suite", a[n++] = o->suite_dir;
	a[n] = NULL;
	fflush(stdout);
	return cmd_mutants_generate(n, (char **)a);
}

int cmd_ci(int argc, char **argv)
{
	struct ci_obs obs = {0};
	struct cli o;
	memset(&o, 0, sizeof o);
	o.start = progress_now();
	o.cmd = CMD_MATRIX;
	o.outdir = CLI_DEFAULT_OUTDIR;
	o.deadline_s = CLI_DEFAULT_DEADLINE_S;
	o.jobs = 1;
	const char *tree = NULL, *baseline = NULL, *base = NULL, *map = NULL, *flavour = NULL;
	bool fresh = false, mutants = false;
	const struct cli_opt opts[] = {
		{ "tree", 0, OPT_STR, &tree, 0, "DIR", "the kernel tree to build and test (required)" },
		{ "baseline", 0, OPT_STR, &baseline, 0, "KERNELS",
		  "what it is compared with, comma-separated (required)" },
		{ "base", 0, OPT_STR, &base, 0, "REV",
		  "git revision of the tree before the change: its cases first" },
		{ "map", 0, OPT_STR, &map, 0, "FILE",
		  "the coverage map (default SUITE/" PATCH_ORDER_MAP ")" },
		{ "fresh", 0, OPT_FLAG, &fresh, 0, NULL,
		  "run the baselines even when the result cache has them" },
		{ "mutants", 0, OPT_FLAG, &mutants, 0, NULL,
		  "with --base: then the mutants of the change's lines (into -o's mutation/)" },
		cli_opt_output(&o.outdir, "where the reports go (default reports)"),
		cli_opt_cases(&o.cases),
		cli_opt_cache(&o.cache_dir),
		cli_opt_suite(&o.suite_dir),
		cli_opt_deadline(&o.deadline_s),
		cli_opt_expect(&o.expect_dir),
		cli_opt_jobs(&o.jobs, "kernels at once (default 1)"),
		cli_opt_flavour(&flavour),
		CLI_OPT_END,
	};
	enum cli_verdict v = cli_command(argc, argv, opts, "--tree DIR --baseline KERNELS [OPTIONS]",
					 ci_more, NULL, NULL);
	if (v == CLI_HELP || v == CLI_VERSION)
		return CI_OK;
	if (v == CLI_ERROR) {
		obs.usage_error = true;
		return ci_exit_code(&obs);
	}
	if (!tree || !baseline) {
		fprintf(stderr, "ttypot: ci: %s is required ('ci --help' shows the options)\n",
			!tree ? "--tree DIR" : "--baseline KERNELS");
		obs.usage_error = true;
		return ci_exit_code(&obs);
	}
	if (mutants && !base) {
		fprintf(stderr, "ttypot: ci: --mutants needs --base REV (the change to mutate)\n");
		obs.usage_error = true;
		return ci_exit_code(&obs);
	}
	char treespec[PATH_MAX + 32], abs[PATH_MAX] = "", cache[PATH_MAX], suffix[32];
	struct kspec ks;
	char err[1024];
	struct idlist bases = {0};
	bool bad = cli_flavour_suffix(flavour, suffix, sizeof suffix, err, sizeof err) < 0;
	snprintf(treespec, sizeof treespec, "tree:%s%s", realpath(tree, abs) ? abs : tree, suffix);
	bad = bad || baselines(baseline, &bases, err, sizeof err) < 0 ||
	      kspec_parse(treespec, &ks, err, sizeof err) < 0;
	for (size_t i = 0; !bad && i < bases.n; i++)
		bad = kspec_parse(bases.v[i], &ks, err, sizeof err) < 0;
	if (bad || !bases.n) {
		fprintf(stderr, "ttypot: ci: %s\n", bad ? err : "no baseline kernel");
		obs.usage_error = true;
		idlist_free(&bases);
		return ci_exit_code(&obs);
	}
	if (o.cache_dir)
		snprintf(cache, sizeof cache, "%s", o.cache_dir);
	else
		ku_default_cache(cache, sizeof cache);
	if (abs[0])
		kr_ccache_basedir(abs, cache);
	struct patch_order po = {0};
	if (base)
		plan_order(&o, abs[0] ? abs : tree, base, map, argv[0], &po);
	char **args = xrealloc(NULL, (bases.n + 2) * sizeof *args);
	for (size_t i = 0; i < bases.n; i++)
		args[i] = bases.v[i];
	args[bases.n] = treespec;
	args[bases.n + 1] = NULL;
	o.args = args;
	o.nargs = (int)bases.n + 1;
	o.reuse = !fresh;
	o.run_fresh = treespec;
	o.split_spec = o.split_first ? treespec : NULL;
	const char *judge = bases.v[0];
	/* The first baseline is the matrix's (matrix_set_baseline(NULL)). */
	obs.matrix_rc = cmd_matrix(&o, argv[0]);
	free(args);
	patch_order_free(&po);
	char path[PATH_MAX + 32];
	snprintf(path, sizeof path, "%s/matrix.json", o.outdir);
	struct matrix m;
	matrix_init(&m);
	char mbase[256];
	if (merge_load_json(&m, path, mbase, sizeof mbase, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: ci: no matrix to judge: %s\n", err);
		obs.usage_error = true;
		matrix_free(&m);
		idlist_free(&bases);
		return ci_exit_code(&obs);
	}
	long tcol = -1, bcol = -1;
	for (size_t c = 0; c < m.ncols; c++) {
		if (!strcmp(m.cols[c]->spec, treespec))
			tcol = (long)c;
		else if (bcol < 0 && !strcmp(m.cols[c]->spec, judge))
			bcol = (long)c;
	}
	if (tcol >= 0) {
		const struct column *t = m.cols[tcol];
		obs.tree_built = t->uname[0] || t->config_hash[0];
		if (!obs.tree_built)
			fprintf(stderr, "ttypot: ci: the tree did not build: %s\n", t->error);
	}
	if (bcol >= 0) {
		obs.baseline_ran = col_ran(m.cols[bcol]);
		if (!obs.baseline_ran)
			fprintf(stderr, "ttypot: ci: the baseline %s gave no results: %s\n",
				judge, m.cols[bcol]->error);
		if (matrix_set_baseline(&m, m.cols[bcol]->label, err, sizeof err) == 0) {
			matrix_build(&m);
			if (tcol >= 0)
				obs.regressions = m.sum[tcol].regressions;
		}
	}
	matrix_free(&m);
	if (mutants && obs.tree_built) {
		int mrc = run_mutants(&o, argv[0], abs[0] ? abs : tree, base, map);
		obs.survivors = mrc == 1;
		obs.mutants_error = mrc != 0 && mrc != 1;
	}
	int rc = ci_exit_code(&obs);
	printf("ttypot: ci: %s against %s: %s (exit %d), %.0f s\n", treespec, judge,
	       rc == CI_OK ? "no regression" : rc == CI_REGRESSIONS ? "regressions" :
	       rc == CI_BUILD_FAILED ? "the tree does not build" : "error", rc,
	       progress_now() - o.start);
	idlist_free(&bases);
	return rc;
}
