// SPDX-License-Identifier: GPL-2.0-only
/* report_mutation.c: what the mutation report formats share (counts, the
 * score's interval, operator names) and writing all three into a directory. */
#include "report_mutation.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kutil.h"

void mutation_tally_add(struct mutation_tally *t, const struct mutant *m)
{
	if ((unsigned)m->status < MS__N)
		t->n[m->status]++;
	t->total++;
}

size_t mutation_tally_killed(const struct mutation_tally *t)
{
	return t->n[MS_KILLED] + t->n[MS_KILLED_TIMEOUT] + t->n[MS_KILLED_WARNING];
}

size_t mutation_tally_scored(const struct mutation_tally *t)
{
	return mutation_tally_killed(t) + t->n[MS_SURVIVED];
}

size_t mutation_tally_scored_all(const struct mutation_tally *t)
{
	return mutation_tally_scored(t) + t->n[MS_NOT_COVERED];
}

/* Wilson (1927): unlike p +- z*sqrt(p(1-p)/n) it stays inside [0, 1] and
 * does not collapse to a point at 0 or n kills, which small per-file
 * samples hit. */
bool mutation_wilson95(size_t k, size_t n, double *lo, double *hi)
{
	if (n == 0)
		return false;
	const double z = 1.959963984540054, z2 = z * z;
	double p = (double)k / (double)n, nn = (double)n;
	double denom = 1 + z2 / nn;
	double centre = (p + z2 / (2 * nn)) / denom;
	double half = z / denom * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
	*lo = fmax(0, centre - half);
	*hi = fmin(1, centre + half);
	return true;
}

const char *mutation_op_text(enum mut_op op)
{
	switch (op) {
	case OP_ROR: return "relational operator replaced";
	case OP_NEG: return "condition negated";
	case OP_CALL: return "call statement removed";
	case OP_ERRNO: return "errno constant replaced";
	case OP_OBO: return "integer constant off by one";
	case OP_FLAG: return "flag removed from a test or mask";
	case OP_RET: return "return value replaced";
	default: return "unknown operator";
	}
}

void mutation_npm_dir(char *out, size_t outlen)
{
	const char *d = getenv("TTYPOT_NPM_DIR");
	if (d && *d) {
		snprintf(out, outlen, "%s", d);
		return;
	}
	char cache[3000];
	ku_default_cache(cache, sizeof cache);
	snprintf(out, outlen, "%s/npm", cache);
}

int mutation_report_write(const char *dir, const struct mutant *m, size_t n,
			  const char *src_root, const struct mutation_report_info *info,
			  char *err, size_t errlen)
{
	struct mutation_report_info none = {0};
	if (!info)
		info = &none;
	if (mkdir_p(dir) < 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	struct rbuf md = {0}, js = {0}, html = {0};
	mutation_report_md(m, n, info, &md);
	int rc = write_file(dir, "mutation.md", &md, err, errlen);
	char why[1024] = "";
	if (rc == 0 && mutation_report_json(m, n, src_root, info, &js, why, sizeof why) < 0) {
		snprintf(err, errlen, "mutation-report.json: %s", why);
		rc = -1;
	}
	if (rc == 0)
		rc = write_file(dir, "mutation-report.json", &js, err, errlen);
	char npm[3100];
	mutation_npm_dir(npm, sizeof npm);
	if (rc == 0 && mutation_report_html(rbuf_str(&js), info, npm, &html, why, sizeof why) < 0) {
		snprintf(err, errlen, "mutation.html not written (mutation.md and "
			 "mutation-report.json are): %s", why);
		rc = -1;
	}
	if (rc == 0)
		rc = write_file(dir, "mutation.html", &html, err, errlen);
	rbuf_free(&md);
	rbuf_free(&js);
	rbuf_free(&html);
	return rc;
}
