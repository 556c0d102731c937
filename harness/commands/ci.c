/* ci.c: `ttypot ci`: the two-column matrix (baseline, tree:DIR) of
 * orchestrate.c, with an exit status a CI system can act on (ci.h). */
#include "ci.h"
#include "run_one_kernel.h"
#include "cli.h"
#include "kutil.h"
#include "matrix.h"
#include "merge.h"
#include "commands.h"
#include "rbuf.h"

#include <errno.h>
#include <limits.h>

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
	return CI_OK;
}

static void ci_usage(void)
{
	fputs("usage: ttypot ci --tree DIR --baseline KERNEL [-o DIR] [--cases FILTER]\n"
	      "                 [--cache DIR] [--suite DIR] [--deadline S] [--expect DIR]\n"
	      "Exit: 0 no regression, 1 regressions, 2 usage/input errors or no baseline\n"
	      "results, 3 the tree does not build.\n", stderr);
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

int cmd_ci(int argc, char **argv)
{
	struct ci_obs obs = {0};
	struct cli o;
	memset(&o, 0, sizeof o);
	o.cmd = CMD_MATRIX;
	o.outdir = CLI_DEFAULT_OUTDIR;
	o.deadline_s = CLI_DEFAULT_DEADLINE_S;
	o.jobs = 1;
	const char *tree = NULL, *baseline = NULL;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		char name[64];
		const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
		if (eq) {
			snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
			val = eq + 1;
		} else {
			snprintf(name, sizeof name, "%s", a);
		}
		static const char *const known[] = { "--tree", "--baseline", "-o", "--cases",
			"--cache", "--suite", "--deadline", "--expect", "-j", NULL };
		bool ok = false;
		for (int k = 0; known[k]; k++)
			ok |= !strcmp(name, known[k]);
		if (!ok) {
			fprintf(stderr, "ttypot: ci: unknown argument '%s'\n", a);
			ci_usage();
			obs.usage_error = true;
			return ci_exit_code(&obs);
		}
		if (!val) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ttypot: ci: %s needs a value\n", name);
				obs.usage_error = true;
				return ci_exit_code(&obs);
			}
			val = argv[++i];
		}
		if (!*val) {
			fprintf(stderr, "ttypot: ci: %s needs a non-empty value\n", name);
			obs.usage_error = true;
			return ci_exit_code(&obs);
		}
		if (!strcmp(name, "--tree")) tree = val;
		else if (!strcmp(name, "--baseline")) baseline = val;
		else if (!strcmp(name, "-o")) o.outdir = val;
		else if (!strcmp(name, "--cases")) o.cases = val;
		else if (!strcmp(name, "--cache")) o.cache_dir = val;
		else if (!strcmp(name, "--suite")) o.suite_dir = val;
		else if (!strcmp(name, "--expect")) o.expect_dir = val;
		else {
			char *end;
			long n = strtol(val, &end, 10);
			if (*end || n < 1 || n > 1000000) {
				fprintf(stderr, "ttypot: ci: %s: '%s' is not a number >= 1\n", name, val);
				obs.usage_error = true;
				return ci_exit_code(&obs);
			}
			if (!strcmp(name, "-j"))
				o.jobs = (int)n;
			else
				o.deadline_s = (int)n;
		}
	}
	if (!tree || !baseline) {
		fprintf(stderr, "ttypot: ci: %s is required\n", !tree ? "--tree DIR" : "--baseline KERNEL");
		ci_usage();
		obs.usage_error = true;
		return ci_exit_code(&obs);
	}
	char treespec[PATH_MAX + 8], abs[PATH_MAX] = "", cache[PATH_MAX];
	snprintf(treespec, sizeof treespec, "tree:%s", realpath(tree, abs) ? abs : tree);
	struct kspec ks;
	char err[1024];
	if (kspec_parse(baseline, &ks, err, sizeof err) < 0 ||
	    kspec_parse(treespec, &ks, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: ci: %s\n", err);
		obs.usage_error = true;
		return ci_exit_code(&obs);
	}
	if (o.cache_dir)
		snprintf(cache, sizeof cache, "%s", o.cache_dir);
	else
		ku_default_cache(cache, sizeof cache);
	if (abs[0])
		kr_ccache_basedir(abs, cache);
	char *args[3] = { (char *)baseline, treespec, NULL };
	o.args = args;
	o.nargs = 2;
	/* The baseline is the first column (matrix_set_baseline(NULL)). */
	obs.matrix_rc = cmd_matrix(&o, argv[0]);
	char path[PATH_MAX + 32];
	snprintf(path, sizeof path, "%s/matrix.json", o.outdir);
	struct matrix m;
	matrix_init(&m);
	char base[256];
	if (merge_load_json(&m, path, base, sizeof base, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: ci: no matrix to judge: %s\n", err);
		obs.usage_error = true;
		matrix_free(&m);
		return ci_exit_code(&obs);
	}
	long tcol = -1, bcol = -1;
	for (size_t c = 0; c < m.ncols; c++) {
		if (!strcmp(m.cols[c]->spec, treespec))
			tcol = (long)c;
		else if (!strcmp(m.cols[c]->spec, baseline))
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
				baseline, m.cols[bcol]->error);
		if (matrix_set_baseline(&m, m.cols[bcol]->label, err, sizeof err) == 0) {
			matrix_build(&m);
			if (tcol >= 0)
				obs.regressions = m.sum[tcol].regressions;
		}
	}
	matrix_free(&m);
	int rc = ci_exit_code(&obs);
	printf("ttypot: ci: %s against %s: %s (exit %d)\n", treespec, baseline,
	       rc == CI_OK ? "no regression" : rc == CI_REGRESSIONS ? "regressions" :
	       rc == CI_BUILD_FAILED ? "the tree does not build" : "error", rc);
	return rc;
}
