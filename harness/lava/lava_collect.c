// SPDX-License-Identifier: GPL-2.0-only
/* lava_collect.c: `ttypot lava collect`: wait for jobs (bounded, with
 * progress), read each job's log through the REST API and render the jobs as
 * matrix columns labelled LABEL@lava (lava_log.c builds each column). */
/* Paths are bounded by PATH_MAX; a truncated message is only shorter. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lava.h"
#include "lava_cmd.h"
#include "expectations.h"
#include "ingest.h"
#include "kutil.h"
#include "matrix.h"
#include "proc.h"
#include "render.h"
#include "suite_dir.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LAVA_POLL_S 5
#define LAVA_PROGRESS_EVERY_S 30
#define LAVA_POLL_TRIES 6 /* failed polls in a row before collect gives up */
#define KYUA_LIST_DEADLINE_S 120

struct ljob {
	long id;
	char state[32], health[32];
	char *failure;    /* failure_comment */
	char *definition; /* original_definition */
	bool finished;
	int poll_errors;  /* failed polls in a row */
};

static const char *jstr(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static int job_poll(struct lava_server *s, struct ljob *j, char *err, size_t errlen)
{
	char path[64];
	snprintf(path, sizeof path, "/api/v0.2/jobs/%ld/", j->id);
	struct rbuf b = {0};
	int rc = lava_get(s, path, &b, err, errlen);
	json_error_t je;
	json_t *o = rc == 0 ? json_loads(rbuf_str(&b), 0, &je) : NULL;
	rbuf_free(&b);
	if (rc == 0 && !json_is_object(o)) {
		snprintf(err, errlen, "GET %s: not a JSON object", path);
		rc = -1;
	}
	if (rc == 0) {
		snprintf(j->state, sizeof j->state, "%s", jstr(o, "state"));
		snprintf(j->health, sizeof j->health, "%s", jstr(o, "health"));
		free(j->failure);
		j->failure = utf8_clean(jstr(o, "failure_comment"), strlen(jstr(o, "failure_comment")));
		if (!j->definition)
			j->definition = xstrdup(jstr(o, "original_definition"));
		j->finished = !strcmp(j->state, "Finished");
	}
	json_decref(o);
	return rc;
}

/* Poll every job until all finished, the deadline, or Ctrl-C.  A job the
 * server does not know is an error (-1). */
static int wait_jobs(struct lava_server *s, struct ljob *jobs, size_t n, int deadline_s)
{
	char err[1024];
	double t0 = proc_now(), last = -1;
	for (;;) {
		size_t done = 0;
		bool changed = false;
		for (size_t i = 0; i < n; i++) {
			if (jobs[i].finished) {
				done++;
				continue;
			}
			char before[32];
			snprintf(before, sizeof before, "%s", jobs[i].state);
			if (job_poll(s, &jobs[i], err, sizeof err) < 0) {
				/* A server restart or a network hiccup: try again
				 * next round; a job that never answers ends it. */
				fprintf(stderr, "ttypot: lava: job %ld: %s\n", jobs[i].id, err);
				if (++jobs[i].poll_errors >= LAVA_POLL_TRIES)
					return -1;
				continue;
			}
			jobs[i].poll_errors = 0;
			if (strcmp(before, jobs[i].state)) {
				changed = true;
				fprintf(stderr, "[%zu/%zu] LAVA job %ld: %s%s%s (%.0f s)\n", i + 1, n,
					jobs[i].id, jobs[i].state, jobs[i].finished ? ", " : "",
					jobs[i].finished ? jobs[i].health : "", proc_now() - t0);
			}
			done += jobs[i].finished;
		}
		double now = proc_now();
		if (done == n)
			return 0;
		if (lava_interrupted || now - t0 > deadline_s) {
			fprintf(stderr, "ttypot: lava: %s after %.0f s: %zu of %zu jobs unfinished\n",
				lava_interrupted ? "interrupted" : "collect deadline passed", now - t0,
				n - done, n);
			return 0;
		}
		if (!changed && (last < 0 || now - last >= LAVA_PROGRESS_EVERY_S)) {
			fprintf(stderr, "ttypot: lava: %zu/%zu jobs finished, waiting (%.0f s of %d)\n",
				done, n, now - t0, deadline_s);
			last = now;
		}
		for (int k = 0; k < LAVA_POLL_S * 4 && !lava_interrupted; k++) {
			struct timespec ts = { 0, 250000000L };
			nanosleep(&ts, NULL);
		}
	}
}

static bool label_taken(struct matrix *m, const char *label)
{
	for (size_t i = 0; i < m->ncols; i++)
		if (!strcmp(m->cols[i]->label, label))
			return true;
	return false;
}

/* One job as a column: its log through the REST API, ingested, ended. */
static struct column *job_column(struct lava_server *s, struct ljob *j, const char *rawdir,
				 struct matrix *m, const struct lava_opts *o, char **cases_out)
{
	char *label = lava_def_meta(j->definition, "label");
	char *spec = lava_def_meta(j->definition, "spec");
	char *cases = lava_def_meta(j->definition, "cases");
	char want[128], lab[128];
	if (label && *label)
		snprintf(want, sizeof want, "%.100s@lava", label);
	else
		snprintf(want, sizeof want, "lava-job-%ld", j->id);
	snprintf(lab, sizeof lab, "%s", want);
	for (int k = 2; label_taken(m, lab); k++)
		snprintf(lab, sizeof lab, "%.110s-%d", want, k);
	struct column *c = col_new(lab);
	snprintf(c->spec, sizeof c->spec, "%s", spec && *spec ? spec : "");
	char *version = lava_def_meta(j->definition, "version");
	char *config = lava_def_meta(j->definition, "config");
	snprintf(c->version, sizeof c->version, "%s", version ? version : "");
	snprintf(c->config_hash, sizeof c->config_hash, "%s", config ? config : "");
	free(version);
	free(config);
	snprintf(c->accel, sizeof c->accel, "tcg");
	char v[64];
	snprintf(v, sizeof v, "%ld", j->id);
	col_set_feature(c, "lava_job", v);
	/* Never credentials in a report: drop any user:password@. */
	char shown[512];
	const char *scheme = strstr(s->url, "://"), *at = strchr(s->url, '@');
	if (scheme && at && at > scheme)
		snprintf(shown, sizeof shown, "%.*s%s", (int)(scheme + 3 - s->url), s->url, at + 1);
	else
		snprintf(shown, sizeof shown, "%s", s->url);
	col_set_feature(c, "lava_server", shown);
	*cases_out = o->cases ? xstrdup(o->cases) : cases ? xstrdup(cases) : xstrdup("");

	char path[64], err[1024];
	snprintf(path, sizeof path, "/api/v0.2/jobs/%ld/logs/", j->id);
	struct rbuf log = {0};
	struct lava_log info;
	memset(&info, 0, sizeof info);
	if (lava_get(s, path, &log, err, sizeof err) < 0) {
		/* No log (yet): the state alone decides the column. */
		fprintf(stderr, "ttypot: lava: job %ld: %s\n", j->id, err);
		info.console_tail = xstrdup("");
		info.boot_s = -1;
	} else {
		char safe[128], name[200];
		safe_name(lab, safe, sizeof safe);
		snprintf(name, sizeof name, "%s.lava-log.yaml", safe);
		write_file(rawdir, name, &log, err, sizeof err);
		lava_log_read(c, rbuf_str(&log), log.len, &info);
	}
	rbuf_free(&log);
	if (info.boot_s >= 0)
		c->boot_s = info.boot_s;
	lava_column_end(c, j->id, j->state, j->finished ? j->health : NULL, j->failure, &info);
	lava_log_free(&info);
	free(label);
	free(spec);
	free(cases);
	return c;
}

int lava_cmd_collect(const struct lava_opts *o, const char *argv0, const long *ids, size_t n)
{
	char err[1024], suite[PATH_MAX], rawdir[PATH_MAX + 8];
	struct lava_server s;
	if (lava_open(&s, o->server, o->token_file, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: %s\n", err);
		return 2;
	}
	find_suite_dir(o->suite, argv0, suite, sizeof suite);
	snprintf(rawdir, sizeof rawdir, "%s/raw", o->outdir);
	struct ljob *jobs = xrealloc(NULL, n * sizeof *jobs);
	memset(jobs, 0, n * sizeof *jobs);
	for (size_t i = 0; i < n; i++)
		jobs[i].id = ids[i];
	int rc = 2;
	struct idlist expected = {0};
	struct expectations ex = {0};
	struct matrix m;
	matrix_init(&m);
	if (mkdir_p(rawdir) < 0) {
		fprintf(stderr, "ttypot: lava: -o %s: %s\n", o->outdir, strerror(errno));
		goto out;
	}
	lava_catch_signals();
	if (wait_jobs(&s, jobs, n, o->deadline_s) < 0)
		goto out;
	char kyuafile[PATH_MAX + 32], dir[PATH_MAX + 32];
	snprintf(kyuafile, sizeof kyuafile, "%s/cases/Kyuafile", suite);
	if (caselist_kyua(kyuafile, KYUA_LIST_DEADLINE_S, &expected, err, sizeof err) < 0)
		fprintf(stderr, "ttypot: lava: warning: no expected case list (%s): cases a "
			"job never reports will not show as missing\n", err);
	snprintf(dir, sizeof dir, "%s/fixtures/expect", suite);
	if (expect_load_dir(&ex, o->expect ? o->expect : dir, err, sizeof err) < 0) {
		fprintf(stderr, "ttypot: lava: expectations: %s\n", err);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		char *cases = NULL;
		struct column *c = job_column(&s, &jobs[i], rawdir, &m, o, &cases);
		ingest_finish(c, &expected, cases);
		expect_apply(&ex, c);
		free(cases);
		matrix_add(&m, c);
	}
	rc = render_matrix(&m, o->baseline, o->outdir);
	if (lava_interrupted && rc < 2)
		rc = 2;
out:
	lava_close(&s);
	matrix_free(&m);
	idlist_free(&expected);
	expect_free(&ex);
	for (size_t i = 0; i < n; i++) {
		free(jobs[i].failure);
		free(jobs[i].definition);
	}
	free(jobs);
	return rc;
}
