// SPDX-License-Identifier: GPL-2.0-only
/* cmd_matrix.c: `ttypot matrix` and `ttypot run`: parse the kernels,
 * resolve them in a child (resolver.c) while the ready ones run, -j at a
 * time (each in a detached runner, with progress), ingest, render.
 * Everything collected is rendered even when a kernel fails or the run is
 * interrupted. */
#include "commands.h"
#include "deflist.h"
#include "expectations.h"
#include "guest.h"
#include "ingest.h"
#include "matrix.h"
#include "progress.h"
#include "rbuf.h"
#include "rcache.h"
#include "render.h"
#include "resolver.h"
#include "run_detached.h"
#include "suite_dir.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KYUA_LIST_DEADLINE_S 120
#define WATCHDOG_GRACE_S 120   /* past --deadline, the runner process is killed */
#define POLL_MS 250
#define CONSOLE_TAIL_LINES 40

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* The last n lines of a file (console excerpt), malloc'd; "" if none. */
static char *file_tail(const char *path, int lines)
{
	char err[256];
	size_t len = 0;
	char *text = path && *path ? read_file(path, &len, err, sizeof err) : NULL;
	if (!text)
		return xstrdup("");
	size_t end = len;
	while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r'))
		end--;
	size_t start = end;
	int seen = 0;
	while (start > 0) {
		if (text[start - 1] == '\n' && ++seen == lines)
			break;
		start--;
	}
	char *tail = utf8_clean(text + start, end - start);
	free(text);
	/* drop the CRs of a serial console */
	char *w = tail;
	for (char *r = tail; *r; r++)
		if (*r != '\r')
			*w++ = *r;
	*w = '\0';
	return tail;
}

struct job {
	struct kspec spec;
	struct kernel_info ki;
	struct column *col;
	bool resolved;       /* the resolver reported it (or gave up on it) */
	bool runnable;       /* resolved, not an error column */
	pid_t pid;
	bool done;
	double t0;
	char results[4400], console[4400], outcome[4400];
	struct progress prog;
	struct rcache_key key; /* what determines its results (rcache.h) */
	bool keyed;            /* key computed: a guest column that can be kept */
	bool cache_tried;      /* from_cache() asked */
	/* A split column (ci --base): two boots, the first with the cases
	 * reaching the change, then the rest, collected into one column. */
	int phase, nphases;
	const char *phase_cases[2];
	char first_results[4400];
	struct run_outcome first_out;
	bool first_have;
	size_t reg_checked;    /* cases looked at for the first regression */
	double t_first_boot;   /* when its first boot started */
	bool reg_seen;
};

static void job_paths(struct job *j, const char *rawdir)
{
	char safe[128];
	safe_name(j->col->label, safe, sizeof safe);
	snprintf(j->results, sizeof j->results, "%s/%s.results", rawdir, safe);
	snprintf(j->console, sizeof j->console, "%s/%s.console", rawdir, safe);
	snprintf(j->outcome, sizeof j->outcome, "%s/%s.outcome", rawdir, safe);
}

/* The column from a run's outcome (have: the runner left one), its
 * results file and, when it did not finish, its console's tail. */
static void job_collect(struct job *j, const struct run_outcome *out, int wstatus,
			bool killed)
{
	struct column *c = j->col;
	if (out) {
		c->end = ingest_end(out->end);
		snprintf(c->accel, sizeof c->accel, "%s", out->accel);
		c->boot_s = out->boot_s;
		c->suite_s = out->suite_s;
		if (out->console_path[0])
			snprintf(j->console, sizeof j->console, "%s", out->console_path);
		if (out->end == RUN_ERROR)
			col_set_error(c, out->err[0] ? out->err : "the run could not start");
		else if (out->err[0])
			col_set_error(c, out->err);
	} else if (killed) {
		c->end = END_TIMEOUT;
		col_set_error(c, "the runner passed its deadline and was killed");
	} else {
		char msg[128];
		if (WIFSIGNALED(wstatus))
			snprintf(msg, sizeof msg, "the runner died (signal %d)", WTERMSIG(wstatus));
		else
			snprintf(msg, sizeof msg, "the runner exited (%d) without an outcome",
				 WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
		c->end = interrupted ? END_ERROR : END_SILENT;
		col_set_error(c, interrupted ? "interrupted" : msg);
	}
	char err[512];
	long first_cases = -1;
	if (j->phase > 0) {
		/* a split column: the first boot's cases, then the rest's */
		c->boot_s += j->first_out.boot_s;
		c->suite_s += j->first_out.suite_s;
		if (ingest_file(c, j->first_results, err, sizeof err) == 0)
			first_cases = c->begin_cases;
		enum col_end e1 = j->first_have ? ingest_end(j->first_out.end) : END_SILENT;
		if (e1 != END_DONE && c->end == END_DONE) {
			c->end = e1;
			col_set_error(c, j->first_out.err[0] ? j->first_out.err :
				      "the first boot did not finish");
		}
	}
	if (ingest_file(c, j->results, err, sizeof err) < 0 && c->end == END_DONE) {
		c->end = END_ERROR;
		col_set_error(c, err);
	}
	if (first_cases >= 0 && c->begin_cases >= 0)
		c->begin_cases += first_cases;
	if (c->end != END_DONE || (c->end_seen == 0)) {
		char *tail = file_tail(j->console, CONSOLE_TAIL_LINES);
		col_set_console(c, tail);
		free(tail);
	}
	j->done = true;
}

static bool label_taken(struct job *jobs, size_t n, const char *label)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(jobs[i].col->label, label) == 0)
			return true;
	return false;
}

static int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n >= 4 ? (int)(n / 2) : 1;
}

/* What one matrix run works with. */
struct mrun {
	const struct cli *o;
	char suite[PATH_MAX];
	char rawdir[PATH_MAX + 8];
	char initramfs[PATH_MAX + 32];
	struct idlist specs;    /* kernels as given (or the default list) */
	char initramfs_err[1024]; /* why the guest initramfs failed, or "" */
	struct resolved rv;     /* the resolver's latest report */
	struct job *jobs;
	size_t n;
	size_t unusable;        /* kernels that failed to resolve */
	struct idlist expected; /* the suite's cases, for missing cells */
	struct metalist meta;   /* their descriptions and commits */
	long nexpected;         /* of those, selected by --cases */
	struct expectations ex;
	char run_name[PATH_MAX]; /* which run, for the result cache: -o DIR */
	double t0;               /* the start, for the first regression's time */
	struct run_opts ro;      /* what every run gets (a split column: its filters) */
	size_t *order;           /* resolver position -> job (run_fresh's first) */
};

/* The kernels: host for run, the command line with its presets expanded
 * (none: the default preset); every spec must parse, and --arch apply,
 * before any work.  -1 with a message printed. */
static int take_specs(struct mrun *r)
{
	const struct cli *o = r->o;
	char err[1024];
	if (o->cmd == CMD_RUN) {
		idlist_add(&r->specs, "host");
	} else {
		if (deflist_expand(&deflist_apt, o->args, o->nargs, &r->specs, err,
				   sizeof err) < 0) {
			fprintf(stderr, "ttypot: %s\n", err);
			return -1;
		}
		bool preset = o->nargs == 0;
		for (int i = 0; i < o->nargs; i++)
			preset |= !strcmp(o->args[i], "default") || !strcmp(o->args[i], "abi");
		if (preset) {
			fprintf(stderr, "ttypot: kernels:");
			for (size_t i = 0; i < r->specs.n; i++)
				fprintf(stderr, " %s", r->specs.v[i]);
			fprintf(stderr, "\n");
		}
	}
	r->n = r->specs.n;
	r->jobs = xrealloc(NULL, r->n * sizeof *r->jobs);
	memset(r->jobs, 0, r->n * sizeof *r->jobs);
	struct kspec *specs = xrealloc(NULL, (r->n + 1) * sizeof *specs);
	memset(specs, 0, (r->n + 1) * sizeof *specs);
	int rc = deflist_parse_specs(&r->specs, o->arch, specs, err, sizeof err);
	for (size_t i = 0; i < r->n; i++)
		r->jobs[i].spec = specs[i];
	free(specs);
	if (rc < 0) {
		fprintf(stderr, "ttypot: %s\n", err);
		return -1;
	}
	return 0;
}

/* Expectations, the raw directory and the expected case list. */
static int prepare(struct mrun *r)
{
	const struct cli *o = r->o;
	char err[1024];
	if (load_expectations(o, r->suite, &r->ex) < 0)
		return -1;
	snprintf(r->rawdir, sizeof r->rawdir, "%s/raw", o->outdir);
	if (mkdir_p(r->rawdir) < 0) {
		fprintf(stderr, "ttypot: -o %s: %s\n", o->outdir, strerror(errno));
		return -1;
	}
	char kyuafile[PATH_MAX + 32];
	snprintf(kyuafile, sizeof kyuafile, "%s/cases/Kyuafile", r->suite);
	if (caselist_kyua_meta(kyuafile, KYUA_LIST_DEADLINE_S, &r->expected, &r->meta, err,
			       sizeof err) < 0)
		fprintf(stderr, "ttypot: warning: no expected case list (%s): cases a "
			"kernel never reports will not show as missing\n", err);
	for (size_t i = 0; i < r->expected.n; i++)
		r->nexpected += case_selected(o->cases, r->expected.v[i]);
	return 0;
}

/* A column for every kernel up front, so one that never got resolved
 * (interrupted, the resolver died) still shows in the matrix. */
static void make_columns(struct mrun *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct job *j = &r->jobs[i];
		j->col = col_new(NULL);
		snprintf(j->col->spec, sizeof j->col->spec, "%s", j->spec.text);
		snprintf(j->col->label, sizeof j->col->label, "%.127s", j->spec.text);
		/* what the spec asks for; the resolver's answer when it has one */
		col_set_arch(j->col, j->spec.arch, j->spec.abi);
		const struct cli *o = r->o;
		if (o->split_spec && !strcmp(j->spec.text, o->split_spec)) {
			j->nphases = 2;
			j->phase_cases[0] = o->split_first;
			j->phase_cases[1] = o->split_rest;
		}
	}
}

/* A guest cannot run without the initramfs: its column says why. */
static void initramfs_check(struct mrun *r, struct job *j)
{
	if (j->spec.kind == KSPEC_HOST || !r->initramfs_err[0])
		return;
	char msg[1100];
	snprintf(msg, sizeof msg, "initramfs: %s", r->initramfs_err);
	j->runnable = false;
	j->col->end = END_ERROR;
	col_set_error(j->col, msg);
}

/* A kernel the resolver reported: its column label and header, or an
 * error column.  Labels are given in spec order, unique in the run. */
static void accept_resolved(struct mrun *r, const struct resolved *rv)
{
	size_t i = rv->index;
	struct job *j = &r->jobs[i];
	j->ki = rv->ki;
	j->resolved = true;
	j->col->resolve_s = rv->seconds;
	if (rv->rc == 0)
		col_set_arch(j->col, j->ki.arch[0] ? j->ki.arch : NULL,
			     j->ki.abi[0] ? j->ki.abi : NULL);
	char want[128], label[128];
	if (rv->rc == 0)
		col_label_for(j->col, j->ki.label[0] ? j->ki.label : j->spec.text, want,
			      sizeof want);
	else
		snprintf(want, sizeof want, "%.127s", j->spec.text);
	snprintf(label, sizeof label, "%s", want);
	for (int k = 2; label_taken(r->jobs, i, label); k++)
		snprintf(label, sizeof label, "%.100s-%d", want, k);
	snprintf(j->col->label, sizeof j->col->label, "%s", label);
	if (rv->rc < 0) {
		fprintf(stderr, "[%zu/%zu] %s: %s\n", i + 1, r->n, label, rv->err);
		r->unusable++;
		j->col->end = END_ERROR;
		col_set_error(j->col, rv->err);
		return;
	}
	fprintf(stderr, "[%zu/%zu] %s: resolved in %.1f s\n", i + 1, r->n, label,
		rv->seconds);
	snprintf(j->col->uname, sizeof j->col->uname, "%s", j->ki.release);
	snprintf(j->col->version, sizeof j->col->version, "%s", j->ki.version);
	snprintf(j->col->config_hash, sizeof j->col->config_hash, "%s", j->ki.config_hash);
	j->runnable = true;
	initramfs_check(r, j);
}

/* One initramfs for every guest; when it cannot be built, every guest
 * becomes an error column (initramfs_check). */
static void build_initramfs(struct mrun *r)
{
	bool guests = false;
	for (size_t i = 0; i < r->n; i++)
		guests |= r->jobs[i].spec.kind != KSPEC_HOST;
	if (!guests)
		return;
	fprintf(stderr, "ttypot: building the guest initramfs\n");
	if (initramfs_build(r->suite, r->initramfs, r->initramfs_err,
			    sizeof r->initramfs_err) == 0)
		return;
	if (!r->initramfs_err[0])
		snprintf(r->initramfs_err, sizeof r->initramfs_err, "failed");
	fprintf(stderr, "ttypot: initramfs: %s\n", r->initramfs_err);
}

/* Did the column finish with every selected case reported (so that it may
 * stand for a run in the result cache)? */
static bool col_complete(const struct mrun *r, const struct column *c)
{
	if (c->end != END_DONE || !c->begin_seen || !c->end_seen || c->garbage ||
	    c->truncated || c->error[0] || r->nexpected <= 0)
		return false;
	for (size_t i = 0; i < r->expected.n; i++)
		if (case_selected(r->o->cases, r->expected.v[i]) &&
		    !col_find(c, r->expected.v[i]))
			return false;
	return true;
}

static bool reuse_allowed(const struct mrun *r, const struct job *j)
{
	return r->o->reuse && !(r->o->run_fresh && !strcmp(j->spec.text, r->o->run_fresh));
}

/* A finished, complete guest column goes into the result cache. */
static void keep_column(struct mrun *r, struct job *j, const struct run_outcome *out)
{
	if (!j->keyed || j->nphases || !col_complete(r, j->col))
		return;
	char err[512];
	if (rcache_store(r->o->cache_dir, &j->key, j->results, out, r->run_name, err,
			 sizeof err) < 0)
		fprintf(stderr, "ttypot: warning: %s: not kept in the result cache: %s\n",
			j->col->label, err);
}

/* The column read from the result cache when reuse is allowed and its key
 * matches an entry that gives a complete column; the key is computed for
 * every guest column (to keep it after the run).  True when it was read. */
static bool from_cache(struct mrun *r, struct job *j, const struct run_opts *ro)
{
	size_t idx = (size_t)(j - r->jobs) + 1;
	char err[512];
	j->cache_tried = true;
	if (j->spec.kind == KSPEC_HOST) {
		if (r->o->reuse)
			fprintf(stderr, "[%zu/%zu] %s: runs (the host is never cached)\n", idx,
				r->n, j->col->label);
		return false;
	}
	if (rcache_key(&j->ki, ro, &j->key, err, sizeof err) < 0) {
		if (reuse_allowed(r, j))
			fprintf(stderr, "[%zu/%zu] %s: runs (no result cache key: %s)\n", idx,
				r->n, j->col->label, err);
		return false;
	}
	j->keyed = true;
	if (!reuse_allowed(r, j))
		return false;
	job_paths(j, r->rawdir);
	struct rcache_hit hit;
	int got = rcache_fetch(r->o->cache_dir, &j->key, j->results, &hit, err, sizeof err);
	if (got < 0)
		fprintf(stderr, "[%zu/%zu] %s: result cache: %s\n", idx, r->n, j->col->label, err);
	/* Whole or not at all: an entry that does not give a complete column
	 * (it never should: the key holds the suite) is not used. */
	struct column *probe = col_new(j->col->label);
	bool whole = got == 1 && ingest_file(probe, j->results, err, sizeof err) == 0;
	probe->end = END_DONE;
	whole = whole && col_complete(r, probe);
	col_free(probe);
	if (!whole) {
		fprintf(stderr, "[%zu/%zu] %s: not in the result cache (key %.12s): runs\n", idx,
			r->n, j->col->label, j->key.hex);
		return false;
	}
	unlink(j->console);
	j->console[0] = '\0';
	job_collect(j, &hit.out, 0, false);
	rcache_hit_note(&hit, j->col->cached, sizeof j->col->cached);
	long bad = 0;
	for (size_t i = 0; i < j->col->ncases; i++)
		bad += status_bad(j->col->cases[i].raw);
	fprintf(stderr, "[%zu/%zu] %s: not run: %s (key %.12s), %zu cases, %ld failed\n",
		idx, r->n, j->col->label, j->col->cached, j->key.hex, j->col->ncases, bad);
	return true;
}

static void start_job(struct mrun *r, struct job *j, const struct run_opts *ro_all)
{
	struct run_opts ro = *ro_all;
	job_paths(j, r->rawdir);
	long expected = r->nexpected;
	if (j->nphases) {
		/* a split column: this boot's cases; the rest's raw files apart */
		ro.cases_filter = j->phase_cases[j->phase];
		expected = 0;
		for (size_t i = 0; i < r->expected.n; i++)
			expected += case_selected(ro.cases_filter, r->expected.v[i]);
		if (j->phase > 0) {
			char *paths[] = { j->results, j->console, j->outcome };
			for (size_t i = 0; i < 3; i++) {
				char *dot = strrchr(paths[i], '.');
				char ext[32];
				snprintf(ext, sizeof ext, "%s", dot);
				snprintf(dot, 4400 - (size_t)(dot - paths[i]), ".rest%s", ext);
			}
		}
		fprintf(stderr, "[%zu/%zu] %s: %s: %ld case%s\n", (size_t)(j - r->jobs) + 1, r->n,
			j->col->label, j->phase ? "then the rest" :
			"first the cases reaching the change", expected, expected == 1 ? "" : "s");
	}
	struct detached_paths dp = { j->results, j->console, j->outcome, NULL };
	pid_t pid = run_detached(&j->ki, &ro, &dp);
	if (pid < 0) {
		j->col->end = END_ERROR;
		col_set_error(j->col, strerror(errno));
		return;
	}
	j->pid = pid;
	j->t0 = progress_now();
	if (j->phase == 0)
		j->t_first_boot = j->t0;
	progress_start(&j->prog, (int)(j - r->jobs) + 1, (int)r->n, j->col->label,
		       j->results, expected, stderr);
}

/* The baseline's column once it is done (matrix order: --baseline, else
 * the first column), with expectations applied; NULL before. */
static struct column *done_baseline(struct mrun *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct job *b = &r->jobs[i];
		if (r->o->baseline ? strcmp(b->col->label, r->o->baseline) != 0 : i != 0)
			continue;
		if (!b->done)
			return NULL;
		expect_apply(&r->ex, b->col);
		return b->col;
	}
	return NULL;
}

/* Say when a running column first reports a case that passes on the
 * baseline and is bad here: the time to a verdict. */
static void first_regression(struct mrun *r, struct job *j)
{
	struct column *sc = j->prog.scratch;
	if (j->reg_seen || !sc || sc->ncases == j->reg_checked)
		return;
	const struct column *base = done_baseline(r);
	if (!base || base == j->col)
		return;
	expect_apply(&r->ex, sc);
	for (; j->reg_checked < sc->ncases; j->reg_checked++) {
		const struct case_result *c = &sc->cases[j->reg_checked];
		const struct case_result *b = col_find(base, c->id);
		if (!b || b->st != ST_PASS || !status_bad(c->st))
			continue;
		j->reg_seen = true;
		double now = progress_now();
		fprintf(stderr, "[%zu/%zu] %s: first regression after %.1f s (%.1f s after its "
			"boot began): %s %s (pass on %s)\n", (size_t)(j - r->jobs) + 1, r->n,
			j->col->label, now - r->t0, now - j->t_first_boot, c->id,
			status_name(c->st), base->label);
		return;
	}
}

/* A split column's first boot ended: its line, then the rest's boot.
 * False (still running); true when the rest could not start. */
static bool next_phase(struct mrun *r, struct job *j, const struct run_outcome *out)
{
	struct column *tmp = col_new(j->col->label);
	char err[256];
	ingest_file(tmp, j->results, err, sizeof err);
	tmp->end = out ? ingest_end(out->end) : END_SILENT;
	tmp->boot_s = out ? out->boot_s : 0;
	tmp->suite_s = out ? out->suite_s : 0;
	progress_finish(&j->prog, tmp);
	col_free(tmp);
	j->first_have = out != NULL;
	if (out)
		j->first_out = *out;
	snprintf(j->first_results, sizeof j->first_results, "%s", j->results);
	j->phase = 1;
	j->reg_checked = 0;
	j->pid = 0;
	start_job(r, j, &r->ro);
	if (j->pid > 0 && j->col->end != END_ERROR)
		return false;
	j->done = true;
	return true;
}

/* Progress of a running job; collect it once it exited (or kill it past
 * its deadline or on Ctrl-C).  True when it finished. */
static bool poll_job(struct mrun *r, struct job *j)
{
	progress_poll(&j->prog);
	first_regression(r, j);
	int st = 0;
	bool killed = false;
	pid_t w = waitpid(j->pid, &st, WNOHANG);
	if (w == 0 && (interrupted ||
		       progress_now() - j->t0 > r->o->deadline_s + WATCHDOG_GRACE_S)) {
		kill(-j->pid, interrupted ? SIGTERM : SIGKILL);
		if (interrupted) {
			struct timespec g = { 2, 0 };
			nanosleep(&g, NULL);
			kill(-j->pid, SIGKILL);
		}
		w = waitpid(j->pid, &st, 0);
		killed = !interrupted;
	}
	if (w != j->pid)
		return false;
	struct run_outcome out;
	bool have = run_detached_outcome(j->outcome, &out);
	if (j->nphases && j->phase == 0 && !interrupted && !killed)
		return next_phase(r, j, have ? &out : NULL);
	job_collect(j, have ? &out : NULL, st, killed);
	progress_finish(&j->prog, j->col);
	if (have)
		keep_column(r, j, &out);
	return true;
}

/* Take every kernel the resolver has ready, waiting up to wait_ms for
 * the first.  False once no more will come. */
static bool take_resolved(struct mrun *r, struct resolver *rs, int wait_ms)
{
	struct resolved *rv = &r->rv;
	char err[512];
	int got;
	while ((got = resolver_next(rs, wait_ms, rv, err, sizeof err)) == 1) {
		rv->index = r->order[rv->index];
		accept_resolved(r, rv);
		wait_ms = 0;
	}
	if (got < 0 && err[0]) {
		fprintf(stderr, "ttypot: %s\n", err);
		for (size_t i = 0; i < r->n; i++)
			if (!r->jobs[i].resolved) {
				r->jobs[i].resolved = true;
				r->unusable++;
				r->jobs[i].col->end = END_ERROR;
				col_set_error(r->jobs[i].col, err);
			}
	}
	return got >= 0;
}

/* A kernel that Oopses and then says nothing, on the console or the
 * results channel, for this long is dead: its column ends there (a panic,
 * the cases not reported missing) instead of at the deadline.  Longer than
 * a mutation run's KR_OOPS_SILENCE_S: an Oops a case survives must not
 * cost the column its other results. */
#define MATRIX_OOPS_SILENCE_S 60

/* Resolve the kernels in a child while the ready ones run, -j at a time,
 * in spec order. */
static void run_all(struct mrun *r)
{
	const struct cli *o = r->o;
	r->ro = (struct run_opts){ .suite_dir = r->suite, .initramfs = r->initramfs,
				   .cases_filter = o->cases, .deadline_s = o->deadline_s,
				   .kyua_vars = o->kyua_vars,
				   .oops_silence_s = MATRIX_OOPS_SILENCE_S };
	const struct run_opts ro = r->ro;
	int maxjobs = o->jobs > 0 ? o->jobs : default_jobs();
	/* With the others expected from the result cache, the column that
	 * will surely run (ci's tree) resolves first: its build overlaps their
	 * resolving.  Otherwise spec order: their runs overlap its build.
	 * Columns start in spec order either way. */
	struct kspec *specs = xrealloc(NULL, (r->n + 1) * sizeof *specs);
	r->order = xrealloc(NULL, (r->n + 1) * sizeof *r->order);
	const char *first = o->reuse ? o->run_fresh : NULL;
	size_t k = 0;
	for (size_t i = 0; i < r->n; i++)
		if (first && !strcmp(r->jobs[i].spec.text, first))
			r->order[k++] = i;
	for (size_t i = 0; i < r->n; i++)
		if (!(first && !strcmp(r->jobs[i].spec.text, first)))
			r->order[k++] = i;
	for (size_t i = 0; i < r->n; i++)
		specs[i] = r->jobs[r->order[i]].spec;
	struct resolver rs;
	char err[512];
	bool resolving = resolver_start(&rs, specs, r->n, o->cache_dir, err, sizeof err) == 0;
	if (!resolving) {
		fprintf(stderr, "ttypot: %s\n", err);
		for (size_t i = 0; i < r->n; i++) {
			r->jobs[i].resolved = true;
			r->unusable++;
			r->jobs[i].col->end = END_ERROR;
			col_set_error(r->jobs[i].col, err);
		}
	}
	bool initramfs_built = !resolving; /* nothing will run without it */
	/* Built while the kernels resolve when a guest will surely run; with
	 * --reuse only once a guest column is not in the result cache. */
	bool eager = !o->reuse, wanted = false;
	for (size_t i = 0; i < r->n; i++)
		eager |= r->jobs[i].spec.kind != KSPEC_HOST && o->run_fresh &&
			 !strcmp(r->jobs[i].spec.text, o->run_fresh);
	size_t next = 0;
	int running = 0;
	for (;;) {
		if (resolving && interrupted) {
			resolver_stop(&rs);
			resolving = false;
		}
		/* Idle: give the resolver a moment (host is ready at once). */
		bool idle = running == 0 && next < r->n && !r->jobs[next].resolved;
		if (resolving)
			resolving = take_resolved(r, &rs, idle ? POLL_MS : 0);
		while (!interrupted && running < maxjobs && next < r->n &&
		       r->jobs[next].resolved) {
			struct job *j = &r->jobs[next];
			/* A column read from the result cache needs no initramfs. */
			if (j->runnable && !j->cache_tried && from_cache(r, j, &ro)) {
				next++;
				continue;
			}
			if (j->runnable && j->spec.kind != KSPEC_HOST && !initramfs_built) {
				wanted = true;
				break;
			}
			next++;
			if (!j->runnable)
				continue;
			start_job(r, j, &ro);
			running += j->pid > 0;
		}
		/* The initramfs is built while the host column or the resolver
		 * works; the guests wait for it. */
		if (!initramfs_built && !interrupted && (eager || wanted)) {
			build_initramfs(r);
			initramfs_built = true;
			for (size_t i = 0; i < r->n; i++)
				if (r->jobs[i].resolved && r->jobs[i].runnable)
					initramfs_check(r, &r->jobs[i]);
			continue;
		}
		if (running == 0 && !resolving && (next >= r->n || interrupted))
			break;
		if (resolving) {
			resolving = take_resolved(r, &rs, POLL_MS);
		} else {
			struct timespec ts = { 0, POLL_MS * 1000000L };
			nanosleep(&ts, NULL);
		}
		for (size_t i = 0; i < r->n; i++) {
			struct job *j = &r->jobs[i];
			if (j->pid && !j->done && poll_job(r, j))
				running--;
		}
	}
	if (rs.pid > 0 || rs.fd >= 0)
		resolver_stop(&rs);
	free(specs);
}

/* Columns into the matrix (cells the kernels never reported filled in,
 * expectations applied), rendered; the exit status. */
static int finish(struct mrun *r)
{
	struct matrix m;
	matrix_init(&m);
	for (size_t i = 0; i < r->n; i++) {
		struct job *j = &r->jobs[i];
		if (!j->col)
			continue;
		if (!j->resolved) {
			j->col->end = END_ERROR;
			col_set_error(j->col, "interrupted before its kernel was resolved");
		} else if (j->runnable && !j->done) {
			j->col->end = END_ERROR;
			col_set_error(j->col, "interrupted before it ran");
		}
		ingest_finish(j->col, &r->expected, r->o->cases);
		expect_apply(&r->ex, j->col);
		matrix_add(&m, j->col);
		j->col = NULL;
	}
	m.meta = r->meta;
	memset(&r->meta, 0, sizeof r->meta);
	if (interrupted)
		fprintf(stderr, "ttypot: interrupted: rendering what was collected\n");
	int rc = m.ncols ? render_matrix(&m, r->o->baseline, r->o->outdir) : 2;
	if (interrupted && rc < 2)
		rc = 2;
	/* A kernel that could not be used (missing file, not a kernel, broken
	 * .deb, failed build) is an input error: the other kernels' results
	 * are in the reports, but the run did not test what was asked. */
	if (r->unusable && rc < 2) {
		fprintf(stderr, "ttypot: %zu kernel%s could not be used (error column%s "
			"above); exit 2\n", r->unusable, r->unusable == 1 ? "" : "s",
			r->unusable == 1 ? "" : "s");
		rc = 2;
	}
	matrix_free(&m);
	return rc;
}

int cmd_matrix(const struct cli *o, const char *argv0)
{
	struct mrun r;
	memset(&r, 0, sizeof r);
	r.o = o;
	find_suite_dir(o->suite_dir, argv0, r.suite, sizeof r.suite);
	int rc = 2;
	if (take_specs(&r) < 0 || prepare(&r) < 0)
		goto out;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	snprintf(r.initramfs, sizeof r.initramfs, "%s/initramfs.cpio.gz", r.rawdir);
	r.t0 = o->start > 0 ? o->start : progress_now();
	if (!realpath(o->outdir, r.run_name))
		snprintf(r.run_name, sizeof r.run_name, "%s", o->outdir);
	make_columns(&r);
	run_all(&r);
	rc = finish(&r);
out:
	for (size_t i = 0; i < r.n; i++)
		if (r.jobs[i].col)
			col_free(r.jobs[i].col);
	idlist_free(&r.expected);
	metalist_free(&r.meta);
	expect_free(&r.ex);
	free(r.jobs);
	free(r.order);
	idlist_free(&r.specs);
	return rc;
}
