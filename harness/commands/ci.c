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
	"baseline with the suite, and writes the two-column matrix, JUnit and KCIDB\n"
	"JSON.  Exit: 0 no regression, 1 regressions, 2 usage/input errors or no\n"
	"baseline results, 3 the tree does not build.\n";

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
	const struct cli_opt opts[] = {
		{ "tree", 0, OPT_STR, &tree, 0, "DIR", "the kernel tree to build and test (required)" },
		{ "baseline", 0, OPT_STR, &baseline, 0, "KERNEL", "the kernel it is compared with (required)" },
		cli_opt_output(&o.outdir, "where the reports go (default reports)"),
		cli_opt_cases(&o.cases),
		cli_opt_cache(&o.cache_dir),
		cli_opt_suite(&o.suite_dir),
		cli_opt_deadline(&o.deadline_s),
		cli_opt_expect(&o.expect_dir),
		cli_opt_jobs(&o.jobs, "kernels at once (default 1)"),
		CLI_OPT_END,
	};
	enum cli_verdict v = cli_command(argc, argv, opts, "--tree DIR --baseline KERNEL [OPTIONS]",
					 ci_more, NULL, NULL);
	if (v == CLI_HELP || v == CLI_VERSION)
		return CI_OK;
	if (v == CLI_ERROR) {
		obs.usage_error = true;
		return ci_exit_code(&obs);
	}
	if (!tree || !baseline) {
		fprintf(stderr, "ttypot: ci: %s is required ('ci --help' shows the options)\n",
			!tree ? "--tree DIR" : "--baseline KERNEL");
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
