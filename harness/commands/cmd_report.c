// SPDX-License-Identifier: GPL-2.0-only
/* cmd_report.c: `ttypot report` (re-render matrix.json and results files)
 * and `ttypot merge` (combine matrix.json files). */
#include "commands.h"
#include "ingest.h"
#include "merge.h"
#include "rbuf.h"
#include "render.h"
#include "suite_dir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool looks_like_json(const char *path)
{
	char err[256];
	size_t len;
	char *t = read_file(path, &len, err, sizeof err);
	if (!t)
		return false;
	size_t i = strspn(t, " \t\r\n");
	bool j = t[i] == '{';
	free(t);
	return j;
}

int cmd_report(const struct cli *o, const char *argv0)
{
	char err[1024], suite[PATH_MAX], base[256] = "";
	find_suite_dir(o->suite_dir, argv0, suite, sizeof suite);
	struct expectations ex = {0};
	if (load_expectations(o, suite, &ex) < 0)
		return 2;
	struct matrix m;
	matrix_init(&m);
	int rc = 0;
	for (int i = 0; i < o->nargs && rc == 0; i++) {
		const char *path = o->args[i];
		if (access(path, R_OK) < 0) {
			fprintf(stderr, "ttypot: %s: %s\n", path, strerror(errno));
			rc = 2;
		} else if (looks_like_json(path)) {
			char b[256];
			if (merge_load_json(&m, path, b, sizeof b, err, sizeof err) < 0) {
				fprintf(stderr, "ttypot: %s\n", err);
				rc = 2;
			} else if (!base[0]) {
				snprintf(base, sizeof base, "%s", b);
			}
		} else {
			/* a results-channel file: label = its name without .results */
			const char *slash = strrchr(path, '/');
			char label[128];
			snprintf(label, sizeof label, "%s", slash ? slash + 1 : path);
			char *dot = strstr(label, ".results");
			if (dot && dot[8] == '\0')
				*dot = '\0';
			struct column *c = col_new(label);
			snprintf(c->spec, sizeof c->spec, "%s", path);
			if (ingest_file(c, path, err, sizeof err) < 0) {
				fprintf(stderr, "ttypot: %s\n", err);
				col_free(c);
				rc = 2;
				break;
			}
			ingest_finish(c, NULL, NULL);
			expect_apply(&ex, c);
			matrix_add(&m, c);
		}
	}
	if (rc == 0 && o->format)
		rc = render_format(&m, o->baseline ? o->baseline : base, o->format);
	else if (rc == 0)
		rc = render_matrix(&m, o->baseline ? o->baseline : base, o->outdir);
	matrix_free(&m);
	expect_free(&ex);
	return rc;
}

int cmd_merge(const struct cli *o)
{
	char err[1024], base[256] = "";
	struct matrix m;
	matrix_init(&m);
	for (int i = 0; i < o->nargs; i++) {
		char b[256];
		if (merge_load_json(&m, o->args[i], b, sizeof b, err, sizeof err) < 0) {
			fprintf(stderr, "ttypot: %s\n", err);
			matrix_free(&m);
			return 2;
		}
		if (!base[0])
			snprintf(base, sizeof base, "%s", b);
	}
	int rc = render_matrix(&m, o->baseline ? o->baseline : base, o->outdir);
	matrix_free(&m);
	return rc;
}
